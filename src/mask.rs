//! Masking secret-looking tool arguments, wherever arguments are kept or shown: the decision
//! log, the console's recent decisions and the approvals store all use one [`FieldMask`].

use serde_json::{Map, Value};

/// What replaces a masked value.
pub(crate) const MASKED: &str = "[masked]";

/// Field-name fragments masked by default.
pub(crate) const DEFAULT_MASKED_FIELDS: &[&str] =
    &["token", "secret", "password", "key", "authorization"];

/// Which tool-argument fields are masked: those whose name contains one of the fragments,
/// ignoring case (`apiKey`, `GITHUB_TOKEN`, `db_password` ...), at any depth.
#[derive(Debug, Clone)]
pub struct FieldMask {
    fragments: Vec<String>,
}

impl Default for FieldMask {
    fn default() -> Self {
        FieldMask::new(DEFAULT_MASKED_FIELDS.iter().copied())
    }
}

impl FieldMask {
    /// A mask of the given name fragments (empty fragments are ignored).
    pub fn new<'a>(fragments: impl IntoIterator<Item = &'a str>) -> FieldMask {
        FieldMask {
            fragments: fragments
                .into_iter()
                .map(|f| f.trim().to_lowercase())
                .filter(|f| !f.is_empty())
                .collect(),
        }
    }

    /// Whether `field` is masked.
    pub(crate) fn hides(&self, field: &str) -> bool {
        let field = field.to_lowercase();
        self.fragments.iter().any(|f| field.contains(f.as_str()))
    }

    /// A copy of `args` with every masked field's value replaced by [`MASKED`].
    pub fn apply(&self, args: &Map<String, Value>) -> Map<String, Value> {
        args.iter()
            .map(|(k, v)| {
                let v = if self.hides(k) {
                    Value::String(MASKED.to_owned())
                } else {
                    self.apply_value(v)
                };
                (k.clone(), v)
            })
            .collect()
    }

    fn apply_value(&self, value: &Value) -> Value {
        match value {
            Value::Object(map) => Value::Object(self.apply(map)),
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.apply_value(v)).collect())
            }
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn masks_secret_looking_fields_at_any_depth() {
        let args = json!({
            "command": "deploy",
            "apiKey": "k-1",
            "GITHUB_TOKEN": "t-1",
            "headers": { "Authorization": "Bearer x", "accept": "json" },
            "env": [ { "db_password": "p" } ],
        });
        let masked = FieldMask::default().apply(args.as_object().unwrap());
        assert_eq!(
            Value::Object(masked),
            json!({
                "command": "deploy",
                "apiKey": MASKED,
                "GITHUB_TOKEN": MASKED,
                "headers": { "Authorization": MASKED, "accept": "json" },
                "env": [ { "db_password": MASKED } ],
            })
        );
    }

    #[test]
    fn a_custom_mask_replaces_the_defaults() {
        let args = json!({ "token": "t", "pin": "1234" });
        let masked = FieldMask::new(["PIN", " "]).apply(args.as_object().unwrap());
        assert_eq!(
            Value::Object(masked),
            json!({ "token": "t", "pin": MASKED })
        );
    }
}
