//! What both engine hosts share: the page's clock, run ids made from it, and timers.

use engine::host::LocalBoxFuture;

pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or_else(js_sys::Date::now, |p| p.now())
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
