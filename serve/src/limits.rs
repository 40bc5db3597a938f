//! The served run's own ceilings, below Restate's limits on one message (32 MiB by default:
//! a request, a reply, one entry of a workflow's state). A run's record is kept in the
//! workflow's state and read back in one reply, and holds its state several times over (the
//! summary's, a step's update, patch and snapshot, the last outputs), so the state and the
//! record are held well below that: a served run that grows past them stops with the
//! engine's named error (`state_size`, or `limit` for the record), and its record reads back.
//! A document or input that could not fit is refused before the run starts.

use std::fmt;

use engine::Plan;
use serde_json::Value;

/// The most state a served run may hold, in bytes of JSON (a document asking for more gets
/// this).
pub const MAX_STATE_BYTES: u64 = 2 * 1024 * 1024;

/// The most record a served run may keep (`max_record_bytes`, as the engine counts it).
pub const MAX_RECORD_BYTES: u64 = 12 * 1024 * 1024;

/// The largest graph document a served run takes, in bytes of JSON.
pub const MAX_DOCUMENT_BYTES: u64 = 2 * 1024 * 1024;

/// Holds `plan`'s limits to the served ceilings.
pub fn hold(plan: &mut Plan) {
    plan.limits.max_state_bytes = plan.limits.max_state_bytes.min(MAX_STATE_BYTES);
    plan.limits.max_record_bytes = plan.limits.max_record_bytes.min(MAX_RECORD_BYTES);
}

/// A request's document or value larger than a served run takes (refused with 413).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    /// What it is: `graph`, `input`, `answer`, `set`.
    pub what: &'static str,
    pub bytes: u64,
    pub max: u64,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TooLarge { what, bytes, max } = self;
        write!(
            f,
            "{what}: {bytes} bytes of JSON, more than a served run takes ({max}); run it with `switchyard run` instead"
        )
    }
}

/// Refuses `value` (the request's `what`) if it is larger than `max` bytes of JSON.
pub fn check_size(what: &'static str, value: &Value, max: u64) -> Result<(), TooLarge> {
    let bytes = serde_json::to_string(value).map_or(0, |t| t.len() as u64);
    if bytes > max {
        return Err(TooLarge { what, bytes, max });
    }
    Ok(())
}
