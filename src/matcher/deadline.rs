//! The time by which the filter checks of one evaluation must stop.
//!
//! The daemon bounds the CPU an evaluation may take (docs/daemon.md, "Bounded work"): the
//! checks look at the clock between steps and give up once the deadline has passed, so a
//! thread working on a hostile call is free again soon after the caller got its answer.
//! Each step is itself bounded (the readers spend from a work budget, regexes run in linear
//! time), so stopping between steps is prompt.

use std::time::Instant;

/// When the checks must stop; [`Deadline::NONE`] never passes (the library's own path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline.
    pub const NONE: Deadline = Deadline(None);

    /// A deadline at `instant`.
    pub fn at(instant: Instant) -> Deadline {
        Deadline(Some(instant))
    }

    /// The instant, if there is one.
    pub fn instant(self) -> Option<Instant> {
        self.0
    }

    /// Whether the deadline has passed (one clock read; none without a deadline).
    #[inline]
    pub fn passed(self) -> bool {
        self.0.is_some_and(|at| Instant::now() >= at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn passes_only_with_an_instant_in_the_past() {
        assert!(!Deadline::NONE.passed());
        assert!(Deadline::at(Instant::now()).passed());
        assert!(!Deadline::at(Instant::now() + Duration::from_secs(60)).passed());
    }
}
