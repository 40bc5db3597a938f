//! The host a served run sees: every effect becomes a message to the workflow handler, which
//! journals it, so a run replayed after a crash gets the same replies without sending again.
//!
//! Replay needs the engine to ask the same things in the same order, and to record the same
//! bytes. So the clock is not the wall clock: it advances by what the journal says each
//! effect took (an HTTP call's measured time, a back-off's length) and by one microsecond
//! per reading, and the run id is the workflow's key. A step's `duration_ms` is then the
//! time its effects took, as journaled; a script's own run time is not counted (scripts are
//! bounded by `max_ops`).

use std::cell::Cell;

use engine::host::{
    Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEnd, McpEndpoint, McpExchange, McpReply,
};
use tokio::sync::{mpsc, oneshot};

use crate::messages::ToHandler;

/// What one reading of the clock adds, in milliseconds: enough for readings to differ, too
/// little to show in a duration.
const TICK_MS: f64 = 0.001;

/// The engine's side of the channel to the workflow handler.
pub struct ServeHost {
    run_id: String,
    to_handler: mpsc::UnboundedSender<ToHandler>,
    clock: std::rc::Rc<Cell<f64>>,
    /// The time of day, in Unix-epoch ms, when `clock` read zero.
    wall_origin: Cell<f64>,
}

impl ServeHost {
    /// The host of run `run_id`, started at `wall_ms` (Unix-epoch ms, as journaled).
    pub fn new(run_id: String, to_handler: mpsc::UnboundedSender<ToHandler>, wall_ms: f64) -> ServeHost {
        ServeHost { run_id, to_handler, clock: std::rc::Rc::new(Cell::new(0.0)), wall_origin: Cell::new(wall_ms) }
    }

    /// The run goes on at `wall_ms` (as journaled) after a wait: the time of day jumps to it,
    /// the deterministic clock does not.
    pub fn resume_at(&self, wall_ms: f64) {
        self.wall_origin.set(wall_ms - self.clock.get());
    }

    fn advance(&self, ms: f64) {
        self.clock.set(self.clock.get() + ms);
    }
}

fn handler_gone() -> HttpFailure {
    HttpFailure { message: "the workflow handler stopped".into(), timed_out: false }
}

impl Host for ServeHost {
    fn now_ms(&self) -> f64 {
        let t = self.clock.get();
        self.advance(TICK_MS);
        t
    }

    fn epoch_ms(&self) -> Option<f64> {
        Some(self.wall_origin.get() + self.clock.get())
    }

    fn new_run_id(&self) -> String {
        self.run_id.clone()
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        let (tx, rx) = oneshot::channel();
        let sent = self.to_handler.send(ToHandler::Http(request, tx)).is_ok();
        Box::pin(async move {
            if !sent {
                return Err(handler_gone());
            }
            let Ok(exchange) = rx.await else { return Err(handler_gone()) };
            self.advance(exchange.took_ms);
            exchange.into_result()
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let (tx, rx) = oneshot::channel();
        let sent = self.to_handler.send(ToHandler::Sleep(ms, tx)).is_ok();
        Box::pin(async move {
            if sent {
                let _ = rx.await;
            }
            self.advance(ms as f64);
        })
    }

    /// Requests are timed out by the handler, inside the journaled call: the engine must not
    /// race them against a timer of its own.
    fn enforces_timeouts(&self) -> bool {
        true
    }

    fn clock(&self) -> Option<Clock> {
        let clock = self.clock.clone();
        Some(std::rc::Rc::new(move || clock.get()))
    }

    fn key_allowed(&self, auth: engine::host::Auth, url: &str) -> Result<(), String> {
        crate::effects::keys().allowed(auth, url)
    }

    /// Each exchange is one journaled step: a replayed run gets what the server sent then. A
    /// stdio connection named in a replayed reply is gone after a restart; the next exchange
    /// on it is `Lost`, and the engine opens a new session.
    fn mcp<'a>(&'a self, exchange: McpExchange, _seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        let (tx, rx) = oneshot::channel();
        let sent = self.to_handler.send(ToHandler::Mcp(exchange, tx)).is_ok();
        Box::pin(async move {
            let gone = || McpReply::ended(McpEnd::Failed("the workflow handler stopped".into()));
            if !sent {
                return gone();
            }
            let Ok(journal) = rx.await else { return gone() };
            self.advance(journal.took_ms);
            journal.reply
        })
    }

    fn mcp_close<'a>(
        &'a self,
        endpoint: &'a McpEndpoint,
        connection: Option<&'a str>,
        session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        let _ = self.to_handler.send(ToHandler::McpClose {
            endpoint: endpoint.clone(),
            connection: connection.map(str::to_string),
            session_id: session_id.map(str::to_string),
        });
        Box::pin(async {})
    }
}
