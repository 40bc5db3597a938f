//! A run's MCP client sessions (format.md §2.11): one per server per run, opened when a call
//! or a model's tool list first needs it, shared by the run's subgraph and definition runs,
//! and closed when the run stops.
//!
//! Every exchange goes through [`crate::host::Host::mcp`]: the engine keeps the protocol's
//! state (ids, the negotiated version, the session id, the tool listing) and the host only
//! moves the messages, so every host runs the same protocol and a durable host journals each
//! exchange as one step.
//!
//! | module | what it holds |
//! |---|---|
//! | `session` | one session: initialize (version negotiated), `tools/list` over every page, an exchange's end told as an error naming the server |
//! | `call` | `tools/call`: progress and log notifications into the call's details, a timeout cancelling the request, a lost session opened again once, the result as the tool message |
//! | `listing` | the tool a graph names found in the listing (did-you-mean), its description and parameters for a model, and the check that it did not change since the graph was designed |
//! | `probe` | [`mcp_probe`]: initialize, list, close, for an editor's Connect button |

mod call;
mod listing;
mod probe;
mod session;

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{Map, Value};

pub(crate) use self::call::call_tool;
pub(crate) use self::listing::offered_specs;
pub use self::probe::{ListedTool, Listing, mcp_probe};
use self::session::Session;
use crate::host::Host;
use crate::plan::{McpServerOp, Plan};

/// The sessions of one run (and the runs inside it), by server name.
pub(crate) struct McpSessions {
    /// The top-level run's plan and input: header templates are rendered with them.
    plan: Rc<Plan>,
    input: Rc<Map<String, Value>>,
    /// One per server: the same name reaching the same place (a definition may declare a
    /// name of its own).
    open: RefCell<Vec<Rc<Session>>>,
}

impl McpSessions {
    pub(crate) fn new(plan: Rc<Plan>, input: Rc<Map<String, Value>>) -> McpSessions {
        McpSessions { plan, input, open: RefCell::default() }
    }

    /// The session with `server`, made (not yet opened) the first time it is asked for.
    fn session(&self, server: &Rc<McpServerOp>) -> Rc<Session> {
        let mut open = self.open.borrow_mut();
        if let Some(s) = open.iter().find(|s| *s.server == **server) {
            return s.clone();
        }
        let s = Rc::new(Session::new(server.clone()));
        open.push(s.clone());
        s
    }

    /// Closes every session (a stdio child ends, an HTTP session is deleted); the next call
    /// opens a new one.
    pub(crate) async fn close(&self, host: &dyn Host) {
        let sessions: Vec<Rc<Session>> = std::mem::take(&mut *self.open.borrow_mut());
        for s in sessions {
            s.close(host).await;
        }
    }
}
