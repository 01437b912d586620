//! Files opened, read and written: `open` and its modes, what a `with open(...)` block
//! writes, and the methods of `pathlib` paths.

use tree_sitter::Node;

use super::args::Args;
use super::sinks::canonical;
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

impl<'a, 't> Py<'a, '_, 't> {
    pub(super) fn file_read(&mut self, node: Node<'t>) -> Option<Val> {
        let function = by_field(node, "function").filter(|_| kind(node) == "call")?;
        let method = by_field(function, "attribute").filter(|_| kind(function) == "attribute")?;
        if !matches!(self.text(method), "read" | "read_text" | "read_bytes")
            || Args::of(self, node).count() != 0
        {
            return None;
        }
        let object = by_field(function, "object")?;
        self.opened(object)
    }

    /// The path of the file `node` opens (`open(p)`, `Path(p)`), if it is known.
    pub(super) fn opened(&mut self, node: Node<'t>) -> Option<Val> {
        // A name bound once to what opened it (`f = open(p)`, `with open(p) as f`).
        if kind(node) == "identifier"
            && let Some(Slot::Expr(value)) = self.names.get(self.text(node)).cloned()
            && kind(value) == "call"
            && self.names.enter(self.text(node))
        {
            let path = self.opened(value);
            self.names.leave();
            return path;
        }
        let path = match self.eval(node, 0) {
            Obj::Path(p) => p,
            _ if kind(node) == "call" => {
                let opener = by_field(node, "function")?;
                match self.eval(opener, 0) {
                    Obj::Ref(q)
                        if matches!(canonical(&q).as_str(), "builtins.open" | "io.open") =>
                    {
                        Args::of(self, node).pos(self, 0).val()
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        matches!(path, Val::Known(_)).then_some(path)
    }

    /// Whether what `call` returns is dropped: a statement of its own, a `with` that binds
    /// no name, or closed at once (`f().close()`).
    pub(super) fn result_unused(&self, call: Node<'t>) -> bool {
        let Some(parent) = call.parent() else {
            return false;
        };
        match kind(parent) {
            "expression_statement" | "with_item" => true,
            "attribute" => {
                by_field(parent, "attribute").is_some_and(|a| self.text(a) == "close")
                    && parent.parent().is_some_and(|p| kind(p) == "call")
            }
            _ => false,
        }
    }

    /// What is written to the file `open` (the call `opened`) opened, when that is all
    /// that is done with it: `open(p, 'w').write(TEXT)`, or the `write` calls of a `with
    /// open(p, 'w') as f:` that uses `f` for nothing else, their texts joined in order.
    pub(super) fn written_text(&mut self, opened: Node<'t>) -> Option<Val> {
        let parent = opened.parent()?;
        let is_write = |py: &Self, attribute: Node<'t>| {
            by_field(attribute, "attribute").is_some_and(|a| py.text(a) == "write")
        };
        if kind(parent) == "attribute" {
            let call = parent.parent().filter(|c| kind(*c) == "call")?;
            return is_write(self, parent).then(|| Args::of(self, call).pos(self, 0).val());
        }
        // as_pattern > with_item > with_clause > with_statement
        let alias = by_field(parent, "alias").filter(|_| kind(parent) == "as_pattern")?;
        let name = self.text(alias.named_child(0).filter(|n| kind(*n) == "identifier")?);
        let statement = parent.parent()?.parent()?.parent()?;
        let body = by_field(statement, "body").filter(|_| kind(statement) == "with_statement")?;
        let mut writes = Vec::new();
        let mut other_use = false;
        let mut seen = 0;
        visit(body, |node, _, at| {
            if !matches!(at, Visit::Enter) {
                return false;
            }
            seen += 1;
            if seen > 512 || other_use {
                return false;
            }
            if kind(node) == "identifier" && self.text(node) == name {
                let write_call = node
                    .parent()
                    .filter(|a| kind(*a) == "attribute" && is_write(self, *a))
                    .and_then(|a| a.parent())
                    .filter(|c| kind(*c) == "call");
                match write_call {
                    Some(call) => writes.push(call),
                    None => other_use = true,
                }
            }
            true
        });
        if other_use || seen > 512 || writes.is_empty() {
            return None;
        }
        let mut text = Val::known("");
        for call in writes {
            let part = Args::of(self, call).pos(self, 0).val();
            text = text.concat(part);
        }
        Some(text)
    }

    /// `open(path, mode)`: a read (`cat`), a write (`tee`), or both; a mode not known is
    /// both.
    pub(super) fn open(&mut self, path: Val, mode: Val, line: usize) {
        let mode = match mode {
            Val::Known(m) => m,
            _ => "r+".to_owned(),
        };
        let writes = mode.contains(['w', 'a', 'x', '+'])
            || mode.contains("WRONLY")
            || mode.contains("RDWR")
            || mode.contains("CREAT");
        if !writes || mode.contains(['r', '+']) || mode.contains("RDWR") {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if writes {
            self.cx.command("tee", vec![path], line);
        }
    }

    /// A method of a `pathlib.Path`.
    pub(super) fn path_method(&mut self, path: Val, method: &str, args: &Args<'t>, line: usize) {
        let first = |py: &mut Self| args.pos(py, 0).val();
        match method {
            "unlink" => self.cx.command("rm", vec![path], line),
            "rmdir" => self.cx.command("rmdir", vec![path], line),
            "read_text" | "read_bytes" => self.cx.command("cat", vec![path], line),
            "open" => {
                let mode = args.pos_or_kw(self, 0, "mode").val();
                self.open(path, mode, line);
            }
            "write_text" | "write_bytes" => {
                let text = first(self);
                self.cx.write(vec![path], text, line);
            }
            "touch" => self.cx.command("touch", vec![path], line),
            "mkdir" => self.cx.command("mkdir", vec![path], line),
            "rename" | "replace" | "move" => {
                let to = first(self);
                self.cx.command("mv", vec![path, to], line);
            }
            "chmod" | "lchmod" => {
                let mode = self.chmod_mode(args.node(0, "mode"), &path);
                self.cx.command("chmod", vec![mode, path], line);
            }
            "symlink_to" | "hardlink_to" => {
                let to = first(self);
                self.cx
                    .command("ln", vec![Val::known("-s"), to, path], line);
            }
            _ => {}
        }
    }
}

/// `Path(p).name` (`stem`, `suffix`, `parent`) of a known path, or of a listing's pattern,
/// whose parts are patterns too (`src/*.py` has the name `*.py` and the stem `*`). Not known
/// where pathlib's answer is not plain text: the home directory, `..`, alternatives.
pub(super) fn path_part(path: &str, part: &str) -> Obj {
    let trimmed = path.trim_end_matches('/');
    let (dir, name) = match trimmed.rsplit_once('/') {
        Some((dir, name)) => (Some(dir), name),
        None => (None, trimmed),
    };
    if name.is_empty() || name.starts_with('~') || matches!(name, "." | "..") || name.contains('{')
    {
        return Obj::Val(Val::Unknown);
    }
    let dot = name.rfind('.').filter(|&i| i > 0);
    let text = match part {
        "name" => name.to_owned(),
        "stem" => dot.map_or(name, |i| &name[..i]).to_owned(),
        "suffix" => match dot.map(|i| &name[i..]) {
            Some(s) if !s.contains(['*', '?', '[']) => s.to_owned(),
            // `*` may have any suffix, or none.
            _ if name.contains(['*', '?', '[']) => return Obj::Val(Val::Unknown),
            _ => String::new(),
        },
        // `parent`
        _ => match dir {
            Some("") => "/".to_owned(),
            Some(dir) => dir.to_owned(),
            None => ".".to_owned(),
        },
    };
    match part {
        "parent" => Obj::Path(Val::Known(text)),
        _ => Obj::Val(Val::Known(text)),
    }
}
