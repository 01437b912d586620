//! Marks and branches: undoing what code that may not run changed in the variables, and
//! joining the values the ways it may have run leave.

use super::{Env, MOST_ITEMS_OF_A_WAY, MOST_WAYS, Value, Var};
use std::collections::HashMap;

impl Env {
    /// This point of the line, to undo or join the variables' changes after it.
    pub(in crate::matcher::shell) fn mark(&self) -> Mark {
        Mark(self.trail.len())
    }

    /// How many changes were made since `mark`: the work of undoing or joining them.
    pub(in crate::matcher::shell) fn changes_since(&self, mark: Mark) -> usize {
        self.trail.len().saturating_sub(mark.0)
    }

    /// Puts back the variables as they were at `mark` (a subshell ended).
    pub(in crate::matcher::shell) fn restore(&mut self, mark: Mark) {
        while self.trail.len() > mark.0 {
            let Some((name, old)) = self.trail.pop() else {
                break;
            };
            self.put(&name, old);
        }
    }

    /// The variables as they are now, and the variables as they were at `mark`: one way
    /// code since `mark` may have run. Restores them to `mark` for the next way.
    pub(in crate::matcher::shell) fn end_branch(&mut self, branches: &mut Branches) {
        let mut end = HashMap::new();
        for (name, _) in &self.trail[branches.mark.0.min(self.trail.len())..] {
            end.entry(name.clone())
                .or_insert_with(|| self.vars.get(name).cloned());
        }
        branches.ends.push(end);
        self.restore(branches.mark);
    }

    /// After code that may or may not have run, in any of the ways recorded in `branches`:
    /// a variable whose value is not the same in all of them (and at the mark, unless
    /// one of the ways always ran) holds one of those values when each is a known text or
    /// a short array, a few at most, and is unknown otherwise.
    pub(in crate::matcher::shell) fn join_branches(&mut self, branches: Branches) {
        self.merge(branches, true);
    }

    /// After code since `mark` that may not have run (the right side of `&&`): a variable
    /// it changed holds its value before or after, as [`Env::join_branches`] says.
    pub(in crate::matcher::shell) fn join_ways(&mut self, mark: Mark) {
        let mut branches = Branches::from(mark);
        self.end_branch(&mut branches);
        self.merge(branches, true);
    }

    /// After code since `mark` that may have run any number of times (a loop's body): a
    /// variable it changed is unknown, since a value after two rounds says nothing of the
    /// third.
    pub(in crate::matcher::shell) fn join(&mut self, mark: Mark) {
        let mut branches = Branches::from(mark);
        self.end_branch(&mut branches);
        self.merge(branches, false);
    }

    fn merge(&mut self, branches: Branches, ways: bool) {
        // A set: a branch may change thousands of variables (`{ v1=1; v2=1; ...; }`), and
        // looking each up in a list would make the join quadratic.
        let mut differs: Vec<&String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for end in &branches.ends {
            for (name, var) in end {
                if self.vars.get(name) != var.as_ref() && seen.insert(name) {
                    differs.push(name);
                }
            }
        }
        for name in differs {
            let values = if ways {
                self.values_on_every_way(name, &branches)
            } else {
                None
            };
            let var = match values {
                Some(mut v) if v.len() == 1 => v.remove(0),
                Some(v) => Var::OneOf(v),
                None => Var::Scalar(Value::Unknown),
            };
            if self.vars.get(name) != Some(&var) {
                self.replace(name, Some(var));
            }
        }
    }

    /// The values `name` may hold after `branches`, when every way leaves a known text or
    /// an array of at most [`MOST_ITEMS_OF_A_WAY`] elements, and there are few; `None`
    /// otherwise.
    fn values_on_every_way(&self, name: &String, branches: &Branches) -> Option<Vec<Var>> {
        let mut values: Vec<Var> = Vec::new();
        let at_mark = self.vars.get(name);
        let ends = branches
            .ends
            .iter()
            .map(|end| end.get(name).map_or(at_mark, Option::as_ref));
        let ways: Vec<Option<&Var>> = if branches.exhaustive {
            ends.collect()
        } else {
            std::iter::once(at_mark).chain(ends).collect()
        };
        for var in ways {
            let var = var?;
            let these = match var {
                Var::Scalar(Value::Known(_)) => std::slice::from_ref(var),
                Var::Array(items) if items.len() <= MOST_ITEMS_OF_A_WAY => {
                    std::slice::from_ref(var)
                }
                Var::OneOf(v) => v.as_slice(),
                _ => return None,
            };
            for v in these {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
            if values.len() > MOST_WAYS {
                return None;
            }
        }
        (values.len() == 1 || self.room_for_ways(name)).then_some(values)
    }
}

/// A point of the line, as far as variables go: see [`Env::mark`].
#[derive(Debug, Clone, Copy)]
pub(in crate::matcher::shell) struct Mark(usize);

/// The ways code after a [`Mark`] may have run, each as the values it left in the
/// variables it changed: see [`Env::end_branch`].
#[derive(Debug)]
pub(in crate::matcher::shell) struct Branches {
    mark: Mark,
    ends: Vec<HashMap<String, Option<Var>>>,
    /// One of the ways always runs: the values at the mark are not one of the outcomes.
    exhaustive: bool,
}

impl Branches {
    pub(in crate::matcher::shell) fn mark(&self) -> Mark {
        self.mark
    }
}

impl From<Mark> for Branches {
    fn from(mark: Mark) -> Self {
        Branches {
            mark,
            ends: Vec::new(),
            exhaustive: false,
        }
    }
}

impl Branches {
    /// Ways of which one always runs (a command read once per value of a variable).
    pub(in crate::matcher::shell) fn every_way(mark: Mark) -> Self {
        Branches {
            exhaustive: true,
            ..Branches::from(mark)
        }
    }
}
