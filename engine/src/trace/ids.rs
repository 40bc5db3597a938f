//! Trace and span ids derived from the run, never drawn at random: SHA-256 over a fixed
//! label and the parts that name the trace (run id, first step of the session) or the span
//! (its trace and its path in the run). A durable host that replays a run (Restate) comes
//! out with the same ids, and a record exported later lands in the trace its live export
//! used.

use sha2::{Digest, Sha256};

/// A trace id: 16 bytes, written as 32 lowercase hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TraceId(pub [u8; 16]);

/// A span id: 8 bytes, written as 16 lowercase hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpanId(pub [u8; 8]);

/// Labels keep a trace id and a span id over the same text apart, and name the scheme: a
/// change of derivation changes the label.
const TRACE_LABEL: &[u8] = b"switchyard/trace@1";
const SPAN_LABEL: &[u8] = b"switchyard/span@1";

/// The trace id of the session of run `run_id` that starts at step `from_step`.
pub fn trace_id_for(run_id: &str, from_step: u64) -> TraceId {
    let digest = digest(TRACE_LABEL, &[run_id.as_bytes(), &from_step.to_be_bytes()]);
    let mut id = [0; 16];
    id.copy_from_slice(&digest[..16]);
    // OpenTelemetry reads an all-zero id as "no trace".
    if id == [0; 16] {
        id[15] = 1;
    }
    TraceId(id)
}

/// The trace id of the `attempt`th session of run `run_id` that starts at step `from_step`:
/// a failed step retried starts a session at the same step as the one that failed, and
/// gets a trace of its own. Attempt 0 is [`trace_id_for`].
pub fn trace_id_for_attempt(run_id: &str, from_step: u64, attempt: u64) -> TraceId {
    if attempt == 0 {
        return trace_id_for(run_id, from_step);
    }
    let digest = digest(TRACE_LABEL, &[run_id.as_bytes(), &from_step.to_be_bytes(), &attempt.to_be_bytes()]);
    let mut id = [0; 16];
    id.copy_from_slice(&digest[..16]);
    TraceId(id)
}

/// The id of the span at `path` (e.g. `step/3/node/ask[2]/call/0`) in trace `trace`.
pub fn span_id_for(trace: TraceId, path: &str) -> SpanId {
    let digest = digest(SPAN_LABEL, &[&trace.0, path.as_bytes()]);
    let mut id = [0; 8];
    id.copy_from_slice(&digest[..8]);
    if id == [0; 8] {
        id[7] = 1;
    }
    SpanId(id)
}

/// SHA-256 of the label and each part, every part preceded by its length so that no two
/// lists of parts hash the same text.
fn digest(label: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(label);
    for p in parts {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    h.finalize().into()
}

impl TraceId {
    /// Reads 32 hex digits (either case), as a record's `trace_id` holds them.
    pub fn parse(text: &str) -> Option<TraceId> {
        let mut id = [0; 16];
        hex_into(text, &mut id)?;
        Some(TraceId(id))
    }
}

impl SpanId {
    /// Reads 16 hex digits (either case).
    pub fn parse(text: &str) -> Option<SpanId> {
        let mut id = [0; 8];
        hex_into(text, &mut id)?;
        Some(SpanId(id))
    }
}

fn hex_into(text: &str, out: &mut [u8]) -> Option<()> {
    let bytes = text.as_bytes();
    if bytes.len() != out.len() * 2 {
        return None;
    }
    for (i, pair) in bytes.chunks(2).enumerate() {
        let s = std::str::from_utf8(pair).ok()?;
        out[i] = u8::from_str_radix(s, 16).ok()?;
    }
    Some(())
}

impl std::fmt::Display for TraceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl std::fmt::Display for SpanId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_derived_and_read_back() {
        let a = trace_id_for("run-1", 1);
        assert_eq!(a, trace_id_for("run-1", 1), "the same session gets the same id");
        assert_ne!(a, trace_id_for("run-1", 4), "a resume gets its own trace");
        assert_ne!(a, trace_id_for("run-2", 1));
        assert_eq!(trace_id_for_attempt("run-1", 1, 0), a);
        assert_ne!(trace_id_for_attempt("run-1", 1, 1), a, "a retry at the same step is another trace");
        let text = a.to_string();
        assert_eq!(text.len(), 32);
        assert!(text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        assert_eq!(TraceId::parse(&text), Some(a));
        assert_eq!(TraceId::parse("xyz"), None);
        let s = span_id_for(a, "root");
        assert_ne!(s, span_id_for(a, "step/1"));
        assert_eq!(SpanId::parse(&s.to_string()), Some(s));
    }
}
