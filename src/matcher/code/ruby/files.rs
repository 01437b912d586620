//! What the file calls do, as virtual commands: `open` and the `IO` methods (a command
//! when the path starts with `|`, a URL fetched, a read or a write), the paths a call is
//! given, `program FLAGS PATH` and `program FLAGS FROM TO`, a `Pathname`'s methods, and
//! paths joined and expanded as `File.join` and `File.expand_path` do.

use super::kind;
use tree_sitter::Node;

use super::text::octal;
use super::values::Args;
use super::{Obj, Rb};
use crate::matcher::code::{Effect, Val};

impl<'t> Rb<'_, '_, 't> {
    /// `open(path)` and the `IO` methods that run `path` as a command when it starts with `|`.
    pub(super) fn open_like(&mut self, q: &str, args: &Args<'t>, line: usize) {
        let literal = args.pos.first().copied();
        let path = self.arg(args, 0);
        let plain = literal.is_some_and(|n| self.plain_path(n));
        let writes = q.ends_with("write");
        let path = match path {
            Obj::Uri(u) => return self.cx.command("curl", vec![u], line),
            Obj::Path(p) => p,
            other => other.val(),
        };
        match &path {
            Val::Known(p) if p.starts_with("|-") => {}
            Val::Known(p) if p.starts_with('|') => {
                let cmd = p.get(1..).unwrap_or_default().trim();
                // `IO.write('|sh', script)` runs the script.
                if writes
                    && matches!(
                        cmd.split(' ').next(),
                        Some("sh" | "bash" | "zsh" | "dash" | "/bin/sh" | "/bin/bash")
                    )
                {
                    let script = self.arg(args, 1).val();
                    self.cx.found(Effect::Shell(script), line);
                }
                self.cx.found(Effect::Shell(Val::known(cmd)), line)
            }
            Val::Known(p)
                if ["http://", "https://", "ftp://"]
                    .iter()
                    .any(|s| p.starts_with(s)) =>
            {
                self.cx.command("curl", vec![path.clone()], line)
            }
            Val::Known(_) => {}
            _ if !plain => return self.cx.found(Effect::Shell(path), line),
            _ => {}
        }
        if path
            .text()
            .is_some_and(|p| p.starts_with('|') || p.contains("://"))
        {
            return;
        }
        if writes {
            self.cx.command("tee", vec![path], line);
        } else if q == "Kernel.open" || q == "URI.open" {
            let mode = self.arg(args, 1).val();
            let mode = if args.pos.len() < 2 {
                Val::known("r")
            } else {
                mode
            };
            self.open(path, mode, line);
        } else {
            self.cx.command("cat", vec![path], line);
        }
    }

    /// Whether `node` is a string literal that does not start with `|`.
    fn plain_path(&self, node: Node<'_>) -> bool {
        let first = node.named_child(0);
        kind(node) == "string"
            && first.is_some_and(|f| kind(f) == "string_content" && !self.text(f).starts_with('|'))
    }

    /// `File.open(path, mode)`: a read (`cat`), a write (`tee`), or both.
    pub(super) fn open(&mut self, path: Val, mode: Val, line: usize) {
        let mode = mode.text().map_or("r+".to_owned(), str::to_owned);
        let writes = mode.contains(['w', 'a', '+']);
        if !writes || mode.contains(['r', '+']) {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if writes {
            self.cx.command("tee", vec![path], line);
        }
    }

    /// The paths from argument `from` on (an array's items too).
    pub(super) fn paths(&mut self, args: &Args<'t>, from: usize) -> Vec<Val> {
        let mut out = Vec::new();
        for n in from..args.pos.len().max(from + 1) {
            out.extend(self.list_arg(args, n));
        }
        out
    }

    /// Argument `n` as a list (`FileUtils.rm_rf(%w[a b])`, `rm_rf('a')`).
    pub(super) fn list_arg(&mut self, args: &Args<'t>, n: usize) -> Vec<Val> {
        match self.arg(args, n) {
            Obj::List(items) => items,
            other => vec![other.val()],
        }
    }

    /// `program FLAGS PATH` for each path.
    pub(super) fn each(
        &mut self,
        program: &'static str,
        flags: &[&'static str],
        paths: Vec<Val>,
        line: usize,
    ) {
        for path in paths {
            let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
            argv.push(path);
            self.cx.command(program, argv, line);
        }
    }

    /// `program FLAGS FROM TO` for each source.
    pub(super) fn two(
        &mut self,
        program: &'static str,
        flags: &[&'static str],
        args: &Args<'t>,
        line: usize,
    ) {
        let to = self.arg(args, 1).val();
        let from = match self.arg(args, 0) {
            Obj::List(items) => items,
            other => vec![other.val()],
        };
        for source in from {
            let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
            argv.extend([source, to.clone()]);
            self.cx.command(program, argv, line);
        }
    }

    pub(super) fn path_method(&mut self, path: Val, method: &str, args: &Args<'t>, line: usize) {
        let to = |rb: &mut Self| rb.arg(args, 0).val();
        match method {
            "rmtree" => self
                .cx
                .command("rm", vec![Val::known("-r"), Val::known("-f"), path], line),
            "unlink" | "delete" => self.cx.command("rm", vec![path], line),
            "rmdir" => self.cx.command("rmdir", vec![path], line),
            "read" | "readlines" | "binread" | "each_line" => {
                self.cx.command("cat", vec![path], line)
            }
            "write" | "binwrite" => self.cx.command("tee", vec![path], line),
            "open" => {
                let mode = if args.pos.is_empty() {
                    Val::known("r")
                } else {
                    to(self)
                };
                self.open(path, mode, line);
            }
            "rename" => {
                let to = to(self);
                self.cx.command("mv", vec![path, to], line)
            }
            "chmod" => {
                let mode = octal(to(self));
                self.cx.command("chmod", vec![mode, path], line)
            }
            "make_symlink" => {
                let target = to(self);
                self.cx
                    .command("ln", vec![Val::known("-s"), target, path], line)
            }
            _ => {}
        }
    }
}

/// Paths joined as `File.join` does: one `/` between parts.
pub(super) fn file_join(parts: &[Val]) -> Val {
    let mut out = String::new();
    for (n, part) in parts.iter().enumerate() {
        let Some(p) = part.text() else {
            return part.clone().concat(Val::Unknown);
        };
        if n == 0 {
            out.push_str(p);
        } else {
            out.truncate(out.trim_end_matches('/').len());
            out.push('/');
            out.push_str(p.trim_start_matches('/'));
        }
    }
    Val::Known(out)
}

/// `File.expand_path(path, dir)`: `~` kept, a relative path put under `dir`.
pub(super) fn expand(path: Val, dir: Option<Val>, plain: bool) -> Val {
    let Val::Known(p) = path else { return path };
    if p.starts_with('/') || (!plain && p.starts_with('~')) {
        return Val::Known(p);
    }
    match dir {
        Some(d) => file_join(&[expand(d, None, plain), Val::Known(p)]),
        None => Val::Known(p),
    }
}
