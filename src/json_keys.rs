//! Duplicate keys in JSON objects: serde_json keeps the last one silently, so
//! `{"command": "ls", "command": "rm -rf /"}` could be read one way by the gate and another by
//! the tool. Every JSON body the gate decides on is checked here first.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A JSON object that holds the same key twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DuplicateKey {
    /// The repeated key.
    pub key: String,
    /// Where the object is, as a path (`context.toolArgs`); empty at the top level.
    pub path: String,
    /// 1-based line of the second occurrence's value.
    pub line: usize,
    /// 1-based column there.
    pub column: usize,
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `{:?}` quotes the key and escapes control characters.
        write!(f, "duplicate key {:?}", self.key)?;
        if !self.path.is_empty() {
            write!(f, " in `{}`", self.path)?;
        }
        Ok(())
    }
}

impl std::error::Error for DuplicateKey {}

/// Checks that no object in `input` repeats a key, at any depth. Input that is not valid
/// JSON passes (the caller's own parse reports it, with its own message).
pub(crate) fn check(input: &[u8]) -> Result<(), DuplicateKey> {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_slice(input);
    let walk = Walk {
        path: &mut Vec::new(),
        found: &mut found,
    };
    match walk.deserialize(&mut de) {
        Ok(()) => Ok(()),
        Err(e) => match found {
            Some((key, path)) => Err(DuplicateKey {
                key,
                path,
                line: e.line(),
                column: e.column(),
            }),
            None => Ok(()),
        },
    }
}

/// [`check`] over text.
pub(crate) fn check_str(input: &str) -> Result<(), DuplicateKey> {
    check(input.as_bytes())
}

/// Walks one value, keeping the keys of each object it meets.
struct Walk<'a> {
    path: &'a mut Vec<String>,
    found: &'a mut Option<(String, String)>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            self.path.push(format!("[{i}]"));
            let next = seq.next_element_seed(Walk {
                path: self.path,
                found: self.found,
            });
            self.path.pop();
            if next?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                *self.found = Some((key, render_path(self.path)));
                // Read on to the value so the error's position is that of the duplicate.
                map.next_value::<IgnoredAny>()?;
                return Err(de::Error::custom("duplicate key"));
            }
            self.path.push(key);
            let value = map.next_value_seed(Walk {
                path: self.path,
                found: self.found,
            });
            self.path.pop();
            value?;
        }
        Ok(())
    }
}

fn render_path(path: &[String]) -> String {
    let mut out = String::new();
    for segment in path {
        if !segment.starts_with('[') && !out.is_empty() {
            out.push('.');
        }
        out.push_str(segment);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_duplicate_is_named() {
        let e = check(br#"{"a": 1, "a": 2}"#).unwrap_err();
        assert_eq!(e.key, "a");
        assert_eq!(e.path, "");
        assert_eq!(e.to_string(), r#"duplicate key "a""#);
    }

    #[test]
    fn nested_duplicate_names_its_path() {
        let body = br#"{"context": {"toolArgs": {"x": [{"command": "ls", "command": "rm"}]}}}"#;
        let e = check(body).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"duplicate key "command" in `context.toolArgs.x[0]`"#
        );
    }

    #[test]
    fn distinct_keys_and_invalid_json_pass() {
        assert!(check(br#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#).is_ok());
        assert!(check(b"[1, 2, \"x\", null, true, 1.5, -3]").is_ok());
        assert!(check(b"{not json").is_ok());
        assert!(check(b"").is_ok());
    }

    #[test]
    fn escaped_spellings_of_one_key_are_one_key() {
        let e = check(br#"{"command": 1, "comm\u0061nd": 2}"#).unwrap_err();
        assert_eq!(e.key, "command");
    }

    #[test]
    fn control_characters_in_keys_are_escaped() {
        let e = check(b"{\"\\u001b[2J\": 1, \"\\u001b[2J\": 2}").unwrap_err();
        assert!(!e.to_string().contains('\u{1b}'));
    }
}
