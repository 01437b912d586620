//! `sed` scripts, read command by command as GNU sed reads them: the `e` command and the
//! `e` flag of `s` run commands; `w FILE`, `W FILE` and the `w FILE` flag of `s` write files.

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options;
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Reader};

use super::{record_written, shell_c};
use crate::matcher::shell::{SUBSTITUTION, SimpleCommand};

/// The virtual program a sed script holding a value not known is reported as, for the
/// policy to weigh (see [`sed`]).
pub(crate) const VALUE_IN_SCRIPT: &str = "value-in-sed-script";

/// `sed`: the script of each `-e`/`--expression`, or the first operand without one.
///
/// A script operand may hold a value not known where a regex or a replacement is
/// (`sed -i "s/^version = .*/version = \"$version\"/" pyproject.toml`), as release
/// scripts write it. The value cannot be read as text: a `/` or a newline in it ends the
/// part and can add commands (`s/.*/rm -rf ~/e`). The script is read with the value as
/// text, and the command is also reported as the virtual `value-in-sed-script SCRIPT`, for
/// the policy to ask about. Any other word not known is unreadable.
pub(super) fn sed(r: &mut Reader, row: &Program, args: &[Field]) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut scripts: Vec<String> = Vec::new();
    for o in &opts {
        if let Some(s) = option_value(o, 'e', "expression") {
            scripts.push(s);
        }
        if option_value(o, 'f', "file").is_some() {
            r.unreadable("sed reads its script from a file");
        }
    }
    let script_at = scripts.is_empty().then_some(at);
    let options_end = args
        .iter()
        .position(|a| a.text == "--" && !a.unknown)
        .unwrap_or(args.len());
    for (k, a) in args.iter().enumerate() {
        if !a.unknown || Some(k) == script_at {
            continue;
        }
        // An operand after the script whose start is known is a file, never an option.
        let file = k > at && (k > options_end || !a.may_be_option());
        if !file {
            r.unreadable(
                "an argument that changes what the program does is not known before it runs",
            );
        }
    }
    if let Some(k) = script_at
        && let Some(s) = t.get(k)
    {
        scripts.push(s.clone());
        if args[k].unknown {
            if args[k].splits || !values_only_in_patterns(s) {
                r.unreadable("sed's script is not known before it runs");
            } else {
                r.record(SimpleCommand {
                    program: VALUE_IN_SCRIPT.to_owned(),
                    args: vec![s.clone()],
                    redirects: Vec::new(),
                    origin: None,
                    dir: None,
                });
            }
        }
    }
    for s in scripts {
        let found = read_script(&s);
        if let Some(reason) = found.unreadable {
            r.unreadable(reason);
        }
        for command in found.runs {
            shell_c(r, &command);
        }
        if !found.writes.is_empty() {
            record_written(r, found.writes, false, "from sed's w command");
        }
    }
    Data::Unknown
}

/// What a sed script does beyond editing its stream.
#[derive(Debug, Default, PartialEq)]
struct Script {
    /// Commands run by `e COMMAND`.
    runs: Vec<String>,
    /// Files written by `w`, `W` and `s///w`.
    writes: Vec<String>,
    /// Why the script is not read: it runs text only known when it runs.
    unreadable: Option<&'static str>,
    /// Where its regexes and replacements are, by byte, in the order written.
    patterns: Vec<std::ops::Range<usize>>,
}

/// Whether every value not known in `script` (written [`SUBSTITUTION`]) is inside a regex
/// or a replacement, and the script is otherwise read: no `e`, no `w` of a file not known.
fn values_only_in_patterns(script: &str) -> bool {
    // One byte per value, which no part ends at (`$(...)` holds `.` and `)`, which may be
    // a delimiter).
    let marked = script.replace(SUBSTITUTION, "\u{1}");
    let read = read_script(&marked);
    read.unreadable.is_none()
        && read.runs.is_empty()
        && read.writes.iter().all(|w| !w.contains('\u{1}'))
        && marked.match_indices('\u{1}').all(|(at, _)| {
            // The parts come in the order written: the last to start at or before `at`.
            let k = read.patterns.partition_point(|p| p.start <= at);
            k > 0 && read.patterns[k - 1].contains(&at)
        })
}

/// Reads `script` command by command: addresses, `!`, blocks, then each command with the
/// argument it takes, so that a `w` or `e` inside a regex or a replacement is text.
fn read_script(script: &str) -> Script {
    let mut out = Script::default();
    let mut s = Cursor {
        b: script.as_bytes(),
        at: 0,
    };
    loop {
        s.skip(|c| c.is_ascii_whitespace() || c == b';');
        if s.done() {
            return out;
        }
        out.patterns.extend(s.address());
        s.skip(|c| c == b' ' || c == b'\t');
        if s.peek() == Some(b',') {
            s.at += 1;
            s.skip(|c| c == b' ' || c == b'\t');
            out.patterns.extend(s.address());
        }
        s.skip(|c| c == b' ' || c == b'\t' || c == b'!');
        let Some(command) = s.next() else {
            return out;
        };
        match command {
            b'{' | b'}' => {}
            b's' => {
                let Some(delim) = s.next().filter(|d| *d != b'\n' && *d != b'\\') else {
                    return out;
                };
                out.patterns.push(s.part(delim));
                out.patterns.push(s.part(delim));
                // Flags: `g`, `p`, a number, `i`, `m`, `e`; `w FILE` takes the rest of the line.
                while let Some(c) = s.peek().filter(|c| !matches!(c, b';' | b'\n' | b'}')) {
                    s.at += 1;
                    match c {
                        b'w' => {
                            let file = s.rest_of_line();
                            if !file.is_empty() {
                                out.writes.push(file);
                            }
                            break;
                        }
                        b'e' => {
                            out.unreadable =
                                Some("sed runs its pattern space as a command (the s///e flag)");
                        }
                        _ => {}
                    }
                }
            }
            b'y' => {
                let Some(delim) = s.next() else {
                    return out;
                };
                out.patterns.push(s.part(delim));
                out.patterns.push(s.part(delim));
            }
            b'w' | b'W' => {
                let file = s.rest_of_line();
                if !file.is_empty() {
                    out.writes.push(file);
                }
            }
            b'e' => {
                let command = s.rest_of_line();
                if command.is_empty() {
                    out.unreadable =
                        Some("sed runs its pattern space as a command (the e command)");
                } else {
                    out.runs.push(command);
                }
            }
            // Labels and branches end at `;` too.
            b':' | b'b' | b't' | b'T' => {
                s.skip(|c| c != b';' && c != b'\n');
            }
            // File names and comments run to the end of the line; text (`a\`, `i`, `c`) also
            // goes on past a line that ends in a backslash.
            b'r' | b'R' | b'#' => {
                s.rest_of_line();
            }
            b'a' | b'i' | b'c' => {
                while s.rest_of_line().ends_with('\\') && s.next() == Some(b'\n') {}
            }
            _ => {}
        }
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.at >= self.b.len()
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn skip(&mut self, keep: impl Fn(u8) -> bool) {
        while self.peek().is_some_and(&keep) {
            self.at += 1;
        }
    }

    /// An address: a line number (`3`, `1~2`, `+4`), `$`, `/regex/` or `\cregexc`, each
    /// with its flags; where its regex is.
    fn address(&mut self) -> Option<std::ops::Range<usize>> {
        match self.peek() {
            Some(b'/') => {
                self.at += 1;
                let regex = self.part(b'/');
                self.skip(|c| c == b'I' || c == b'M');
                Some(regex)
            }
            Some(b'\\') => {
                self.at += 1;
                let regex = self.next().map(|delim| self.part(delim));
                self.skip(|c| c == b'I' || c == b'M');
                regex
            }
            Some(b'$') => {
                self.at += 1;
                None
            }
            _ => {
                self.skip(|c| c.is_ascii_digit() || c == b'~' || c == b'+');
                None
            }
        }
    }

    /// Skips a regex or replacement up to and past its closing `delim`, a backslash
    /// escaping the byte after it; where it was, without the delimiter.
    fn part(&mut self, delim: u8) -> std::ops::Range<usize> {
        let start = self.at;
        while let Some(c) = self.next() {
            if c == b'\\' {
                self.at += 1;
            } else if c == delim {
                return start..self.at - 1;
            }
        }
        start..self.at.min(self.b.len())
    }

    /// The rest of the line, leading blanks dropped (`w FILE`, `e COMMAND`).
    fn rest_of_line(&mut self) -> String {
        self.skip(|c| c == b' ' || c == b'\t');
        let start = self.at.min(self.b.len());
        self.skip(|c| c != b'\n');
        String::from_utf8_lossy(&self.b[start..self.at.min(self.b.len())]).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writes(script: &str) -> Vec<String> {
        read_script(script).writes
    }

    #[test]
    fn w_commands_and_flags_name_the_files_written() {
        assert_eq!(writes("w /tmp/out"), ["/tmp/out"]);
        assert_eq!(writes("w/tmp/out"), ["/tmp/out"]);
        assert_eq!(writes("s/block/log/w /etc/x"), ["/etc/x"]);
        assert_eq!(writes("s/a/b/gw out.txt"), ["out.txt"]);
        assert_eq!(writes("/foo/W f\np"), ["f"]);
        assert_eq!(writes("1,$w all.txt"), ["all.txt"]);
        // The file name runs to the end of the line, `;` included.
        assert_eq!(writes("w a;b"), ["a;b"]);
    }

    #[test]
    fn a_w_or_e_inside_a_regex_or_replacement_is_text() {
        for script in [
            "s/w/x/",
            "/w/d",
            "s/x/w/g",
            "/error/p",
            "s/e/E/g",
            r"\,w,d",
            "y/we/WE/",
            "s/a\\/w/b/",
            ":a;N;ba",
            "a\\\nw not-a-file",
            "1i w not-a-file",
        ] {
            let read = read_script(script);
            assert!(
                read.runs.is_empty() && read.writes.is_empty() && read.unreadable.is_none(),
                "{script}"
            );
        }
    }

    #[test]
    fn e_runs_its_command_and_the_e_flag_is_unreadable() {
        assert_eq!(read_script("1e rm -rf ~").runs, ["rm -rf ~"]);
        assert!(read_script("s/x/rm -rf ~/e").unreadable.is_some());
        assert!(read_script("e").unreadable.is_some());
    }

    #[test]
    fn values_in_regexes_and_replacements_only_are_told_apart() {
        for script in [
            "s/^version = \".*\"/version = \"$(...)\"/",
            "0,/^version = \"$(...)\"/s//version = \"$(...)\"/",
            "s|@VERSION@|$(...)|g",
            "s.a.$(...).",
            "/$(...)/d",
        ] {
            assert!(values_only_in_patterns(script), "{script}");
        }
        for script in [
            "$(...)",
            "s/a/b/$(...)",
            "s/$(...)/x/e",
            "s/a/b/w $(...)",
            "1i $(...)",
            "$(...)d",
        ] {
            assert!(!values_only_in_patterns(script), "{script}");
        }
    }
}
