//! The host a run on the embedded server sees: real HTTP and MCP through the `net` crate,
//! with every reply journaled in the store under (run, step, hash of the request,
//! occurrence). A run continued after a restart re-runs its unfinished step and gets the
//! journaled replies instead of calling again, so no finished model or HTTP call repeats.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEnd, McpEndpoint, McpExchange,
    McpReply,
};
use sha2::{Digest, Sha256};

use crate::domain::RunId;
use crate::embedded::store::Store;

/// What every run's host shares: keys from the environment and the MCP policy (read as the
/// CLI's host reads them).
pub type HostSettings = net::host_env::HostEnv;

/// A run's host, living on its engine thread.
pub struct JournalHost {
    run: RunId,
    store: Store,
    settings: Arc<HostSettings>,
    origin: Instant,
    /// The step being run: replies are journaled per step, so a step re-run after a
    /// restart counts its requests from zero again, as it did the first time.
    step: Cell<u64>,
    seen: RefCell<HashMap<(u64, String), u64>>,
    /// Where streamed text of a model's reply goes (token streaming).
    on_delta: OnDelta,
}

/// Where a model's streamed text goes: `(node, text)`.
pub type OnDelta = Box<dyn Fn(&str, &str)>;

impl JournalHost {
    pub fn new(run: RunId, store: Store, settings: Arc<HostSettings>, on_delta: OnDelta) -> JournalHost {
        JournalHost {
            run,
            store,
            settings,
            origin: Instant::now(),
            step: Cell::new(0),
            seen: RefCell::default(),
            on_delta,
        }
    }

    /// The engine is about to run step `step` (counted in its own run).
    pub fn at_step(&self, step: u64) {
        self.step.set(step);
    }

    /// Journals a reply. One that cannot be kept is only a call a restart would make again:
    /// the run goes on, and the operator hears of it.
    fn keep(&self, step: u64, hash: &str, occurrence: u64, reply: &str) {
        if let Err(e) = self.store.journal(&self.run, step, hash, occurrence, reply) {
            eprintln!("switchyard server: run {}: a reply was not journaled: {e}", self.run);
        }
    }

    /// The journal's key for this request: its hash, and how many identical ones this step
    /// made before it.
    fn key(&self, what: &str, request: &impl serde::Serialize) -> (String, u64) {
        let text = serde_json::to_string(request).unwrap_or_default();
        let hash = format!("{:x}", Sha256::digest(format!("{what}\n{text}").as_bytes()));
        let mut seen = self.seen.borrow_mut();
        let n = seen.entry((self.step.get(), hash.clone())).or_insert(0);
        let occurrence = *n;
        *n += 1;
        (hash, occurrence)
    }
}

type HttpResult = Result<HttpResponse, HttpFailure>;

impl Host for JournalHost {
    fn now_ms(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1000.0
    }

    /// The time of day: the embedded server keeps no clock of its own to replay, so a run
    /// continued after a restart stamps its re-run step anew.
    fn epoch_ms(&self) -> Option<f64> {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.ok().map(|d| d.as_secs_f64() * 1000.0)
    }

    fn new_run_id(&self) -> String {
        uuid::Uuid::now_v7().to_string()
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, HttpResult> {
        let (hash, occurrence) = self.key("http", &request);
        let step = self.step.get();
        if let Some(reply) = self.store.journaled(&self.run, step, &hash, occurrence)
            && let Ok(reply) = serde_json::from_str::<HttpResult>(&reply)
        {
            return Box::pin(async move { reply });
        }
        let key = request.auth.and_then(|auth| self.settings.keys.key_for(auth, &request.url)).map(str::to_string);
        let trusted = self.settings.keys.trusted().to_vec();
        let held: Vec<String> = self.settings.keys.keys().map(str::to_string).collect();
        let reach = self.settings.reach.clone();
        Box::pin(async move {
            let sent = tokio::task::spawn_blocking(move || {
                net::send_bound_within(&request, key.as_deref(), &trusted, &reach).map(|mut r| {
                    r.body = engine::host::redact(&r.body, held.iter().map(String::as_str));
                    r
                })
            })
            .await;
            let reply = sent
                .unwrap_or_else(|_| Err(HttpFailure { message: "the request was dropped".into(), timed_out: false }));
            if let Ok(text) = serde_json::to_string(&reply) {
                self.keep(step, &hash, occurrence, &text);
            }
            reply
        })
    }

    /// Models stream their replies, so `messages` streams get the text as it comes; the
    /// journal keeps the whole reply (a replay hands it over as one piece).
    fn streams(&self) -> bool {
        true
    }

    fn http_stream<'a>(&'a self, request: HttpRequest, chunk: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, HttpResult> {
        let (hash, occurrence) = self.key("http", &request);
        let step = self.step.get();
        if let Some(reply) = self.store.journaled(&self.run, step, &hash, occurrence)
            && let Ok(reply) = serde_json::from_str::<HttpResult>(&reply)
        {
            return Box::pin(async move {
                if let Ok(r) = &reply {
                    chunk(&r.body);
                }
                reply
            });
        }
        let key = request.auth.and_then(|auth| self.settings.keys.key_for(auth, &request.url)).map(str::to_string);
        let trusted = self.settings.keys.trusted().to_vec();
        let held: Vec<String> = self.settings.keys.keys().map(str::to_string).collect();
        let reach = self.settings.reach.clone();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        Box::pin(async move {
            let sent = tokio::task::spawn_blocking(move || {
                let mut send = |piece: &str| {
                    let _ = tx.send(piece.to_string());
                };
                net::stream::send_stream_bound_within(&request, key.as_deref(), &trusted, &mut send, &reach).map(
                    |mut r| {
                        r.body = engine::host::redact(&r.body, held.iter().map(String::as_str));
                        r
                    },
                )
            });
            // Pieces are handed on as they come; the channel closes when the request ends.
            while let Some(piece) = rx.recv().await {
                chunk(&piece);
            }
            let reply = sent
                .await
                .unwrap_or_else(|_| Err(HttpFailure { message: "the request was dropped".into(), timed_out: false }));
            if let Ok(text) = serde_json::to_string(&reply) {
                self.keep(step, &hash, occurrence, &text);
            }
            reply
        })
    }

    fn stream_redactor(&self) -> engine::host::StreamRedactor {
        engine::host::StreamRedactor::new(self.settings.keys.keys())
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        self.settings.keys.allowed(auth, url)
    }

    fn clock(&self) -> Option<Clock> {
        let origin = self.origin;
        Some(std::rc::Rc::new(move || origin.elapsed().as_secs_f64() * 1000.0))
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(ms)))
    }

    fn llm_delta(&self, node: &str, text: &str) {
        (self.on_delta)(node, text);
    }

    fn mcp<'a>(&'a self, exchange: McpExchange, seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        let (hash, occurrence) = self.key("mcp", &exchange);
        let step = self.step.get();
        let policy = self.settings.mcp.clone();
        Box::pin(async move {
            let journaled = self.store.journaled(&self.run, step, &hash, occurrence);
            let reply = match journaled.and_then(|r| serde_json::from_str::<McpReply>(&r).ok()) {
                Some(reply) => reply,
                None => {
                    let sent =
                        tokio::task::spawn_blocking(move || net::mcp::exchange(&exchange, &policy, &|_| {})).await;
                    let reply =
                        sent.unwrap_or_else(|_| McpReply::ended(McpEnd::Failed("the exchange was dropped".into())));
                    if let Ok(text) = serde_json::to_string(&reply) {
                        self.keep(step, &hash, occurrence, &text);
                    }
                    reply
                }
            };
            for message in &reply.received {
                seen(message);
            }
            reply
        })
    }

    fn mcp_close<'a>(
        &'a self,
        endpoint: &'a McpEndpoint,
        connection: Option<&'a str>,
        session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        let policy = self.settings.mcp.clone();
        let (endpoint, connection, session_id) =
            (endpoint.clone(), connection.map(str::to_string), session_id.map(str::to_string));
        Box::pin(async move {
            let _ = tokio::task::spawn_blocking(move || {
                net::mcp::close(&endpoint, connection.as_deref(), session_id.as_deref(), &policy);
            })
            .await;
        })
    }
}
