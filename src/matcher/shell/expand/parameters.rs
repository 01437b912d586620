//! Parameter expansion (`$x`, `${x:-w}`, `${x%p}`, `${!x}`, `${a[@]}`, ...): the value of a
//! variable, an element or a special parameter, and the operators on it.

use super::super::env::Value;
use super::super::walk::Reader;
use super::{PROCESS_ID, ansi_c};
use brush_parser::word::{self, Parameter, ParameterExpr, ParameterTestType, SpecialParameter};

impl Reader {
    pub(super) fn parameter(&mut self, expr: &ParameterExpr) -> Expansion {
        use ParameterExpr as P;
        match expr {
            P::Parameter {
                parameter,
                indirect,
            } => self.lookup(parameter, *indirect),
            P::UseDefaultValues {
                parameter,
                indirect,
                test_type,
                default_value,
            }
            | P::AssignDefaultValues {
                parameter,
                indirect,
                test_type,
                default_value,
            } => {
                let current = self.lookup(parameter, *indirect);
                let assign = matches!(expr, P::AssignDefaultValues { .. });
                match self.is_null(parameter, *indirect, &current, test_type) {
                    Some(false) => current,
                    Some(true) => {
                        let value = self.expand_string(default_value.as_deref().unwrap_or(""));
                        if assign && let Parameter::Named(name) = parameter {
                            self.env.set(name, value.clone());
                        }
                        Expansion::One(value)
                    }
                    None => self.either(default_value.as_deref()),
                }
            }
            P::UseAlternativeValue {
                parameter,
                indirect,
                test_type,
                alternative_value,
            } => {
                let current = self.lookup(parameter, *indirect);
                match self.is_null(parameter, *indirect, &current, test_type) {
                    Some(true) => Expansion::One(Value::known("")),
                    Some(false) => Expansion::One(
                        self.expand_string(alternative_value.as_deref().unwrap_or("")),
                    ),
                    None => self.either(alternative_value.as_deref()),
                }
            }
            P::IndicateErrorIfNullOrUnset {
                parameter,
                indirect,
                ..
            } => self.lookup(parameter, *indirect),
            P::ParameterLength {
                parameter,
                indirect,
            } => match self.lookup_text(parameter, *indirect) {
                Expansion::One(Value::Known(t)) => {
                    Expansion::One(Value::Known(t.chars().count().to_string()))
                }
                Expansion::Each(items) | Expansion::Joined(items)
                    if matches!(parameter, Parameter::NamedWithAllIndices { .. }) =>
                {
                    Expansion::One(Value::Known(items.len().to_string()))
                }
                _ => Expansion::One(Value::Unknown),
            },
            P::RemoveSmallestSuffixPattern {
                parameter,
                indirect,
                pattern,
            }
            | P::RemoveLargestSuffixPattern {
                parameter,
                indirect,
                pattern,
            }
            | P::RemoveSmallestPrefixPattern {
                parameter,
                indirect,
                pattern,
            }
            | P::RemoveLargestPrefixPattern {
                parameter,
                indirect,
                pattern,
            } => {
                let pattern = self.expand_string(pattern.as_deref().unwrap_or(""));
                let kind = match expr {
                    P::RemoveSmallestSuffixPattern { .. } => Trim::SmallestSuffix,
                    P::RemoveLargestSuffixPattern { .. } => Trim::LargestSuffix,
                    P::RemoveSmallestPrefixPattern { .. } => Trim::SmallestPrefix,
                    _ => Trim::LargestPrefix,
                };
                let current = self.lookup_text(parameter, *indirect);
                current.map(|v| match (v, &pattern) {
                    (Value::Known(t), Value::Known(p)) => super::super::pattern::trim(&t, p, kind)
                        .map_or(Value::Unknown, Value::Known),
                    _ => Value::Unknown,
                })
            }
            P::Substring {
                parameter,
                indirect,
                offset,
                length,
            } => {
                let offset = self.arithmetic(&offset.value);
                let length = length.as_ref().map(|l| self.arithmetic(&l.value));
                // `${@:2}` and `${a[@]:1:2}` take elements, not characters of each.
                if let Some(slice) = self.elements(parameter, *indirect, &offset, length.as_ref()) {
                    return slice;
                }
                let current = self.lookup_text(parameter, *indirect);
                current.map(|v| substring(v, &offset, length.as_ref()))
            }
            P::Transform {
                parameter,
                indirect,
                op,
            } => {
                use word::ParameterTransformOp as Op;
                let current = self.lookup_text(parameter, *indirect);
                match op {
                    Op::ToLowerCase => current.map(|v| v.map_text(|t| t.to_lowercase())),
                    Op::ToUpperCase => current.map(|v| v.map_text(|t| t.to_uppercase())),
                    Op::CapitalizeInitial => current.map(|v| v.map_text(|t| capitalize(&t))),
                    Op::ExpandEscapeSequences => current.map(|v| v.map_text(|t| ansi_c(&t))),
                    Op::PromptExpand => {
                        // `${x@P}` expands the value as a prompt: its substitutions run.
                        current.map(|v| match v {
                            Value::Known(t) => self.expand_string(&format!("\"{t}\"")),
                            Value::Unknown => Value::Unknown,
                        })
                    }
                    _ => Expansion::One(Value::Unknown),
                }
            }
            // `${x^}`, `${x^^}`, `${x,}`, `${x,,}`: with a pattern (`${x^^r}`), only the
            // characters it matches change, which is not modelled: unknown.
            P::UppercaseFirstChar {
                parameter,
                indirect,
                pattern,
            }
            | P::UppercasePattern {
                parameter,
                indirect,
                pattern,
            }
            | P::LowercaseFirstChar {
                parameter,
                indirect,
                pattern,
            }
            | P::LowercasePattern {
                parameter,
                indirect,
                pattern,
            } => {
                let current = self.lookup_text(parameter, *indirect);
                if pattern
                    .as_deref()
                    .is_some_and(|p| !matches!(p, "" | "?" | "*"))
                {
                    return current.map(|_| Value::Unknown);
                }
                let convert: fn(&str) -> String = match expr {
                    P::UppercaseFirstChar { .. } => capitalize,
                    P::UppercasePattern { .. } => str::to_uppercase,
                    P::LowercaseFirstChar { .. } => lower_first,
                    _ => str::to_lowercase,
                };
                current.map(|v| v.map_text(|t| convert(&t)))
            }
            P::ReplaceSubstring {
                parameter,
                indirect,
                pattern,
                replacement,
                match_kind,
            } => {
                let pattern = self.expand_string(pattern);
                let replacement = self.expand_string(replacement.as_deref().unwrap_or(""));
                let current = self.lookup_text(parameter, *indirect);
                current.map(|v| match (v, &pattern, &replacement) {
                    (Value::Known(t), Value::Known(p), Value::Known(r)) => {
                        super::super::pattern::replace(&t, p, r, match_kind.clone())
                            .map_or(Value::Unknown, Value::Known)
                    }
                    _ => Value::Unknown,
                })
            }
            P::VariableNames { prefix, .. } => Expansion::Each(
                self.env
                    .names()
                    .filter(|n| n.starts_with(prefix.as_str()))
                    .map(Value::known)
                    .collect(),
            ),
            P::MemberKeys {
                variable_name,
                concatenate,
            } => match self.env.keys(variable_name) {
                Some(keys) => {
                    let keys = keys.into_iter().map(Value::Known).collect();
                    if *concatenate {
                        Expansion::Joined(keys)
                    } else {
                        Expansion::Each(keys)
                    }
                }
                None => Expansion::One(Value::Unknown),
            },
        }
    }

    /// A `${x:-word}`-like expansion whose test cannot be decided: `word` is read for its
    /// substitutions (it may run), and the value is unknown.
    fn either(&mut self, word: Option<&str>) -> Expansion {
        let _ = self.expand_string(word.unwrap_or(""));
        Expansion::One(Value::Unknown)
    }

    /// Whether the parameter is null (or unset) for a `:-`/`-` test: `None` if not known.
    fn is_null(
        &self,
        parameter: &Parameter,
        indirect: bool,
        current: &Expansion,
        test: &ParameterTestType,
    ) -> Option<bool> {
        if indirect {
            return None;
        }
        if let Parameter::Named(name) = parameter
            && !self.env.is_set(name)
        {
            // The agent's environment may hold it.
            return None;
        }
        match (current, test) {
            (Expansion::One(Value::Known(t)), ParameterTestType::UnsetOrNull) => Some(t.is_empty()),
            (Expansion::One(Value::Known(_)), ParameterTestType::Unset) => Some(false),
            _ => None,
        }
    }

    /// [`Reader::lookup`] for an operation on the value's text (`${HOME:0:1}`, `${#HOME}`,
    /// `${HOME/r/x}`), which needs `$HOME`'s real text rather than the `~` that stands for
    /// it in paths: the host's home directory, else not known.
    fn lookup_text(&mut self, parameter: &Parameter, indirect: bool) -> Expansion {
        // `${!x:0:1}` with `x=HOME` names it through another variable.
        let name = match (parameter, indirect) {
            (Parameter::Named(name), false) => Some(name.clone()),
            (Parameter::Named(_), true) => match self.lookup_direct(parameter) {
                Expansion::One(Value::Known(name)) => Some(name),
                _ => None,
            },
            _ => None,
        };
        if !name.is_some_and(|n| n == "HOME" && self.env.is_builtin(&n)) {
            return self.lookup(parameter, indirect);
        }
        Expansion::One(
            self.host
                .as_ref()
                .and_then(|h| h.home.clone())
                .map_or(Value::Unknown, Value::Known),
        )
    }

    fn lookup(&mut self, parameter: &Parameter, indirect: bool) -> Expansion {
        let direct = self.lookup_direct(parameter);
        if !indirect {
            return direct;
        }
        match direct {
            Expansion::One(Value::Known(name)) => {
                if !self.spend_parse(1) {
                    return Expansion::One(Value::Unknown);
                }
                match word::parse_parameter(&name, &self.options) {
                    Ok(p) => self.lookup_direct(&p),
                    Err(_) => Expansion::One(Value::Unknown),
                }
            }
            _ => Expansion::One(Value::Unknown),
        }
    }

    fn lookup_direct(&mut self, parameter: &Parameter) -> Expansion {
        match parameter {
            Parameter::Named(name) => Expansion::One(self.env.get(name)),
            Parameter::NamedWithIndex { name, index } => {
                let index = match self.expand_string(index) {
                    Value::Known(i) => match super::super::arith::eval(&i, &self.env) {
                        Some(n) => n.to_string(),
                        // `${a[RANDOM%2]}`: an index not known of an indexed array.
                        None if self.env.is_indexed(name) => {
                            return Expansion::One(Value::Unknown);
                        }
                        None => i,
                    },
                    Value::Unknown => return Expansion::One(Value::Unknown),
                };
                Expansion::One(self.env.element(name, &index))
            }
            Parameter::NamedWithAllIndices { name, concatenate } => match self.env.array(name) {
                Some(items) if *concatenate => Expansion::Joined(items),
                Some(items) => Expansion::Each(items),
                None => Expansion::One(Value::Unknown),
            },
            Parameter::Positional(0) => Expansion::One(Value::known("bash")),
            // `$0`: the name `bash -c SCRIPT NAME` gave, else the agent's shell's own.
            Parameter::Special(SpecialParameter::ShellName) => {
                Expansion::One(self.env.arg0.clone().unwrap_or(Value::Unknown))
            }
            Parameter::Positional(n) => Expansion::One(match &self.env.positional {
                Some(args) => args
                    .get(*n as usize - 1)
                    .cloned()
                    .unwrap_or(Value::known("")),
                None => Value::Unknown,
            }),
            Parameter::Special(SpecialParameter::AllPositionalParameters { concatenate }) => {
                match &self.env.positional {
                    // `"$*"`: one word, joined by the first character of `$IFS`.
                    Some(args) if *concatenate => Expansion::Joined(args.clone()),
                    Some(args) => Expansion::Each(args.clone()),
                    None => Expansion::One(Value::Unknown),
                }
            }
            Parameter::Special(SpecialParameter::PositionalParameterCount) => {
                Expansion::One(match &self.env.positional {
                    Some(args) => Value::Known(args.len().to_string()),
                    None => Value::Unknown,
                })
            }
            // The shell's process id and the last background job's (`kill $!`): digits,
            // never a path (`/tmp/build.$$`) nor a command.
            Parameter::Special(
                SpecialParameter::ProcessId | SpecialParameter::LastBackgroundProcessId,
            ) => Expansion::One(Value::known(PROCESS_ID)),
            Parameter::Special(_) => Expansion::One(Value::Unknown),
        }
    }
}

/// What a parameter expands to: one value, or (`"$@"`, `"${a[@]}"`) one per element.
#[derive(Debug, Clone)]
pub(super) enum Expansion {
    One(Value),
    Each(Vec<Value>),
    /// `${a[*]}`: quoted, one word of the elements joined by the first character of
    /// `$IFS`; unquoted, as `${a[@]}`.
    Joined(Vec<Value>),
}

impl Expansion {
    fn map(self, mut f: impl FnMut(Value) -> Value) -> Expansion {
        match self {
            Expansion::One(v) => Expansion::One(f(v)),
            Expansion::Each(items) => Expansion::Each(items.into_iter().map(f).collect()),
            Expansion::Joined(items) => Expansion::Joined(items.into_iter().map(f).collect()),
        }
    }
}

impl Value {
    fn map_text(self, f: impl FnOnce(String) -> String) -> Value {
        match self {
            Value::Known(t) => Value::Known(f(t)),
            Value::Unknown => Value::Unknown,
        }
    }
}

/// Which end `${x%p}`, `${x%%p}`, `${x#p}`, `${x##p}` removes.
#[derive(Debug, Clone, Copy)]
pub(in crate::matcher::shell) enum Trim {
    SmallestSuffix,
    LargestSuffix,
    SmallestPrefix,
    LargestPrefix,
}

fn lower_first(t: &str) -> String {
    let mut c = t.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

fn capitalize(t: &str) -> String {
    let mut c = t.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `${x:offset:length}` on characters, with bash's negative offsets and lengths.
fn substring(v: Value, offset: &Value, length: Option<&Value>) -> Value {
    let (Value::Known(t), Value::Known(o)) = (v, offset) else {
        return Value::Unknown;
    };
    let chars: Vec<char> = t.chars().collect();
    let len = chars.len() as i64;
    let Ok(o) = o.parse::<i64>() else {
        return Value::Unknown;
    };
    let start = if o < 0 { (len + o).max(0) } else { o.min(len) };
    let end = match length {
        None => len,
        Some(Value::Known(l)) => match l.parse::<i64>() {
            Ok(l) if l < 0 => len + l,
            Ok(l) => start.saturating_add(l).min(len),
            Err(_) => return Value::Unknown,
        },
        Some(Value::Unknown) => return Value::Unknown,
    };
    if end < start {
        return Value::known("");
    }
    Value::Known(chars[start as usize..end as usize].iter().collect())
}

/// `text` with each extended glob group (`!(a|b)`, `@(x)`, `*(x)`, `+(x)`, `?(x)`) written
/// as `*`, if it has one.
pub(super) fn extglob_as_star(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let opens = |k: usize| {
        matches!(bytes.get(k), Some(b'!' | b'@' | b'*' | b'+' | b'?'))
            && bytes.get(k + 1) == Some(&b'(')
    };
    if !(0..bytes.len()).any(opens) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut k = 0;
    while k < bytes.len() {
        if opens(k) {
            // To the group's closing parenthesis, nested ones counted.
            let mut depth = 0usize;
            let mut end = k + 1;
            while end < bytes.len() {
                match bytes[end] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                end += 1;
            }
            out.push('*');
            k = end + 1;
        } else {
            let c = text[k..].chars().next().unwrap_or_default();
            out.push(c);
            k += c.len_utf8().max(1);
        }
    }
    Some(out)
}
