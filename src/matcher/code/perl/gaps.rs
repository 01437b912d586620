//! Perl that perl runs but the grammar cannot parse. tree-sitter-perl 1.1.2 fails on
//! ordinary code: a statement modifier after a list of three items (`printf "%s %d\n", $_,
//! $n{$_} for sort keys %n;`, an effect of the call that ends at its second comma; see the
//! module above) and a file test with no operand before an operator (`print if -f &&
//! /\.py$/`). Its error recovery skips the tokens it cannot place and parses the rest, so
//! such code is read when every skipped piece is inert: variables, literals, operators and
//! a few built-ins that only compute. A skipped piece that could call anything (a name not
//! in that list, a method, `&sub`, backticks, a package name, code inside a string or a
//! pattern) leaves the syntax error standing.

use tree_sitter::Node;

use super::super::tree::{Visit, visit};

/// Built-ins and keywords that compute or control the flow, with no effect of their own.
const INERT: &[&str] = &[
    "for",
    "foreach",
    "if",
    "unless",
    "while",
    "until",
    "and",
    "or",
    "not",
    "xor",
    "my",
    "our",
    "local",
    "keys",
    "values",
    "each",
    "sort",
    "reverse",
    "scalar",
    "defined",
    "exists",
    "lc",
    "uc",
    "lcfirst",
    "ucfirst",
    "length",
    "join",
    "split",
    "sprintf",
    "print",
    "printf",
    "say",
    "chomp",
    "chop",
    "push",
    "pop",
    "shift",
    "unshift",
    "grep",
    "map",
    "abs",
    "int",
    "sqrt",
    "substr",
    "index",
    "rindex",
    "ref",
    "wantarray",
    // They look at a file or a name and change nothing.
    "readlink",
    "stat",
    "lstat",
    "basename",
    "dirname",
    "time",
    "localtime",
    "gmtime",
    "hex",
    "oct",
    "ord",
    "chr",
    "quotemeta",
    "x",
    "eq",
    "ne",
    "lt",
    "gt",
    "le",
    "ge",
    "cmp",
    "last",
    "next",
    "return",
    "STDOUT",
    "STDERR",
];

/// Whether every piece the error recovery of `root`'s parse skipped is inert (see the
/// module). Missing tokens the recovery assumed (a `;`) hide no code.
pub(in crate::matcher::code) fn errors_are_inert(root: Node<'_>, code: &str) -> bool {
    let mut inert = true;
    visit(root, |node, _, at| {
        if at == Visit::Leave || !inert {
            return false;
        }
        if node.is_error() {
            inert = code.get(node.byte_range()).is_some_and(is_inert);
            return false;
        }
        node.has_error()
    });
    inert
}

/// The code given to the grammar again where its error recovery lost a file test with no
/// operand (`return unless -f; open my $f, '<', $_`, `grep { -d } @a`), or `None` when
/// there is none. tree-sitter-perl then skips the `;` or `&&` after the test and takes
/// the next statement as its operand, so the words of that statement's call part from it
/// (the `open` above loses its path). perl reads such a test as a test of `$_`: each is
/// given to the grammar as `$_`, which is the same length, so every byte range through
/// which the reader reads the text is unchanged. Only tests the grammar itself placed
/// next to an error are changed, so no string's text is.
pub(in crate::matcher::code) fn bare_file_tests(root: Node<'_>, bytes: &[u8]) -> Option<Vec<u8>> {
    if !root.has_error() {
        return None;
    }
    let mut tests = Vec::new();
    visit(root, |node, _, at| {
        if at == Visit::Leave {
            return false;
        }
        if node.is_error() {
            let test = match node.parent() {
                Some(p) if super::kind(p) == "file_handle_operator" => p.start_byte(),
                _ => node.start_byte(),
            };
            let name = |k: usize| {
                bytes
                    .get(k)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            };
            if bytes.get(test) == Some(&b'-')
                && bytes.get(test + 1).is_some_and(u8::is_ascii_alphabetic)
                && !name(test + 2)
            {
                tests.push(test);
            }
            return false;
        }
        node.has_error()
    });
    if tests.is_empty() {
        return None;
    }
    let mut fixed = bytes.to_vec();
    for at in tests {
        fixed[at..at + 2].copy_from_slice(b"$_");
    }
    Some(fixed)
}

/// Whether the Perl text `piece` holds only variables, numbers, plain strings, operators
/// and [`INERT`] names.
fn is_inert(piece: &str) -> bool {
    let bytes = piece.as_bytes();
    let mut at = 0;
    // Just after a variable, an arrow or a subscript, where `{name}` is a hash key (a
    // string), not a block that calls `name`.
    let mut subscript = false;
    while let Some(&b) = bytes.get(at) {
        let after_subscript = std::mem::take(&mut subscript);
        match b {
            b'{' if after_subscript => {
                // A key that is a word or a plain variable (`{total}`, `{$_}`, `{$name}`).
                let sigil = usize::from(bytes.get(at + 1) == Some(&b'$'));
                let key = sigil + word_len(&bytes[at + 1 + sigil..]);
                if key > sigil && bytes.get(at + 1 + key) == Some(&b'}') {
                    at += key + 2;
                    subscript = true;
                } else {
                    at += 1;
                }
            }
            b'\'' | b'"' => {
                // A double-quoted string runs code in a subscript or a dereference block
                // (`"$h{system 'x'}"`, `"@{[ ... ]}"`): no brackets there.
                let mut k = at + 1;
                loop {
                    match bytes.get(k) {
                        None => return false,
                        Some(b'\\') => k += 2,
                        Some(&c) if c == b => break,
                        Some(b'{' | b'[') if b == b'"' => return false,
                        Some(_) => k += 1,
                    }
                }
                at = k + 1;
            }
            // `&&` is an operator; `&name` a call, `/.../` a pattern that may hold code,
            // `*glob` a typeglob, `\&f` a reference to call later.
            b'&' if piece[at..].starts_with("&&") => at += 2,
            b'`' | b'/' | b'&' | b'*' | b'\\' => return false,
            b':' if piece[at..].starts_with("::") => return false,
            // A dereference (`$j->{k}`, `$a->[0]`) is a subscript; any other arrow a call.
            b'-' if piece[at..].starts_with("->{") || piece[at..].starts_with("->[") => {
                at += 2;
                subscript = true;
            }
            b'-' if piece[at..].starts_with("->") => return false,
            b'$' | b'@' | b'%' => {
                at += 1;
                // A dereference of a plain variable (`@$_`, `%$h`, `$$ref`) is a variable.
                if bytes.get(at) == Some(&b'$')
                    && bytes
                        .get(at + 1)
                        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                {
                    at += 1;
                }
                // A package's variable (`$File::Find::name`) is a name too.
                let mut name = word_len(&bytes[at..]);
                while name > 0
                    && piece[at + name..].starts_with("::")
                    && word_len(&bytes[at + name + 2..]) > 0
                {
                    name += 2 + word_len(&bytes[at + name + 2..]);
                }
                // `$_`, `@ARGV`, `%h`; not a dereference block `@{ ... }` of its own.
                if name == 0 && !matches!(bytes.get(at), Some(b'_' | b'0'..=b'9')) {
                    return false;
                }
                at += name.max(1);
                subscript = true;
            }
            b'-' if bytes.get(at + 1).is_some_and(u8::is_ascii_alphabetic)
                && word_len(&bytes[at + 1..]) == 1 =>
            {
                // A file test (`-f`, `-d`): reads a file's status, nothing more.
                at += 2;
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let len = word_len(&bytes[at..]);
                if !INERT.contains(&&piece[at..at + len]) {
                    return false;
                }
                at += len;
            }
            b if b.is_ascii() => at += 1,
            _ => return false,
        }
    }
    true
}

/// The length of the name (letters, digits, `_`) that `bytes` starts with.
fn word_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_variables_literals_operators_and_computing_built_ins_are_inert() {
        for piece in [
            "for",
            "&&",
            "$total{$_} for",
            "2 for sort keys %h",
            "'text', $x, 3.5",
            "\"plain\\n\"",
            "\"$x: $y\"",
            "-f && $_",
            "$j->{scripts}{$_}",
            "$h{system}",
            ", $File::Find::name",
            "$s->{total}{$_}{pct} for",
            "@$_ for",
            "%$h",
        ] {
            assert!(is_inert(piece), "{piece}");
        }
        for piece in [
            "system",
            "`rm -rf ~`",
            "&f",
            "$obj->run",
            "File::Path::rmtree",
            "\"@{[ system 'x' ]}\"",
            "\"${\\ `id`}\"",
            "\"$h{system 'x'}\"",
            "/(?{ system 'x' })/",
            "qx(id)",
            "unlink",
            "eval",
            "\\&CORE::system",
            "{unlink}",
            "$x {unlink}",
            "$j->{a}->run",
            "$j->{a}{unlink $_}",
            "$j->{$x->run}",
            "@$_->run",
            "@{$x}",
            "é",
        ] {
            assert!(!is_inert(piece), "{piece}");
        }
    }
}
