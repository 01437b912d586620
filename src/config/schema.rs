//! Validation against `schemas/hooks.schema.json`, with errors turned into [`Diagnostic`]s.

use std::path::Path;
use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use super::error::{Code, Diagnostic, DiagnosticKind};
use super::yaml::{SpanMap, push_token};
use crate::point::Point;
use crate::suggest;

/// The JSON Schema of HOOKS.yaml (draft 2020-12), as shipped in `schemas/`.
pub(crate) const HOOKS_SCHEMA: &str = include_str!("../../schemas/hooks.schema.json");

struct Compiled {
    schema: Value,
    validator: Validator,
}

fn compiled() -> Option<&'static Compiled> {
    static COMPILED: OnceLock<Option<Compiled>> = OnceLock::new();
    COMPILED
        .get_or_init(|| {
            let schema: Value = serde_json::from_str(HOOKS_SCHEMA).ok()?;
            let validator = jsonschema::options()
                // The schema declares draft 2020-12 for editors, and uses only keywords that
                // mean the same under draft 7 (a test below holds it to that). Validating
                // under draft 7 halves a one-shot process's start: building the 2020-12
                // meta-schema validator took about 1.8 ms of `hookgate check`'s time.
                .with_draft(jsonschema::Draft::Draft7)
                .build(&schema)
                .ok()?;
            Some(Compiled { schema, validator })
        })
        .as_ref()
}

/// Checks `value` against the schema, appending one diagnostic per problem to `out`.
pub(crate) fn check(value: &Value, spans: &SpanMap, file: &Path, out: &mut Vec<Diagnostic>) {
    let Some(compiled) = compiled() else {
        // INVARIANT: the embedded schema is valid; a unit test compiles it.
        out.push(Diagnostic::new(
            DiagnosticKind::Schema,
            file,
            spans.value(""),
            "",
            "internal error: the embedded JSON Schema does not compile",
        ));
        return;
    };
    let ctx = Ctx {
        schema: &compiled.schema,
        spans,
        file,
    };
    for error in compiled.validator.iter_errors(value) {
        ctx.report(&error, out);
    }
}

struct Ctx<'a> {
    schema: &'a Value,
    spans: &'a SpanMap,
    file: &'a Path,
}

impl Ctx<'_> {
    fn diag(&self, pointer: &str, message: String) -> Diagnostic {
        Diagnostic::new(
            DiagnosticKind::Schema,
            self.file,
            self.spans.value(pointer),
            pointer,
            message,
        )
    }

    fn report(&self, error: &ValidationError<'_>, out: &mut Vec<Diagnostic>) {
        let pointer = error.instance_path().as_str();
        let instance = error.instance();
        match error.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let allowed = self.allowed_properties(error.schema_path().as_str());
                for name in unexpected {
                    let mut at = pointer.to_owned();
                    push_token(&mut at, name);
                    let mut d = Diagnostic::new(
                        DiagnosticKind::Schema,
                        self.file,
                        self.spans.key(&at),
                        &at,
                        format!("unknown field `{name}`"),
                    )
                    .with_code(Code::UnknownField);
                    if let Some(s) = suggest::closest(name, allowed.iter().map(String::as_str)) {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    } else if !allowed.is_empty() {
                        d = d.with_help(format!("allowed fields: {}", allowed.join(", ")));
                    }
                    out.push(d);
                }
            }
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                let d = self.diag(pointer, format!("missing required field `{name}`"));
                out.push(d.with_code(Code::MissingField));
            }
            ValidationErrorKind::Enum { options } => {
                out.push(self.enum_error(pointer, instance, options))
            }
            ValidationErrorKind::Type { kind } => out.push(self.diag(
                pointer,
                format!(
                    "expected {}, found {}",
                    type_names(kind),
                    describe(instance)
                ),
            )),
            ValidationErrorKind::AnyOf { context }
            | ValidationErrorKind::OneOfNotValid { context } => {
                // Report the branch that has the right shape: its errors say what is wrong.
                // Best: every error lies inside the value; next: none is a type mismatch.
                let at_root = |e: &ValidationError<'_>| e.instance_path().as_str() == pointer;
                let wrong_shape = |e: &ValidationError<'_>| {
                    at_root(e)
                        && matches!(
                            e.kind(),
                            ValidationErrorKind::Type { .. } | ValidationErrorKind::Enum { .. }
                        )
                };
                let branch = context
                    .iter()
                    .find(|errors| !errors.iter().any(at_root))
                    .or_else(|| {
                        context
                            .iter()
                            .find(|errors| !errors.iter().any(wrong_shape))
                    })
                    .or_else(|| {
                        context.iter().find(|errors| {
                            !errors.iter().any(|e| {
                                matches!(e.kind(), ValidationErrorKind::Type { .. }) && at_root(e)
                            })
                        })
                    });
                match branch {
                    Some(errors) if !errors.is_empty() => {
                        for e in errors {
                            self.report(e, out);
                        }
                    }
                    _ => out.push(self.diag(
                        pointer,
                        format!(
                            "expected {}, found {}",
                            self.any_of_shapes(context),
                            describe(instance)
                        ),
                    )),
                }
            }
            ValidationErrorKind::Minimum { limit } => out.push(self.diag(
                pointer,
                format!("must be at least {limit}, found {instance}"),
            )),
            ValidationErrorKind::Maximum { limit } => out.push(self.diag(
                pointer,
                format!("must be at most {limit}, found {instance}"),
            )),
            ValidationErrorKind::MinLength { limit: 1 } => {
                out.push(self.diag(pointer, "must not be empty".to_owned()))
            }
            ValidationErrorKind::MinItems { limit } => out.push(self.diag(
                pointer,
                format!(
                    "must have at least {limit} item{}",
                    if *limit == 1 { "" } else { "s" }
                ),
            )),
            _ => out.push(self.diag(pointer, error.to_string())),
        }
    }

    fn enum_error(&self, pointer: &str, instance: &Value, options: &Value) -> Diagnostic {
        let mut names: Vec<String> = options
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        // `version: ["1", 1]` would otherwise read "one of `1`, `1`".
        names.dedup();
        let given = instance
            .as_str()
            .map_or_else(|| instance.to_string(), str::to_owned);
        let is_point = names.iter().any(|n| n == Point::TurnPre.as_str());
        if is_point && let Err(unknown) = given.parse::<Point>() {
            return self
                .diag(pointer, unknown.message())
                .with_code(Code::UnknownPoint)
                .with_help(unknown.help(true));
        }
        let message = format!(
            "`{given}` is not one of {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let d = self.diag(pointer, message);
        match suggest::closest(&given, names.iter().map(String::as_str)) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d,
        }
    }

    /// The property names the schema allows where an `additionalProperties` error was raised.
    fn allowed_properties(&self, schema_path: &str) -> Vec<String> {
        let object_path = schema_path
            .strip_suffix("/additionalProperties")
            .unwrap_or(schema_path);
        self.schema
            .pointer(object_path)
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn any_of_shapes(&self, context: &[Vec<ValidationError<'static>>]) -> String {
        let mut shapes: Vec<String> = context
            .iter()
            .flat_map(|errors| errors.iter())
            .filter_map(|e| match e.kind() {
                ValidationErrorKind::Type { kind } => Some(type_names(kind)),
                ValidationErrorKind::Enum { .. } => Some("one of the allowed names".to_owned()),
                _ => None,
            })
            .collect();
        shapes.dedup();
        if shapes.is_empty() {
            "another shape".to_owned()
        } else {
            shapes.join(" or ")
        }
    }
}

fn type_names(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(t) => article(&t.to_string()),
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t| article(&t.to_string()))
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

fn article(type_name: &str) -> String {
    match type_name {
        "array" => "a list".to_owned(),
        "object" => "a mapping".to_owned(),
        "integer" => "an integer".to_owned(),
        "null" => "null".to_owned(),
        other => format!("a {other}"),
    }
}

/// A short description of a value for "found ..." messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "nothing (null)".to_owned(),
        Value::Bool(b) => format!("a boolean (`{b}`)"),
        Value::Number(n) => format!("a number (`{n}`)"),
        Value::String(s) if s.chars().count() > 40 => "a string".to_owned(),
        Value::String(s) => format!("a string (`{s}`)"),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "a mapping".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::yaml::{YamlBudget, parse};

    fn diagnostics(text: &str) -> Vec<Diagnostic> {
        let parsed = parse(text, &YamlBudget::default()).expect("yaml");
        let mut out = Vec::new();
        check(&parsed.value, &parsed.spans, Path::new("H.yaml"), &mut out);
        out
    }

    #[test]
    fn embedded_schema_compiles() {
        assert!(compiled().is_some());
    }

    /// Draft 7 and 2020-12 read this schema the same only while it avoids the keywords whose
    /// meaning differs between them, and while `$ref` has no constraining siblings (draft 7
    /// ignores them).
    #[test]
    fn the_schema_means_the_same_under_draft_7() {
        const DIFFERENT: [&str; 14] = [
            "prefixItems",
            "unevaluatedProperties",
            "unevaluatedItems",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "$dynamicRef",
            "$dynamicAnchor",
            "$recursiveRef",
            "$anchor",
            "contains",
            "if",
            "additionalItems",
            "$vocabulary",
        ];
        fn walk(v: &Value, at: &str) {
            match v {
                Value::Object(map) => {
                    if map.contains_key("$ref") {
                        let siblings: Vec<&String> = map
                            .keys()
                            .filter(|k| !["$ref", "description", "examples"].contains(&k.as_str()))
                            .collect();
                        assert!(siblings.is_empty(), "{at}: $ref beside {siblings:?}");
                    }
                    // `properties` names fields, not keywords; its values are schemas.
                    for (k, child) in map {
                        assert!(
                            at.ends_with("/properties") || !DIFFERENT.contains(&k.as_str()),
                            "{at}/{k}"
                        );
                        if k == "items" {
                            assert!(child.is_object(), "{at}/items: tuple form");
                        }
                        walk(child, &format!("{at}/{k}"));
                    }
                }
                Value::Array(items) => items.iter().for_each(|i| walk(i, at)),
                _ => {}
            }
        }
        let schema: Value = serde_json::from_str(HOOKS_SCHEMA).expect("schema");
        walk(&schema, "");
    }

    #[test]
    fn minimal_policy_is_valid() {
        assert!(diagnostics("version: 1\nhooks: []\n").is_empty());
    }

    #[test]
    fn unknown_field_names_the_key_and_suggests() {
        let d = diagnostics(
            "version: \"1\"\nhooks:\n  - point: turn:pre\n    action: log\n    tagret: x\n",
        );
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!((d[0].line(), d[0].column()), (5, 5));
        assert_eq!(d[0].path(), "hooks[0].tagret");
        assert_eq!(d[0].message(), "unknown field `tagret`");
        assert_eq!(d[0].help(), Some("did you mean `target`?"));
    }

    #[test]
    fn unknown_point_in_a_list_has_did_you_mean() {
        let d = diagnostics(
            "version: 1\nhooks:\n  - point: [turn:pre, turn:tool:pr]\n    action: block\n",
        );
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].path(), "hooks[0].point[1]");
        assert_eq!(d[0].message(), "unknown lifecycle point `turn:tool:pr`");
        assert!(
            d[0].help()
                .unwrap_or_default()
                .starts_with("did you mean `turn:tool:pre`? valid points: turn:pre,")
        );
        assert_eq!((d[0].line(), d[0].column()), (3, 23));
    }

    #[test]
    fn single_unknown_point_is_reported_not_the_any_of() {
        let d = diagnostics("version: 1\nhooks:\n  - point: trun:pre\n    action: block\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].message(), "unknown lifecycle point `trun:pre`");
    }

    #[test]
    fn wrong_types_and_missing_fields_are_all_reported() {
        let d = diagnostics(
            "version: 1\nhooks:\n  - point: turn:pre\n    match: { tool: 5 }\n  - action: log\n    onFailure: { action: explode, retries: 0 }\n",
        );
        let messages: Vec<_> = d
            .iter()
            .map(|d| (d.path().to_owned(), d.message().to_owned()))
            .collect();
        assert!(
            messages.contains(&("hooks[0]".into(), "missing required field `action`".into())),
            "{messages:?}"
        );
        assert!(
            messages.contains(&(
                "hooks[0].match.tool".into(),
                "expected a string or a list, found a number (`5`)".into()
            )),
            "{messages:?}"
        );
        assert!(
            messages.contains(&("hooks[1]".into(), "missing required field `point`".into())),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|(p, m)| p == "hooks[1].onFailure.action" && m.contains("explode")),
            "{messages:?}"
        );
        assert!(
            messages.contains(&(
                "hooks[1].onFailure.retries".into(),
                "must be at least 1, found 0".into()
            )),
            "{messages:?}"
        );
    }
}
