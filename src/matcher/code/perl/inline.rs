//! Subroutines read where they are called: `sub run { system(@_) }` then `run('make',
//! 'lint')` runs `make lint`, where reading the body once would run a command built at run
//! time. A `sub` at the top of the program whose name appears only where it is defined and
//! in calls with brackets (`run(...)`, `&run(...)`; not `\&run`, a string, or a call
//! without brackets, whose arguments the grammar splits) has its body read at each call:
//! `@_` is the call's arguments, flattened as perl passes them, and so are the parameters
//! the body takes from it (`my ($cmd, @args) = @_;`, `my $x = shift;`, `$_[1]`), unless the
//! body assigns one again; within the bounds of `code/inline.rs`.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{Obj, Pl, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::inline::{Budget, Reading, defined_once, reached, whole_words};
use crate::matcher::code::tree::{Visit, visit};

/// Where a parameter takes its value in `@_`.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// The item at this place (`my ($a) = @_`, `my $a = shift`, `$_[0]`).
    At(usize),
    /// The items from this place on (`my ($a, @rest) = @_`).
    From(usize),
}

/// A sub whose body is read at its calls.
struct Inlined<'t> {
    def: Node<'t>,
    body: Node<'t>,
    /// Its parameters, each a variable with its sigil; `None` where the body changes it.
    params: Vec<(String, Option<Place>)>,
    /// Whether `@_` is as the call passed it: the body shifts nothing off it.
    whole: bool,
}

/// The subs of a program read at their calls, by name.
#[derive(Default)]
pub(super) struct Subs<'t> {
    by_name: HashMap<String, Inlined<'t>>,
    defs: HashSet<usize>,
    budget: Budget,
}

impl<'t> Subs<'t> {
    /// The top-level subs of `root` whose names are only defined and called with brackets.
    pub(super) fn of(text: &str, root: Node<'t>) -> Subs<'t> {
        let of = |n: Node<'_>| text.get(n.byte_range()).unwrap_or_default();
        let mut c = root.walk();
        let mut by_name = defined_once(root.named_children(&mut c).filter_map(|def| {
            if kind(def) != "function_definition" {
                return None;
            }
            let (name, body) = (by_field(def, "name")?, by_field(def, "body")?);
            let (params, whole) = parameters(text, body);
            let sub = Inlined {
                def,
                body,
                params,
                whole,
            };
            Some((of(name).to_owned(), sub))
        }));
        if by_name.is_empty() {
            return Subs::default();
        }
        // Each bracketed call by name; the name anywhere else (`\&run`, `'run'`, a call
        // without brackets) drops the sub.
        let defs: HashSet<usize> = by_name.values().map(|s| s.def.id()).collect();
        let mut calls: HashMap<String, usize> = HashMap::new();
        let reached = reached(root, &defs, |node| {
            if kind(node) != "call_expression_with_args_with_brackets" {
                return None;
            }
            let callee = node
                .named_child(0)
                .filter(|c| kind(*c) == "call_expression_with_bareword")?;
            let name = of(callee).trim_start_matches('&');
            let sub = by_name.get(name)?;
            *calls.entry(name.to_owned()).or_default() += 1;
            Some(sub.def.id())
        });
        by_name.retain(|name, sub| {
            let called = calls.get(name).copied().unwrap_or(0);
            whole_words(text, name) == 1 + called && reached.contains(&sub.def.id())
        });
        Subs {
            defs: by_name.values().map(|s| s.def.id()).collect(),
            by_name,
            budget: Budget::default(),
        }
    }

    /// Whether `node` defines a sub read at its calls: the program's pass skips it.
    pub(super) fn defines(&self, node: Node<'t>) -> bool {
        self.defs.contains(&node.id())
    }
}

/// The parameters `body` takes from `@_` (see [`Place`]), each `None` where the body
/// changes it again, and whether `@_` stays whole (nothing is shifted off it).
fn parameters(text: &str, body: Node<'_>) -> (Vec<(String, Option<Place>)>, bool) {
    let of = |n: Node<'_>| text.get(n.byte_range()).unwrap_or_default();
    let mut params = Vec::new();
    let mut shifted = 0;
    let mut c = body.walk();
    for statement in body.named_children(&mut c) {
        if kind(statement) != "binary_expression" || !of(statement).contains('=') {
            continue;
        }
        let (Some(left), Some(right)) = (statement.named_child(0), statement.named_child(1)) else {
            continue;
        };
        if kind(left) != "variable_declaration" {
            continue;
        }
        let right_text = of(right).trim();
        if let Some(list) = left
            .named_children(&mut left.walk())
            .find(|n| kind(*n) == "array")
        {
            if right_text != "@_" {
                continue;
            }
            let mut k = 0;
            let mut lc = list.walk();
            for var in list.named_children(&mut lc) {
                match kind(var) {
                    "scalar_variable" => params.push((of(var).to_owned(), Place::At(k))),
                    "array_variable" => params.push((of(var).to_owned(), Place::From(k))),
                    "normal_comma" => continue,
                    _ => break,
                }
                k += 1;
            }
            continue;
        }
        let Some(var) = by_field(left, "variable_name").filter(|v| kind(*v) == "scalar_variable")
        else {
            continue;
        };
        let place = match right_text {
            "shift" | "shift @_" | "shift(@_)" | "shift()" => {
                shifted += 1;
                Place::At(shifted - 1)
            }
            _ => match right_text
                .strip_prefix("$_[")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|n| n.trim().parse::<usize>().ok())
            {
                Some(n) => Place::At(n),
                None => continue,
            },
        };
        params.push((of(var).to_owned(), place));
    }
    // Kept where the declaration is the one assignment of its name in the body.
    let counts = assignments(text, body);
    let params = params
        .into_iter()
        .map(|(var, place)| {
            let name = var.trim_start_matches(['$', '@', '%']);
            let kept = counts.get(name).copied() == Some(1);
            (var, kept.then_some(place))
        })
        .collect();
    // `shift` anywhere else takes items off too, and `unshift @_`, `$_[0] = ...` change it.
    let whole = shifted == 0 && whole_words(of(body), "shift") == 0 && !counts.contains_key("_");
    (params, whole)
}

/// How many times `body` assigns each variable (by name, without its sigil: `$a[0] = x`
/// changes `@a`): targets of `=` and `.=`-like operators, `++` and `--`, a loop's
/// variable, the first argument of the built-ins that change it (`chomp`, `push`, ...),
/// and any variable a reference is taken to (it may be changed through it).
fn assignments(text: &str, body: Node<'_>) -> HashMap<String, usize> {
    const CHANGERS: &[&str] = &["chomp", "chop", "push", "unshift", "pop", "shift", "splice"];
    let of = |n: Node<'_>| text.get(n.byte_range()).unwrap_or_default();
    let mut counts: HashMap<String, usize> = HashMap::new();
    let count = |target: Node<'_>, counts: &mut HashMap<String, usize>| {
        visit(target, |n, _, at| {
            if at == Visit::Enter
                && matches!(
                    kind(n),
                    "scalar_variable"
                        | "array_variable"
                        | "hash_variable"
                        | "special_scalar_variable"
                )
            {
                let name = of(n).trim_start_matches(['$', '@', '%']);
                let name = name.trim_matches(['{', '}', ' ']).to_owned();
                *counts.entry(name).or_default() += 1;
            }
            at == Visit::Enter
        });
    };
    visit(body, |node, _, at| {
        if at == Visit::Leave {
            return false;
        }
        match kind(node) {
            "binary_expression" => {
                let op = super::values::operator(node, text);
                let assigns = op.ends_with('=')
                    && !matches!(op, "==" | "!=" | "<=" | ">=" | "<=>" | "=~" | "!~");
                if assigns && let Some(left) = node.named_child(0) {
                    count(left, &mut counts);
                }
            }
            "unary_expression" if of(node).contains("++") || of(node).contains("--") => {
                count(node, &mut counts)
            }
            "to_reference" | "for_statement_2" => {
                let mut c = node.walk();
                for part in node.named_children(&mut c) {
                    if kind(part) != "block" {
                        count(part, &mut counts);
                    }
                }
            }
            "call_expression_with_spaced_args" | "call_expression_with_args_with_brackets" => {
                let callee = node.named_child(0).map(of).unwrap_or_default();
                if CHANGERS.contains(&callee.trim_start_matches('&')) {
                    count(node, &mut counts);
                }
            }
            _ => {}
        }
        true
    });
    counts
}

impl<'t> Pl<'_, '_, 't> {
    /// When `call` calls a sub read at its calls, reads that sub's body with `@_` and its
    /// parameters bound to the call's arguments.
    pub(super) fn read_called_sub(&mut self, call: Node<'t>) {
        if self.inlined.by_name.is_empty()
            || kind(call) != "call_expression_with_args_with_brackets"
        {
            return;
        }
        let Some(name) = self.callee(call) else {
            return;
        };
        let Some(sub) = self.inlined.by_name.get(&name) else {
            return;
        };
        let (body, params, whole) = (sub.body, sub.params.clone(), sub.whole);
        match self.inlined.budget.reading(sub.def.id()) {
            Reading::Skip => return,
            Reading::Once => {
                let mut unknown: Vec<(String, Obj)> = params
                    .iter()
                    .map(|(var, _)| (var.clone(), Obj::Val(Val::Unknown)))
                    .collect();
                unknown.push(("@_".to_owned(), Obj::Val(Val::Unknown)));
                let outer = std::mem::replace(&mut self.params, unknown);
                self.walk(body);
                self.params = outer;
                return;
            }
            Reading::AtCall => {}
        }
        // The arguments where the call is, flattened as perl passes them.
        let mut args: Vec<Val> = Vec::new();
        for a in self.arg_nodes(call) {
            args.extend(self.eval(a, self.src.text, 0).list());
        }
        let mut bound: Vec<(String, Obj)> = params
            .iter()
            .map(|(var, place)| {
                let value = match place {
                    Some(Place::At(k)) => Obj::Val(args.get(*k).cloned().unwrap_or(Val::Unknown)),
                    Some(Place::From(k)) => Obj::List(args.get(*k..).unwrap_or_default().to_vec()),
                    None => Obj::Val(Val::Unknown),
                };
                (var.clone(), value)
            })
            .collect();
        let all = match whole {
            true => Obj::List(args),
            false => Obj::Val(Val::Unknown),
        };
        bound.push(("@_".to_owned(), all));
        // The sub sees its own arguments, not its caller's.
        let outer = std::mem::replace(&mut self.params, bound);
        self.walk(body);
        self.params = outer;
        self.inlined.budget.done();
    }

    /// The value a sub being read at its call gives `name` (`@_`, a parameter).
    pub(super) fn param(&self, name: &str) -> Option<Obj> {
        self.params
            .iter()
            .find(|(p, _)| p == name)
            .map(|(_, v)| v.clone())
    }
}
