//! `${@:2}`, `${a[@]:1:2}`: a slice of the positional parameters or of an array takes
//! elements, where the same operator on a scalar takes characters.

use super::super::env::Value;
use super::super::walk::Reader;
use super::parameters::Expansion;
use brush_parser::word::{Parameter, SpecialParameter};

impl Reader {
    /// `${@:offset:length}`, `${*:...}`, `${a[@]:...}` and `${a[*]:...}`: the elements from
    /// `offset` on, as bash takes them (`$0` is element 0 of `$@`; an array's offset is an
    /// index, and a negative one counts back from one past the last element); `None` for
    /// any other parameter.
    pub(super) fn elements(
        &mut self,
        parameter: &Parameter,
        indirect: bool,
        offset: &Value,
        length: Option<&Value>,
    ) -> Option<Expansion> {
        let joined = match parameter {
            Parameter::Special(SpecialParameter::AllPositionalParameters { concatenate })
            | Parameter::NamedWithAllIndices { concatenate, .. }
                if !indirect =>
            {
                *concatenate
            }
            _ => return None,
        };
        let unknown = Some(Expansion::One(Value::Unknown));
        // Each element with its index.
        let indexed: Vec<(i64, Value)> = match parameter {
            Parameter::NamedWithAllIndices { name, .. } => {
                let (Some(keys), Some(items)) = (self.env.keys(name), self.env.array(name)) else {
                    return unknown;
                };
                // Past the bound on names remembered, any array may be one.
                if self.env.associative.iter().any(|a| a == name)
                    || self.env.associative.len() >= 64
                {
                    return unknown;
                }
                let mut indexed = Vec::with_capacity(items.len());
                for (key, item) in keys.iter().zip(items) {
                    // An associative array's order is bash's own.
                    let Ok(i) = key.parse::<i64>() else {
                        return unknown;
                    };
                    indexed.push((i, item));
                }
                // Bash expands an indexed array in the order of its indices, whatever the
                // order they were assigned in.
                indexed.sort_by_key(|(i, _)| *i);
                indexed
            }
            _ => {
                let Some(args) = self.env.positional.clone() else {
                    return unknown;
                };
                let arg0 = self.env.arg0.clone().unwrap_or(Value::Unknown);
                std::iter::once(arg0)
                    .chain(args)
                    .zip(0..)
                    .map(|(v, i)| (i, v))
                    .collect()
            }
        };
        let number = |v: &Value| match v {
            Value::Known(t) => t.parse::<i64>().ok(),
            Value::Unknown => None,
        };
        let Some(offset) = number(offset) else {
            return unknown;
        };
        let end = indexed.last().map_or(0, |(i, _)| i.saturating_add(1));
        let start = if offset < 0 {
            end.saturating_add(offset)
        } else {
            offset
        };
        let count = match length.map(number) {
            None => usize::MAX,
            // A negative length is an error: the command does not run as written.
            Some(Some(l)) => match usize::try_from(l) {
                Ok(count) => count,
                Err(_) => return unknown,
            },
            Some(None) => return unknown,
        };
        let items: Vec<Value> = if start < 0 {
            Vec::new()
        } else {
            indexed
                .into_iter()
                .filter(|(i, _)| *i >= start)
                .map(|(_, v)| v)
                .take(count)
                .collect()
        };
        Some(if joined {
            Expansion::Joined(items)
        } else {
            Expansion::Each(items)
        })
    }
}
