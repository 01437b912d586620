//! JavaScript's conversions, which the seed plugin's semantics are written in: a number in
//! a policy or a context prints as JavaScript's `String(n)` prints it.

/// Formats a JSON number the way JavaScript's `String(n)` does for the values YAML produces.
pub(crate) fn number(n: &serde_json::Number) -> String {
    if let Some(f) = n.as_f64().filter(|_| n.is_f64()) {
        if f.fract() == 0.0 && f.abs() < 1e21 {
            // JavaScript prints integral doubles without a fraction: 42.0 -> "42".
            return format!("{f:.0}");
        }
        return f.to_string();
    }
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_like_javascript() {
        let n = |v: serde_json::Value| match v {
            serde_json::Value::Number(n) => number(&n),
            _ => unreachable!(),
        };
        assert_eq!(n(serde_json::json!(42)), "42");
        assert_eq!(n(serde_json::json!(42.0)), "42");
        assert_eq!(n(serde_json::json!(-7)), "-7");
        assert_eq!(n(serde_json::json!(1.5)), "1.5");
    }
}
