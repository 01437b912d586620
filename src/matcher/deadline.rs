//! How much work the filter checks of one evaluation may do: a time and a number of steps.
//!
//! The daemon bounds the CPU an evaluation may take (docs/daemon.md, "Bounded work"). On
//! its evaluation pool the bound is a deadline: the checks look at the clock between steps
//! and give up once it has passed, so a thread working on a hostile call is free again soon
//! after the caller got its answer. A light call checked in place, on an async worker, is
//! bounded by a number of steps instead: a count does not depend on how the threads are
//! scheduled, so a busy machine does not push light calls off to the pool. Each step is
//! itself bounded (the readers spend from a work budget, regexes run in linear time), so
//! stopping between steps is prompt.

use std::cell::Cell;
use std::time::Instant;

/// What the checks may still spend; [`Deadline::none`] is unlimited (the library's path).
#[derive(Debug, Clone)]
pub struct Deadline {
    at: Option<Instant>,
    /// Steps left; `usize::MAX` is unlimited.
    steps: Cell<usize>,
    /// Steps taken, for the clock reads (one per [`CLOCK_EVERY`]).
    taken: Cell<usize>,
}

/// A clock read costs about as much as a short regex run: one per this many steps.
const CLOCK_EVERY: usize = 16;

impl Deadline {
    /// No bound.
    pub fn none() -> Deadline {
        Deadline {
            at: None,
            steps: Cell::new(usize::MAX),
            taken: Cell::new(0),
        }
    }

    /// Until `instant`.
    pub fn at(instant: Instant) -> Deadline {
        Deadline {
            at: Some(instant),
            ..Deadline::none()
        }
    }

    /// At most `steps` steps.
    pub fn steps(steps: usize) -> Deadline {
        Deadline {
            steps: Cell::new(steps),
            ..Deadline::none()
        }
    }

    /// Takes one step: `false` when the bound is reached, and the checks must stop.
    #[inline]
    pub fn step(&self) -> bool {
        let left = self.steps.get();
        if left == 0 {
            return false;
        }
        if left != usize::MAX {
            self.steps.set(left - 1);
        }
        let taken = self.taken.get().wrapping_add(1);
        self.taken.set(taken);
        !(taken.is_multiple_of(CLOCK_EVERY) && self.passed())
    }

    /// Whether the deadline has passed (one clock read; never without one).
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_deadline_passes_only_with_an_instant_in_the_past() {
        assert!(!Deadline::none().passed());
        assert!(Deadline::at(Instant::now()).passed());
        assert!(!Deadline::at(Instant::now() + Duration::from_secs(60)).passed());
        let past = Deadline::at(Instant::now());
        assert!(!(0..CLOCK_EVERY).all(|_| past.step()));
    }

    #[test]
    fn steps_run_out() {
        let budget = Deadline::steps(3);
        assert!(budget.step() && budget.step() && budget.step());
        assert!(!budget.step());
        let unlimited = Deadline::none();
        assert!((0..1000).all(|_| unlimited.step()));
    }
}
