//! The worker's side: it listens for the page's messages, hands calls to the run service one
//! at a time (in the order they came), and passes HTTP replies to the requests waiting for
//! them, while a call is still being carried out.

use std::rc::Rc;

use futures::StreamExt;
use futures::channel::mpsc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::port::{PageEvent, Port};
use super::worker_host::WorkerHost;
use crate::model::runs::run_service::{Request, RunService};
use crate::model::runs::worker_messages::{FromWorker, ToWorker};
use crate::model::storage::keys::KeyTable;

/// Starts listening; called once, by the worker's `main`.
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let port = Rc::new(Port::new(scope.clone()));
    let (calls, mut queue) = mpsc::unbounded::<(u64, KeyTable, Request)>();
    let listener = {
        let port = port.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(text) = event.data().as_string() else { return };
            match serde_json::from_str::<ToWorker>(&text) {
                Ok(ToWorker::Call { id, keys, request }) => {
                    let _ = calls.unbounded_send((id, keys, request));
                }
                Ok(ToWorker::HttpChunk { call, text }) => port.deliver(call, PageEvent::Chunk(text)),
                Ok(ToWorker::HttpDone { call, result }) => port.deliver(call, PageEvent::Done(result)),
                Ok(ToWorker::McpDone { call, reply }) => port.deliver(call, PageEvent::McpDone(reply)),
                Err(e) => web_sys::console::error_1(&format!("run worker: a message it cannot read: {e}").into()),
            }
        })
    };
    scope.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    // The worker lives as long as its listener.
    listener.forget();
    let serving = port.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let mut service = RunService::new();
        while let Some((id, keys, request)) = queue.next().await {
            let host = WorkerHost::new(serving.clone(), keys);
            let reply = service.handle(request, &host).await;
            serving.post(&FromWorker::Reply { id, reply });
        }
    });
    port.post(&FromWorker::Ready);
}
