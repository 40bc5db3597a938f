//! How much work checking one value may take. A schema can make checking a value cost time
//! exponential in the value's size: `oneOf` (or `anyOf`) whose branches refer back to the
//! schema itself checks every branch at every level of a nested value, so a 30-level list
//! costs 2³⁰ checks. A graph's schema and a model's reply are both untrusted, so every schema
//! applied to a part of the value counts as one unit of work (and `uniqueItems` one per item):
//! past [`MAX_WORK`] units the check ends with [`CheckError::TooMuchWork`]. A work ceiling
//! stops a check on any host, even one whose clock only advances between effects (a served
//! run's); a host with a real clock can also stop it sooner, at the node's deadline, which the
//! check asks about every [`ASK_EVERY`] units.

use std::cell::Cell;
use std::fmt;

use super::Mismatch;

/// The most units of work checking one value may take: far more than any sensible schema
/// needs for a value of the sizes a run holds, and well under a second of work.
pub const MAX_WORK: u64 = 2_000_000;
/// Units of work between two questions to the caller whether its deadline has passed.
const ASK_EVERY: u64 = 4096;

/// Why a value was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckError {
    /// The value breaks the schema.
    Mismatch(Mismatch),
    /// Checking took more than [`MAX_WORK`] units of work.
    TooMuchWork,
    /// The caller's deadline passed while checking.
    Stopped,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Mismatch(m) => m.fmt(f),
            CheckError::TooMuchWork => write!(
                f,
                "checking the value against the schema took more than {MAX_WORK} steps, and was stopped \
                 (`anyOf`/`oneOf` branches that refer back to the schema can take time exponential in the value)"
            ),
            CheckError::Stopped => f.write_str("checking the value against the schema was stopped by its time limit"),
        }
    }
}

impl std::error::Error for CheckError {}

impl From<Mismatch> for CheckError {
    fn from(m: Mismatch) -> CheckError {
        CheckError::Mismatch(m)
    }
}

/// The work one check has done, and whether it has been ended.
pub(super) struct Budget<'a> {
    used: Cell<u64>,
    /// Whether the caller's deadline has passed.
    stop: &'a dyn Fn() -> bool,
    ended: Cell<Option<Ended>>,
}

#[derive(Clone, Copy)]
enum Ended {
    TooMuchWork,
    Stopped,
}

impl<'a> Budget<'a> {
    pub(super) fn new(stop: &'a dyn Fn() -> bool) -> Budget<'a> {
        Budget { used: Cell::new(0), stop, ended: Cell::new(None) }
    }

    /// Spends `units`; `false` once the check must end (and from then on).
    pub(super) fn spend(&self, units: u64) -> bool {
        if self.ended.get().is_some() {
            return false;
        }
        let before = self.used.get();
        let used = before.saturating_add(units);
        self.used.set(used);
        if used > MAX_WORK {
            self.ended.set(Some(Ended::TooMuchWork));
        } else if used / ASK_EVERY != before / ASK_EVERY && (self.stop)() {
            self.ended.set(Some(Ended::Stopped));
        }
        self.ended.get().is_none()
    }

    /// Why the check was ended, if it was.
    pub(super) fn ended(&self) -> Option<CheckError> {
        self.ended.get().map(|e| match e {
            Ended::TooMuchWork => CheckError::TooMuchWork,
            Ended::Stopped => CheckError::Stopped,
        })
    }
}
