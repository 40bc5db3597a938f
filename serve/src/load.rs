//! A graph document sent to the service, read and compiled, with the CLI's messages for what
//! is wrong with it.

use engine::{Plan, compile};
use serde_json::Value;

use crate::limits::{self, TooLarge};

/// Why a request cannot be served; each maps to an HTTP status the client sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The graph document is not a valid graph, or no graph has the hash named (422).
    BadGraph(String),
    /// The input, an answer, a fork point or the request itself is not valid (400).
    BadInput(String),
    /// Nothing with this name exists (404).
    NotFound(String),
    /// The run is not in a state to take this (409).
    Conflict(String),
    /// A document or input larger than a served run takes (413).
    TooLarge(String),
}

impl Refusal {
    pub fn code(&self) -> u16 {
        match self {
            Refusal::BadGraph(_) => 422,
            Refusal::BadInput(_) => 400,
            Refusal::NotFound(_) => 404,
            Refusal::Conflict(_) => 409,
            Refusal::TooLarge(_) => 413,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Refusal::BadGraph(m)
            | Refusal::BadInput(m)
            | Refusal::NotFound(m)
            | Refusal::Conflict(m)
            | Refusal::TooLarge(m) => m,
        }
    }
}

impl From<TooLarge> for Refusal {
    fn from(e: TooLarge) -> Self {
        Refusal::TooLarge(e.to_string())
    }
}

impl From<Refusal> for restate_sdk::errors::TerminalError {
    fn from(r: Refusal) -> Self {
        restate_sdk::errors::TerminalError::new_with_code(r.code(), r.message())
    }
}

impl From<Refusal> for restate_sdk::errors::HandlerError {
    fn from(r: Refusal) -> Self {
        restate_sdk::errors::TerminalError::from(r).into()
    }
}

/// The graph's plan, its limits held to the served ceilings, and its hash; a document that
/// does not parse or compile is refused with its first error, by JSON path, as `switchyard
/// run` words it.
pub fn plan_of(document: Value) -> Result<(Plan, String), Refusal> {
    let (plan, hash) = served_plan(document)?;
    check_consent(&plan)?;
    Ok((plan, hash))
}

/// The plan as a served run compiles it, without asking whether its MCP programs may start:
/// what a client of the service (`switchyard server --restate`) reads records with; the
/// service itself refuses such a graph when it is run.
pub fn served_plan(document: Value) -> Result<(Plan, String), Refusal> {
    limits::check_size("graph", &document, limits::MAX_DOCUMENT_BYTES)?;
    let graph = engine::parse::graph_from_value(document).map_err(|e| Refusal::BadGraph(e.to_string()))?;
    let compiled = compile(&graph);
    let Some(mut plan) = compiled.plan else {
        let errors: Vec<_> = compiled.diagnostics.iter().filter(|d| d.is_error()).collect();
        let first = errors.first().map(|d| format!("{}: {}", d.path, d.message)).unwrap_or_default();
        let more = match errors.len() {
            0 | 1 => String::new(),
            n => format!(" (and {} more; see `switchyard validate`)", n - 1),
        };
        return Err(Refusal::BadGraph(format!("invalid graph: {first}{more}")));
    };
    limits::hold(&mut plan);
    let hash = plan.graph_hash().hash.clone();
    Ok((plan, hash))
}

/// A graph whose MCP servers include a program the operator did not allow is refused before
/// it runs, naming the server and the whole command line (format.md §2.11).
fn check_consent(plan: &Plan) -> Result<(), Refusal> {
    let allowed = crate::consent::allowed_commands();
    match plan.mcp_endpoints().into_iter().find(|(_, e)| !allowed.allows_endpoint(e)) {
        None => Ok(()),
        Some((at, endpoint)) => {
            Err(Refusal::BadGraph(format!("{at}: not allowed by this service: {}", net::mcp::refusal(&endpoint))))
        }
    }
}
