//! Redirections and process substitutions: the files a command reads and writes, and what
//! its standard input carries.

use super::super::env::{FileText, Value};
use super::super::expand::Field;
use super::super::{MAX_DEPTH, Redirect, SimpleCommand};
use super::{Data, Io, Reader};
use brush_parser::ast;

/// The file descriptor bash gives the first process substitution of a command (`<(cmd)` is
/// `/dev/fd/63`), and the next one below it.
const PROCESS_FD: usize = 63;

impl Reader {
    pub(super) fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        s: &ast::SubshellCommand,
    ) -> Field {
        let saved = self.mark();
        self.depth += 1;
        self.last_endless = false;
        // `>(cmd)` reads what the command writes to it: a download (`curl -o >(bash)`),
        // anything.
        let stdin = match kind {
            ast::ProcessSubstitutionKind::Write => Data::Unknown,
            ast::ProcessSubstitutionKind::Read => Data::Nothing,
        };
        // It runs in a process of its own, as a subshell does.
        self.forked += 1;
        let fetched_before = std::mem::take(&mut self.env.fetches);
        let before = self.process_fds;
        let fd = PROCESS_FD - before.min(PROCESS_FD - 3);
        // Its command runs in a child that holds the ones opened before it.
        let outer_open = std::mem::replace(&mut self.process_fds_open, before);
        self.substituted_listing = None;
        if self.depth < MAX_DEPTH {
            let out = self.list(&s.list, stdin);
            if matches!(kind, ast::ProcessSubstitutionKind::Read)
                && matches!(out, Data::Listing(..))
            {
                self.substituted_listing = Some(out);
            }
        } else {
            self.unreadable_line("the command nests too deeply");
        }
        self.process_fds_open = outer_open;
        self.process_fds = before + 1;
        let fetches = std::mem::replace(&mut self.env.fetches, fetched_before);
        self.env.fetches |= fetches;
        self.forked -= 1;
        self.depth -= 1;
        self.restore(saved);
        // What never ends (`<(yes)`) is read as the device that never ends, so what takes
        // it whole is judged as it would be on `/dev/zero` (`mapfile -t a < <(yes)`).
        if std::mem::take(&mut self.last_endless) {
            return Field::literal("/dev/zero");
        }
        // `<(cmd)` is a file, named as bash names it, of what the command prints: an
        // operand, never an option (`perl -ne CODE <(git log)`), and a script made from a
        // command's output or a download to a program that runs it (`vim -u <(curl
        // URL)`, `bash <(cat x)`).
        if matches!(kind, ast::ProcessSubstitutionKind::Read) {
            let path = format!("/dev/fd/{fd}");
            self.env.write_file(&path, FileText::Unknown, false);
            return Field::literal(&path);
        }
        Field {
            text: super::super::SUBSTITUTION.to_owned(),
            unknown: true,
            ..Field::default()
        }
    }

    /// Reads redirections: file targets, here-documents and here-strings (what standard
    /// input carries), process substitutions.
    pub(super) fn redirects<'a>(
        &mut self,
        redirects: impl Iterator<Item = &'a ast::IoRedirect>,
    ) -> Io {
        let mut io = Io::default();
        for r in redirects {
            match r {
                ast::IoRedirect::File(fd, kind, target) => {
                    use ast::IoFileRedirectKind as K;
                    let op = match kind {
                        K::Read => "<",
                        K::Write | K::Clobber => ">",
                        K::Append => ">>",
                        K::ReadAndWrite => "<>",
                        K::DuplicateInput | K::DuplicateOutput => {
                            if let ast::IoFileRedirectTarget::Duplicate(w) = target {
                                let fields = self.expand(&w.value);
                                // `>&word` and `1>&word` where the word is no descriptor
                                // write the file `word`, as `&>word` does (bash).
                                if let [field] = fields.as_slice()
                                    && matches!(kind, K::DuplicateOutput)
                                    && fd.is_none_or(|f| f == 1)
                                    && (field.unknown || !is_descriptor(&field.text))
                                {
                                    io.redirects.push(Redirect {
                                        op: ">",
                                        target: field.text.clone(),
                                    });
                                }
                                // `<&5`, `<&"${COPROC[0]}"`: standard input is what another
                                // descriptor holds (a coprocess, a connection), not known.
                                if matches!(kind, K::DuplicateInput)
                                    && fd.is_none_or(|f| f == 0)
                                    && !matches!(fields.as_slice(), [f] if f.text == "0" && !f.unknown)
                                {
                                    io.stdin = Some(Data::Unknown);
                                }
                            }
                            continue;
                        }
                    };
                    let field = match target {
                        ast::IoFileRedirectTarget::Filename(w) => {
                            let mut fields = self.expand(&w.value);
                            if fields.len() != 1 {
                                self.unreadable("a redirection's file name is not one word");
                            }
                            fields.pop().unwrap_or_default()
                        }
                        ast::IoFileRedirectTarget::ProcessSubstitution(kind, s) => {
                            let field = self.process_substitution(kind, s);
                            if let Some(listing) = self.substituted_listing.take()
                                && op == "<"
                                && fd.is_none_or(|f| f == 0)
                                && field.text.starts_with("/dev/fd/")
                            {
                                io.stdin = Some(listing);
                                io.stdin_built = false;
                                io.redirects.push(Redirect {
                                    op,
                                    target: field.text,
                                });
                                continue;
                            }
                            field
                        }
                        ast::IoFileRedirectTarget::Fd(_)
                        | ast::IoFileRedirectTarget::Duplicate(_) => {
                            continue;
                        }
                    };
                    if op == "<" && fd.is_none_or(|f| f == 0) {
                        io.stdin = Some(self.file_data(&field));
                        io.stdin_built = false;
                    }
                    io.redirects.push(Redirect {
                        op,
                        target: field.text,
                    });
                }
                ast::IoRedirect::HereDocument(fd, doc) => {
                    let value = self.expand_heredoc(&doc.doc.value, doc.requires_expansion);
                    if fd.is_none_or(|f| f == 0) {
                        io.stdin_built = value == Value::Unknown;
                        io.stdin = Some(match value {
                            Value::Known(t) => Data::Known(t),
                            Value::Unknown => Data::Unknown,
                        });
                    }
                }
                ast::IoRedirect::HereString(fd, w) => {
                    let value = self.expand_string(&w.value);
                    if fd.is_none_or(|f| f == 0) {
                        io.stdin_built = value == Value::Unknown;
                        io.stdin = Some(match value {
                            Value::Known(t) => Data::Known(t + "\n"),
                            Value::Unknown => Data::Unknown,
                        });
                    }
                }
                ast::IoRedirect::OutputAndError(w, append) => {
                    let mut fields = self.expand(&w.value);
                    if let Some(f) = fields.pop() {
                        io.redirects.push(Redirect {
                            op: if *append { ">>" } else { ">" },
                            target: f.text,
                        });
                    }
                }
            }
        }
        io
    }

    /// The file redirections of a compound command, a function body or a command with no
    /// words (`{ ...; } > f`, `for ...; done > f`, `> f`), which the shell opens even if
    /// nothing runs: recorded
    /// as `:` with them, the command that does only that, so that filters see the files.
    pub(super) fn record_redirects(&mut self, io: &Io) {
        if io.redirects.is_empty() {
            return;
        }
        self.record(SimpleCommand {
            program: ":".to_owned(),
            args: Vec::new(),
            redirects: io.redirects.clone(),
            origin: Some("redirections with no command of their own".to_owned()),
            dir: None,
        });
    }

    /// Files the redirections write: their text is `out` when known.
    pub(super) fn write_files(&mut self, io: &Io, out: &Data) {
        for r in &io.redirects {
            if r.op == "<" {
                continue;
            }
            let text = match out {
                Data::Known(t) => FileText::Known(t.clone()),
                Data::Unknown | Data::Listing(..) => FileText::Unknown,
                Data::Nothing => FileText::Known(String::new()),
            };
            self.env.write_file(&r.target, text, r.op == ">>");
        }
    }
}

/// Whether a `>&` target names a descriptor (`2`, `-`, `3-`) rather than a file.
fn is_descriptor(word: &str) -> bool {
    let digits = word.strip_suffix('-').unwrap_or(word);
    word == "-" || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}
