//! What a comprehension's `if`, or an `if` statement around a call, says of a loop's
//! variable: `[os.remove(f) for f in os.listdir('.') if f.endswith('.log')]` removes
//! `*.log`, not every file (which could be `.env`). Only a plain `NAME.endswith('...')` (or
//! a tuple of such suffixes), `NAME.startswith('...')`, or `NAME == '...'` and `NAME in
//! ('...', ...)` (the name is one of those), alone, joined by `and`, or two joined by `or`
//! (either), narrows; anything else leaves the listing whole.

use tree_sitter::Node;

use super::{Py, by_field, kind};

/// The name part a listing's names must start and end with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Narrow {
    prefix: String,
    suffix: String,
    /// The name itself, or its alternatives (`{a,b}`); empty when not known.
    exact: String,
}

impl Narrow {
    /// `pattern` (a listing's glob, `*` or `dir/*`) narrowed to the names that start with the
    /// prefix and end with the suffix; unchanged unless its last part is a bare `*`.
    pub(super) fn apply(&self, pattern: &str) -> Option<String> {
        let dir = match pattern.strip_suffix('*')? {
            "" => "",
            d if d.ends_with('/') => d,
            _ => return None,
        };
        if !self.exact.is_empty() {
            // Alternatives (`{a,b}`) become several paths in a file operation's operands.
            return Some(format!("{dir}{}", self.exact));
        }
        Some(format!("{dir}{}*{}", self.prefix, self.suffix))
    }
}

impl<'a, 't> Py<'a, '_, 't> {
    /// What the `if` clauses of the comprehension holding `clause` (a `for_in_clause` over
    /// `name`) say of `name`.
    pub(super) fn narrow(&self, clause: Node<'t>, name: &str) -> Option<Narrow> {
        let comprehension = clause.parent()?;
        let mut narrow = Narrow::default();
        let mut c = comprehension.walk();
        for child in comprehension.named_children(&mut c) {
            if kind(child) == "if_clause"
                && let Some(test) = child.named_child(0)
            {
                self.narrow_by(test, name, &mut narrow);
            }
        }
        (narrow != Narrow::default()).then_some(narrow)
    }

    /// What the `if` statements whose body holds `call`, and the `if not ...: continue`
    /// before it, say of the names they test: `for f in files: if f.endswith('.py'):
    /// open(f)` reads `*.py` only. Looks a bounded way up and back, so deeply nested code
    /// costs no more per call.
    pub(super) fn guards(&self, call: Node<'t>) -> Vec<(&'a str, Narrow)> {
        const MOST_LEVELS: usize = 64;
        // Statements before one in its block looked at for an `if not ...: continue`.
        const MOST_SIBLINGS: usize = 16;
        let mut out = Vec::new();
        let mut node = call;
        for _ in 0..MOST_LEVELS {
            let Some(parent) = node.parent() else { break };
            if kind(parent) == "if_statement"
                && by_field(parent, "consequence").is_some_and(|c| c.id() == node.id())
                && let Some(test) = by_field(parent, "condition")
            {
                self.guard(test, &mut out);
            }
            // `if not f.endswith('.py'): continue` before it in its block: what follows runs
            // only when the test holds.
            if kind(parent) == "block" {
                let mut before = node.prev_named_sibling();
                for _ in 0..MOST_SIBLINGS {
                    let Some(statement) = before else { break };
                    if let Some(test) = self.skips_unless(statement) {
                        self.guard(test, &mut out);
                    }
                    before = statement.prev_named_sibling();
                }
            }
            node = parent;
        }
        out
    }

    /// What `test`, known to hold, says of the names it tests.
    fn guard(&self, test: Node<'t>, out: &mut Vec<(&'a str, Narrow)>) {
        let mut names = Vec::new();
        self.tested_names(test, &mut names);
        for name in names {
            let mut narrow = Narrow::default();
            self.narrow_by(test, name, &mut narrow);
            if narrow != Narrow::default() {
                out.push((name, narrow));
            }
        }
    }

    /// `TEST` when `statement` is `if not TEST: continue` (or `break`, or `return`), with no
    /// `elif` or `else`: the statements after it run only when `TEST` holds.
    fn skips_unless(&self, statement: Node<'t>) -> Option<Node<'t>> {
        if kind(statement) != "if_statement" || by_field(statement, "alternative").is_some() {
            return None;
        }
        let body = by_field(statement, "consequence")?;
        let only = body
            .named_child(0)
            .filter(|_| body.named_child_count() == 1)?;
        if !matches!(
            kind(only),
            "continue_statement" | "break_statement" | "return_statement"
        ) {
            return None;
        }
        let condition = by_field(statement, "condition")?;
        (kind(condition) == "not_operator")
            .then(|| by_field(condition, "argument"))
            .flatten()
    }

    /// The names whose `endswith`/`startswith` a test calls, in the shapes `narrow_by` reads.
    fn tested_names(&self, test: Node<'t>, out: &mut Vec<&'a str>) {
        match kind(test) {
            "boolean_operator" | "parenthesized_expression" => {
                let mut c = test.walk();
                for side in test.named_children(&mut c) {
                    self.tested_names(side, out);
                }
            }
            "call" => {
                if let Some(object) = by_field(test, "function").and_then(|f| by_field(f, "object"))
                    && let Some(object) = self.path_or_its_name(object)
                    && !out.contains(&self.text(object))
                {
                    out.push(self.text(object));
                }
            }
            "comparison_operator" => {
                if let Some((name, _)) = self.suffix_test(test).or(self.name_test(test))
                    && !out.contains(&name)
                {
                    out.push(name);
                }
            }
            _ => {}
        }
    }

    /// `os.path.splitext(NAME)[1] == '.py'` (or `in ('.py', '.pyi')`), `NAME.suffix ==
    /// '.py'`: the name tested, and the suffix (or the suffixes as alternatives) it must end
    /// with.
    fn suffix_test(&self, test: Node<'t>) -> Option<(&'a str, String)> {
        let (left, suffixes) = self.compared(test)?;
        if !suffixes.starts_with(['.', '{']) {
            return None;
        }
        let name = match kind(left) {
            // `p.suffix`, of a listed path.
            "attribute" => {
                let object = by_field(left, "object").filter(|o| kind(*o) == "identifier")?;
                (by_field(left, "attribute").map(|a| self.text(a)) == Some("suffix"))
                    .then(|| self.text(object))?
            }
            // `os.path.splitext(f)[1]`
            "subscript" => {
                let index = by_field(left, "subscript").map(|i| self.text(i));
                let call = by_field(left, "value").filter(|v| kind(*v) == "call")?;
                let function = by_field(call, "function")?;
                let args = by_field(call, "arguments")?;
                let arg = args.named_child(0).filter(|a| kind(*a) == "identifier")?;
                let splitext = self.refers_to(function, "os.path.splitext")
                    || self.refers_to(function, "posixpath.splitext");
                (index == Some("1") && splitext && args.named_child_count() == 1)
                    .then(|| self.text(arg))?
            }
            _ => return None,
        };
        Some((name, suffixes))
    }

    /// `NAME == 'x'` or `NAME in ('x', 'y')` (a tuple, set or list): the name tested, and
    /// what it is (the alternatives as `{x,y}`).
    fn name_test(&self, test: Node<'t>) -> Option<(&'a str, String)> {
        let (left, names) = self.compared(test)?;
        (kind(left) == "identifier").then(|| (self.text(left), names))
    }

    /// `LEFT == 'x'` or `LEFT in ('x', 'y')` (a tuple, set or list): `LEFT`, and the text
    /// it equals (the alternatives as `{x,y}`).
    fn compared(&self, test: Node<'t>) -> Option<(Node<'t>, String)> {
        if test.named_child_count() != 2 {
            return None;
        }
        let (left, right) = (test.named_child(0)?, test.named_child(1)?);
        let operator = test.child(1).map(|o| self.text(o))?;
        let text = match (operator, kind(right)) {
            ("==", _) => self.plain_string(right)?,
            ("in", "tuple" | "set" | "list") => self.alternatives(right)?,
            _ => return None,
        };
        Some((left, text))
    }

    /// Whether `node`, a name or a chain of attributes of one, is the imported `qualified`
    /// (`os.path.splitext` with `os` imported, or `splitext` imported from `os.path`).
    fn refers_to(&self, node: Node<'t>, qualified: &str) -> bool {
        match kind(node) {
            "identifier" => matches!(
                self.names.get(self.text(node)),
                Some(super::Slot::Ref(q)) if q == qualified
            ),
            "attribute" => {
                let (Some(object), Some(attribute)) =
                    (by_field(node, "object"), by_field(node, "attribute"))
                else {
                    return false;
                };
                qualified
                    .strip_suffix(self.text(attribute))
                    .and_then(|rest| rest.strip_suffix('.'))
                    .is_some_and(|rest| self.refers_to(object, rest))
            }
            _ => false,
        }
    }

    fn narrow_by(&self, test: Node<'t>, name: &str, narrow: &mut Narrow) {
        match kind(test) {
            "boolean_operator" => {
                let op = by_field(test, "operator").map(|o| self.text(o));
                let sides = [by_field(test, "left"), by_field(test, "right")];
                if op == Some("and") {
                    for side in sides.into_iter().flatten() {
                        self.narrow_by(side, name, narrow);
                    }
                } else if op == Some("or") && *narrow == Narrow::default() {
                    // Either side's names: `f == '.env' or f.startswith('.env.')`.
                    let mut either = Vec::new();
                    for side in sides.into_iter().flatten() {
                        let mut one = Narrow::default();
                        self.narrow_by(side, name, &mut one);
                        match one.apply("*") {
                            Some(p) if one != Narrow::default() && !p.contains(['{', ',']) => {
                                either.push(p)
                            }
                            _ => return,
                        }
                    }
                    narrow.exact = format!("{{{}}}", either.join(","));
                }
            }
            "parenthesized_expression" => {
                if let Some(inner) = test.named_child(0) {
                    self.narrow_by(inner, name, narrow);
                }
            }
            "comparison_operator" => {
                if let Some((tested, suffix)) = self.suffix_test(test)
                    && tested == name
                    && narrow.suffix.is_empty()
                {
                    narrow.suffix = suffix;
                } else if let Some((tested, names)) = self.name_test(test)
                    && tested == name
                    && narrow.exact.is_empty()
                {
                    narrow.exact = names;
                }
            }
            "call" => {
                let (Some(function), Some(args)) =
                    (by_field(test, "function"), by_field(test, "arguments"))
                else {
                    return;
                };
                let (Some(object), Some(method)) = (
                    by_field(function, "object"),
                    by_field(function, "attribute"),
                ) else {
                    return;
                };
                let Some(tested) = self.path_or_its_name(object) else {
                    return;
                };
                // `p.name.startswith(x)` tests the last name, not the path's start.
                let of_name = tested != object;
                if kind(function) != "attribute"
                    || self.text(tested) != name
                    || args.named_child_count() != 1
                {
                    return;
                }
                let Some(text) = args.named_child(0).and_then(|a| self.plain_strings(a)) else {
                    return;
                };
                match self.text(method) {
                    "endswith" if narrow.suffix.is_empty() => narrow.suffix = text,
                    "startswith" if narrow.prefix.is_empty() && !of_name => narrow.prefix = text,
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// The variable a test looks at: `f` itself, or `f` of `f.name` (a path's last name,
    /// which ends as the path does).
    fn path_or_its_name(&self, object: Node<'t>) -> Option<Node<'t>> {
        match kind(object) {
            "identifier" => Some(object),
            "attribute"
                if by_field(object, "attribute").is_some_and(|a| self.text(a) == "name") =>
            {
                by_field(object, "object").filter(|o| kind(*o) == "identifier")
            }
            _ => None,
        }
    }

    /// The text of a string literal (`plain_string`), or of a tuple of them as the
    /// alternatives of a wildcard (`('.py', '.ts')` is `{.py,.ts}`).
    fn plain_strings(&self, node: Node<'t>) -> Option<String> {
        if kind(node) != "tuple" {
            return self.plain_string(node);
        }
        self.alternatives(node)
    }

    /// The string literals of a tuple, set or list as the alternatives of a wildcard.
    fn alternatives(&self, node: Node<'t>) -> Option<String> {
        let mut c = node.walk();
        let items: Option<Vec<String>> = node
            .named_children(&mut c)
            .map(|item| self.plain_string(item).filter(|t| !t.contains(',')))
            .collect();
        match items?.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            many => Some(format!("{{{}}}", many.join(","))),
        }
    }

    /// The text of a string literal with no interpolation, escape or glob character.
    fn plain_string(&self, node: Node<'t>) -> Option<String> {
        if kind(node) != "string" {
            return None;
        }
        let raw = self.text(node);
        let quote = raw.chars().next()?;
        if !matches!(quote, '\'' | '"') || raw.len() < 2 {
            return None;
        }
        let inner = raw.get(1..raw.len() - 1)?;
        let plain = !inner.is_empty()
            && !inner.contains(['\\', '*', '?', '[', ']', '{', '}', '\'', '"', '/', '\n']);
        plain.then(|| inner.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_narrowed_listing_keeps_its_directory() {
        let ends = Narrow {
            suffix: ".log".into(),
            ..Narrow::default()
        };
        assert_eq!(ends.apply("*").as_deref(), Some("*.log"));
        assert_eq!(ends.apply("dist/*").as_deref(), Some("dist/*.log"));
        assert_eq!(ends.apply("dist/*.txt"), None);
        assert_eq!(ends.apply("x*"), None);
        let both = Narrow {
            prefix: "tmp".into(),
            suffix: ".json".into(),
            ..Narrow::default()
        };
        assert_eq!(both.apply("*").as_deref(), Some("tmp*.json"));
        let named = Narrow {
            exact: "{build,dist}".into(),
            ..Narrow::default()
        };
        assert_eq!(named.apply("./**/*").as_deref(), Some("./**/{build,dist}"));
        assert_eq!(named.apply("*").as_deref(), Some("{build,dist}"));
        let one = Narrow {
            exact: "build".into(),
            ..Narrow::default()
        };
        assert_eq!(one.apply("*").as_deref(), Some("build"));
    }
}
