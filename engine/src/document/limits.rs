//! `limits`: the bounds a document sets on its runs (format.md §6), and the values in force once
//! defaults and the host's ceilings apply.

use serde::{Deserialize, Serialize};

/// `limits` as written; see [`EffectiveLimits`] for the values in force.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(description = "Bounds on a run; a value above the host's ceiling is lowered to it, with a warning.")
)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Supersteps a run may take before it stops with `limit_reached` (24 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    /// How long a whole run may take, in milliseconds (900000 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_timeout_ms: Option<u64>,
    /// How long one node attempt may take, in milliseconds, unless the node sets its own
    /// `timeout_ms` (180000 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_timeout_ms: Option<u64>,
    /// The largest the state may grow, in bytes of JSON (1048576 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_state_bytes: Option<u64>,
    /// Operations one expression or script may take (100000 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ops: Option<u64>,
    /// Instances of one node a map edge may start in one step (1000 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fanout: Option<u64>,
    /// The largest the run record may grow, in bytes (268435456 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_record_bytes: Option<u64>,
}

impl Limits {
    /// Each limit by name, as written.
    pub fn named(&self) -> [(&'static str, Option<u64>); 7] {
        [
            ("max_steps", self.max_steps),
            ("run_timeout_ms", self.run_timeout_ms),
            ("node_timeout_ms", self.node_timeout_ms),
            ("max_state_bytes", self.max_state_bytes),
            ("max_ops", self.max_ops),
            ("max_fanout", self.max_fanout),
            ("max_record_bytes", self.max_record_bytes),
        ]
    }
}

/// The most attempts a node's `retry` may ask for, the first included (README, Untrusted graphs in the editor): with a short
/// back-off, a graph could otherwise turn one node into a stream of requests, each of them
/// journaled on `serve`. More is clamped, with a warning.
pub const MAX_RETRY_ATTEMPTS: u32 = 10;

/// The shortest pause a node's `retry.backoff_ms` may ask for, for the same reason. Less is
/// raised to it, with a warning.
pub const MIN_RETRY_BACKOFF_MS: u64 = 10;

/// The limits with the spec's defaults applied (format.md §6), held to the host's ceilings
/// (README, Untrusted graphs in the editor).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EffectiveLimits {
    pub max_steps: u64,
    pub run_timeout_ms: u64,
    pub node_timeout_ms: u64,
    pub max_state_bytes: u64,
    pub max_ops: u64,
    /// Instances of one node in one step.
    pub max_fanout: u64,
    /// The run record kept in memory; past it the run stops with a `limit` error.
    pub max_record_bytes: u64,
}

impl EffectiveLimits {
    /// The values used when a document gives none (format.md §6).
    pub const DEFAULTS: EffectiveLimits = EffectiveLimits {
        max_steps: 24,
        run_timeout_ms: 900_000,
        node_timeout_ms: 180_000,
        max_state_bytes: 1_048_576,
        max_ops: 100_000,
        max_fanout: 1000,
        max_record_bytes: 268_435_456,
    };

    /// The most a document may ask for (README, Untrusted graphs in the editor): a shared graph must not be able to run
    /// forever or exhaust the machine. A larger value is clamped, with a warning.
    pub const CEILINGS: EffectiveLimits = EffectiveLimits {
        max_steps: 1_000_000,
        run_timeout_ms: 86_400_000,
        node_timeout_ms: 86_400_000,
        max_state_bytes: 64 * 1024 * 1024,
        max_ops: 100_000_000,
        max_fanout: 100_000,
        max_record_bytes: 1024 * 1024 * 1024,
    };

    /// The ceiling of the limit called `name`.
    pub fn ceiling(name: &str) -> Option<u64> {
        let c = EffectiveLimits::CEILINGS;
        Some(match name {
            "max_steps" => c.max_steps,
            "run_timeout_ms" => c.run_timeout_ms,
            "node_timeout_ms" => c.node_timeout_ms,
            "max_state_bytes" => c.max_state_bytes,
            "max_ops" => c.max_ops,
            "max_fanout" => c.max_fanout,
            "max_record_bytes" => c.max_record_bytes,
            _ => return None,
        })
    }
}
