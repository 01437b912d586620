//! Template strings (`logs/{topicId}.jsonl`), parsed once at compile time.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A variable a template can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Var {
    TopicId,
    SessionKey,
    Point,
    Tool,
    Timestamp,
}

impl Var {
    fn from_name(name: &str) -> Option<Var> {
        Some(match name {
            "topicId" => Var::TopicId,
            "sessionKey" => Var::SessionKey,
            "point" => Var::Point,
            "tool" => Var::Tool,
            "timestamp" => Var::Timestamp,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Text(String),
    Var(Var),
}

/// A parsed template. Unknown `{names}` stay as written, as in the seed. Substituted values
/// are never re-scanned, so a session key containing `{point}` cannot inject a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Template {
    segments: Vec<Segment>,
}

/// The values a template is rendered with.
pub(crate) struct Vars<'a> {
    pub(crate) topic_id: Option<&'a str>,
    pub(crate) session_key: &'a str,
    pub(crate) point: &'a str,
    pub(crate) tool: Option<&'a str>,
    pub(crate) timestamp: &'a str,
}

impl Template {
    /// Parses `text`.
    pub(crate) fn parse(text: &str) -> Template {
        let mut segments = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let var = after
                .find('}')
                .and_then(|close| Var::from_name(&after[..close]).map(|v| (v, close)));
            match var {
                Some((var, close)) => {
                    literal.push_str(&rest[..open]);
                    if !literal.is_empty() {
                        segments.push(Segment::Text(std::mem::take(&mut literal)));
                    }
                    segments.push(Segment::Var(var));
                    rest = &after[close + 1..];
                }
                None => {
                    literal.push_str(&rest[..=open]);
                    rest = after;
                }
            }
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            segments.push(Segment::Text(literal));
        }
        Template { segments }
    }

    /// The text, when it holds no variable.
    pub(crate) fn constant(&self) -> Option<String> {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Text(t) => Some(t.as_str()),
                Segment::Var(_) => None,
            })
            .collect()
    }

    /// Whether the template has no variables (renders to the same text every time).
    #[cfg(test)]
    fn is_constant(&self) -> bool {
        self.segments.iter().all(|s| matches!(s, Segment::Text(_)))
    }

    pub(crate) fn render(&self, vars: &Vars<'_>) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Text(t) => out.push_str(t),
                Segment::Var(Var::TopicId) => out.push_str(vars.topic_id.unwrap_or("")),
                Segment::Var(Var::SessionKey) => out.push_str(vars.session_key),
                Segment::Var(Var::Point) => out.push_str(vars.point),
                Segment::Var(Var::Tool) => out.push_str(vars.tool.unwrap_or("")),
                Segment::Var(Var::Timestamp) => out.push_str(vars.timestamp),
            }
        }
        out
    }
}

/// Latest instant JavaScript's `toISOString` can print (year 9999).
const MAX_MS: f64 = 253_402_300_799_999.0;

/// Unix milliseconds as JavaScript's `Date.prototype.toISOString` prints them
/// (`2026-02-19T08:00:00.000Z`); out-of-range values are clamped instead of failing.
pub(crate) fn iso_timestamp(ms: f64) -> String {
    let ms = if ms.is_finite() {
        ms.clamp(0.0, MAX_MS)
    } else {
        0.0
    };
    // INVARIANT: 0 <= ms <= MAX_MS, so the cast is exact enough and cannot overflow.
    let at = UNIX_EPOCH + Duration::from_millis(ms as u64);
    humantime::format_rfc3339_millis(at).to_string()
}

/// The current time in Unix milliseconds.
pub(crate) fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars<'static> {
        Vars {
            topic_id: Some("42"),
            session_key: "s{point}",
            point: "turn:pre",
            tool: None,
            timestamp: "2026-02-19T08:00:00.000Z",
        }
    }

    #[test]
    fn renders_known_variables_and_keeps_unknown_ones() {
        let t = Template::parse("logs/{topicId}/{tool}-{point}-{nope}-{timestamp}{");
        assert!(!t.is_constant());
        assert_eq!(
            t.render(&vars()),
            "logs/42/-turn:pre-{nope}-2026-02-19T08:00:00.000Z{"
        );
        assert!(Template::parse("plain {x}").is_constant());
    }

    #[test]
    fn substituted_values_are_not_rescanned() {
        assert_eq!(Template::parse("{sessionKey}").render(&vars()), "s{point}");
    }

    #[test]
    fn iso_timestamps_match_javascript() {
        assert_eq!(
            iso_timestamp(1_771_488_000_000.0),
            "2026-02-19T08:00:00.000Z"
        );
        assert_eq!(iso_timestamp(1_500.0), "1970-01-01T00:00:01.500Z");
        assert_eq!(iso_timestamp(-5.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_timestamp(f64::NAN), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_timestamp(1e300), "9999-12-31T23:59:59.999Z");
    }
}
