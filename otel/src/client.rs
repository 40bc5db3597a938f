//! The exporter's HTTP client: ureq (already the native hosts' client) behind
//! `opentelemetry_http::HttpClient`, with a bounded timeout per request, no redirects, and a
//! bounded read of the collector's answer. It blocks inside its `async fn`: the SDK's batch
//! processor drives exports with a plain executor on its own thread, so no async runtime is
//! needed. Failures are noted in [`Health`] with their real cause, which the OTLP exporter's
//! own error text does not keep.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use opentelemetry_http::{Bytes, HttpClient, HttpError, Request, Response};

use crate::health::{Failure, Health};

/// At most this much of a collector's answer is read (OTLP answers are tiny).
const MAX_ANSWER_BYTES: u64 = 64 * 1024;

#[derive(Debug)]
pub struct UreqClient {
    agent: ureq::Agent,
    health: Arc<Health>,
}

impl UreqClient {
    pub fn new(timeout: Duration, health: Arc<Health>) -> UreqClient {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .build()
            .new_agent();
        UreqClient { agent, health }
    }

    fn send(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let (parts, body) = request.into_parts();
        let request = Request::from_parts(parts, &body[..]);
        let mut response = self.agent.run(request).map_err(|e| self.transport_failure(e))?;
        let status = response.status();
        let mut answer = Vec::new();
        // The body only matters on success, and even then OTLP/HTTP ignores most of it.
        let _ = response.body_mut().as_reader().take(MAX_ANSWER_BYTES).read_to_end(&mut answer);
        if !status.is_success() {
            self.health.note_failure(Failure::Status(status.as_u16()));
        }
        let mut reply = Response::new(Bytes::from(answer));
        *reply.status_mut() = status;
        *reply.headers_mut() = response.headers().clone();
        Ok(reply)
    }

    fn transport_failure(&self, e: ureq::Error) -> HttpError {
        let failure = match &e {
            ureq::Error::Timeout(_) => Failure::Timeout,
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
                Failure::Transport("connection refused (is the collector running?)".into())
            }
            ureq::Error::Io(io) => Failure::Transport(io.to_string()),
            other => Failure::Transport(other.to_string()),
        };
        self.health.note_failure(failure);
        Box::new(e)
    }
}

#[async_trait::async_trait]
impl HttpClient for UreqClient {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        self.send(request)
    }
}
