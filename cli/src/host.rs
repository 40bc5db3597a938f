//! The CLI's host: the system clock and, for `llm` and `http` nodes, a blocking HTTP client.

use std::cell::Cell;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use engine::host::{Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};

pub struct NativeHost {
    origin: Instant,
    counter: Cell<u32>,
}

impl NativeHost {
    pub fn new() -> NativeHost {
        NativeHost { origin: Instant::now(), counter: Cell::new(0) }
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
        Box::pin(async move {
            Err(HttpFailure {
                message: format!("HTTP is not available yet ({} {})", request.method, request.url),
                timed_out: false,
            })
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        std::thread::sleep(std::time::Duration::from_millis(ms));
        Box::pin(async {})
    }
}
