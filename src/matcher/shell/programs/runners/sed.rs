//! `sed` scripts, read command by command as GNU sed reads them: the `e` command and the
//! `e` flag of `s` run commands; `w FILE`, `W FILE` and the `w FILE` flag of `s` write files.

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options;
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Reader};

use super::{record_written, shell_c};

/// `sed`: the script of each `-e`/`--expression`, or the first operand without one.
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
    if scripts.is_empty()
        && let Some(s) = t.get(at)
    {
        scripts.push(s.clone());
        if args[at].unknown {
            r.unreadable("sed's script is not known before it runs");
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
        s.address();
        s.skip(|c| c == b' ' || c == b'\t');
        if s.peek() == Some(b',') {
            s.at += 1;
            s.skip(|c| c == b' ' || c == b'\t');
            s.address();
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
                s.part(delim);
                s.part(delim);
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
                s.part(delim);
                s.part(delim);
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
    /// with its flags.
    fn address(&mut self) {
        match self.peek() {
            Some(b'/') => {
                self.at += 1;
                self.part(b'/');
                self.skip(|c| c == b'I' || c == b'M');
            }
            Some(b'\\') => {
                self.at += 1;
                if let Some(delim) = self.next() {
                    self.part(delim);
                }
                self.skip(|c| c == b'I' || c == b'M');
            }
            Some(b'$') => self.at += 1,
            _ => self.skip(|c| c.is_ascii_digit() || c == b'~' || c == b'+'),
        }
    }

    /// Skips a regex or replacement up to and past its closing `delim`; a backslash escapes
    /// the byte after it.
    fn part(&mut self, delim: u8) {
        while let Some(c) = self.next() {
            if c == b'\\' {
                self.at += 1;
            } else if c == delim {
                return;
            }
        }
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
            assert_eq!(read_script(script), Script::default(), "{script}");
        }
    }

    #[test]
    fn e_runs_its_command_and_the_e_flag_is_unreadable() {
        assert_eq!(read_script("1e rm -rf ~").runs, ["rm -rf ~"]);
        assert!(read_script("s/x/rm -rf ~/e").unreadable.is_some());
        assert!(read_script("e").unreadable.is_some());
    }
}
