//! What the engine asks of the program running it.
//!
//! The engine does no I/O of its own. Time, run ids and every network call go through a
//! [`Host`]: the CLI implements it with the system clock and a blocking HTTP client, the
//! browser with `performance.now()` and `fetch`, the desktop app with native commands. Model
//! calls are plain HTTP requests built by the engine; the host only adds the credentials
//! named by [`HttpRequest::auth`], so an API key never passes through a document or a run
//! record.

mod mcp;
mod origin;
mod redact;

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

/// A reading of the host's monotonic clock, in milliseconds (the same clock as
/// [`Host::now_ms`]), that the sandbox can keep: it reads it while a script runs, to stop
/// one that overruns its time limit.
pub type Clock = Rc<dyn Fn() -> f64>;

pub use self::mcp::{McpEnd, McpEndpoint, McpExchange, McpReply};
pub use self::origin::{KeyRing, Origin, check_origin};
pub use self::redact::{REMOVED, StreamRedactor, is_credential_header, redact, redact_headers};

/// A boxed future that need not be `Send` (the browser has one thread).
pub type LocalBoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Credentials the host adds to a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Auth {
    /// `Authorization: Bearer <key>` with the host's OpenAI-compatible API key, if it has one.
    OpenAi,
    /// `x-api-key: <key>` with the host's Anthropic key, if it has one.
    Anthropic,
}

/// An HTTP request, fully rendered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// The host should give up after this long (the engine also stops waiting).
    pub timeout_ms: u64,
    pub auth: Option<Auth>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HttpResponse {
    pub status: u16,
    pub body: String,
    /// The reply's headers, as far as the host can see them (a browser shows only some);
    /// the engine reads `Retry-After` from them.
    pub headers: Vec<(String, String)>,
}

impl HttpResponse {
    /// A reply without headers.
    pub fn new(status: u16, body: impl Into<String>) -> HttpResponse {
        HttpResponse { status, body: body.into(), headers: Vec::new() }
    }

    /// The first header named `name`, whatever its case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Why no response arrived (refused connection, DNS, CORS, timeout in the host…).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpFailure {
    pub message: String,
    pub timed_out: bool,
}

pub trait Host {
    /// Milliseconds on a monotonic clock with any origin.
    fn now_ms(&self) -> f64;
    /// Milliseconds since the Unix epoch, when the host knows the time of day: steps and
    /// effects are stamped with it so a trace shows when they ran. A host without a
    /// wall clock (the default, and the deterministic test hosts) leaves records unstamped.
    fn epoch_ms(&self) -> Option<f64> {
        None
    }
    /// A new, unique run id.
    fn new_run_id(&self) -> String;
    /// Performs an HTTP request.
    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>>;
    /// Resolves after `ms` milliseconds (retry backoff, timeouts).
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()>;
    /// Whether the host itself ends every request after its [`HttpRequest::timeout_ms`].
    /// By default the engine also races each request against [`Host::sleep`]; a host whose
    /// replies are replayed from a journal (a durable workflow) must decide a timeout in one
    /// place only, or a replay could decide it otherwise, so it says `true` here.
    fn enforces_timeouts(&self) -> bool {
        false
    }
    /// The clock, for the sandbox to read during an evaluation, so that `node_timeout_ms`
    /// and `run_timeout_ms` stop a running script and not only the steps after it. A host
    /// without one (the default) leaves scripts bounded by `max_ops` alone.
    fn clock(&self) -> Option<Clock> {
        None
    }
    /// Whether a request to `url` may carry the host's key for `auth`; the error says why
    /// not, and ends up in the step's `details`. The engine marks a request with
    /// [`HttpRequest::auth`] only when this allows it. The default trusts each provider's own
    /// origin (`https://api.openai.com`, `https://api.anthropic.com`) and nothing else; a host
    /// whose person trusts more (a [`KeyRing`]) says so here, and checks again when it sends.
    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        check_origin(auth, url, &[])
    }
    /// Whether someone watches model replies arrive (an editor's live run): the engine then
    /// asks providers to stream their replies (server-sent events), sends the request with
    /// [`Host::http_stream`] and passes each piece of text to [`Host::llm_delta`]. The run
    /// record holds only the final message either way.
    fn streams(&self) -> bool {
        false
    }
    /// Performs a request whose reply arrives in pieces, calling `chunk` with each piece of
    /// the body as it arrives; the response still holds the whole body. The default waits
    /// for the whole reply and hands it over as one piece.
    fn http_stream<'a>(
        &'a self,
        request: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        Box::pin(async move {
            let reply = self.http(request).await;
            if let Ok(r) = &reply {
                chunk(&r.body);
            }
            reply
        })
    }
    /// The keys to remove from streamed text (the pieces handed to [`Host::llm_delta`] and
    /// the reply assembled from them): a key split between two pieces or two events is in
    /// neither, so the engine holds back a possible start of one ([`StreamRedactor`]). The
    /// default, for a host that holds no keys, removes nothing.
    fn stream_redactor(&self) -> StreamRedactor {
        StreamRedactor::default()
    }
    /// Text a streaming model added to its reply, for node `node` (an instance of a mapped
    /// node is named `node[i]`).
    fn llm_delta(&self, _node: &str, _text: &str) {}
    /// One exchange with an MCP server (format.md §2.11; the contract is in [`McpExchange`]'s
    /// module). `seen` is told of each message as it arrives. The default reaches no server.
    fn mcp<'a>(&'a self, exchange: McpExchange, _seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        let why = format!("this host cannot reach MCP servers (server `{}`)", exchange.server);
        Box::pin(async move { McpReply::ended(McpEnd::Refused(why)) })
    }
    /// Ends a session when its run stops: a stdio child gets its stdin closed and is ended
    /// if it does not exit; an HTTP session is deleted. The default has nothing to close.
    fn mcp_close<'a>(
        &'a self,
        _endpoint: &'a McpEndpoint,
        _connection: Option<&'a str>,
        _session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// A host with a fake clock and no network: deterministic, for tests and pure graphs. Every
/// reading of the clock advances it by `tick_ms`.
#[derive(Debug)]
pub struct OfflineHost {
    clock: Rc<Cell<f64>>,
    tick_ms: f64,
    ids: Cell<u64>,
}

impl OfflineHost {
    pub fn new() -> OfflineHost {
        OfflineHost { clock: Rc::new(Cell::new(0.0)), tick_ms: 0.0, ids: Cell::new(0) }
    }

    /// A host whose clock advances by `tick_ms` at each reading.
    pub fn with_tick(tick_ms: f64) -> OfflineHost {
        OfflineHost { tick_ms, ..OfflineHost::new() }
    }
}

impl Default for OfflineHost {
    fn default() -> Self {
        OfflineHost::new()
    }
}

impl Host for OfflineHost {
    fn now_ms(&self) -> f64 {
        let t = self.clock.get();
        self.clock.set(t + self.tick_ms);
        t
    }

    fn new_run_id(&self) -> String {
        let n = self.ids.get() + 1;
        self.ids.set(n);
        format!("run-{n}")
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        Box::pin(async move {
            Err(HttpFailure {
                message: format!("no network in this host ({} {})", request.method, request.url),
                timed_out: false,
            })
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.clock.set(self.clock.get() + ms as f64);
        Box::pin(async {})
    }

    fn clock(&self) -> Option<Clock> {
        let (clock, tick) = (self.clock.clone(), self.tick_ms);
        Some(Rc::new(move || {
            let t = clock.get();
            clock.set(t + tick);
            t
        }))
    }
}
