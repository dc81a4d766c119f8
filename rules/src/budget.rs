//! A bound on the engine work of one request, counted in work units and checked by the
//! generators themselves.
//!
//! A [`Budget`] is a number of work units and, optionally, a cancellation flag. Generating the
//! moves of a position costs one unit, plus one per step of its capture search (a node, or a
//! landing square probed), plus one per move produced; reading a move text costs
//! [`MOVE_TEXT_UNITS`](crate::notation::movetext::MOVE_TEXT_UNITS) more. A generator charges
//! the budget as it goes and stops as soon as it is spent or the flag is raised, so the work
//! of a request stops the moment its bound is reached, on any machine, for the same request:
//! the bound is deterministic, unlike a timer. One unit is roughly 20–100 ns of CPU on a
//! current core (measured: replaying real games about 50 ns, the capture search of a board
//! full of flying kings about 70 ns).
//!
//! Budgets are not shared between threads: each request owns one (the cancellation flag is
//! the only shared part).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Why move generation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenError {
    /// The capture search of one position visited more than the allowed number of nodes.
    CaptureLimit { limit: u32 },
    /// The work budget of the request ([`Budget`]) is spent.
    Budget { limit: u64 },
    /// The work was cancelled (the request's time is up or its client is gone).
    Cancelled,
}

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenError::CaptureLimit { limit } => write!(
                f,
                "the capture sequences of this position exceed the enumeration bound \
                 ({limit} search steps)"
            ),
            GenError::Budget { limit } => write!(
                f,
                "the request needs more engine work than its budget of {limit} work units"
            ),
            GenError::Cancelled => write!(f, "the work was cancelled"),
        }
    }
}

impl std::error::Error for GenError {}

/// Work units and an optional cancellation flag.
#[derive(Debug)]
pub struct Budget {
    left: Cell<u64>,
    limit: u64,
    cancel: Option<Arc<AtomicBool>>,
}

impl Default for Budget {
    /// No bound on the total (the per-position capture bound still applies).
    fn default() -> Self {
        Budget::unlimited()
    }
}

impl Budget {
    /// A budget of `limit` work units.
    pub fn new(limit: u64) -> Budget {
        Budget {
            left: Cell::new(limit),
            limit,
            cancel: None,
        }
    }

    /// No bound on the total work.
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX)
    }

    /// The same budget, also stopped when `flag` becomes true (a request whose client is gone
    /// or whose time is up).
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(flag);
        self
    }

    /// The bound this budget started with.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Whether nothing can stop work charged to this budget: no bound on the total and no
    /// cancellation flag (a walk may then skip its charges).
    pub fn is_unlimited(&self) -> bool {
        self.limit == u64::MAX && self.cancel.is_none()
    }

    /// Units still available.
    #[inline(always)]
    pub fn left(&self) -> u64 {
        self.left.get()
    }

    /// Units spent so far.
    pub fn used(&self) -> u64 {
        self.limit - self.left.get()
    }

    /// Whether the cancellation flag is raised.
    #[inline(always)]
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Spends `units`; fails when fewer are left (the budget is then empty) or when the work
    /// was cancelled.
    #[inline(always)]
    pub fn charge(&self, units: u64) -> Result<(), GenError> {
        let left = self.left.get();
        if units > left {
            self.left.set(0);
            return Err(GenError::Budget { limit: self.limit });
        }
        self.left.set(left - units);
        if self.cancelled() {
            return Err(GenError::Cancelled);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_until_spent() {
        let b = Budget::new(10);
        assert_eq!(b.charge(4), Ok(()));
        assert_eq!(b.left(), 6);
        assert_eq!(b.used(), 4);
        assert_eq!(b.charge(7), Err(GenError::Budget { limit: 10 }));
        assert_eq!(b.left(), 0);
        assert_eq!(b.charge(1), Err(GenError::Budget { limit: 10 }));
    }

    #[test]
    fn stops_when_cancelled() {
        let flag = Arc::new(AtomicBool::new(false));
        let b = Budget::new(100).with_cancel(flag.clone());
        assert_eq!(b.charge(1), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(b.charge(1), Err(GenError::Cancelled));
    }
}
