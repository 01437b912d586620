//! File::Find: `find(\&wanted, DIRS)` calls `wanted` once for each file under each
//! directory, with `$_` naming the file (in its directory, where `find` has gone, or in
//! full with `no_chdir`), `$File::Find::name` naming it in full and `$File::Find::dir` its
//! directory. The body is read as a loop over any file under each directory, so an `open`
//! of `$_` under `~` reads `~/**/*`, as `os.walk` does in Python.

use tree_sitter::Node;

use super::values::is_separator;
use super::{Pl, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::join;

/// Most directories whose files are read one by one; past them, a file anywhere.
const MOST_DIRS: usize = 8;
/// Most file name endings a `wanted` function is narrowed to; past them, any file.
const MOST_ENDINGS: usize = 8;

/// The endings a condition of `return unless COND` lets a file through with: `-f`-like
/// tests and one pattern match of `$_` (or `$File::Find::name`) joined by `&&`/`and`, the
/// pattern a literal ending (`/\.bak$/`, `/\.(orig|rej)$/`, without flags). None for any
/// other condition.
fn endings_of(cond: &str) -> Vec<String> {
    {
        let mut found = Vec::new();
        for part in cond.split("&&").flat_map(|p| p.split(" and ")) {
            let part = part
                .trim()
                .trim_start_matches('(')
                .trim_end_matches(')')
                .trim();
            let part = part
                .strip_prefix("$_ =~")
                .or_else(|| part.strip_prefix("$File::Find::name =~"))
                .map_or(part, str::trim);
            if matches!(
                part,
                "-f" | "-f $_" | "-e" | "-e $_" | "-r" | "-r $_" | "-T" | "-T $_" | "-s" | "-s $_"
            ) {
                continue;
            }
            let Some(pattern) = part.strip_prefix('/').and_then(|p| p.strip_suffix("$/")) else {
                return Vec::new();
            };
            let Some(tail) = pattern.strip_prefix("\\.") else {
                return Vec::new();
            };
            let alternatives = tail
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .unwrap_or(tail);
            let word =
                |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !found.is_empty() || !alternatives.split('|').all(word) {
                return Vec::new();
            }
            found = alternatives.split('|').map(|w| format!(".{w}")).collect();
        }
        found
    }
}

impl<'t> Pl<'_, '_, 't> {
    /// The endings a `wanted` body lets a file through with (see [`endings_of`]): a
    /// `return unless` among the body's own statements (not one nested in a branch), with
    /// only the pruning idiom before it (`if (COND) { $File::Find::prune = 1; return }`,
    /// with no call in it), which acts on no file.
    fn endings(&self, body: Node<'t>) -> Vec<String> {
        let mut c = body.walk();
        for statement in body.named_children(&mut c).take(8) {
            let mut c = statement.walk();
            let parts: Vec<Node<'t>> = statement.named_children(&mut c).collect();
            match (kind(statement), parts.as_slice()) {
                ("single_line_statement", [exit, unless])
                    if kind(*exit) == "return_expression"
                        && kind(*unless) == "unless_simple_statement" =>
                {
                    return by_field(*unless, "condition")
                        .map_or_else(Vec::new, |cond| endings_of(self.text(cond)));
                }
                ("if_statement", _) if self.only_prunes(statement) => {}
                _ => return Vec::new(),
            }
        }
        Vec::new()
    }

    /// Whether `statement`, an `if`, calls nothing and only sets `$File::Find::prune` and
    /// returns.
    fn only_prunes(&self, statement: Node<'t>) -> bool {
        let mut calls = false;
        super::super::tree::visit(statement, |node, _, at| {
            if at == super::super::tree::Visit::Enter {
                let k = kind(node);
                calls |= k.contains("call") || k.contains("invocation") || k.contains("command");
            }
            !calls
        });
        let Some(block) = by_field(statement, "consequence") else {
            return false;
        };
        let mut c = block.walk();
        let sets_prune = |n: Node<'t>| {
            kind(n) == "return_expression"
                || kind(n) == "binary_expression" && self.text(n).starts_with("$File::Find::prune")
        };
        !calls
            && by_field(statement, "alternative").is_none()
            && block.named_children(&mut c).all(sets_prune)
    }
}

impl<'t> Pl<'_, '_, 't> {
    /// Reads `call` if it is File::Find's `find` or `finddepth` with a `wanted` function
    /// found in the code: its body once per directory, in a loop. False for any other call.
    pub(super) fn file_find(&mut self, call: Node<'t>) -> bool {
        if !self
            .callee(call)
            .is_some_and(|name| self.is_file_find(&name))
        {
            return false;
        }
        let args = self.arg_nodes(call);
        let Some(body) = args.first().and_then(|a| self.wanted(*a)) else {
            return false;
        };
        let mut dirs: Vec<Val> = Vec::new();
        for dir in &args[1..] {
            dirs.extend(self.eval(*dir, self.src.text, 0).list());
        }
        if dirs.is_empty() || dirs.len() > MOST_DIRS {
            dirs = vec![Val::Unknown];
        }
        // `return unless -f && /\.(orig|rej)$/`: only files of those endings get further.
        let endings = self.endings(body);
        let endings = match endings.len() {
            1..=MOST_ENDINGS => endings,
            _ => vec![String::new()],
        };
        let outer = self.found_file.take();
        self.loops += 1;
        for dir in dirs {
            for ending in &endings {
                let pattern = format!("**/*{ending}");
                self.found_file = Some(join(&[dir.clone(), Val::Known(pattern)]));
                self.walk(body);
            }
        }
        self.loops -= 1;
        self.found_file = outer;
        true
    }

    /// Whether a call of `name` is File::Find's `find` or `finddepth`, which change none
    /// of their arguments: the code uses File::Find and defines no sub of that name.
    pub(super) fn is_file_find(&self, name: &str) -> bool {
        let name = name.strip_prefix("File::Find::").unwrap_or(name);
        matches!(name, "find" | "finddepth")
            && self.src.text.contains("File::Find")
            && !self.src.text.contains(&format!("sub {name}"))
    }

    /// The body of the function `find` calls: `sub { ... }`, `\&name`, or either as the
    /// `wanted` of an options hash.
    fn wanted(&self, arg: Node<'t>) -> Option<Node<'t>> {
        match kind(arg) {
            "anonymous_function" => by_field(arg, "body"),
            "unary_expression" => {
                let named = arg.named_child(0).filter(|r| kind(*r) == "to_reference")?;
                let name = by_field(named, "variable")?;
                let name = self.text(name).trim().trim_start_matches('&');
                self.subs.iter().find(|(s, _)| s == name).map(|(_, b)| *b)
            }
            "hash_ref" => {
                let mut c = arg.walk();
                let items: Vec<Node<'t>> = arg
                    .named_children(&mut c)
                    .filter(|n| !is_separator(*n) && kind(*n) != "fat_comma")
                    .collect();
                let at = items.chunks(2).position(|pair| {
                    self.text(pair[0]).trim().trim_matches(['\'', '"']) == "wanted"
                })?;
                self.wanted(*items.get(2 * at + 1)?)
            }
            _ => None,
        }
    }

    /// The value of a File::Find name (`$_`, `$File::Find::name`, `$File::Find::dir`)
    /// inside a `wanted` function being read; `None` for any other name or outside one.
    pub(super) fn found_name(&self, name: &str) -> Option<Val> {
        let file = self.found_file.as_ref()?;
        match name {
            "$_" | "$File::Find::name" => Some(file.clone()),
            "$File::Find::dir" => Some(match file.text() {
                Some(path) => Val::known(path.trim_end_matches("/*")),
                None => Val::Unknown,
            }),
            _ => None,
        }
    }
}
