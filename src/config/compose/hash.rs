//! Hashes of what a policy was composed from: a reload, a decision log line or a lint
//! names the policy by them, so equal policies must hash equal.

use std::fmt::Write as _;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::config::LoadedPolicy;

/// `sha256:<hex>` of `text`.
pub fn content_hash(text: &str) -> String {
    hex_digest(Sha256::digest(text.as_bytes()).as_slice())
}

fn hex_digest(digest: &[u8]) -> String {
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

impl LoadedPolicy {
    /// `sha256:<hex>`: of the file's bytes for a single-file policy; otherwise of every
    /// source's path and text, in order, so a change to any of them changes it.
    pub fn hash(&self) -> String {
        if let [only] = self.sources.as_slice() {
            return content_hash(&only.text);
        }
        let mut hasher = Sha256::new();
        for source in &self.sources {
            let path = source.path.as_os_str().as_encoded_bytes();
            hasher.update((path.len() as u64).to_le_bytes());
            hasher.update(path);
            hasher.update((source.text.len() as u64).to_le_bytes());
            hasher.update(source.text.as_bytes());
        }
        hex_digest(hasher.finalize().as_slice())
    }
}

/// A JSON text of `value` with object keys sorted: equal for equal values whatever the
/// order the keys were written in (`""` for no value).
pub(crate) fn canonical_json(value: Option<&Value>) -> String {
    fn write(value: &Value, out: &mut String) {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (n, key) in keys.into_iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(':');
                    if let Some(v) = map.get(key) {
                        write(v, out);
                    }
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    if let Some(value) = value {
        write(value, &mut out);
    }
    out
}
