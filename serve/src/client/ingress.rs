//! The Restate ingress as `switchyard server --restate` calls it: a handler of a service by
//! key, with a JSON body, its reply as JSON, a refusal as a [`Failure`] with the status the
//! server answers its own client with.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Why a call failed: the HTTP status to answer with (Restate's own refusal's status, or 502
/// when the ingress could not be reached) and what to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub status: u16,
    pub detail: String,
}

impl Failure {
    pub fn new(status: u16, detail: impl Into<String>) -> Failure {
        Failure { status, detail: detail.into() }
    }

    pub fn not_found(detail: impl Into<String>) -> Failure {
        Failure::new(404, detail)
    }

    pub fn conflict(detail: impl Into<String>) -> Failure {
        Failure::new(409, detail)
    }

    pub fn invalid(detail: impl Into<String>) -> Failure {
        Failure::new(422, detail)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HTTP {}: {}", self.status, self.detail)
    }
}

impl std::error::Error for Failure {}

/// A Restate ingress, by base URL. Holds no state of its own: any number of servers may call
/// the same ingress.
#[derive(Clone)]
pub struct Ingress {
    base: String,
    agent: ureq::Agent,
}

impl Ingress {
    pub fn new(base: &str) -> Ingress {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(60)))
            .http_status_as_error(false)
            .build()
            .into();
        Ingress { base: base.trim_end_matches('/').to_string(), agent }
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// Calls `service/key/handler` with `body` (none: an empty request) and reads its reply.
    pub fn call<B: Serialize, R: DeserializeOwned>(
        &self,
        service: &str,
        key: &str,
        handler: &str,
        body: Option<&B>,
    ) -> Result<R, Failure> {
        let url = format!("{}/{service}/{}/{handler}", self.base, encode(key));
        let request = self.agent.post(&url);
        let reply = match body {
            Some(body) => {
                let text = serde_json::to_string(body).map_err(|e| Failure::new(500, format!("request: {e}")))?;
                request.header("content-type", "application/json").send(text)
            }
            None => request.send_empty(),
        }
        .map_err(|e| self.unreachable(&e))?;
        let value = read(reply)?;
        serde_json::from_value(value)
            .map_err(|e| Failure::new(502, format!("{service}/{handler}: unexpected reply: {e}")))
    }

    /// A workflow's result: `None` while it runs (Restate's 470), its refusal as a failure.
    pub fn workflow_output(&self, service: &str, key: &str) -> Result<Option<Value>, Failure> {
        let url = format!("{}/restate/workflow/{service}/{}/output", self.base, encode(key));
        let reply = self.agent.get(&url).call().map_err(|e| self.unreachable(&e))?;
        if reply.status().as_u16() == 470 {
            return Ok(None);
        }
        read(reply).map(Some)
    }

    /// Sends `body` to `service/key/handler` without waiting for it to finish.
    pub fn send<B: Serialize>(&self, service: &str, key: &str, handler: &str, body: &B) -> Result<(), Failure> {
        let _: Value = self.call(service, key, &format!("{handler}/send"), Some(body))?;
        Ok(())
    }

    fn unreachable(&self, e: &ureq::Error) -> Failure {
        Failure::new(502, format!("cannot reach the Restate ingress at {} ({e})", self.base))
    }
}

/// A key as one path segment (ids are `[A-Za-z0-9_.:-]`; anything else is escaped).
fn encode(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for b in key.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.:~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn read(mut reply: ureq::http::Response<ureq::Body>) -> Result<Value, Failure> {
    let status = reply.status().as_u16();
    let text = reply
        .body_mut()
        .with_config()
        .limit(1 << 30)
        .read_to_string()
        .map_err(|e| Failure::new(502, format!("the reply could not be read: {e}")))?;
    if (200..300).contains(&status) {
        if text.trim().is_empty() {
            return Ok(Value::Null);
        }
        return serde_json::from_str(&text).map_err(|e| Failure::new(502, format!("the reply is not JSON: {e}")));
    }
    // Restate words a refusal as {"message": "...", ...}.
    let detail = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_string))
        .unwrap_or(text);
    Err(Failure::new(status, detail))
}
