//! A model's reply streamed by the desktop app: the page opens a Tauri channel, the app's
//! `http_stream` command sends each piece of the body through it as it arrives, and the
//! pieces, put back in the order sent, are handed to the engine while the command runs. The
//! command's reply then holds the whole body.

use engine::host::{HttpFailure, HttpResponse};
use futures::StreamExt;
use futures::channel::mpsc;
use futures::future::{Either, select};
use switchyard_ipc::channel::{ChannelMessage, Reorder};
use switchyard_ipc::{self as cmd, ChannelId};
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;

use super::ipc::{call, register_callback, unregister_callback};
use super::reply::reply_of;

/// How long pieces still on their way are waited for once the reply is in (they only
/// show the reply growing; the reply itself is whole).
const LATE_PIECES_MS: u32 = 500;

/// What the channel's callback passes on.
enum Event {
    Piece(String),
    /// Every piece sent has been passed on.
    End,
}

/// Sends `request` through the app's `http_stream` command, calling `chunk` with each piece
/// of the reply's body as it arrives.
pub async fn send(request: cmd::HttpRequest, chunk: &dyn Fn(&str)) -> Result<HttpResponse, HttpFailure> {
    let (tx, mut rx) = mpsc::unbounded::<Event>();
    let mut order = Reorder::<String>::default();
    let callback = Closure::<dyn FnMut(JsValue)>::new(move |raw: JsValue| {
        let text = js_sys::JSON::stringify(&raw).ok().and_then(|s| s.as_string()).unwrap_or_default();
        // Anything else on this callback is not a channel message: nothing to show.
        let Ok(message) = serde_json::from_str::<ChannelMessage<String>>(&text) else { return };
        for piece in order.push(message) {
            let _ = tx.unbounded_send(Event::Piece(piece));
        }
        if order.finished() {
            let _ = tx.unbounded_send(Event::End);
        }
    });
    let id = register_callback(&callback).map_err(|e| HttpFailure { message: e.to_string(), timed_out: false })?;
    let args = cmd::HttpStream { request, channel: ChannelId(id) };
    let mut ended = false;
    // Pieces as they come, until the command answers.
    let mut pending = Box::pin(call(&args));
    let answer = loop {
        match select(rx.next(), pending).await {
            Either::Left((Some(Event::Piece(p)), rest)) => {
                chunk(&p);
                pending = rest;
            }
            Either::Left((Some(Event::End), rest)) => {
                ended = true;
                break rest.await;
            }
            Either::Left((None, rest)) => break rest.await,
            Either::Right((answer, _)) => break answer,
        }
    };
    // Pieces sent before the answer may arrive after it.
    while !ended {
        let late = gloo_timers::future::TimeoutFuture::new(LATE_PIECES_MS);
        match select(rx.next(), late).await {
            Either::Left((Some(Event::Piece(p)), _)) => chunk(&p),
            _ => ended = true,
        }
    }
    unregister_callback(id);
    drop(callback);
    reply_of(answer)
}
