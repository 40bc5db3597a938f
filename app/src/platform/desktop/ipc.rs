//! Calling the desktop app's commands (declared in `switchyard-ipc`) from the webview.

use std::fmt;

use serde::de::DeserializeOwned;
use switchyard_ipc::Command;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Why a command did not answer as expected.
#[derive(Debug, Clone, PartialEq)]
pub enum IpcError {
    /// Not inside the desktop app, or its bridge is missing.
    Unavailable(&'static str),
    /// The command failed: its rejection, as text (a message, or JSON for structured ones).
    Refused(String),
    /// The answer did not have the declared shape.
    BadReply { command: &'static str, why: String },
}

impl fmt::Display for IpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IpcError::Unavailable(why) => f.write_str(why),
            IpcError::Refused(why) => f.write_str(why),
            IpcError::BadReply { command, why } => write!(f, "unexpected reply to {command}: {why}"),
        }
    }
}

/// Whether the page runs inside the Tauri app.
pub fn available() -> bool {
    web_sys::window().is_some_and(|w| js_sys::Reflect::has(&w, &"__TAURI_INTERNALS__".into()).unwrap_or(false))
}

/// Calls command `C` with `args` and reads its reply.
pub async fn call<C: Command>(args: &C) -> Result<C::Reply, IpcError> {
    let payload = serde_json::json!({ "args": args });
    raw::<C::Reply>(C::NAME, &payload.to_string()).await
}

/// Tauri's bridge object and one of its functions.
fn bridge(function: &str, missing: &'static str) -> Result<(JsValue, js_sys::Function), IpcError> {
    let window = web_sys::window().ok_or(IpcError::Unavailable("no window"))?;
    let internals = js_sys::Reflect::get(&window, &"__TAURI_INTERNALS__".into())
        .map_err(|_| IpcError::Unavailable("not in the desktop app"))?;
    let f = js_sys::Reflect::get(&internals, &function.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or(IpcError::Unavailable(missing))?;
    Ok((internals, f))
}

/// Registers `callback` for a channel's messages (Tauri's `transformCallback`); returns its id.
pub fn register_callback(callback: &Closure<dyn FnMut(JsValue)>) -> Result<u32, IpcError> {
    let (internals, register) = bridge("transformCallback", "no transformCallback")?;
    let id = register.call2(&internals, callback.as_ref(), &JsValue::FALSE).map_err(describe)?;
    id.as_f64().map(|n| n as u32).ok_or(IpcError::Unavailable("no callback id"))
}

/// Forgets a callback registered with [`register_callback`].
pub fn unregister_callback(id: u32) {
    if let Ok((internals, unregister)) = bridge("unregisterCallback", "no unregisterCallback") {
        let _ = unregister.call1(&internals, &JsValue::from(id));
    }
}

async fn raw<T: DeserializeOwned>(command: &'static str, args_json: &str) -> Result<T, IpcError> {
    let (internals, invoke) = bridge("invoke", "no invoke")?;
    let js_args = js_sys::JSON::parse(args_json).map_err(|_| IpcError::Unavailable("bad arguments"))?;
    let promise: js_sys::Promise = invoke
        .call2(&internals, &JsValue::from_str(command), &js_args)
        .map_err(describe)?
        .dyn_into()
        .map_err(|_| IpcError::Unavailable("no promise"))?;
    let result = JsFuture::from(promise).await.map_err(describe)?;
    let text = js_sys::JSON::stringify(&result).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "null".into());
    serde_json::from_str(&text).map_err(|e| IpcError::BadReply { command, why: e.to_string() })
}

fn describe(e: JsValue) -> IpcError {
    IpcError::Refused(
        e.as_string()
            .or_else(|| js_sys::JSON::stringify(&e).ok().and_then(|s| s.as_string()))
            .unwrap_or_else(|| "the desktop app refused".into()),
    )
}
