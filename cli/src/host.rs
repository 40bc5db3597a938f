//! The CLI's host: the system clock, and real HTTP for `llm` and `http` nodes.
//!
//! Each request runs on its own thread with a blocking client, and the engine awaits it
//! through a channel, so the requests of one step (a fan-out) run at the same time.

use std::cell::Cell;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use engine::host::{Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use futures_channel::oneshot;

pub struct NativeHost {
    origin: Instant,
    counter: Cell<u32>,
    openai_key: Option<String>,
}

impl NativeHost {
    pub fn new() -> NativeHost {
        let openai_key = net::API_KEY_VARS.iter().find_map(|v| std::env::var(v).ok().filter(|k| !k.trim().is_empty()));
        NativeHost { origin: Instant::now(), counter: Cell::new(0), openai_key }
    }
}

impl Host for NativeHost {
    fn now_ms(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1000.0
    }

    fn new_run_id(&self) -> String {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
        let n = self.counter.get();
        self.counter.set(n + 1);
        format!("{:012x}-{:04x}-{n}", nanos & 0xffff_ffff_ffff, std::process::id() & 0xffff)
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        let key = match request.auth {
            Some(Auth::OpenAi) => self.openai_key.clone(),
            None => None,
        };
        let (tx, rx) = oneshot::channel();
        std::thread::spawn(move || {
            let _ = tx.send(net::send_blocking(&request, key.as_deref()));
        });
        Box::pin(async move {
            rx.await
                .unwrap_or_else(|_| Err(HttpFailure { message: "the request was dropped".into(), timed_out: false }))
        })
    }

    fn clock(&self) -> Option<Clock> {
        let origin = self.origin;
        Some(std::rc::Rc::new(move || origin.elapsed().as_secs_f64() * 1000.0))
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let (tx, rx) = oneshot::channel::<()>();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            let _ = tx.send(());
        });
        Box::pin(async move {
            let _ = rx.await;
        })
    }
}
