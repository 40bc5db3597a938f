//! What the engine's hosts share (the browser's, the desktop's and the run worker's): the
//! clock of the page or worker they run in, run ids made from it, and timers.

use engine::host::LocalBoxFuture;
use wasm_bindgen::JsCast;

/// `performance.now()` of the page or the worker (both have one; `Date.now()` otherwise).
pub fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// Milliseconds since the Unix epoch (`Date.now()`): steps and calls are stamped with it.
pub fn epoch_ms() -> f64 {
    js_sys::Date::now()
}

/// A run id: the time in hexadecimal (so ids sort by age), then a random part.
pub fn new_run_id() -> String {
    let t = js_sys::Date::now() as u64;
    let r = (js_sys::Math::random() * 65535.0) as u32;
    format!("{t:x}-{r:04x}")
}

pub fn sleep(ms: u64) -> LocalBoxFuture<'static, ()> {
    Box::pin(gloo_timers::future::TimeoutFuture::new(ms.min(u32::MAX as u64) as u32))
}
