//! `trap CODE SIGNAL...`: bash runs the code when the signal comes or the shell exits, and
//! expands it then, with the variables as they are at that moment
//! (`trap 'rm -rf "$tmp"' EXIT; tmp=$(mktemp -d)` removes the temporary directory).
//!
//! The code may run at any point after the `trap` (an `exit`, a failure under `set -e`, a
//! signal), so it is read with every value the variables it names take from there on: when
//! it is set, if those variables are set by then, and again after each command that changes
//! one of them or the directory; and at the end of the line if it was never read, when a
//! variable still unknown makes it unreadable as before.

use super::env::DIR;
use super::expand::Field;
use super::walk::{Data, Reader};

/// A trap's code.
#[derive(Debug)]
pub(super) struct Trap {
    code: String,
    /// Read at least once.
    read: bool,
}

/// Most traps kept for reading again: past it, a new one is read only where it is set.
const MAX_TRAPS: usize = 8;

impl Reader {
    /// `trap CODE SIGNAL...` with `code` as the code.
    pub(super) fn trap(&mut self, code: &Field) {
        if code.unknown {
            self.unreadable(crate::matcher::shell::walk::CODE_NOT_KNOWN);
            return;
        }
        // `trap - EXIT` resets and `trap '' INT` ignores: neither runs anything.
        if code.text.is_empty() || code.text == "-" {
            return;
        }
        let names = named_variables(&code.text);
        let known_now = names.iter().all(|n| self.env.is_set(n));
        if self.traps.len() >= MAX_TRAPS {
            self.read_trap(&code.text);
            return;
        }
        for name in names.into_iter().chain([DIR.to_owned()]) {
            if !self.env.watched.contains(&name) {
                self.env.watched.push(name);
            }
        }
        if known_now {
            self.read_trap(&code.text);
        }
        self.traps.push(Trap {
            code: code.text.clone(),
            read: known_now,
        });
    }

    /// After a command changed a variable a trap names: the traps, with the new values.
    pub(super) fn read_traps_again(&mut self) {
        self.env.watched_changed = false;
        if self.in_trap {
            return;
        }
        for k in 0..self.traps.len() {
            let code = self.traps[k].code.clone();
            self.read_trap(&code);
            self.traps[k].read = true;
        }
    }

    /// At the end of the line: the traps no change of a variable has read yet.
    pub(super) fn read_unread_traps(&mut self) {
        for k in 0..self.traps.len() {
            if !self.traps[k].read {
                let code = self.traps[k].code.clone();
                self.read_trap(&code);
                self.traps[k].read = true;
            }
        }
    }

    fn read_trap(&mut self, code: &str) {
        let saved = std::mem::replace(&mut self.in_trap, true);
        self.reached("run by a trap".to_owned(), |r| {
            r.script(code, Data::Nothing)
        });
        self.in_trap = saved;
        self.env.watched_changed = false;
    }
}

/// The names of the variables `code` expands (`$tmp`, `${tmp}`, `${tmp:-x}`), as far as a
/// scan of the text tells; a name a scan misses is read with its value at the end.
fn named_variables(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut names: Vec<String> = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] != b'$' {
            k += 1;
            continue;
        }
        let mut start = k + 1;
        if bytes.get(start) == Some(&b'{') {
            start += 1;
        }
        let end = bytes[start.min(bytes.len())..]
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(bytes.len(), |n| start + n);
        let name = &code[start.min(end)..end];
        if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_owned());
        }
        k = end.max(k + 1);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::named_variables;
    use crate::matcher::shell::parse;

    fn deletes(input: &str) -> Vec<(String, Option<String>)> {
        parse(input)
            .commands
            .iter()
            .filter(|c| c.program == "rm")
            .map(|c| (c.args.join(" "), c.dir.clone()))
            .collect()
    }

    #[test]
    fn a_trap_is_read_with_each_value_its_variables_take_after_it() {
        let line = parse(r#"trap 'rm -rf "$tmp"' EXIT; tmp=$(mktemp -d); cp -r src "$tmp""#);
        assert!(line.unreadable.is_none(), "{line:?}");
        assert_eq!(
            deletes(r#"trap 'rm -rf "$tmp"' EXIT; tmp=$(mktemp -d); cp -r src "$tmp""#),
            [("-rf /tmp/tmp.*".to_owned(), Some(".".to_owned()))]
        );
        // An exit between the two assignments (`set -e`, a signal) runs it with the first.
        let both = deletes(r#"trap 'rm -rf "$d"' EXIT; d=~; false; d=$(mktemp -d)"#);
        assert!(both.iter().any(|(a, _)| a == "-rf ~"), "{both:?}");
        assert!(both.iter().any(|(a, _)| a == "-rf /tmp/tmp.*"), "{both:?}");
        // A value set before the trap counts too, and so does a later directory.
        let before = deletes(r#"d=~; trap 'rm -rf "$d"' EXIT; d=$(mktemp -d)"#);
        assert!(before.iter().any(|(a, _)| a == "-rf ~"), "{before:?}");
        let moved = deletes("trap 'rm -rf build' EXIT; cd ~");
        assert!(
            moved.contains(&("-rf build".to_owned(), Some("~".to_owned()))),
            "{moved:?}"
        );
        // Never given a value: unknown, as before.
        assert!(
            parse(r#"trap 'rm -rf "$d"' EXIT; echo hi"#)
                .unreadable
                .is_some()
        );
        assert!(deletes("trap - EXIT; trap '' INT").is_empty());
    }

    #[test]
    fn names_are_found_in_each_spelling() {
        assert_eq!(
            named_variables(r#"rm -rf "$tmp" ${out} ${d:-x} $$ $1 $tmp"#),
            ["tmp", "out", "d"]
        );
    }
}
