//! Nodes that reach outside the engine: `llm`, `http` and `tools`.
//!
//! The engine renders every request itself and hands it to the [`Host`]; the host only sends
//! it (and adds credentials for model calls). Timeouts race the request against the host's
//! clock, and `retry` re-sends with a doubling backoff (or as long as a `Retry-After` asks).
//! Each node's rendered request and the reply are kept in the step's `details`, which is
//! what an editor shows for the node.
//!
//! The executor calls in with an [`EffectCall`]: the node, the step's scope, the host and the
//! run's [`Deadline`], all an effect may use of the run. An effect answers with an
//! [`Effect`], which the executor turns into the node's outcome.
//!
//! | module | what it holds |
//! |---|---|
//! | `send` | sending a request: timeouts, retries, `Retry-After`, streamed replies |
//! | `http` | the `http` node, and rendering a request's templates (also for `http` tools) |
//! | `llm` | the `llm` node: the conversation sent, the provider asked, the reply written |
//! | `chat` | what every provider answers with: text, tool calls, usage; asking a model server |
//! | `mock` | the `mock` provider: replies in turn, and rules on the state, prompt and messages |
//! | `openai` | the OpenAI-compatible chat-completions API, streamed or not |
//! | `anthropic` | Anthropic's Messages API, streamed or not |
//! | `sse` | server-sent events read incrementally from a streamed reply |
//! | `checked` | a reply or a tool call's arguments checked against a JSON Schema, within the node's work and time limits |
//! | `replay` | effects on the tape: a call's canonical request put on it, answered from it when replaying, its reply recorded; credentials left out |
//! | `tape` | the reply tape: every call recorded, and replayed from a test's replies ([`Tape`]) |
//! | `tools` | the `tools` node: every tool call of the last assistant message, at once; [`RunDefinition`] for tools that `use` a definition |
//! | `mcp` | the run's MCP sessions (format.md §2.11): opened lazily, `tools/call`, listings for models, closed when the run stops; [`mcp_probe`] |

mod anthropic;
mod chat;
mod checked;
mod http;
mod llm;
mod mcp;
mod mock;
mod openai;
mod replay;
mod send;
mod tape;
mod tools;

use serde_json::Value;

pub(crate) use self::http::http;
pub(crate) use self::llm::llm;
pub(crate) use self::mcp::McpSessions;
pub use self::mcp::{ListedTool, Listing, mcp_probe};
pub(crate) use self::tape::Tape;
pub(crate) use self::tools::{DefinitionRun, Failure, RunDefinition, tools};
use crate::document::{EffectiveLimits, MAX_RETRY_ATTEMPTS, MIN_RETRY_BACKOFF_MS};
use crate::host::Host;
use crate::plan::PlanNode;
use crate::record::{ErrorKind, NodeError};
use crate::script::{Ctx, Guard, Scripting, Template, Why};
use crate::update::Update;

/// How much of a reply an error message quotes.
const EXCERPT_CHARS: usize = 200;
/// The default pause before the first retry when `retry.backoff_ms` is not given.
const DEFAULT_BACKOFF_MS: u64 = 500;

/// What an effectful node gets from the run that executes it.
pub(crate) struct EffectCall<'a> {
    /// The node being run.
    pub node: &'a PlanNode,
    /// The plan's expression engine, for the node's templates.
    pub scripting: &'a Scripting,
    /// The step's scope: `state`, `input`, `outputs`, `errors`, `step`.
    pub ctx: &'a Ctx,
    pub host: &'a dyn Host,
    pub deadline: Deadline,
    /// How many times the node ran before: a mock model answers in turn.
    pub turn: u64,
    /// The step being run (tool call ids a mock model makes up name it).
    pub step: u64,
    /// The task's name: the node's id, or `<node>[<index>]` for a map instance (streamed text
    /// and made-up tool call ids are told apart by it).
    pub name: String,
    /// The run's `max_fanout`: a `tools` node runs at most this many calls at once, as a map
    /// edge starts at most this many instances.
    pub max_fanout: u64,
    /// The run's MCP sessions, shared with the runs inside it.
    pub mcp: &'a std::rc::Rc<McpSessions>,
    /// The reply tape, shared with the runs inside it, and what this run's calls are named
    /// on it before the task's name (`<outer>/`; empty at the top).
    pub tape: &'a std::rc::Rc<Tape>,
    pub tape_prefix: &'a str,
}

impl EffectCall<'_> {
    /// The task's name on the reply tape: `<outer>/<task>` in a run inside another.
    pub(crate) fn tape_name(&self) -> String {
        format!("{}{}", self.tape_prefix, self.name)
    }

    /// Renders template `t` of field `field`.
    fn render(&self, field: &str, t: &Template) -> Result<String, NodeError> {
        self.render_in(self.ctx, field, t)
    }

    /// Renders template `t` of field `field` in scope `ctx` (the step's, with more names).
    fn render_in(&self, ctx: &Ctx, field: &str, t: &Template) -> Result<String, NodeError> {
        self.scripting.render(t, ctx).map_err(|e| NodeError::expression(&self.node.id, field, e))
    }

    /// How long the node may take from now (see [`Deadline::budget`]).
    pub(crate) fn budget(&self) -> (u64, bool) {
        self.deadline.budget(self.node, self.host.now_ms())
    }

    /// An error of `kind` in this node.
    pub(crate) fn error(&self, kind: ErrorKind, message: impl std::fmt::Display) -> NodeError {
        NodeError::in_node(&self.node.id, kind, message)
    }
}

/// The run's time limits as a step sees them: effects respect the run timeout within a step,
/// not only between steps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadline {
    /// The graph's `node_timeout_ms`, for nodes without their own `timeout_ms`.
    pub node_timeout_ms: u64,
    pub run_timeout_ms: u64,
    /// Time the run had spent in steps before this one.
    pub used_ms: f64,
    /// When this step began, on the host's clock.
    pub step_started_ms: f64,
    /// When the subgraph node this run is embedded in must be done, on the host's clock,
    /// and that node's limit (infinite and 0 for a run of its own): nothing inside runs past it.
    pub enclosing_at_ms: f64,
    pub enclosing_ms: u64,
}

impl Deadline {
    /// The deadline of a step that began at `step_started_ms`, after `used_ms` of earlier
    /// steps.
    pub(crate) fn new(limits: &EffectiveLimits, used_ms: f64, step_started_ms: f64) -> Deadline {
        Deadline {
            node_timeout_ms: limits.node_timeout_ms,
            run_timeout_ms: limits.run_timeout_ms,
            used_ms,
            step_started_ms,
            enclosing_at_ms: f64::INFINITY,
            enclosing_ms: 0,
        }
    }

    /// This deadline, bounded by the subgraph node the run is embedded in (`enclosing`: when
    /// it must be done on the host's clock, and its limit).
    pub(crate) fn within(mut self, enclosing: Option<(f64, u64)>) -> Deadline {
        if let Some((at_ms, ms)) = enclosing {
            self.enclosing_at_ms = at_ms;
            self.enclosing_ms = ms;
        }
        self
    }

    /// When what `node` starts now (a subgraph's run) must be done, on the host's clock, and
    /// the limit that says so: its own budget from the step's start, within this run's own
    /// enclosing node's.
    pub(crate) fn enclosing_for(&self, node: &PlanNode) -> (f64, u64) {
        let own = node.timeout_ms.unwrap_or(self.node_timeout_ms) as f64;
        let run_left = (self.run_timeout_ms as f64 - self.used_ms).max(0.0);
        let ms = own.min(run_left);
        let at = self.step_started_ms + ms;
        if self.enclosing_at_ms < at { (self.enclosing_at_ms, self.enclosing_ms) } else { (at, ms as u64) }
    }

    /// How long `node` may take at `now_ms`: its own `timeout_ms` (or the graph's
    /// `node_timeout_ms`), and never past the run's `run_timeout_ms`. The flag says whether
    /// the run's limit is the tighter one.
    pub(crate) fn budget(&self, node: &PlanNode, now_ms: f64) -> (u64, bool) {
        let own = node.timeout_ms.unwrap_or(self.node_timeout_ms);
        let used = self.used_ms + (now_ms - self.step_started_ms).max(0.0);
        let left = (self.run_timeout_ms as f64 - used).max(0.0) as u64;
        let (ms, run_limit) = if left < own { (left, true) } else { (own, false) };
        // Within an embedded run, never past the enclosing subgraph node's limit.
        // Rounded up: a timer set for the rest ends at or after the enclosing deadline, never
        // just before it, so the enclosing node sees its own time ran out.
        let enclosing_left = (self.enclosing_at_ms - now_ms).max(0.0);
        if enclosing_left < ms as f64 { (enclosing_left.ceil() as u64, false) } else { (ms, run_limit) }
    }

    /// Sets the sandbox's deadline for what is evaluated next: node `node`'s expressions
    /// (its own timeout, or the graph's `node_timeout_ms`, from the step's start), or with no
    /// node the step's routing; never past the run's `run_timeout_ms`. Without a clock from
    /// the host, evaluations have no deadline. (The clock is not read here, so that a fake
    /// clock advances as it did before.)
    pub(crate) fn arm(&self, guard: &Guard, host: &dyn Host, node: Option<&PlanNode>) {
        let Some(clock) = host.clock() else {
            guard.clear();
            return;
        };
        let run_left = (self.run_timeout_ms as f64 - self.used_ms).max(0.0);
        let own = node.map(|n| n.timeout_ms.unwrap_or(self.node_timeout_ms) as f64);
        let why = match (node, own) {
            (Some(n), Some(own)) if own <= run_left => Why::Node { id: n.id.clone(), ms: own },
            _ => Why::Run { run_timeout_ms: self.run_timeout_ms },
        };
        let ms = own.map_or(run_left, |o| o.min(run_left));
        let at = self.step_started_ms + ms;
        if self.enclosing_at_ms < at {
            guard.set(Some(clock), self.enclosing_at_ms, Why::Enclosing { ms: self.enclosing_ms });
        } else {
            guard.set(Some(clock), at, why);
        }
    }

    /// Milliseconds left of the run's `run_timeout_ms` at `now_ms`.
    pub(crate) fn run_left_ms(&self, now_ms: f64) -> f64 {
        let used = self.used_ms + (now_ms - self.step_started_ms).max(0.0);
        (self.run_timeout_ms as f64 - used).max(0.0)
    }

    /// Why `what` was stopped after `ms`: its own timeout, or the run's (`run_limit`).
    pub(crate) fn timeout_message(&self, what: &str, ms: u64, run_limit: bool) -> String {
        if run_limit {
            format!("{what} was cut off by the run's time limit (run_timeout_ms {})", self.run_timeout_ms)
        } else {
            format!("{what} took longer than {ms} ms")
        }
    }
}

/// What an effect produced: an update or an error, and what it sent and received.
pub(crate) struct Effect {
    pub result: Result<Update, NodeError>,
    pub detail: Option<Value>,
}

impl Effect {
    pub(super) fn failed(error: NodeError, detail: Option<Value>) -> Effect {
        Effect { result: Err(error), detail }
    }

    /// `value` written to field `writes`.
    pub(super) fn writes(writes: &str, value: Value, detail: Value) -> Effect {
        let mut update = Update::with_capacity(1);
        update.insert(writes.to_string(), value);
        Effect { result: Ok(update), detail: Some(detail) }
    }
}

impl From<NodeError> for Effect {
    fn from(error: NodeError) -> Effect {
        Effect::failed(error, None)
    }
}

/// A node's `retry`: how many attempts, and the pause before the next one, doubling; both
/// held to the host's bounds ([`MAX_RETRY_ATTEMPTS`], [`MIN_RETRY_BACKOFF_MS`]).
pub(crate) struct Retries {
    pub attempts: u32,
    pause_ms: u64,
}

impl Retries {
    pub(crate) fn of(node: &PlanNode) -> Retries {
        Retries {
            attempts: node.retry.as_ref().map_or(1, |r| r.attempts.clamp(1, MAX_RETRY_ATTEMPTS)),
            pause_ms: node
                .retry
                .as_ref()
                .and_then(|r| r.backoff_ms)
                .unwrap_or(DEFAULT_BACKOFF_MS)
                .max(MIN_RETRY_BACKOFF_MS),
        }
    }

    /// The pause before the next attempt.
    pub(crate) fn next_pause_ms(&self) -> u64 {
        self.pause_ms
    }

    /// Waits before the next attempt; the wait after it is twice as long.
    pub(crate) async fn pause(&mut self, host: &dyn Host) {
        self.pause_for(host, self.pause_ms).await;
    }

    /// Waits `ms` before the next attempt (a server's `Retry-After`, or the backoff); the
    /// backoff after it doubles as after any pause.
    pub(crate) async fn pause_for(&mut self, host: &dyn Host, ms: u64) {
        host.sleep(ms).await;
        self.pause_ms = self.pause_ms.saturating_mul(2);
    }
}

/// The first [`EXCERPT_CHARS`] characters of `text`, trimmed, for an error message.
pub(super) fn cut(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() > EXCERPT_CHARS {
        format!("{}…", t.chars().take(EXCERPT_CHARS).collect::<String>())
    } else {
        t.to_string()
    }
}
