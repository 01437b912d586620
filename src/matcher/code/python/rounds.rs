//! Loops over literals read round by round: a call whose arguments name a loop's variable
//! runs once per item of the literal list, tuple or dictionary the loop goes over.

use tree_sitter::Node;

use super::loops::enclosing_loop;
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

/// A literal dictionary's key and value nodes; no value when it may have changed.
type Pair<'t> = (Node<'t>, Option<Node<'t>>);

/// One round of a loop over a literal: each of the loop's names with its item.
pub(super) type Round<'t> = Vec<(String, Slot<'t>)>;

impl<'a, 't> Py<'a, '_, 't> {
    /// Runs `f` once per round of a loop over a literal, with the loop's names bound to
    /// that round's items.
    pub(super) fn each_round(&mut self, rounds: Vec<Round<'t>>, mut f: impl FnMut(&mut Self)) {
        for round in rounds {
            let outer: Vec<_> = round
                .into_iter()
                .map(|(name, item)| {
                    let before = self.names.replace(&name, Some(item));
                    (name, before)
                })
                .collect();
            f(self);
            for (name, before) in outer.into_iter().rev() {
                self.names.replace(&name, before);
            }
        }
    }

    /// A name among `call`'s arguments that a loop binds to each of the script's arguments
    /// (`for t in sys.argv[1:]: shutil.rmtree(t)`), and those arguments, when the line
    /// gives a few and each is known.
    pub(super) fn loop_over_arguments(&mut self, call: Node<'t>) -> Option<(&'a str, Vec<Val>)> {
        let arguments = by_field(call, "arguments")?;
        let mut c = arguments.walk();
        let names: Vec<Node<'t>> = arguments
            .named_children(&mut c)
            .filter(|a| kind(*a) == "identifier")
            .collect();
        for name in names {
            let Some(Slot::Each(iterable)) = self.names.get(self.text(name)).cloned() else {
                continue;
            };
            let (Some(value), Some(slice)) =
                (by_field(iterable, "value"), by_field(iterable, "subscript"))
            else {
                continue;
            };
            if kind(slice) != "slice"
                || !matches!(self.eval(value, 0), Obj::Ref(q) if q == "sys.argv")
            {
                continue;
            }
            let text = self.text(slice).replace(' ', "");
            let Some(from) = text.strip_suffix(':').and_then(|n| n.parse::<usize>().ok()) else {
                continue;
            };
            let given = self.cx.args()?.get(from.saturating_sub(1)..)?.to_vec();
            if from > 0
                && !given.is_empty()
                && given.len() <= 16
                && given.iter().all(|v| matches!(v, Val::Known(_)))
            {
                return Some((self.text(name), given));
            }
        }
        None
    }

    /// The first name in `call` (its arguments, or the object of a method it calls, and
    /// what the names there were assigned, a few assignments deep: `p = home / name;
    /// p.read_text()`) that a loop binds to each item of a literal list, tuple or set of a
    /// few items, and the rounds of that loop: each item, or for a loop that unpacks
    /// literal tuples (`for tool, args in [('git', ['--version']), ...]`), each tuple's
    /// parts, bound together.
    pub(super) fn loop_over_literal(&self, call: Node<'t>) -> Option<Vec<Round<'t>>> {
        const MOST_ITEMS: usize = 16;
        const MOST_ASSIGNMENTS: usize = 4;
        // Nodes looked at for one call: a call's arguments are read once per call, and a
        // chain of calls (`x.a().a()...`) must not make that the square of its length.
        const MOST_NODES: usize = 512;
        if !self.over_literals {
            return None;
        }
        // Its arguments, and the name a method is called on (not the calls before it).
        let function = by_field(call, "function");
        let object = function.and_then(|f| match kind(f) {
            "attribute" => by_field(f, "object"),
            _ => Some(f),
        });
        // The object may be a call (`Path('/proc/sys', k).write_text(v)`); a chain of calls
        // is searched only as far as `MOST_NODES` goes.
        let mut search: Vec<Node<'t>> = by_field(call, "arguments")
            .into_iter()
            .chain(object.filter(|o| matches!(kind(*o), "identifier" | "call")))
            .collect();
        let mut followed = 0;
        let mut nodes = 0;
        while let Some(root) = search.pop() {
            let mut found = None;
            let mut assigned = Vec::new();
            visit(root, |node, _, at| {
                if found.is_some() || at == Visit::Leave || nodes >= MOST_NODES {
                    return false;
                }
                nodes += 1;
                // A comprehension's own variable is read by its value (`over_literal`).
                if matches!(
                    kind(node),
                    "generator_expression"
                        | "list_comprehension"
                        | "set_comprehension"
                        | "dictionary_comprehension"
                ) {
                    return false;
                }
                if kind(node) == "identifier" {
                    let looped = match self.names.get(self.text(node)) {
                        Some(Slot::Each(iterable)) => Some(*iterable),
                        Some(Slot::Loops(iterables)) => enclosing_loop(node, iterables),
                        _ => None,
                    };
                    match self.names.get(self.text(node)) {
                        // The first name of `for k, v in D.items()`: both names, together.
                        Some(Slot::Each(iterable))
                            if let Some(rounds) = self.unpacked_literal(*iterable, MOST_ITEMS) =>
                        {
                            found = Some(rounds);
                        }
                        Some(Slot::Each(_) | Slot::Loops(_))
                            if let Some(items) = looped.and_then(|i| self.literal_items(i, 0))
                                && !items.is_empty()
                                && items.len() <= MOST_ITEMS =>
                        {
                            let name = self.text(node);
                            found = Some(
                                items
                                    .into_iter()
                                    .map(|item| vec![(name.to_owned(), item)])
                                    .collect(),
                            );
                        }
                        Some(Slot::Part(iterable, _))
                            if let Some(rounds) = self.unpacked_literal(*iterable, MOST_ITEMS) =>
                        {
                            found = Some(rounds);
                        }
                        Some(Slot::Expr(value)) => assigned.push(*value),
                        _ => {}
                    }
                }
                true
            });
            if found.is_some() {
                return found;
            }
            for value in assigned {
                if followed < MOST_ASSIGNMENTS {
                    followed += 1;
                    search.push(value);
                }
            }
        }
        None
    }

    /// The rounds of a `for` that unpacks each item of `iterable`, a literal of at most
    /// `most` literal tuples (or lists) as long as its names: each name bound to its part.
    fn unpacked_literal(&self, iterable: Node<'t>, most: usize) -> Option<Vec<Round<'t>>> {
        let pattern = iterable
            .parent()
            .filter(|f| matches!(kind(*f), "for_statement" | "for_in_clause"))
            .and_then(|f| by_field(f, "left"))?;
        let mut c = pattern.walk();
        let names: Vec<&'a str> = pattern
            .named_children(&mut c)
            .map(|n| (kind(n) == "identifier").then(|| self.text(n)))
            .collect::<Option<_>>()?;
        // `for k, v in D.items()` of a dictionary that stays as written: its pairs.
        if let Some(pairs) = self.constant_dict_items(iterable)
            && names.len() == 2
        {
            if pairs.is_empty() || pairs.len() > most {
                return None;
            }
            return Some(
                pairs
                    .into_iter()
                    .map(|(k, v)| {
                        vec![
                            (names[0].to_owned(), Slot::Expr(k)),
                            (names[1].to_owned(), v.map_or(Slot::Many, Slot::Expr)),
                        ]
                    })
                    .collect(),
            );
        }
        let items = self.literal_items(iterable, 0)?;
        if items.is_empty() || items.len() > most {
            return None;
        }
        items
            .into_iter()
            .map(|item| {
                let Slot::Expr(tuple) = item else { return None };
                if !matches!(kind(tuple), "tuple" | "list") {
                    return None;
                }
                let mut c = tuple.walk();
                let parts: Vec<Node<'t>> = tuple.named_children(&mut c).collect();
                if parts.len() != names.len() || parts.iter().any(|p| kind(*p) == "list_splat") {
                    return None;
                }
                Some(
                    names
                        .iter()
                        .zip(parts)
                        .map(|(name, part)| ((*name).to_owned(), Slot::Expr(part)))
                        .collect(),
                )
            })
            .collect()
    }

    /// The key and value nodes of `D.items()`, when `D` is a literal dictionary, or a name
    /// bound once to one that stays as written (see `constants::stays_as_written`).
    ///
    /// A value is `None` when the items may have been changed in place since (the keys are
    /// still the literal's).
    fn constant_dict_items(&self, iterable: Node<'t>) -> Option<Vec<Pair<'t>>> {
        if super::dict_view(self, iterable)? != "items" {
            return None;
        }
        let object = by_field(iterable, "function").and_then(|f| by_field(f, "object"))?;
        let (dict, changed) = match kind(object) {
            "dictionary" => (object, false),
            "identifier" => {
                let dict = self.constant_shape(object, &["dictionary"])?;
                (dict, self.items_may_change(object, dict))
            }
            _ => return None,
        };
        let mut c = dict.walk();
        dict.named_children(&mut c)
            .filter(|e| kind(*e) != "comment")
            .map(|pair| match kind(pair) {
                "pair" => Some((
                    by_field(pair, "key")?,
                    Some(by_field(pair, "value")?).filter(|_| !changed),
                )),
                _ => None,
            })
            .collect()
    }

    /// The items a loop over `iterable` takes in turn, when it is a literal list, tuple or
    /// set, or such a literal joined by `+` to other iterables (`['build'] +
    /// glob.glob('src/*.egg-info')`): each literal item as itself, each other part as its
    /// elements.
    fn literal_items(&self, iterable: Node<'t>, depth: usize) -> Option<Vec<Slot<'t>>> {
        match kind(iterable) {
            "list" | "tuple" | "set" => {
                let mut c = iterable.walk();
                Some(iterable.named_children(&mut c).map(Slot::Expr).collect())
            }
            // A dictionary's keys: the literal's own (`for p in {'a': 1}`), or those of its
            // `.items()`/`.keys()`, of a literal or a name bound once to one.
            "dictionary" => dict_keys(iterable),
            "call" => {
                let object = by_field(iterable, "function").and_then(|f| by_field(f, "object"))?;
                super::dict_view(self, iterable)?;
                match kind(object) {
                    "dictionary" => dict_keys(object),
                    _ => dict_keys(self.constant_shape(object, &["dictionary"])?),
                }
            }
            // A name bound once to a literal that stays as written (`DIRS = ['build',
            // 'dist']`, then `for d in DIRS`).
            "identifier" if depth < 4 => {
                let literal =
                    self.constant_literal(iterable, &["list", "tuple", "set", "dictionary"])?;
                self.literal_items(literal, depth + 1)
            }
            // An attribute of a class read at its calls that holds such a literal
            // (`targets = ['.env', ...]` in the class, then `for t in self.targets`).
            "attribute" if depth < 4 => {
                let object = by_field(iterable, "object")?;
                let attr = by_field(iterable, "attribute")?;
                let literal = self.member_literal(object, self.text(attr))?;
                self.literal_items(literal, depth + 1)
            }
            "binary_operator"
                if depth < 4
                    && by_field(iterable, "operator").is_some_and(|o| self.text(o) == "+") =>
            {
                let (left, right) = (by_field(iterable, "left")?, by_field(iterable, "right")?);
                let part = |side: Node<'t>| self.literal_items(side, depth + 1).ok_or(side);
                match (part(left), part(right)) {
                    (Err(_), Err(_)) => None,
                    (l, r) => {
                        let mut items = Vec::new();
                        for side in [l, r] {
                            match side {
                                Ok(literal) => items.extend(literal),
                                Err(other) => items.push(Slot::Each(other)),
                            }
                        }
                        Some(items)
                    }
                }
            }
            _ => None,
        }
    }
}

/// The keys of a dictionary literal, unless one is spread into it (`{**other}`), which
/// brings keys not written here.
fn dict_keys(dict: Node<'_>) -> Option<Vec<Slot<'_>>> {
    let mut c = dict.walk();
    let mut keys = Vec::new();
    for entry in dict.named_children(&mut c) {
        match kind(entry) {
            "pair" => keys.push(Slot::Expr(by_field(entry, "key")?)),
            "comment" => {}
            _ => return None,
        }
    }
    Some(keys)
}
