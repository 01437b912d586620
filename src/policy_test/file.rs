//! The test-file model: `*.test.yaml` text to checked [`TestCase`]s, every problem reported
//! at once with its file, line, column and field, as policy files are.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::config::yaml::{self, SpanMap};
use crate::config::{ConfigError, Diagnostic, DiagnosticKind, YamlBudget};
use crate::context::HookContext;
use crate::decision::Verdict;
use crate::point::Point;

/// The session key of a case that names none.
pub(crate) const DEFAULT_SESSION: &str = "test:session";
/// The session key of a case with `subagent: true` that names none.
pub(crate) const DEFAULT_SUBAGENT_SESSION: &str = "agent:main:subagent:test";
/// The point of a case that names none.
pub(crate) const DEFAULT_POINT: Point = Point::TurnToolPre;

/// The keys of the file's top level.
const FILE_KEYS: &[&str] = &["policy", "cases"];
/// The keys that describe the context in short; they exclude `context`.
const SHORTHAND_KEYS: &[&str] = &[
    "tool",
    "command",
    "args",
    "session",
    "prompt",
    "topic",
    "subagent",
    "cwd",
    "workspace",
];
/// The other keys of a case.
const CASE_KEYS: &[&str] = &["name", "point", "context", "expect", "hook", "message"];
/// The keys of `expect` written as a mapping (`expect: { decision: block, hook: x }`).
const EXPECT_KEYS: &[&str] = &["decision", "hook", "message"];

/// A test file, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct TestFile {
    /// The file, as it was named.
    pub path: PathBuf,
    /// `policy:`, resolved against the file's directory; `None`: the caller's default.
    pub policy: Option<PathBuf>,
    /// The cases, in file order.
    pub cases: Vec<TestCase>,
}

/// One case: an event and what the policy must decide about it.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// The case's name, unique in its file.
    pub name: String,
    /// The line the case starts on.
    pub line: usize,
    /// The lifecycle point to evaluate.
    pub point: Point,
    /// The event.
    pub context: HookContext,
    /// What must come out.
    pub expect: Expectation,
}

/// What a case requires of the decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// The verdict.
    pub verdict: Verdict,
    /// The deciding hook's id, when given.
    pub hook: Option<String>,
    /// A substring of the decision's message, when given.
    pub message: Option<String>,
}

/// Why a test file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read test file `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file was read but has problems; every problem is listed.
    #[error("`{}` is not a valid test file: {} problem{}", file.display(), diagnostics.len(), if diagnostics.len() == 1 { "" } else { "s" })]
    Invalid {
        /// The file.
        file: PathBuf,
        /// The file's text, for rendering snippets.
        source_text: Arc<str>,
        /// The problems, in file order.
        diagnostics: Vec<Diagnostic>,
    },
}

impl LoadError {
    /// The problems found in the file (empty for a read error).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            LoadError::Invalid { diagnostics, .. } => diagnostics,
            LoadError::Read { .. } => &[],
        }
    }
}

/// Reads and checks the test file at `path`.
pub fn load_file(path: &Path) -> Result<TestFile, LoadError> {
    let text = crate::config::read_text(path, &YamlBudget::default()).map_err(|e| match e {
        ConfigError::Invalid {
            file,
            source_text,
            diagnostics,
        } => LoadError::Invalid {
            file,
            source_text,
            diagnostics,
        },
        ConfigError::Read { path, source } => LoadError::Read { path, source },
        ConfigError::NotRegular { path, kind } => LoadError::Read {
            path,
            source: std::io::Error::other(format!("it is {kind}, not a regular file")),
        },
        other => LoadError::Read {
            path: path.to_path_buf(),
            source: std::io::Error::other(other.to_string()),
        },
    })?;
    parse_str(&text, path)
}

/// Checks test-file `text`; `path` names it in diagnostics, and `policy:` is resolved
/// against its directory.
pub(crate) fn parse_str(text: &str, path: &Path) -> Result<TestFile, LoadError> {
    let source_text: Arc<str> = Arc::from(text);
    let invalid = |diagnostics: Vec<Diagnostic>| LoadError::Invalid {
        file: path.to_path_buf(),
        source_text: Arc::clone(&source_text),
        diagnostics,
    };
    let parsed = yaml::parse(text, &YamlBudget::default()).map_err(|e| {
        invalid(vec![Diagnostic::new(
            DiagnosticKind::Yaml,
            path,
            e.position,
            "",
            e.message,
        )])
    })?;
    let mut checker = Checker {
        file: path,
        spans: &parsed.spans,
        diagnostics: Vec::new(),
    };
    let file = checker.file(&parsed.value, path);
    let mut diagnostics = checker.diagnostics;
    match file {
        Some(file) if diagnostics.is_empty() => Ok(file),
        _ => {
            diagnostics.sort_by_key(|d| (d.line(), d.column()));
            diagnostics.dedup();
            Err(invalid(diagnostics))
        }
    }
}

/// Walks the parsed document, collecting problems.
struct Checker<'a> {
    file: &'a Path,
    spans: &'a SpanMap,
    diagnostics: Vec<Diagnostic>,
}

/// Where a problem is reported: at a key, or at a value.
#[derive(Clone, Copy)]
enum At {
    Key,
    Value,
}

impl Checker<'_> {
    /// `dir` (relative) resolved against the test file's directory, absolute and normalised.
    fn beside_file(&self, dir: &str) -> String {
        let base = self.file.parent().unwrap_or(Path::new(""));
        let joined = std::path::absolute(base.join(dir)).unwrap_or_else(|_| base.join(dir));
        crate::matcher::paths::normalize(&joined.to_string_lossy())
    }

    fn report(
        &mut self,
        kind: DiagnosticKind,
        pointer: &str,
        at: At,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        let position = match at {
            At::Key => self.spans.key(pointer),
            At::Value => self.spans.value(pointer),
        };
        let mut d = Diagnostic::new(kind, self.file, position, pointer, message);
        if let Some(help) = help {
            d = d.with_help(help);
        }
        self.diagnostics.push(d);
    }

    /// A structural problem (wrong type, missing or unknown key) at a value.
    fn schema(&mut self, pointer: &str, message: impl Into<String>) {
        self.report(DiagnosticKind::Schema, pointer, At::Value, message, None);
    }

    /// A problem of meaning (a conflict, a duplicate, an unknown name) at a value.
    fn semantic(&mut self, pointer: &str, message: impl Into<String>, help: Option<String>) {
        self.report(DiagnosticKind::Semantic, pointer, At::Value, message, help);
    }

    /// Reports every key of `map` not in `known`, at the key, with a did-you-mean.
    fn unknown_keys(&mut self, map: &Map<String, Value>, pointer: &str, known: &[&[&str]]) {
        let all = || known.iter().flat_map(|k| k.iter().copied());
        for key in map.keys() {
            if all().any(|k| k == key) {
                continue;
            }
            let help = match crate::suggest::closest(key, all()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "known fields: {}",
                    all()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            self.report(
                DiagnosticKind::Schema,
                &child(pointer, key),
                At::Key,
                format!("unknown field `{key}`"),
                Some(help),
            );
        }
    }

    /// The string at `map[key]`, if present; a value of another type is reported.
    fn string<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Option<&'v str> {
        match map.get(key)? {
            Value::String(s) => Some(s),
            other => {
                self.schema(
                    &child(pointer, key),
                    format!("expected a string, found {}", kind(other)),
                );
                None
            }
        }
    }

    /// Like [`Checker::string`], and the string must not be empty.
    fn non_empty(&mut self, map: &Map<String, Value>, pointer: &str, key: &str) -> Option<String> {
        let s = self.string(map, pointer, key)?;
        if s.is_empty() {
            self.schema(&child(pointer, key), "must not be empty");
            return None;
        }
        Some(s.to_owned())
    }

    fn file(&mut self, value: &Value, path: &Path) -> Option<TestFile> {
        let Value::Object(map) = value else {
            self.schema(
                "",
                format!(
                    "expected a mapping with `cases` (and optionally `policy`), found {}",
                    kind(value)
                ),
            );
            return None;
        };
        self.unknown_keys(map, "", &[FILE_KEYS]);
        let policy = self.non_empty(map, "", "policy").map(|p| {
            let dir = path.parent().unwrap_or(Path::new(""));
            dir.join(p)
        });
        let cases = match map.get("cases") {
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.schema(
                    "/cases",
                    format!("expected a list of cases, found {}", kind(other)),
                );
                return None;
            }
            None => {
                self.schema("", "missing field `cases`");
                return None;
            }
        };
        let mut names: HashMap<String, usize> = HashMap::new();
        let mut out = Vec::with_capacity(cases.len());
        for (i, item) in cases.iter().enumerate() {
            let pointer = format!("/cases/{i}");
            let Some(case) = self.case(item, &pointer) else {
                continue;
            };
            if let Some(first) = names.get(&case.name) {
                self.semantic(
                    &child(&pointer, "name"),
                    format!("duplicate case name `{}`", case.name),
                    Some(format!("the first case of that name is on line {first}")),
                );
                continue;
            }
            names.insert(case.name.clone(), case.line);
            out.push(case);
        }
        Some(TestFile {
            path: path.to_path_buf(),
            policy,
            cases: out,
        })
    }

    fn case(&mut self, value: &Value, pointer: &str) -> Option<TestCase> {
        let Value::Object(map) = value else {
            self.schema(
                pointer,
                format!(
                    "expected a case (a mapping with `name` and `expect`), found {}",
                    kind(value)
                ),
            );
            return None;
        };
        let before = self.diagnostics.len();
        self.unknown_keys(map, pointer, &[CASE_KEYS, SHORTHAND_KEYS]);

        let name = self.non_empty(map, pointer, "name");
        if let Some(name) = &name
            && name.chars().any(char::is_control)
        {
            self.schema(
                &child(pointer, "name"),
                "a case name is one line, without control characters",
            );
        }
        if !map.contains_key("name") {
            self.schema(pointer, "missing field `name`");
        }

        let expect = self.expectation(map, pointer);
        let case_point = self.point(map, pointer);
        let context = match map.get("context") {
            Some(value) => {
                for key in SHORTHAND_KEYS.iter().filter(|k| map.contains_key(**k)) {
                    self.report(
                        DiagnosticKind::Semantic,
                        &child(pointer, key),
                        At::Key,
                        format!("`{key}` cannot be used together with `context`"),
                        Some(format!(
                            "describe the event either with `context` (a whole HookContext) or with the shorthand fields ({}), not both",
                            SHORTHAND_KEYS.join(", ")
                        )),
                    );
                }
                self.context(value, &child(pointer, "context"))
            }
            None => self.shorthand(map, pointer),
        };

        // The case's point wins; else the context's; else the default. Two different
        // points are a mistake worth naming.
        let point = match (case_point, context.as_ref().and_then(|c| c.point)) {
            (Some(a), Some(b)) if a != b => {
                self.semantic(
                    &child(pointer, "point"),
                    format!("`point: {a}` contradicts the context's `point: {b}`"),
                    Some("give the point once".to_owned()),
                );
                None
            }
            (Some(p), _) | (None, Some(p)) => Some(p),
            (None, None) => Some(DEFAULT_POINT),
        };

        if self.diagnostics.len() > before {
            return None;
        }
        Some(TestCase {
            name: name?,
            line: self.spans.value(pointer).line,
            point: point?,
            context: context?,
            expect: expect?,
        })
    }

    /// `expect: block` with `hook`/`message` beside it, or `expect: { decision: block, hook,
    /// message }`.
    fn expectation(&mut self, case: &Map<String, Value>, pointer: &str) -> Option<Expectation> {
        let (map, pointer, verdict_key) = match case.get("expect") {
            Some(Value::Object(inner)) => {
                let at = child(pointer, "expect");
                self.unknown_keys(inner, &at, &[EXPECT_KEYS]);
                for key in ["hook", "message"]
                    .iter()
                    .filter(|k| case.contains_key(**k))
                {
                    self.report(
                        DiagnosticKind::Semantic,
                        &child(pointer, key),
                        At::Key,
                        format!("`{key}` is given inside `expect` too"),
                        Some("give it once, inside `expect` or beside it".to_owned()),
                    );
                }
                (inner, at, "decision")
            }
            _ => (case, pointer.to_owned(), "expect"),
        };
        let pointer = pointer.as_str();
        let verdict = match self.string(map, pointer, verdict_key) {
            Some(text) => {
                let verdict = match text {
                    "allow" => Some(Verdict::Allow),
                    "block" => Some(Verdict::Block),
                    "ask" => Some(Verdict::Ask),
                    _ => None,
                };
                if verdict.is_none() {
                    let verdicts = ["allow", "block", "ask"];
                    let help = match crate::suggest::closest(text, verdicts) {
                        Some(near) => format!("did you mean `{near}`?"),
                        None => "expect one of `allow`, `block`, `ask`".to_owned(),
                    };
                    self.semantic(
                        &child(pointer, verdict_key),
                        format!("unknown verdict `{text}`"),
                        Some(help),
                    );
                }
                verdict
            }
            None => {
                if !map.contains_key(verdict_key) {
                    self.schema(
                        pointer,
                        format!("missing field `{verdict_key}` (allow, block or ask)"),
                    );
                }
                None
            }
        };
        let hook = self.non_empty(map, pointer, "hook");
        let message = self.non_empty(map, pointer, "message");
        if verdict == Some(Verdict::Allow) {
            // An allowed call has no deciding hook and no message to check.
            for key in ["hook", "message"].iter().filter(|k| map.contains_key(**k)) {
                self.report(
                    DiagnosticKind::Semantic,
                    &child(pointer, key),
                    At::Key,
                    format!("`{key}` needs a `block` or `ask` decision"),
                    Some("an allow decision has no deciding hook and no message".to_owned()),
                );
            }
        }
        Some(Expectation {
            verdict: verdict?,
            hook,
            message,
        })
    }

    fn point(&mut self, map: &Map<String, Value>, pointer: &str) -> Option<Point> {
        let text = self.string(map, pointer, "point")?;
        match text.parse::<Point>() {
            Ok(point) => Some(point),
            Err(unknown) => {
                self.semantic(
                    &child(pointer, "point"),
                    unknown.message(),
                    Some(unknown.help(false)),
                );
                None
            }
        }
    }

    /// A whole HookContext, in the JSON shape of `hookgate check --context`. Unlike there, an
    /// unknown field is an error: a misspelt field would leave the case testing nothing.
    fn context(&mut self, value: &Value, pointer: &str) -> Option<HookContext> {
        let Value::Object(map) = value else {
            self.schema(
                pointer,
                format!("expected a HookContext mapping, found {}", kind(value)),
            );
            return None;
        };
        let ctx = match serde_path_to_error::deserialize::<_, HookContext>(value) {
            Ok(ctx) => ctx,
            Err(e) => {
                let mut at = pointer.to_owned();
                for segment in e.path().iter() {
                    match segment {
                        serde_path_to_error::Segment::Seq { index } => {
                            yaml::push_token(&mut at, &index.to_string());
                        }
                        serde_path_to_error::Segment::Map { key } => {
                            yaml::push_token(&mut at, key);
                        }
                        _ => {}
                    }
                }
                self.schema(&at, format!("invalid context: {}", e.inner()));
                return None;
            }
        };
        // A field the context does not keep is one it does not know. Fields it keeps are
        // written back (null fields are absent either way).
        let kept = serde_json::to_value(&ctx).unwrap_or(Value::Null);
        let known: Vec<&str> = context_fields();
        let mut unknown = false;
        for (key, v) in map {
            if v.is_null() || kept.get(key).is_some() {
                continue;
            }
            unknown = true;
            let help = match crate::suggest::closest(key, known.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!("HookContext fields: {}", known.join(", ")),
            };
            self.report(
                DiagnosticKind::Schema,
                &child(pointer, key),
                At::Key,
                format!("unknown context field `{key}`"),
                Some(help),
            );
        }
        (!unknown).then_some(ctx)
    }

    /// The context the shorthand fields describe.
    fn shorthand(&mut self, map: &Map<String, Value>, pointer: &str) -> Option<HookContext> {
        let before = self.diagnostics.len();
        let subagent = match map.get("subagent") {
            None => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                self.schema(
                    &child(pointer, "subagent"),
                    format!("expected true or false, found {}", kind(other)),
                );
                None
            }
        };
        let session = self.non_empty(map, pointer, "session");
        if let (Some(session), Some(subagent)) = (&session, subagent)
            && session.contains(":subagent:") != subagent
        {
            self.semantic(
                &child(pointer, "subagent"),
                format!(
                    "`subagent: {subagent}` contradicts `session: {session}`, which is {}a sub-agent's session",
                    if subagent { "not " } else { "" }
                ),
                Some(
                    "a session is a sub-agent's when its key contains `:subagent:`; drop `subagent` or change `session`"
                        .to_owned(),
                ),
            );
        }
        let session = session.unwrap_or_else(|| {
            if subagent == Some(true) {
                DEFAULT_SUBAGENT_SESSION.to_owned()
            } else {
                DEFAULT_SESSION.to_owned()
            }
        });
        let mut ctx = HookContext::new(session);
        ctx.tool_name = self.non_empty(map, pointer, "tool");
        ctx.prompt = self.string(map, pointer, "prompt").map(str::to_owned);
        for (key, dir) in [("cwd", &mut ctx.cwd), ("workspace", &mut ctx.workspace)] {
            // A relative directory is the test file's own (`cwd: .`), so a case can name the
            // policy's directory wherever the repository is checked out.
            let given = self
                .string(map, pointer, key)
                .map(|d| match d.starts_with('/') {
                    true => d.to_owned(),
                    false => self.beside_file(d),
                });
            match given.as_deref().and_then(crate::context::dir_problem) {
                Some(problem) => self.schema(&child(pointer, key), problem),
                None => *dir = given,
            }
        }
        ctx.topic_id = match map.get("topic") {
            None => None,
            Some(v @ Value::String(_)) => Some(v.clone()),
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(Value::Number(n.clone())),
            Some(other) => {
                self.schema(
                    &child(pointer, "topic"),
                    format!("expected a string or an integer, found {}", kind(other)),
                );
                None
            }
        };
        let mut args = match map.get("args") {
            None => None,
            Some(Value::Object(args)) => Some(args.clone()),
            Some(other) => {
                self.schema(
                    &child(pointer, "args"),
                    format!(
                        "expected a mapping of tool arguments, found {}",
                        kind(other)
                    ),
                );
                None
            }
        };
        if let Some(command) = self.string(map, pointer, "command") {
            let args = args.get_or_insert_with(Map::new);
            if args.contains_key("command") {
                self.semantic(
                    &child(pointer, "command"),
                    "the command is given twice, in `command` and in `args.command`",
                    Some("keep one of them".to_owned()),
                );
            }
            args.insert("command".to_owned(), Value::String(command.to_owned()));
        }
        ctx.tool_args = args;
        (self.diagnostics.len() == before).then_some(ctx)
    }
}

/// The JSON field names of [`HookContext`], for suggestions.
fn context_fields() -> Vec<&'static str> {
    vec![
        "point",
        "sessionKey",
        "topicId",
        "prompt",
        "toolName",
        "toolArgs",
        "response",
        "subagentLabel",
        "cronJob",
        "heartbeatMeta",
        "raw",
        "timestamp",
        "traceId",
        "cwd",
        "workspace",
    ]
}

/// `pointer` extended by `key`.
fn child(pointer: &str, key: &str) -> String {
    let mut out = pointer.to_owned();
    yaml::push_token(&mut out, key);
    out
}

/// What a value is, for messages: "a string", "a list", ...
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing (null)",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests;
