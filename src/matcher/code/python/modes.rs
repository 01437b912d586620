//! The mode given to `os.chmod` and `Path.chmod`. Scripts make a file executable with
//! `os.chmod(p, os.stat(p).st_mode | stat.S_IXUSR)`: the file's own mode with bits added,
//! which is `chmod u+x p`. Read as an unknown mode, such a line could not be decided.

use tree_sitter::Node;

use super::args::Args;
use super::text::parse_int;
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;

/// The `stat` module's mode bits.
const BITS: &[(&str, u32)] = &[
    ("S_ISUID", 0o4000),
    ("S_ISGID", 0o2000),
    ("S_ISVTX", 0o1000),
    ("S_IRWXU", 0o700),
    ("S_IRUSR", 0o400),
    ("S_IWUSR", 0o200),
    ("S_IXUSR", 0o100),
    ("S_IREAD", 0o400),
    ("S_IWRITE", 0o200),
    ("S_IEXEC", 0o100),
    ("S_IRWXG", 0o070),
    ("S_IRGRP", 0o040),
    ("S_IWGRP", 0o020),
    ("S_IXGRP", 0o010),
    ("S_IRWXO", 0o007),
    ("S_IROTH", 0o004),
    ("S_IWOTH", 0o002),
    ("S_IXOTH", 0o001),
];

/// More `|` operands than a mode is written with are not read.
const MAX_PARTS: usize = 32;

impl<'t> Py<'_, '_, 't> {
    /// The mode `node` of a chmod of `path`, as `chmod` takes it: octal when every part
    /// is known (`0o755`, `stat.S_IRWXU | stat.S_IRGRP`); the bits as a symbolic addition
    /// (`u+x,g+x`) when one part is the file's own mode (`os.stat(path).st_mode`,
    /// `path.stat().st_mode`); otherwise not known. The own mode of another file is not
    /// known: it could carry set-user-ID.
    pub(super) fn chmod_mode(&mut self, node: Option<Node<'t>>, path: &Val) -> Val {
        let Some(node) = node else {
            return Val::Unknown;
        };
        let mut parts = vec![node];
        let mut bits = 0;
        let mut own = false;
        let mut read = 0;
        while let Some(part) = parts.pop() {
            read += 1;
            if read > MAX_PARTS {
                return Val::Unknown;
            }
            match kind(part) {
                "binary_operator"
                    if by_field(part, "operator").is_some_and(|o| self.text(o) == "|") =>
                {
                    parts.extend(by_field(part, "left"));
                    parts.extend(by_field(part, "right"));
                }
                "parenthesized_expression" => parts.extend(part.named_child(0)),
                _ if self.is_own_mode(part, path) => own = true,
                _ => match self.eval(part, 0) {
                    Obj::Val(Val::Known(n)) => match parse_int(&n) {
                        Some(n) => bits |= n,
                        None => return Val::Unknown,
                    },
                    Obj::Ref(q) => match q
                        .strip_prefix("stat.")
                        .and_then(|c| BITS.iter().find(|(name, _)| *name == c))
                    {
                        Some((_, n)) => bits |= n,
                        None => return Val::Unknown,
                    },
                    _ => return Val::Unknown,
                },
            }
        }
        if own {
            Val::Known(added(bits))
        } else {
            Val::Known(format!("{bits:o}"))
        }
    }

    /// Whether `node` is `os.stat(path).st_mode` (or `lstat`) or `path.stat().st_mode`
    /// for the `path` being changed, known.
    fn is_own_mode(&mut self, node: Node<'t>, path: &Val) -> bool {
        if !matches!(path, Val::Known(_)) || kind(node) != "attribute" {
            return false;
        }
        let Some(call) = by_field(node, "object").filter(|o| kind(*o) == "call") else {
            return false;
        };
        if by_field(node, "attribute").is_none_or(|a| self.text(a) != "st_mode") {
            return false;
        }
        let Some(function) = by_field(call, "function") else {
            return false;
        };
        let args = Args::of(self, call);
        match self.eval(function, 0) {
            Obj::Ref(q) if q == "os.stat" || q == "os.lstat" => {
                args.count() == 1 && args.pos(self, 0).val() == *path
            }
            Obj::PathMethod(p, m) if m == "stat" || m == "lstat" => args.count() == 0 && p == *path,
            _ => false,
        }
    }
}

/// `bits` added to a file's mode, as `chmod` spells it (`u+x,g+x,o+x`).
fn added(bits: u32) -> String {
    let mut who = Vec::new();
    for (name, shift, special) in [('u', 6, 0o4000), ('g', 3, 0o2000), ('o', 0, 0o1000)] {
        let mut perms = String::new();
        for (letter, bit) in [('r', 4), ('w', 2), ('x', 1)] {
            if bits & (bit << shift) != 0 {
                perms.push(letter);
            }
        }
        if bits & special != 0 {
            perms.push(if name == 'o' { 't' } else { 's' });
        }
        if !perms.is_empty() {
            who.push(format!("{name}+{perms}"));
        }
    }
    if who.is_empty() {
        "u+".to_owned()
    } else {
        who.join(",")
    }
}
