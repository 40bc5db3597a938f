//! The worker's way to the page: messages posted to it, and the HTTP requests and MCP
//! exchanges waiting for the page's replies (by number), which the message loop hands their
//! pieces and ends.

use std::cell::RefCell;
use std::collections::HashMap;

use engine::host::{HttpFailure, HttpResponse, McpReply};
use futures::channel::mpsc;
use wasm_bindgen::JsValue;
use web_sys::DedicatedWorkerGlobalScope;

use crate::model::runs::worker_messages::FromWorker;

/// What a waiting HTTP request or MCP exchange hears from the page.
pub(super) enum PageEvent {
    Chunk(String),
    Done(Result<HttpResponse, HttpFailure>),
    McpDone(McpReply),
}

/// What the worker's parts share: the way to the page, and the HTTP requests waiting.
pub(super) struct Port {
    scope: DedicatedWorkerGlobalScope,
    next_call: RefCell<u64>,
    waiting: RefCell<HashMap<u64, mpsc::UnboundedSender<PageEvent>>>,
}

impl Port {
    pub(super) fn new(scope: DedicatedWorkerGlobalScope) -> Port {
        Port { scope, next_call: RefCell::new(0), waiting: RefCell::new(HashMap::new()) }
    }

    pub(super) fn post(&self, message: &FromWorker) {
        if let Ok(text) = serde_json::to_string(message) {
            let _ = self.scope.post_message(&JsValue::from_str(&text));
        }
    }

    /// A number for a new HTTP request or MCP exchange, and where its reply will arrive.
    pub(super) fn expect_reply(&self) -> (u64, mpsc::UnboundedReceiver<PageEvent>) {
        let call = {
            let mut n = self.next_call.borrow_mut();
            *n += 1;
            *n
        };
        let (tx, rx) = mpsc::unbounded();
        self.waiting.borrow_mut().insert(call, tx);
        (call, rx)
    }

    pub(super) fn deliver(&self, call: u64, event: PageEvent) {
        let done = matches!(event, PageEvent::Done(_) | PageEvent::McpDone(_));
        let sender =
            if done { self.waiting.borrow_mut().remove(&call) } else { self.waiting.borrow().get(&call).cloned() };
        // A request the engine stopped waiting for (its timeout) is no longer listed.
        if let Some(sender) = sender {
            let _ = sender.unbounded_send(event);
        }
    }
}
