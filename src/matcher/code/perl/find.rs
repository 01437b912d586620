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
        let outer = self.found_file.take();
        self.loops += 1;
        for dir in dirs {
            self.found_file = Some(join(&[dir, Val::known("**/*")]));
            self.walk(body);
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
