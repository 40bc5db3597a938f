//! The reply tape a run records its effects on and replays them from. One tape serves a run
//! and every run inside it (subgraph nodes, tools that use a definition): those name their
//! calls `<outer>/<inner>`.
//!
//! Replay matches by task and order: the i-th call a task makes gets the i-th reply recorded
//! for it, if its request is the one recorded. A call takes its place on the tape when it is
//! made, not when its reply comes: calls made at once (a `tools` node's) keep their order.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde_json::Value;

use crate::json_size::json_len;
use crate::record::{RecordedReply, ReplayMode, ReplayProblem, ReplyKind};

/// How many characters of a changed string a message shows around the change.
const CONTEXT_CHARS: usize = 30;

/// The replies recorded so far, and those given to replay.
#[derive(Debug, Default)]
pub(crate) struct Tape {
    inner: RefCell<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Whether calls are answered from `given` (else every call is made and recorded).
    replaying: bool,
    /// The replies given, by task name, in the order they were made.
    given: BTreeMap<String, Vec<RecordedReply>>,
    /// How many calls each task made so far (on this tape or the record it continues).
    calls: BTreeMap<String, usize>,
    /// Every call made, in order; `None` while its reply has not come (or never came).
    recorded: Vec<Option<RecordedReply>>,
    /// The calls made but not answered yet: their requests, by place on the tape.
    pending: BTreeMap<usize, RecordedReply>,
    problems: Vec<ReplayProblem>,
    /// About how many bytes the recorded replies take in the record.
    bytes: u64,
    /// The step of the run that owns the tape now being run (0 before its first): a call
    /// made inside a subgraph or a definition is filed under it, not under the inner run's
    /// own step count, so the record says in which of its steps each call was made.
    step: u64,
}

/// A call's place on the tape, to record its reply at.
#[derive(Debug)]
pub(crate) struct Ticket(usize);

/// What replay says about one call.
#[derive(Debug)]
pub(crate) enum Cue {
    /// Answer with this recorded reply (already on the tape again).
    Reply(Value),
    /// Make the call, then record its reply at this place.
    Call(Ticket),
    /// Replay has no reply for it: fail the call with this message (kept as a problem).
    Fail(String),
}

/// A call as the tape sees it.
pub(crate) struct Request<'a> {
    /// The task's name on the tape (prefixed in runs inside others).
    pub node: &'a str,
    pub step: u64,
    pub kind: ReplyKind,
    /// The canonical request, already without credentials.
    pub request: Value,
    /// A mock model's turn: without a recorded reply it just runs (offline anyway).
    pub mock: bool,
    /// When the call is made, in milliseconds since the Unix epoch (with a wall clock).
    pub started_ms: Option<f64>,
}

impl Tape {
    /// A tape that records only (a plain run).
    pub(crate) fn new() -> Tape {
        Tape::default()
    }

    /// Gives the replies a run is to replay, and how.
    pub(crate) fn load(&self, replies: Vec<RecordedReply>, mode: ReplayMode) {
        let mut inner = self.inner.borrow_mut();
        inner.replaying = mode == ReplayMode::Replay;
        inner.given.clear();
        if inner.replaying {
            for r in replies {
                inner.given.entry(r.node.clone()).or_default().push(r);
            }
        }
    }

    /// Starts from `replies` already recorded (a run rebuilt from its record goes on after
    /// them).
    pub(crate) fn restore(&self, replies: &[RecordedReply]) {
        let mut inner = self.inner.borrow_mut();
        for r in replies {
            *inner.calls.entry(r.node.clone()).or_default() += 1;
            inner.bytes += size_of(r);
        }
        inner.recorded = replies.iter().cloned().map(Some).collect();
    }

    /// What to do for a call (see [`Cue`]). The call is counted either way.
    pub(crate) fn cue(&self, call: Request<'_>) -> Cue {
        let mut inner = self.inner.borrow_mut();
        let count = inner.calls.entry(call.node.to_string()).or_default();
        let n = *count;
        *count += 1;
        let entry = RecordedReply {
            node: call.node.to_string(),
            step: if inner.step > 0 { inner.step } else { call.step },
            kind: call.kind,
            request: call.request,
            reply: Value::Null,
            started_ms: call.started_ms,
            duration_ms: None,
        };
        if !inner.replaying {
            return inner.reserve(entry);
        }
        let recorded = inner.given.get(call.node).and_then(|list| list.get(n)).cloned();
        let Some(recorded) = recorded else {
            if call.mock {
                return inner.reserve(entry);
            }
            let message = format!(
                "node `{}`: no recorded reply for call {} (run with --live to call the provider)",
                call.node,
                n + 1
            );
            return inner.fail(&entry, message);
        };
        if let Some(message) = mismatch(&recorded, &entry) {
            return inner.fail(&entry, message);
        }
        let reply = recorded.reply.clone();
        inner.bytes += size_of(&recorded);
        // Answered at once: a replayed call takes no time.
        let duration_ms = entry.started_ms.map(|_| 0.0);
        inner.recorded.push(Some(RecordedReply { reply: reply.clone(), duration_ms, ..entry }));
        Cue::Reply(reply)
    }

    /// Records the reply to the call at `ticket`, with keys removed by the caller; it came
    /// at `ended_ms` (epoch, with a wall clock).
    pub(crate) fn fill(&self, ticket: Ticket, reply: Value, ended_ms: Option<f64>) {
        let mut inner = self.inner.borrow_mut();
        if let Some(mut entry) = inner.pending.remove(&ticket.0) {
            entry.reply = reply;
            entry.duration_ms = entry.started_ms.zip(ended_ms).map(|(s, e)| (e - s).max(0.0));
            inner.bytes += size_of(&entry);
            if let Some(slot) = inner.recorded.get_mut(ticket.0) {
                *slot = Some(entry);
            }
        }
    }

    /// The owning run's step now running (its calls and those of the runs inside it are filed
    /// under it).
    pub(crate) fn set_step(&self, step: u64) {
        self.inner.borrow_mut().step = step;
    }

    /// The calls answered so far that were made in step `after` or later, in order: a live
    /// exporter's new steps, without copying the whole tape.
    pub(crate) fn replies_from(&self, after: u64) -> Vec<RecordedReply> {
        let inner = self.inner.borrow();
        let recorded = &inner.recorded;
        // Calls go on the tape in step order.
        let first = recorded.iter().rposition(|r| r.as_ref().is_some_and(|r| r.step < after)).map_or(0, |i| i + 1);
        recorded[first..].iter().flatten().cloned().collect()
    }

    /// Every call answered so far, in the order they were made.
    pub(crate) fn replies(&self) -> Vec<RecordedReply> {
        self.inner.borrow().recorded.iter().flatten().cloned().collect()
    }

    /// The replies recorded in the first `steps` steps (a fork keeps those).
    pub(crate) fn keep_until(&self, steps: u64) {
        let mut inner = self.inner.borrow_mut();
        let kept: Vec<RecordedReply> = inner.recorded.iter().flatten().filter(|r| r.step <= steps).cloned().collect();
        *inner = Inner { replaying: inner.replaying, given: std::mem::take(&mut inner.given), ..Inner::default() };
        drop(inner);
        self.restore(&kept);
    }

    /// The calls replay could not answer.
    pub(crate) fn problems(&self) -> Vec<ReplayProblem> {
        self.inner.borrow().problems.clone()
    }

    /// About how many bytes the replies take in the record.
    pub(crate) fn bytes(&self) -> u64 {
        self.inner.borrow().bytes
    }
}

impl Inner {
    fn reserve(&mut self, entry: RecordedReply) -> Cue {
        let at = self.recorded.len();
        self.recorded.push(None);
        self.pending.insert(at, entry);
        Cue::Call(Ticket(at))
    }

    fn fail(&mut self, entry: &RecordedReply, message: String) -> Cue {
        self.problems.push(ReplayProblem { node: entry.node.clone(), step: entry.step, message: message.clone() });
        Cue::Fail(message)
    }
}

/// Bytes a reply takes in the record, roughly.
fn size_of(r: &RecordedReply) -> u64 {
    json_len(&r.request) + json_len(&r.reply) + r.node.len() as u64 + 48
}

/// Why `now` does not match `recorded`: another kind of call, or the first differing path.
fn mismatch(recorded: &RecordedReply, now: &RecordedReply) -> Option<String> {
    if recorded.kind != now.kind {
        return Some(format!(
            "node `{}`: the call was recorded as a `{}` call, now it is a `{}` call",
            now.node,
            recorded.kind.as_str(),
            now.kind.as_str()
        ));
    }
    let (path, was, is) = first_difference(&recorded.request, &now.request)?;
    let what = match now.kind {
        ReplyKind::Model => "model request",
        ReplyKind::Http => "HTTP request",
        ReplyKind::Mcp => "MCP request",
    };
    let path = if path.is_empty() { "/".to_string() } else { path };
    Some(format!("node `{}`: the {what} changed at {path}: {}", now.node, change(was, is)))
}

/// The first place where `a` and `b` differ, as a JSON Pointer, with both values there
/// (`None` for a value that is absent on one side).
pub(crate) fn first_difference<'v>(
    a: &'v Value,
    b: &'v Value,
) -> Option<(String, Option<&'v Value>, Option<&'v Value>)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) => {
                    first_difference(p, q).map(|(path, p, q)| (format!("/{}{path}", escape(k)), p, q))
                }
                (p, q) => Some((format!("/{}", escape(k)), p, q)),
            })
        }
        (Value::Array(x), Value::Array(y)) => (0..x.len().max(y.len())).find_map(|i| match (x.get(i), y.get(i)) {
            (Some(p), Some(q)) => first_difference(p, q).map(|(path, p, q)| (format!("/{i}{path}"), p, q)),
            (p, q) => Some((format!("/{i}"), p, q)),
        }),
        _ if crate::json_eq::same(a, b) => None,
        _ => Some((String::new(), Some(a), Some(b))),
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `was → is`, two strings cut to the part around where they first differ.
fn change(was: Option<&Value>, is: Option<&Value>) -> String {
    match (was, is) {
        (Some(Value::String(a)), Some(Value::String(b))) => {
            let (a, b) = around_change(a, b);
            format!("{a:?} → {b:?}")
        }
        _ => format!("{} → {}", shown(was), shown(is)),
    }
}

fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".to_string(), crate::describe::excerpt)
}

/// Both strings from a little before where they first differ to a little after.
fn around_change(a: &str, b: &str) -> (String, String) {
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let window = |s: &str| {
        let chars: Vec<char> = s.chars().collect();
        let start = common.saturating_sub(CONTEXT_CHARS);
        let end = (common + CONTEXT_CHARS).min(chars.len());
        let mut out: String = chars[start.min(chars.len())..end].iter().collect();
        if start > 0 {
            out.insert(0, '…');
        }
        if end < chars.len() {
            out.push('…');
        }
        out
    };
    (window(a), window(b))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = json!({"messages": [{"role": "user", "content": "Plan: a"}], "model": "m"});
        let b = json!({"messages": [{"role": "user", "content": "Plan: b"}], "model": "m"});
        let (path, x, y) = first_difference(&a, &b).unwrap();
        assert_eq!(path, "/messages/0/content");
        assert_eq!((x, y), (Some(&json!("Plan: a")), Some(&json!("Plan: b"))));
        assert_eq!(first_difference(&a, &a), None);
        let (one, empty) = (json!({"a/b": 1}), json!({}));
        let (path, x, y) = first_difference(&one, &empty).unwrap();
        assert_eq!((path.as_str(), x, y), ("/a~1b", Some(&json!(1)), None));
    }

    #[test]
    fn a_changed_request_fails_with_both_values_and_a_call_beyond_the_tape_needs_live() {
        let tape = Tape::new();
        let recorded = |n: &str, content: &str| RecordedReply {
            node: n.into(),
            step: 1,
            kind: ReplyKind::Model,
            request: json!({"messages": [{"content": content}]}),
            reply: json!({"content": "ok"}),
            started_ms: None,
            duration_ms: None,
        };
        tape.load(vec![recorded("plan", "Plan: a")], ReplayMode::Replay);
        let ask = |content: &str, mock| Request {
            node: "plan",
            step: 1,
            kind: ReplyKind::Model,
            request: json!({"messages": [{"content": content}]}),
            mock,
            started_ms: None,
        };
        let Cue::Fail(m) = tape.cue(ask("Plan: b", false)) else { panic!("a changed request must fail") };
        assert_eq!(m, "node `plan`: the model request changed at /messages/0/content: \"Plan: a\" → \"Plan: b\"");
        let Cue::Fail(m) = tape.cue(ask("Plan: a", false)) else { panic!("no reply is left") };
        assert_eq!(m, "node `plan`: no recorded reply for call 2 (run with --live to call the provider)");
        assert!(matches!(tape.cue(ask("Plan: a", true)), Cue::Call(_)), "a mock with no reply left runs");
        assert_eq!(tape.problems().len(), 2);
    }

    #[test]
    fn calls_keep_the_order_they_were_made_in_whatever_order_replies_come() {
        let tape = Tape::new();
        let ask = |n: &'static str, at: f64| Request {
            node: n,
            step: 2,
            kind: ReplyKind::Http,
            request: json!(n),
            mock: false,
            started_ms: Some(at),
        };
        let (Cue::Call(first), Cue::Call(second)) = (tape.cue(ask("a", 1000.0)), tape.cue(ask("b", 1001.0))) else {
            panic!()
        };
        tape.fill(second, json!(2), Some(1003.0));
        tape.fill(first, json!(1), Some(1010.0));
        let replies = tape.replies();
        let names: Vec<&str> = replies.iter().map(|r| r.node.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let times: Vec<_> = replies.iter().map(|r| (r.started_ms, r.duration_ms)).collect();
        assert_eq!(times, [(Some(1000.0), Some(10.0)), (Some(1001.0), Some(2.0))], "each call keeps its own time");
        tape.keep_until(1);
        assert!(tape.replies().is_empty());
    }
}
