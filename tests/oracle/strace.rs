//! Reading strace's output (`-f -qq -y`): one finished system call per record, with the
//! `<unfinished ...>` / `<... NAME resumed>` halves that `-f` interleaves joined again, and
//! strace's quoted strings decoded (`\"`, `\\`, `\n`, octal `\NNN`, `\xNN`).

use std::collections::HashMap;

/// One finished system call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub pid: u32,
    pub name: String,
    /// The top-level arguments, as strace printed them.
    pub args: Vec<String>,
    /// What follows ` = `: `0`, `3</path>`, `-1 ENOENT (No such file or directory)`, `?`.
    pub result: String,
}

impl Call {
    /// Whether the call succeeded (a non-negative return value).
    pub fn ok(&self) -> bool {
        self.result.starts_with(|c: char| c.is_ascii_digit())
    }

    /// The return value as a number (a pid for `clone`).
    pub fn returned(&self) -> Option<u32> {
        let digits: String = self
            .result
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    }

    /// The path behind the returned file descriptor (`3</path>`), if strace printed it.
    pub fn returned_path(&self) -> Option<String> {
        decoration(&self.result)
    }

    /// Argument `i` as a decoded string, if it is one.
    pub fn string(&self, i: usize) -> Option<String> {
        self.args.get(i).and_then(|a| string(a))
    }

    /// Argument `i` as an array of decoded strings (an `argv`).
    pub fn strings(&self, i: usize) -> Option<Vec<String>> {
        self.args.get(i).and_then(|a| array(a))
    }

    /// The path strace printed behind the descriptor in argument `i` (`AT_FDCWD</cwd>`).
    pub fn fd_path(&self, i: usize) -> Option<String> {
        self.args.get(i).and_then(|a| decoration(a))
    }
}

/// Every finished call in `trace`, in the order strace finished them.
pub fn parse(trace: &str) -> Vec<Call> {
    let mut pending: HashMap<u32, String> = HashMap::new();
    let mut calls = Vec::new();
    for line in trace.lines() {
        let Some((pid, rest)) = split_pid(line) else {
            continue;
        };
        if rest.starts_with("---") || rest.starts_with("+++") {
            continue; // signals and exits
        }
        if let Some(first) = rest.strip_suffix(" <unfinished ...>") {
            pending.insert(pid, first.to_owned());
            continue;
        }
        let text = match rest.strip_prefix("<... ") {
            Some(resumed) => {
                // `<... openat resumed>) = 3</x>`: the name, then the rest of the call.
                let Some((_, tail)) = resumed.split_once(" resumed>") else {
                    continue;
                };
                match pending.remove(&pid) {
                    Some(head) => head + tail,
                    None => continue,
                }
            }
            None => rest.to_owned(),
        };
        if let Some(call) = call(pid, &text) {
            calls.push(call);
        }
    }
    calls
}

/// `1234  rest` → (1234, rest).
fn split_pid(line: &str) -> Option<(u32, &str)> {
    let (pid, rest) = line.split_once(' ')?;
    Some((pid.parse().ok()?, rest.trim_start()))
}

/// `name(args) = result`.
fn call(pid: u32, text: &str) -> Option<Call> {
    let open = text.find('(')?;
    let name = &text[..open];
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let (args, end) = split_args(&text[open + 1..])?;
    let after = &text[open + 1 + end..];
    let result = after.split_once(" = ").map_or("?", |(_, r)| r).trim();
    Some(Call {
        pid,
        name: name.to_owned(),
        args,
        result: result.to_owned(),
    })
}

/// The top-level arguments up to the closing parenthesis, and the byte index just past it.
fn split_args(text: &str) -> Option<(Vec<String>, usize)> {
    let bytes = text.as_bytes();
    let mut args = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_string(bytes, i),
            // A descriptor's path: strace escapes `<` and `>` inside it.
            b'<' => {
                i = bytes[i..]
                    .iter()
                    .position(|&b| b == b'>')
                    .map_or(bytes.len(), |p| i + p)
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' if depth == 0 => {
                let last = text[start..i].trim();
                if !last.is_empty() {
                    args.push(last.to_owned());
                }
                return Some((args, i + 1));
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                args.push(text[start..i].trim().to_owned());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the closing quote of the string opening at `i`.
fn skip_string(bytes: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return j,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// A quoted string argument (`"a\"b"`, maybe followed by `...` when cut), decoded.
pub fn string(arg: &str) -> Option<String> {
    let arg = arg.trim();
    if !arg.starts_with('"') {
        return None;
    }
    let end = skip_string(arg.as_bytes(), 0);
    Some(unescape(arg.get(1..end)?))
}

/// `["a", "b"]`, decoded.
pub fn array(arg: &str) -> Option<Vec<String>> {
    let inner = arg.trim().strip_prefix('[')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = skip_string(bytes, i);
                out.push(unescape(inner.get(i + 1..end)?));
                i = end + 1;
            }
            b']' => break,
            _ => i += 1,
        }
    }
    Some(out)
}

/// The decoded path in `<...>` after a descriptor, if any (without the ` (deleted)` that
/// the kernel adds to a directory or file removed since it was opened).
pub fn decoration(text: &str) -> Option<String> {
    let open = text.find('<')?;
    let close = open + text[open..].find('>')?;
    let path = unescape(&text[open + 1..close]);
    Some(
        path.strip_suffix(" (deleted)")
            .map(str::to_owned)
            .unwrap_or(path),
    )
}

/// Decodes strace's escapes into bytes, then into text (invalid UTF-8 replaced).
pub fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' || i + 1 >= bytes.len() {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let c = bytes[i + 1];
        i += 2;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'v' => out.push(0x0b),
            b'f' => out.push(0x0c),
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'e' => out.push(0x1b),
            b'x' => {
                let hex: Vec<u8> = bytes[i..]
                    .iter()
                    .take(2)
                    .take_while(|b| b.is_ascii_hexdigit())
                    .copied()
                    .collect();
                let value = std::str::from_utf8(&hex)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match value {
                    Some(v) => {
                        out.push(v);
                        i += hex.len();
                    }
                    None => out.extend_from_slice(b"\\x"),
                }
            }
            b'0'..=b'7' => {
                // Up to three octal digits: strace writes three when a digit follows.
                let mut value = u32::from(c - b'0');
                let mut n = 0;
                while n < 2 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    value = value * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push(u8::try_from(value & 0xff).unwrap_or(0));
            }
            other => out.push(other), // `\"`, `\\`, and anything else taken literally
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strace_escapes_are_decoded() {
        assert_eq!(unescape(r#"a\"b\\c\nd"#), "a\"b\\c\nd");
        assert_eq!(unescape(r"\162\155"), "rm");
        assert_eq!(unescape(r"\x72\x6d"), "rm");
        assert_eq!(unescape(r"\0331"), "\u{1b}1");
        assert_eq!(unescape(r"\303\251"), "é");
        assert_eq!(unescape(r"\t\33x"), "\t\u{1b}x");
    }

    #[test]
    fn calls_split_into_arguments_and_result() {
        let trace = concat!(
            "5     execve(\"/usr/bin/rm\", [\"rm\", \"-rf\", \"a, b\", \"(x]\"], 0x7ffc /* 5 vars */) = 0\n",
            "5     unlinkat(3</home/agent/pro\\x3eject>, \"x\", 0) = 0\n",
            "5     openat(AT_FDCWD</home/agent>, \".netrc\", O_RDONLY) = 3</home/agent/.netrc>\n",
            "6     --- SIGCHLD {si_signo=SIGCHLD} ---\n",
            "7     openat(AT_FDCWD</w>, \"nope\", O_RDONLY) = -1 ENOENT (No such file or directory)\n",
        );
        let calls = parse(trace);
        assert_eq!(calls.len(), 4, "{calls:#?}");
        assert_eq!(calls[0].name, "execve");
        assert_eq!(
            calls[0].strings(1).expect("argv"),
            ["rm", "-rf", "a, b", "(x]"]
        );
        assert!(calls[0].ok());
        assert_eq!(calls[1].fd_path(0).as_deref(), Some("/home/agent/pro>ject"));
        assert_eq!(calls[1].string(1).as_deref(), Some("x"));
        assert_eq!(
            calls[2].returned_path().as_deref(),
            Some("/home/agent/.netrc")
        );
        assert!(!calls[3].ok());
    }

    #[test]
    fn unfinished_calls_are_joined_with_their_resumption() {
        let trace = concat!(
            "5     clone(child_stack=NULL, flags=CLONE_CHILD <unfinished ...>\n",
            "6     openat(AT_FDCWD</w>, \"/etc/x\", O_RDONLY <unfinished ...>\n",
            "5     <... clone resumed>, child_tidptr=0x7f) = 7\n",
            "6     <... openat resumed>) = 3</etc/x>\n",
        );
        let calls = parse(trace);
        assert_eq!(calls.len(), 2, "{calls:#?}");
        assert_eq!(calls[0].name, "clone");
        assert_eq!(calls[0].returned(), Some(7));
        assert_eq!(calls[1].pid, 6);
        assert_eq!(calls[1].string(1).as_deref(), Some("/etc/x"));
        assert_eq!(calls[1].returned_path().as_deref(), Some("/etc/x"));
    }
}
