//! Loops over a literal, read once per item: `for (const [name, [cmd, args]] of
//! Object.entries(TASKS))` over `const TASKS = {lint: ['npm', ['run', 'lint']], ...}`, or
//! `checks.map(({ args }) => spawnSync('npx', args))` over a literal array, runs each
//! item's command, where reading the call once would run a program named at run time.
//!
//! The loop's names (a plain name, or each name a destructuring pattern takes, with the
//! keys it takes) are bound together to each item's parts. That holds only while the
//! literal is what the loop goes over: an array or object literal, or a name bound once to
//! one that the program only loops over (`for ... of`, `Object.entries`/`values`/`keys`,
//! or a method that reads it: `forEach`, `map`, ...); and while no item is changed through
//! a loop name, or through an alias of one (a loop name assigned to another, put in an
//! array or object, returned, or handed to a function that is not a library's nor one
//! read at its calls that leaves it as it is).

use tree_sitter::Node;

use super::{Js, Obj, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

/// Items of one literal read in turn, at most.
const MOST_ITEMS: usize = 16;
/// Nodes of one call's arguments looked at for a loop's name.
const MOST_NODES: usize = 512;
/// Names whose values are looked into for a loop's name, from one call.
const MOST_FOLLOWED: usize = 4;
/// Names whose uses are checked (each a scan of the whole program), at most: past it, a
/// name is taken as changed, and its loop not read per item.
const MOST_SCANS: usize = 16;

/// Methods of an array that call a function with each item and change none.
pub(super) const EACH_ITEM: &[&str] = &[
    "forEach", "map", "filter", "some", "every", "flatMap", "find",
];

/// Methods of an array that read it and change nothing (what they return is new).
const READS_ARRAY: &[&str] = &[
    "join",
    "includes",
    "indexOf",
    "lastIndexOf",
    "slice",
    "at",
    "concat",
    "toString",
];

/// Built-in functions that only read what they are given (and `console.*`).
const READS_ONLY: &[&str] = &[
    "JSON.stringify",
    "String",
    "Number",
    "Boolean",
    "Array.isArray",
    "Array.from",
    "Object.keys",
    "Object.values",
    "Object.entries",
];

/// A round of a loop: each of its names with its value in that round.
pub(super) type Round<'a> = Vec<(&'a str, Obj)>;

impl<'a, 't> Js<'a, '_, 't> {
    /// The names a pattern binds (a plain name, or those of `[a, [b, c]]` or `{a, b: {c}}`),
    /// each with the keys it takes from the value; and the parts not followed (a default, a
    /// rest, a computed key), whose names are not known.
    pub(super) fn pattern_names(
        &self,
        pattern: Node<'t>,
        path: Vec<String>,
        names: &mut Vec<(Node<'t>, Vec<String>)>,
        other: &mut Vec<Node<'t>>,
    ) {
        match kind(pattern) {
            "identifier" => names.push((pattern, path)),
            "object_pattern" | "array_pattern" => {
                let array = kind(pattern) == "array_pattern";
                // An element's place counts the commas before it: `[, , c]` takes item 2.
                let mut c = pattern.walk();
                let mut place = 0;
                let mut parts: Vec<(usize, Node<'t>)> = Vec::new();
                for child in pattern.children(&mut c) {
                    if child.is_named() {
                        parts.push((place, child));
                    } else if self.text(child) == "," {
                        place += 1;
                    }
                }
                for (n, part) in parts {
                    let mut sub = path.clone();
                    match kind(part) {
                        "shorthand_property_identifier_pattern" => {
                            sub.push(self.text(part).to_owned());
                            names.push((part, sub));
                        }
                        "pair_pattern" => match (by_field(part, "key"), by_field(part, "value")) {
                            (Some(k), Some(v)) if kind(k) != "computed_property_name" => {
                                sub.push(self.text(k).trim_matches(['"', '\'']).to_owned());
                                self.pattern_names(v, sub, names, other);
                            }
                            _ => other.push(part),
                        },
                        _ if array && kind(part) != "rest_pattern" => {
                            sub.push(n.to_string());
                            self.pattern_names(part, sub, names, other);
                        }
                        // Defaults and rests are not followed.
                        _ => other.push(part),
                    }
                }
            }
            _ => other.push(pattern),
        }
    }

    /// Binds the names of `pattern`, a loop's or a callback's over `list`, to its items.
    pub(super) fn bind_each(&mut self, pattern: Node<'t>, list: Node<'t>) {
        self.bind_pattern_as(pattern, Slot::Each(list), Vec::new());
        self.patterns.insert(list.id(), pattern);
    }

    /// The rounds of the loop over a literal whose name is the first in `call`'s
    /// arguments: each round binds every name of the loop.
    pub(super) fn loop_over_literal(&mut self, call: Node<'t>) -> Option<Vec<Round<'a>>> {
        let arguments = by_field(call, "arguments")?;
        let mut found = None;
        let mut nodes = 0;
        // The loop's name in the arguments, or in the value of a name they name (`const p
        // = path.join(root, d); fs.rmSync(p)`).
        let mut search = vec![arguments];
        let mut followed = 0;
        while let Some(root) = search.pop() {
            let mut assigned = Vec::new();
            visit(root, |node, _, at| {
                if found.is_some() || at == Visit::Leave || nodes >= MOST_NODES {
                    return false;
                }
                nodes += 1;
                if matches!(kind(node), "identifier" | "shorthand_property_identifier") {
                    match self.names.get(self.text(node)) {
                        Some(Slot::Each(list)) => found = Some(*list),
                        Some(Slot::Expr(value)) => assigned.push(*value),
                        _ => {}
                    }
                }
                true
            });
            if found.is_some() {
                break;
            }
            if followed < MOST_FOLLOWED {
                followed += assigned.len();
                search.extend(assigned);
            }
        }
        let list = found?;
        let pattern = *self.patterns.get(&list.id())?;
        let (mut names, mut other) = (Vec::new(), Vec::new());
        self.pattern_names(pattern, Vec::new(), &mut names, &mut other);
        let items = self.literal_items(list, 0)?;
        let mut rounds = Vec::with_capacity(items.len());
        for item in items {
            let mut round = Vec::with_capacity(names.len());
            for (name, path) in &names {
                let mut value = item.clone();
                for key in path {
                    value = self.member(value, Val::Known(key.clone()), call);
                }
                round.push((self.text(*name), value));
            }
            rounds.push(round);
        }
        // A name given an array or object must not share it: a change through an alias
        // would change the item.
        for (k, (name, _)) in names.iter().enumerate() {
            let shared = rounds
                .iter()
                .any(|r| matches!(r.get(k), Some((_, Obj::List(_) | Obj::Dict(_)))));
            if shared && !self.unaliased(self.text(*name)) {
                return None;
            }
        }
        Some(rounds)
    }

    /// The items a loop over `list` takes, when it is a literal that stays as written: an
    /// array's items, or `Object.entries`' `[key, value]` pairs (`values`' values, `keys`'
    /// keys) of an object.
    fn literal_items(&mut self, list: Node<'t>, depth: usize) -> Option<Vec<Obj>> {
        if depth > 4 {
            return None;
        }
        match kind(list) {
            "array" => {
                let mut c = list.walk();
                let items: Vec<Node<'t>> = list.named_children(&mut c).collect();
                if items.is_empty()
                    || items.len() > MOST_ITEMS
                    || items
                        .iter()
                        .any(|i| matches!(kind(*i), "spread_element" | "comment"))
                {
                    return None;
                }
                Some(items.into_iter().map(|i| self.eval(i, 1)).collect())
            }
            "identifier" => {
                let name = self.text(list);
                let value = match self.names.get(name) {
                    Some(Slot::Expr(value) | Slot::Grown(value, _)) => *value,
                    _ => return None,
                };
                let whole = self
                    .alts
                    .get(name)
                    .is_some_and(|a| a.len() == 1 && a[0].1.is_empty());
                whole.then_some(())?;
                if self.stays_as_written(name) {
                    return self.literal_items(value, depth + 1);
                }
                // Grown by `name.push(...)` too: the pushes may or may not have run before
                // the loop, and each pushed item is one more round.
                let pushed = self.pushed_items(name)?;
                let mut items = self.literal_items(value, depth + 1)?;
                items.extend(pushed.into_iter().map(|p| self.eval(p, 1)));
                (items.len() <= MOST_ITEMS).then_some(items)
            }
            "call_expression" => {
                let function = by_field(list, "function")?;
                let method = match self.text(function) {
                    "Object.entries" => 0,
                    "Object.values" => 1,
                    "Object.keys" => 2,
                    _ => return None,
                };
                if self.names.get("Object").is_some() {
                    return None;
                }
                let object = by_field(list, "arguments")?.named_child(0)?;
                let literal = match kind(object) {
                    "object" => true,
                    "identifier" => {
                        let name = self.text(object);
                        matches!(self.names.get(name), Some(Slot::Expr(v)) if kind(*v) == "object")
                            && self.stays_as_written(name)
                    }
                    _ => false,
                };
                let Obj::Dict(pairs) = self.eval(object, 1) else {
                    return None;
                };
                if !literal
                    || pairs.is_empty()
                    || pairs.len() > MOST_ITEMS
                    || pairs.iter().any(|(k, _)| k == "...")
                {
                    return None;
                }
                Some(
                    pairs
                        .into_iter()
                        .map(|(k, v)| match method {
                            0 => Obj::List(vec![Obj::Val(Val::Known(k)), v]),
                            1 => v,
                            _ => Obj::Val(Val::Known(k)),
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// Whether the name bound once to a literal is only looped over: `for ... of`,
    /// `Object.entries`/`values`/`keys`, or a method of [`EACH_ITEM`] called on it. A scan
    /// of the program, made once per name.
    fn stays_as_written(&mut self, name: &'a str) -> bool {
        if let Some(known) = self.as_written.get(name) {
            return *known;
        }
        if self.scans >= MOST_SCANS {
            return false;
        }
        self.scans += 1;
        let mut ok = true;
        let root = self.root;
        visit(root, |node, _, at| {
            if !ok || at == Visit::Leave {
                return false;
            }
            if matches!(kind(node), "identifier" | "shorthand_property_identifier")
                && self.text(node) == name
            {
                ok = self.only_looped_over(node);
            }
            true
        });
        self.as_written.insert(name, ok);
        ok
    }

    /// The items `name.push(...)` statements add, when every other use of the name is one
    /// [`Js::only_looped_over`] takes: a scan of the program, counted with the others.
    fn pushed_items(&mut self, name: &'a str) -> Option<Vec<Node<'t>>> {
        if self.scans >= MOST_SCANS {
            return None;
        }
        self.scans += 1;
        let mut ok = true;
        let mut pushed = Vec::new();
        visit(self.root, |node, _, at| {
            if !ok || at == Visit::Leave {
                return false;
            }
            if matches!(kind(node), "identifier" | "shorthand_property_identifier")
                && self.text(node) == name
            {
                match self.pushes_onto(node) {
                    Some(items) => pushed.extend(items),
                    None => ok = self.only_looped_over(node),
                }
            }
            pushed.len() <= MOST_ITEMS
        });
        (ok && pushed.len() <= MOST_ITEMS).then_some(pushed)
    }

    /// The items of `node.push(...)`, a statement of its own (what it returns unused), when
    /// none is spread.
    fn pushes_onto(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        let member = node.parent().filter(|p| kind(*p) == "member_expression")?;
        if by_field(member, "object") != Some(node)
            || by_field(member, "property").map(|p| self.text(p)) != Some("push")
        {
            return None;
        }
        let call = member.parent().filter(|c| {
            kind(*c) == "call_expression" && by_field(*c, "function") == Some(member)
        })?;
        call.parent()
            .filter(|s| kind(*s) == "expression_statement")?;
        let arguments = by_field(call, "arguments")?;
        let mut c = arguments.walk();
        let items: Vec<Node<'t>> = arguments.named_children(&mut c).collect();
        items
            .iter()
            .all(|i| !matches!(kind(*i), "spread_element" | "comment"))
            .then_some(items)
    }

    /// Whether the use `node` of a name loops over its value, or is its binding.
    fn only_looped_over(&self, node: Node<'t>) -> bool {
        let Some(parent) = node.parent() else {
            return false;
        };
        match kind(parent) {
            "variable_declarator" => by_field(parent, "name") == Some(node),
            "for_in_statement" => by_field(parent, "right") == Some(node),
            "member_expression" => {
                let property = by_field(parent, "property").map(|p| self.text(p));
                let called = parent.parent().is_some_and(|c| {
                    kind(c) == "call_expression" && by_field(c, "function") == Some(parent)
                });
                by_field(parent, "object") == Some(node)
                    && match property {
                        Some(p) if EACH_ITEM.contains(&p) || READS_ARRAY.contains(&p) => called,
                        Some("length") => !called,
                        _ => false,
                    }
            }
            "arguments" => parent.parent().is_some_and(|c| {
                by_field(c, "function").is_some_and(|f| {
                    let f = self.text(f);
                    matches!(f, "Object.entries" | "Object.values" | "Object.keys")
                        || f.strip_prefix("console.").is_some_and(|m| {
                            matches!(m, "log" | "info" | "warn" | "error" | "debug")
                        })
                })
            }),
            _ => false,
        }
    }

    /// Whether no item of a loop can change through the loop name `name`'s value being
    /// shared: it is never assigned to another name, put in an array or object, returned,
    /// or handed to a function that is neither a library's nor one read at its calls that
    /// leaves that argument as it is. (A method that changes it, `args.push(x)`, makes the
    /// name itself not known when the names are bound.)
    pub(super) fn unaliased(&mut self, name: &'a str) -> bool {
        if let Some(known) = self.unaliased.get(name) {
            return *known;
        }
        if self.scans >= MOST_SCANS {
            return false;
        }
        self.scans += 1;
        let mut uses = Vec::new();
        visit(self.root, |node, _, at| {
            if at == Visit::Enter
                && matches!(kind(node), "identifier" | "shorthand_property_identifier")
                && self.text(node) == name
            {
                uses.push(node);
            }
            at == Visit::Enter
        });
        let ok = uses.into_iter().all(|node| self.not_shared(node));
        self.unaliased.insert(name, ok);
        ok
    }

    fn not_shared(&mut self, node: Node<'t>) -> bool {
        let Some(parent) = node.parent() else {
            return false;
        };
        // `{ args }` puts it in an object.
        if kind(node) == "shorthand_property_identifier" {
            return false;
        }
        match kind(parent) {
            // `const [cmd, args] = step`: the names take its parts, which they share in
            // turn.
            "variable_declarator" if by_field(parent, "value") == Some(node) => {
                match by_field(parent, "name") {
                    Some(p) if matches!(kind(p), "array_pattern" | "object_pattern") => {
                        let (mut names, mut other) = (Vec::new(), Vec::new());
                        self.pattern_names(p, Vec::new(), &mut names, &mut other);
                        other.is_empty()
                            && names.into_iter().all(|(n, _)| {
                                let name = self.text(n);
                                self.unaliased(name)
                            })
                    }
                    _ => false,
                }
            }
            "variable_declarator" => true,
            "assignment_expression" => by_field(parent, "right") != Some(node),
            "array" | "pair" | "object" | "return_statement" | "yield_expression" => false,
            "arguments" => {
                let Some(call) = parent.parent() else {
                    return false;
                };
                let Some(function) = by_field(call, "function") else {
                    return false;
                };
                let mut c = parent.walk();
                let at = parent.named_children(&mut c).position(|a| a == node);
                if kind(function) == "identifier"
                    && let Some(k) = at
                    && self.functions.keeps(self.text(function), k)
                {
                    return true;
                }
                let text = self.text(function);
                let root = text.split('.').next().unwrap_or(text);
                let reads = (text.starts_with("console.") || READS_ONLY.contains(&text))
                    && self.names.get(root).is_none();
                reads || matches!(self.eval(function, 1), Obj::Ref(_))
            }
            _ => true,
        }
    }
}
