//! YAML text to a JSON value plus a map from each JSON pointer to its line and column.
//!
//! The YAML layer (serde-saphyr) enforces the budgets that keep a hostile file from hanging
//! or crashing the loader: nesting depth, node and event counts, alias replays. Validation
//! then runs on plain JSON (the JSON Schema) and reports positions through the [`SpanMap`].

use std::collections::HashMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use serde_saphyr::Spanned;

/// A 1-based line and column in a policy file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, serde::Serialize)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Hard limits on what a policy file may contain.
#[derive(Debug, Clone, Copy)]
pub struct YamlBudget {
    /// Largest accepted file, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of mappings and sequences.
    pub max_depth: usize,
    /// Most nodes (after alias expansion).
    pub max_nodes: usize,
    /// Most alias (`*name`) uses.
    pub max_aliases: usize,
    /// Most events that aliases may replay in total.
    pub max_alias_replay: usize,
}

impl Default for YamlBudget {
    fn default() -> Self {
        YamlBudget {
            max_bytes: 8 * 1024 * 1024,
            max_depth: 32,
            max_nodes: 1_000_000,
            max_aliases: 1_000,
            max_alias_replay: 100_000,
        }
    }
}

/// Where each value (and each mapping key) of a parsed document stands in the file, by a
/// hash of its JSON pointer: a document of 10,000 hooks has some 150,000 nodes, and keying
/// them by pointer strings cost an allocation each. A collision could only misplace an
/// error's line, and at 64 bits none is expected.
#[derive(Debug, Default, Clone)]
pub(crate) struct SpanMap {
    values: HashMap<u64, Position>,
    keys: HashMap<u64, Position>,
}

/// The key of `pointer` in a [`SpanMap`]: deterministic within a process.
fn pointer_key(pointer: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(pointer)
}

impl SpanMap {
    /// The position of the value at `pointer`, or of its nearest located ancestor.
    pub(crate) fn value(&self, pointer: &str) -> Position {
        let mut p = pointer;
        loop {
            if let Some(pos) = self.values.get(&pointer_key(p)) {
                return *pos;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return Position { line: 1, column: 1 },
            }
        }
    }

    /// The position of the key that introduces `pointer` (else of its value).
    pub(crate) fn key(&self, pointer: &str) -> Position {
        self.keys
            .get(&pointer_key(pointer))
            .copied()
            .unwrap_or_else(|| self.value(pointer))
    }
}

/// A YAML document that parsed within budget.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) value: Value,
    pub(crate) spans: SpanMap,
}

/// Why a document could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub(crate) message: String,
    pub(crate) position: Position,
}

/// Rejects a file of `len` bytes when it is over the budget (checked before reading, too).
pub(crate) fn check_size(len: u64, budget: &YamlBudget) -> Result<(), YamlError> {
    if len > budget.max_bytes as u64 {
        return Err(YamlError {
            message: format!(
                "file is {len} bytes, over the {} byte limit",
                budget.max_bytes
            ),
            position: Position { line: 1, column: 1 },
        });
    }
    Ok(())
}

/// Parses `text` within `budget`, with the position of every node.
pub(crate) fn parse(text: &str, budget: &YamlBudget) -> Result<Parsed, YamlError> {
    check_size(text.len() as u64, budget)?;
    if text.trim().is_empty() {
        return Ok(Parsed {
            value: Value::Null,
            spans: SpanMap::default(),
        });
    }
    let root: Spanned<Node> = serde_saphyr::from_str_with_options(text, options(budget))
        .map_err(|e| yaml_error(&e, budget))?;
    let mut spans = SpanMap::default();
    let mut pointer = String::new();
    let value = into_json(root, &mut pointer, &mut spans)?;
    Ok(Parsed { value, spans })
}

/// [`parse`] without positions, about a third faster: for a policy that turns out valid,
/// which needs none. The value is the same as [`parse`]'s; on any problem, parse again with
/// [`parse`] for positions.
pub(crate) fn parse_plain(text: &str, budget: &YamlBudget) -> Result<Value, YamlError> {
    check_size(text.len() as u64, budget)?;
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    let Plain(value) = serde_saphyr::from_str_with_options(text, options(budget))
        .map_err(|e| yaml_error(&e, budget))?;
    Ok(value)
}

fn options(budget: &YamlBudget) -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    let mut limits = serde_saphyr::Budget::default();
    limits.max_depth = budget.max_depth;
    limits.max_nodes = budget.max_nodes;
    limits.max_aliases = budget.max_aliases;
    limits.max_reader_input_bytes = Some(budget.max_bytes);
    options.budget = Some(limits);
    options.alias_limits.max_total_replayed_events = budget.max_alias_replay;
    options.with_snippet = false;
    // As in the seed's js-yaml (YAML 1.2): `yes`, `no`, `on`, `off` are strings, not booleans.
    options.strict_booleans = true;
    options
}

fn yaml_error(err: &serde_saphyr::Error, budget: &YamlBudget) -> YamlError {
    let position = err
        .location()
        .filter(|l| l.line() > 0)
        .map(|l| Position {
            line: to_usize(l.line()),
            column: to_usize(l.column()).max(1),
        })
        .unwrap_or(Position { line: 1, column: 1 });
    let text = err.without_snippet().to_string();
    YamlError {
        message: plain_message(&text, budget),
        position,
    }
}

/// The YAML layer's message in our words: no Rust API names, no repeated position.
fn plain_message(text: &str, budget: &YamlBudget) -> String {
    let first = text.lines().next().unwrap_or_default();
    // The YAML layer adds its own "line N column M: " prefix and " at line N, column M" suffix.
    let first = first
        .split_once(": ")
        .filter(|(head, _)| head.starts_with("line ") && head.contains(" column "))
        .map_or(first, |(_, rest)| rest);
    let first = first.rfind(" at line ").map_or(first, |i| &first[..i]);
    if let Some(key) = first.strip_prefix("duplicate mapping key: ") {
        let key = key.split(", set DuplicateKeyPolicy").next().unwrap_or(key);
        return format!("duplicate key `{key}`: a key may appear once in a mapping");
    }
    if first.contains("budget breached: Depth") || first.contains("recursion limit exceeded") {
        return format!(
            "nesting is deeper than the limit of {} levels",
            budget.max_depth
        );
    }
    if first.contains("budget breached: Aliases") {
        return format!("more than {} aliases (`*name`)", budget.max_aliases);
    }
    if first.contains("budget breached: Nodes") {
        return format!(
            "more than {} nodes (after expanding aliases)",
            budget.max_nodes
        );
    }
    if first.contains("budget breached") || first.contains("replay") {
        return "aliases expand to more data than allowed (an alias bomb?)".to_owned();
    }
    if first.starts_with("multiple YAML documents") {
        return "more than one YAML document (`---`): a policy file holds exactly one".to_owned();
    }
    format!("invalid YAML: {first}")
}

fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

fn position_of<T>(s: &Spanned<T>) -> Position {
    Position {
        line: to_usize(s.referenced.line()).max(1),
        column: to_usize(s.referenced.column()).max(1),
    }
}

/// Appends one RFC 6901 reference token to `pointer`.
pub(crate) fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

fn into_json(
    node: Spanned<Node>,
    pointer: &mut String,
    spans: &mut SpanMap,
) -> Result<Value, YamlError> {
    let position = position_of(&node);
    spans.values.insert(pointer_key(pointer), position);
    Ok(match node.value {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Int(i) => Value::Number(i.into()),
        Node::UInt(u) => Value::Number(u.into()),
        Node::Float(f) => Value::Number(float(f).ok_or_else(|| YamlError {
            message: format!("`{f}` is not a finite number"),
            position,
        })?),
        Node::Str(s) => Value::String(s),
        Node::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                let len = pointer.len();
                push_token(pointer, &i.to_string());
                out.push(into_json(item, pointer, spans)?);
                pointer.truncate(len);
            }
            Value::Array(out)
        }
        Node::Map(entries) => {
            let mut out = Map::with_capacity(entries.len());
            for (key, value) in entries {
                let len = pointer.len();
                push_token(pointer, &key.value);
                spans.keys.insert(pointer_key(pointer), position_of(&key));
                let v = into_json(value, pointer, spans)?;
                pointer.truncate(len);
                out.insert(key.value, v);
            }
            Value::Object(out)
        }
    })
}

/// YAML `100.0` and `1e2` are the integer 100 for every integer field, as in JavaScript;
/// `None` for a number JSON cannot hold (`.inf`, `.nan`).
fn float(f: f64) -> Option<Number> {
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        Some((f as i64).into())
    } else {
        Number::from_f64(f)
    }
}

/// A YAML document read straight into JSON, as [`into_json`] makes it, without positions.
struct Plain(Value);

impl<'de> Deserialize<'de> for Plain {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PlainVisitor).map(Plain)
    }
}

struct PlainVisitor;

impl<'de> Visitor<'de> for PlainVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Plain::deserialize(d).map(|p| p.0)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        float(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("`{v}` is not a finite number")))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Plain(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Map::new();
        while let Some((key, Plain(value))) = map.next_entry::<String, Plain>()? {
            entries.insert(key, value);
        }
        Ok(Value::Object(entries))
    }
}

/// A YAML node with the positions of its children.
#[derive(Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<String>, Spanned<Node>)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::UInt(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Str(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry::<Spanned<String>, Spanned<Node>>()? {
            entries.push(entry);
        }
        Ok(Node::Map(entries))
    }
}

#[cfg(test)]
mod tests;
