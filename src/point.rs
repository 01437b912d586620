//! Lifecycle points: the places in a gateway's agent loop where hookgate is consulted.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! points {
    ($($variant:ident => $name:literal,)*) => {
        /// A lifecycle point of the agent loop (`turn:tool:pre`, `session:start`, ...).
        ///
        /// The first fourteen are the seed plugin's points; the rest are lifecycle points taken
        /// from the gateways' own documents.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Point { $($variant,)* }

        impl Point {
            /// Every point, in a stable order (the order of the index in a compiled graph).
            pub const ALL: &'static [Point] = &[$(Point::$variant,)*];

            /// The point's name as written in HOOKS.yaml.
            pub const fn as_str(self) -> &'static str {
                match self { $(Point::$variant => $name,)* }
            }

            /// Parses a point name; `None` when it is not a known point.
            pub fn from_name(name: &str) -> Option<Point> {
                match name { $($name => Some(Point::$variant),)* _ => None }
            }
        }
    };
}

points! {
    TurnPre => "turn:pre",
    TurnPost => "turn:post",
    TurnToolPre => "turn:tool:pre",
    TurnToolPost => "turn:tool:post",
    SubagentSpawnPre => "subagent:spawn:pre",
    SubagentPre => "subagent:pre",
    SubagentPost => "subagent:post",
    SubagentToolPre => "subagent:tool:pre",
    SubagentToolPost => "subagent:tool:post",
    HeartbeatPre => "heartbeat:pre",
    HeartbeatPost => "heartbeat:post",
    CronPre => "cron:pre",
    CronPost => "cron:post",
    AgentError => "agent:error",
    SessionStart => "session:start",
    SessionEnd => "session:end",
    SessionSuspend => "session:suspend",
    SessionResume => "session:resume",
    CompactionPre => "compaction:pre",
    CompactionPost => "compaction:post",
    MessageReceived => "message:received",
    MessageSending => "message:sending",
    MessageSent => "message:sent",
    ToolError => "tool:error",
    ToolResultPersist => "tool:result:persist",
    PermissionRequest => "permission:request",
    Notification => "notification",
    GatewayStart => "gateway:start",
    GatewayStop => "gateway:stop",
    SubagentSpawnPost => "subagent:spawn:post",
    SubagentEnd => "subagent:end",
    InstallPre => "install:pre",
    ExecEnv => "exec:env",
}

impl Point {
    /// The position of this point in [`Point::ALL`]; used to index per-point tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The known point closest to `name`, for "did you mean" hints.
    pub fn closest(name: &str) -> Option<Point> {
        crate::suggest::closest(name, Point::ALL.iter().map(|p| p.as_str()))
            .and_then(Point::from_name)
    }
}

/// A string that is not a known lifecycle point. The one source of what hookgate says of
/// one, wherever it is met (a policy, a test file, a request, the command line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}", self.message(), did_you_mean(.suggestion))]
pub struct UnknownPointError {
    name: String,
    suggestion: Option<Point>,
}

fn did_you_mean(suggestion: &Option<Point>) -> String {
    suggestion.map_or_else(String::new, |p| format!("; did you mean `{}`?", p.as_str()))
}

impl UnknownPointError {
    /// The name that was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The closest known point, if one is close enough to be a likely typo.
    pub fn suggestion(&self) -> Option<Point> {
        self.suggestion
    }

    /// What is wrong, without the hint: ``unknown lifecycle point `x` ``.
    pub fn message(&self) -> String {
        format!("unknown lifecycle point `{}`", self.name)
    }

    /// The hint, for a diagnostic's help: the closest point, and with `all_points` (or when
    /// none is close) every valid one.
    pub fn help(&self, all_points: bool) -> String {
        let valid = || {
            let names: Vec<&str> = Point::ALL.iter().map(|p| p.as_str()).collect();
            format!("valid points: {}", names.join(", "))
        };
        match self.suggestion {
            Some(near) if all_points => format!("did you mean `{near}`? {}", valid()),
            Some(near) => format!("did you mean `{near}`?"),
            None => valid(),
        }
    }
}

impl FromStr for Point {
    type Err = UnknownPointError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Point::from_name(s).ok_or_else(|| UnknownPointError {
            name: s.to_owned(),
            suggestion: Point::closest(s),
        })
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Point {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_indexes_are_dense() {
        for (i, p) in Point::ALL.iter().enumerate() {
            assert_eq!(Point::from_name(p.as_str()), Some(*p));
            assert_eq!(p.index(), i);
        }
        assert_eq!(Point::ALL.len(), 33);
    }

    #[test]
    fn unknown_point_suggests_the_closest() {
        let err = "turn:tool:pr".parse::<Point>().unwrap_err();
        assert_eq!(err.suggestion(), Some(Point::TurnToolPre));
        assert_eq!(
            err.to_string(),
            "unknown lifecycle point `turn:tool:pr`; did you mean `turn:tool:pre`?"
        );
        assert_eq!("zzzzzz".parse::<Point>().unwrap_err().suggestion(), None);
    }
}
