//! The page's side of the run worker. [`RunEngine::call`] sends a request to the run and
//! waits for its reply, serving meanwhile the HTTP requests and streamed text the run sends
//! back with the host the call was made with. [`RunEngine::stop`] ends the worker at once
//! (whatever a script is doing) and starts a fresh one; calls waiting get [`Stopped`].
//!
//! A worker that cannot be created, or fails to load, leaves the page running the service
//! itself: slower to stop, never without a run. Natively (the actions' tests) the service
//! always runs in the caller.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use engine::host::Host;
use futures::channel::oneshot;
use futures::lock::Mutex;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker};

use crate::model::runs::run_service::{Reply, Request, RunService};
use crate::model::runs::worker_messages::{FromWorker, ToWorker};
use crate::model::storage::keys::KeyTable;

/// The script that loads the worker's wasm module (made by the build next to the editor's).
const WORKER_SCRIPT: &str = "./worker_loader.js";

/// How long a worker may take to load before the page runs the service itself.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(20);

/// The call was given up: the run was stopped (Pause or Reset during a step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// Where the live run is held.
#[derive(Clone)]
pub struct RunEngine {
    inner: Rc<RefCell<Inner>>,
    /// The service when the page runs it itself; a lock keeps its calls one at a time.
    in_page: Rc<Mutex<RunService>>,
}

enum Backend {
    /// No worker yet (none asked for, or the last one stopped).
    Idle,
    /// A worker loading: messages wait until it says it listens.
    Starting {
        worker: Worker,
        queued: Vec<String>,
        _listeners: Listeners,
    },
    Ready {
        worker: Worker,
        _listeners: Listeners,
    },
    /// No worker could run here: the page runs the service.
    InPage,
}

/// The worker's message and error listeners, kept as long as it lives.
struct Listeners {
    _message: Closure<dyn FnMut(MessageEvent)>,
    _error: Closure<dyn FnMut(web_sys::Event)>,
}

struct Inner {
    backend: Backend,
    next_id: u64,
    /// Calls sent to the worker, waiting for their replies: each with its request, to be run
    /// in the page if the worker fails to load.
    pending: HashMap<u64, (Request, KeyTable, oneshot::Sender<Reply>)>,
    /// The host of the call being carried out, for the effects the run asks for.
    host: Option<Rc<dyn Host>>,
}

impl Default for RunEngine {
    fn default() -> Self {
        RunEngine::new()
    }
}

impl RunEngine {
    pub fn new() -> RunEngine {
        RunEngine {
            inner: Rc::new(RefCell::new(Inner {
                // Natively (the actions' tests) there are no workers: the caller runs the service.
                backend: if cfg!(target_arch = "wasm32") { Backend::Idle } else { Backend::InPage },
                next_id: 0,
                pending: HashMap::new(),
                host: None,
            })),
            in_page: Rc::new(Mutex::new(RunService::new())),
        }
    }

    /// Starts the worker now, if it is not running, so the first run does not wait for it.
    pub fn warm(&self) {
        if matches!(self.inner.borrow().backend, Backend::Idle) {
            self.spawn_worker();
        }
    }

    /// Whether the run is held by a worker (a step can then be stopped at once).
    pub fn in_worker(&self) -> bool {
        matches!(self.inner.borrow().backend, Backend::Starting { .. } | Backend::Ready { .. })
    }

    /// Sends `request` to the run; `keys` says which origins have keys, `host` carries out
    /// the effects the run asks for while it works.
    pub async fn call(&self, request: Request, keys: KeyTable, host: Rc<dyn Host>) -> Result<Reply, Stopped> {
        self.inner.borrow_mut().host = Some(host.clone());
        self.warm();
        if matches!(self.inner.borrow().backend, Backend::InPage) {
            return Ok(self.in_page.lock().await.handle(request, host.as_ref()).await);
        }
        let (tx, rx) = oneshot::channel();
        let id = {
            let mut inner = self.inner.borrow_mut();
            inner.next_id += 1;
            let id = inner.next_id;
            let text = message(&ToWorker::Call { id, keys: keys.clone(), request: request.clone() });
            inner.pending.insert(id, (request, keys, tx));
            inner.send(text);
            id
        };
        let reply = rx.await.map_err(|_| Stopped);
        self.inner.borrow_mut().pending.remove(&id);
        reply
    }

    /// Ends the worker at once, with whatever it was doing (the calls waiting get
    /// [`Stopped`]), and starts a fresh one. The run it held is gone: load it again to go on.
    /// When the page runs the service itself there is nothing to end; the run is forgotten
    /// once the call in flight returns.
    pub fn stop(&self) {
        let old = {
            let mut inner = self.inner.borrow_mut();
            inner.pending.clear();
            std::mem::replace(&mut inner.backend, Backend::Idle)
        };
        match old {
            Backend::Starting { worker, .. } | Backend::Ready { worker, .. } => {
                worker.terminate();
                self.spawn_worker();
            }
            Backend::InPage => {
                self.inner.borrow_mut().backend = Backend::InPage;
                let service = self.in_page.clone();
                wasm_bindgen_futures::spawn_local(async move { *service.lock().await = RunService::new() });
            }
            Backend::Idle => {}
        }
    }

    fn spawn_worker(&self) {
        let worker = match Worker::new(WORKER_SCRIPT) {
            Ok(w) => w,
            Err(e) => return self.fall_back(&format!("{e:?}")),
        };
        let weak = Rc::downgrade(&self.inner);
        let in_page = self.in_page.clone();
        let on_message = {
            let weak = weak.clone();
            let worker = worker.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if let (Some(inner), Some(text)) = (weak.upgrade(), event.data().as_string()) {
                    heard(&inner, &worker, &text);
                }
            })
        };
        let on_error = {
            let worker = worker.clone();
            Closure::<dyn FnMut(web_sys::Event)>::new(move |_event: web_sys::Event| {
                let Some(inner) = weak.upgrade() else { return };
                let (starting, ready) = match &inner.borrow().backend {
                    Backend::Starting { worker: w, .. } => (*w == worker, false),
                    Backend::Ready { worker: w, .. } => (false, *w == worker),
                    _ => (false, false),
                };
                let engine = RunEngine { inner, in_page: in_page.clone() };
                if starting {
                    // A worker that never started: the page runs the service from now on.
                    engine.fall_back("the worker's script did not load");
                } else if ready {
                    // A worker that stopped (the engine's wasm trapped): the calls waiting
                    // get `Stopped`, and a fresh worker takes its place.
                    engine.stop();
                }
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        self.give_up_unless_ready(&worker);
        self.inner.borrow_mut().backend = Backend::Starting {
            worker,
            queued: Vec::new(),
            _listeners: Listeners { _message: on_message, _error: on_error },
        };
    }

    /// A webview that neither starts the worker nor reports an error would leave the first
    /// run waiting for ever: after a while, the page runs the service itself.
    fn give_up_unless_ready(&self, worker: &Worker) {
        let weak = Rc::downgrade(&self.inner);
        let in_page = self.in_page.clone();
        let worker = worker.clone();
        leptos::prelude::set_timeout(
            move || {
                let Some(inner) = weak.upgrade() else { return };
                let starting = matches!(&inner.borrow().backend, Backend::Starting { worker: w, .. } if *w == worker);
                if starting {
                    RunEngine { inner, in_page }.fall_back("it did not start within 20 s");
                }
            },
            READY_WITHIN,
        );
    }

    /// Runs the service in the page from now on, and carries out there the calls the worker
    /// was given.
    fn fall_back(&self, why: &str) {
        web_sys::console::warn_1(&format!("Switchyard runs graphs on the page (no run worker: {why})").into());
        let (pending, host) = {
            let mut inner = self.inner.borrow_mut();
            if let Backend::Starting { worker, .. } | Backend::Ready { worker, .. } = &inner.backend {
                worker.terminate();
            }
            inner.backend = Backend::InPage;
            let mut pending: Vec<_> = inner.pending.drain().collect();
            pending.sort_by_key(|(id, _)| *id);
            (pending, inner.host.clone())
        };
        let Some(host) = host else { return };
        let service = self.in_page.clone();
        wasm_bindgen_futures::spawn_local(async move {
            for (_, (request, _, reply)) in pending {
                let answer = service.lock().await.handle(request, host.as_ref()).await;
                let _ = reply.send(answer);
            }
        });
    }
}

impl Inner {
    /// Sends `text` to the worker, or keeps it until the worker listens.
    fn send(&mut self, text: String) {
        match &mut self.backend {
            Backend::Starting { queued, .. } => queued.push(text),
            Backend::Ready { worker, .. } => {
                let _ = worker.post_message(&JsValue::from_str(&text));
            }
            Backend::Idle | Backend::InPage => {}
        }
    }
}

fn message(m: &ToWorker) -> String {
    serde_json::to_string(m).unwrap_or_default()
}

/// One message from `worker`.
fn heard(inner: &Rc<RefCell<Inner>>, worker: &Worker, text: &str) {
    let Ok(message) = serde_json::from_str::<FromWorker>(text) else { return };
    match message {
        FromWorker::Ready => ready(inner, worker),
        FromWorker::Reply { id, reply } => {
            if let Some((_, _, tx)) = inner.borrow_mut().pending.remove(&id) {
                let _ = tx.send(reply);
            }
        }
        FromWorker::Http { call, request, stream } => {
            let Some(host) = inner.borrow().host.clone() else { return };
            serve_http(worker.clone(), host, call, request, stream);
        }
        FromWorker::Mcp { call, exchange } => {
            let Some(host) = inner.borrow().host.clone() else { return };
            serve_mcp(worker.clone(), host, call, exchange);
        }
        FromWorker::McpClose { endpoint, connection, session_id } => {
            let Some(host) = inner.borrow().host.clone() else { return };
            wasm_bindgen_futures::spawn_local(async move {
                host.mcp_close(&endpoint, connection.as_deref(), session_id.as_deref()).await;
            });
        }
        FromWorker::Delta { node, text } => {
            let host = inner.borrow().host.clone();
            if let Some(host) = host {
                host.llm_delta(&node, &text);
            }
        }
    }
}

/// The worker listens: what waited for it is sent.
fn ready(inner: &Rc<RefCell<Inner>>, worker: &Worker) {
    let mut inner = inner.borrow_mut();
    let backend = std::mem::replace(&mut inner.backend, Backend::Idle);
    inner.backend = match backend {
        Backend::Starting { worker: w, queued, _listeners } if w == *worker => {
            for text in queued {
                let _ = w.post_message(&JsValue::from_str(&text));
            }
            Backend::Ready { worker: w, _listeners }
        }
        other => other,
    };
}

/// Sends the run's HTTP request with the page's host, and the reply back to `worker` (piece
/// by piece when it streams). A worker ended meanwhile gets nothing.
fn serve_http(worker: Worker, host: Rc<dyn Host>, call: u64, request: engine::host::HttpRequest, stream: bool) {
    wasm_bindgen_futures::spawn_local(async move {
        let post = |m: &ToWorker| {
            let _ = worker.post_message(&JsValue::from_str(&message(m)));
        };
        let result = if stream {
            let chunk = |text: &str| post(&ToWorker::HttpChunk { call, text: text.to_string() });
            host.http_stream(request, &chunk).await
        } else {
            host.http(request).await
        };
        post(&ToWorker::HttpDone { call, result });
    });
}

/// Carries out the run's MCP exchange with the page's host, and sends the reply back.
fn serve_mcp(worker: Worker, host: Rc<dyn Host>, call: u64, exchange: engine::host::McpExchange) {
    wasm_bindgen_futures::spawn_local(async move {
        let reply = host.mcp(exchange, &|_| {}).await;
        let _ = worker.post_message(&JsValue::from_str(&message(&ToWorker::McpDone { call, reply })));
    });
}
