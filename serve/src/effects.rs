//! Effects as the workflow handler performs them: an HTTP request sent for real, with the
//! keys of the service's environment (the same variables as the CLI's, and the same rule:
//! a key goes only to its provider's origin and to `SWITCHYARD_TRUSTED_ORIGINS`).

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use engine::host::{HttpRequest, KeyRing, redact, redact_headers};
use net::reach::Reach;

use crate::messages::Exchange;

/// The keys and trusted origins of the service's environment, read once.
pub fn keys() -> &'static KeyRing {
    static KEYS: OnceLock<KeyRing> = OnceLock::new();
    KEYS.get_or_init(|| {
        let (keys, bad) = net::keys_from_env();
        for bad in bad {
            eprintln!("{}: `{bad}` is not an origin (scheme://host[:port]); ignored", net::TRUSTED_ORIGINS_VAR);
        }
        keys
    })
}

static REACH: OnceLock<Arc<Reach>> = OnceLock::new();

/// Sets what served graphs reach, once, before the first run (later calls change nothing).
pub fn set_reach(reach: Reach) {
    let _ = REACH.set(Arc::new(reach));
}

/// What served graphs reach: as set, else public addresses only.
fn reach() -> &'static Arc<Reach> {
    REACH.get_or_init(|| Arc::new(Reach::served()))
}

/// Sends `request` on a blocking thread (the HTTP client is a blocking one), timed out
/// after the request's `timeout_ms`; the reply is what the journal keeps.
pub async fn send(request: HttpRequest) -> Exchange {
    let started = Instant::now();
    let result = tokio::task::spawn_blocking(move || {
        let keys = keys();
        let key = request.auth.and_then(|auth| keys.key_for(auth, &request.url));
        net::send_bound_within(&request, key, keys.trusted(), reach()).map(|mut reply| {
            // Every key held is removed from every reply, sent with the request or not, and
            // from its headers, whose credentials (cookies, keys) the journal never keeps.
            reply.body = redact(&reply.body, keys.keys());
            reply.headers = redact_headers(std::mem::take(&mut reply.headers), keys.keys());
            reply
        })
    })
    .await
    .unwrap_or_else(|e| {
        Err(engine::host::HttpFailure { message: format!("the request's thread failed: {e}"), timed_out: false })
    });
    Exchange::of(result, started.elapsed().as_secs_f64() * 1000.0)
}
