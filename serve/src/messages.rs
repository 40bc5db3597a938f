//! The messages between a run's engine thread and its workflow handler: what the engine asks
//! for ([`ToHandler`]), and an HTTP exchange as the journal keeps it ([`Exchange`]), and an
//! exchange with an MCP server ([`McpJournal`]). The handler answers effects through the
//! oneshot channels inside.

use engine::host::{HttpFailure, HttpRequest, HttpResponse, McpEndpoint, McpExchange, McpReply};
use engine::record::{RunRecord, StepDoc};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::load::Refusal;

/// What the engine's thread asks of the handler, in the order the run needs it.
pub enum ToHandler {
    /// Perform this request (journaled) and reply.
    Http(HttpRequest, oneshot::Sender<Exchange>),
    /// Wait this long (a durable timer) and reply.
    Sleep(u64, oneshot::Sender<()>),
    /// Carry out this exchange with an MCP server (journaled: one step each) and reply.
    Mcp(McpExchange, oneshot::Sender<McpJournal>),
    /// End an MCP session (its run stopped); not journaled, and nothing comes back: closing
    /// again after a restart finds nothing to close.
    McpClose { endpoint: McpEndpoint, connection: Option<String>, session_id: Option<String> },
    /// The run exists: keep its summary and its steps so far (a fork starts with the
    /// original's steps up to the fork point).
    Started { summary: Box<RunRecord>, steps: Vec<StepDoc> },
    /// Steps ran: keep the summary and the steps new since the last message (`first` is the
    /// index of the first of them).
    Stepped { summary: Box<RunRecord>, first: usize, steps: Vec<StepDoc> },
    /// The run stopped: it waits for answers from these nodes, or (`breakpoint`) at a
    /// breakpoint for the word to go on; the next message on the answers channel holds them.
    Waiting { nodes: Vec<String>, breakpoint: bool },
    /// An answer the run refused (the `answer` handler checks them first, so this is rare);
    /// the run waits again.
    AnswerRefused(String),
    /// The run stopped for good (completed, failed, limit): its summary, and its last step as
    /// a complete record holds it.
    Finished { summary: Box<RunRecord>, last: Option<(usize, Box<StepDoc>)> },
    /// The run could not start: the graph or the input is invalid.
    Invalid(Refusal),
}

/// An HTTP exchange as the journal keeps it (the engine's types are not serde types).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Exchange {
    pub outcome: Outcome,
    /// How long the call took when it was made.
    pub took_ms: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Outcome {
    Reply { status: u16, body: String, headers: Vec<(String, String)> },
    Failed { message: String, timed_out: bool },
}

impl Exchange {
    pub fn of(result: Result<HttpResponse, HttpFailure>, took_ms: f64) -> Exchange {
        let outcome = match result {
            Ok(r) => Outcome::Reply { status: r.status, body: r.body, headers: r.headers },
            Err(f) => Outcome::Failed { message: f.message, timed_out: f.timed_out },
        };
        Exchange { outcome, took_ms }
    }

    pub fn into_result(self) -> Result<HttpResponse, HttpFailure> {
        match self.outcome {
            Outcome::Reply { status, body, headers } => Ok(HttpResponse { status, body, headers }),
            Outcome::Failed { message, timed_out } => Err(HttpFailure { message, timed_out }),
        }
    }
}

/// An MCP exchange as the journal keeps it: what the server sent, and how long it took, by
/// which the run's clock advances on replay as for HTTP.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct McpJournal {
    pub reply: McpReply,
    pub took_ms: f64,
}
