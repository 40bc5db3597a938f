//! Sending a request through the host: each attempt raced against the node's timeout,
//! failures (no answer, a timeout, a status that is not 2xx) retried as the node's `retry`
//! allows, after the backoff or, when the server says how long to wait (`Retry-After` in
//! seconds), after that; never past the run's time limit. A streamed request hands each piece
//! of the body to the caller as it arrives.

use futures_util::future::{Either, select};

use serde_json::{Value, json};

use super::replay::{self, Taped};
use super::{EffectCall, Retries, cut};
use crate::host::{HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use crate::record::{ErrorKind, ReplyKind};

/// The result of sending a request, attempts included.
pub(super) struct Sent {
    pub result: Result<HttpResponse, (ErrorKind, String)>,
    pub attempts: u32,
}

/// How the reply is received.
#[derive(Clone, Copy)]
pub(super) enum Transport<'a> {
    /// All at once.
    Whole,
    /// In pieces, each given to `chunk`; `restart` is called before every attempt (a retry
    /// starts reading afresh).
    Stream { chunk: &'a dyn Fn(&str), restart: &'a dyn Fn() },
}

/// Sends `request` (see the module's docs); failures are errors of `failure_kind`.
pub(super) async fn send(
    call: &EffectCall<'_>,
    request: &HttpRequest,
    failure_kind: ErrorKind,
    transport: Transport<'_>,
) -> Sent {
    let mut retries = Retries::of(call.node);
    let attempts = retries.attempts;
    let mut last = Err((failure_kind, String::new()));
    let mut made = 0;
    let mut cut_short = false;
    let mut retry_after: Option<u64> = None;
    for attempt in 1..=attempts {
        if attempt > 1 {
            // A pause that would outlive the run is not waited out: the run would be over
            // before the next attempt could start.
            let pause = retry_after.unwrap_or(retries.next_pause_ms());
            if pause as f64 >= call.deadline.run_left_ms(call.host.now_ms()) {
                cut_short = true;
                break;
            }
            retries.pause_for(call.host, pause).await;
        }
        made = attempt;
        let (timeout, run_limit) = call.budget();
        let what = || format!("{} {}", request.method, request.url);
        if run_limit && timeout == 0 {
            last = Err((ErrorKind::Timeout, call.deadline.timeout_message(&what(), 0, true)));
            break;
        }
        if let Transport::Stream { restart, .. } = transport {
            restart();
        }
        last = match send_once(call, request, timeout, transport).await {
            Ok(resp) if (200..300).contains(&resp.status) => {
                return Sent { result: Ok(resp), attempts: made };
            }
            Ok(resp) => {
                retry_after = retry_after_ms(&resp);
                Err((failure_kind, format!("{} answered HTTP {}: {}", what(), resp.status, cut(&resp.body))))
            }
            Err(f) if f.timed_out => {
                retry_after = None;
                Err((ErrorKind::Timeout, call.deadline.timeout_message(&what(), timeout, run_limit)))
            }
            Err(f) => {
                retry_after = None;
                Err((failure_kind, format!("{} failed: {}", what(), f.message)))
            }
        };
    }
    let result = last.map_err(|(kind, message)| {
        let message = if cut_short {
            format!(
                "{message} ({made} of {attempts} attempts made: the run's time limit, run_timeout_ms {}, leaves no time for the next)",
                call.deadline.run_timeout_ms
            )
        } else if made > 1 {
            format!("{message} (after {made} attempts)")
        } else {
            message
        };
        (kind, message)
    });
    Sent { result, attempts: made }
}

/// Sends an HTTP request (an `http` node's or tool's) through the reply tape: the recorded
/// reply answers it when replaying, else it is sent and its reply (or failure) recorded.
/// Retries happen inside: the tape holds the outcome of the call, not of each attempt.
pub(super) async fn send_taped(call: &EffectCall<'_>, request: &HttpRequest, failure_kind: ErrorKind) -> Sent {
    let canonical = json!({
        "method": request.method,
        "url": request.url,
        "headers": replay::headers(&request.headers),
        "body": replay::body(request.body.as_deref()),
    });
    match replay::begin(call, ReplyKind::Http, canonical, false) {
        Taped::Replayed(v) => {
            let attempts = v.get("attempts").and_then(Value::as_u64).map_or(1, |a| a as u32);
            let result = match replay::failure_of(&v) {
                Some(failure) => Err(failure),
                None => replay::response_of(&v).map_err(|m| (failure_kind, m)),
            };
            Sent { result, attempts }
        }
        Taped::Refused(message) => Sent { result: Err((failure_kind, message)), attempts: 0 },
        Taped::Live(ticket) => {
            let sent = send(call, request, failure_kind, Transport::Whole).await;
            let mut reply = match &sent.result {
                Ok(resp) => replay::response(resp),
                Err((kind, message)) => replay::failure(*kind, message),
            };
            reply["attempts"] = json!(sent.attempts);
            replay::record(call, ticket, reply);
            sent
        }
    }
}

/// How long a reply asks to be left alone: `Retry-After` in seconds (a date is not read).
fn retry_after_ms(resp: &HttpResponse) -> Option<u64> {
    let secs: f64 = resp.header("retry-after")?.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).ceil() as u64)
}

/// One attempt: the host's reply, or a timeout after `timeout` ms (timed here unless the host
/// times its requests itself).
async fn send_once(
    call: &EffectCall<'_>,
    request: &HttpRequest,
    timeout: u64,
    transport: Transport<'_>,
) -> Result<HttpResponse, HttpFailure> {
    let mut request = request.clone();
    request.timeout_ms = timeout;
    let reply: LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> = match transport {
        Transport::Whole => call.host.http(request),
        Transport::Stream { chunk, .. } => call.host.http_stream(request, chunk),
    };
    if call.host.enforces_timeouts() {
        return reply.await;
    }
    match select(reply, call.host.sleep(timeout)).await {
        Either::Left((r, _)) => r,
        Either::Right(((), _)) => Err(HttpFailure { message: String::new(), timed_out: true }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_in_seconds() {
        let with =
            |v: &str| HttpResponse { headers: vec![("Retry-After".into(), v.into())], ..HttpResponse::new(429, "") };
        assert_eq!(retry_after_ms(&with("2")), Some(2000));
        assert_eq!(retry_after_ms(&with(" 0.5 ")), Some(500));
        assert_eq!(retry_after_ms(&with("Wed, 21 Oct 2015 07:28:00 GMT")), None);
        assert_eq!(retry_after_ms(&with("-1")), None);
        assert_eq!(retry_after_ms(&HttpResponse::new(429, "")), None);
    }
}
