//! A client of a Restate ingress serving `switchyard serve`'s workflows: the handlers called
//! by name with JSON bodies, and what a refusal says turned into one line.

use std::time::Duration;

use serde_json::Value;

/// Where the ingress is when neither `--server` nor the environment says (`./dev restate`
/// starts one there).
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:18080";
/// The environment variable naming the ingress.
pub const SERVER_VAR: &str = "SWITCHYARD_SERVER";
/// The environment variable holding a token sent as `Authorization: Bearer …` with every call,
/// for a proxy in front of the ingress that checks who is calling.
pub const TOKEN_VAR: &str = "SWITCHYARD_TOKEN";

/// Why a call did not give a result.
#[derive(Debug)]
pub enum CallError {
    /// The server could not be reached, or answered something that is not JSON.
    Unreachable(String),
    /// The handler refused: its HTTP status and message.
    Refused { status: u16, message: String },
}

/// A Restate ingress, by base URL.
pub struct Ingress {
    base: String,
    agent: ureq::Agent,
    /// `Authorization` for every call, from [`TOKEN_VAR`].
    authorization: Option<String>,
}

impl Ingress {
    /// The ingress `--server` names, or the environment's, or the default.
    pub fn new(server: Option<&str>) -> Ingress {
        let base = server
            .map(str::to_string)
            .or_else(|| std::env::var(SERVER_VAR).ok().filter(|s| !s.trim().is_empty()))
            .unwrap_or_else(|| DEFAULT_SERVER.to_string());
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(60)))
            .http_status_as_error(false)
            .build()
            .into();
        let authorization =
            std::env::var(TOKEN_VAR).ok().filter(|t| !t.trim().is_empty()).map(|t| format!("Bearer {}", t.trim()));
        Ingress { base: base.trim_end_matches('/').to_string(), agent, authorization }
    }

    /// Calls `handler` of the run `run_id` with `body` and waits for its result.
    pub fn call(&self, run_id: &str, handler: &str, body: Option<&Value>) -> Result<Value, CallError> {
        self.post(&format!("/GraphRun/{run_id}/{handler}"), body)
    }

    /// Sends `body` to `handler` of the run `run_id` without waiting for its end; whether it was
    /// new (`Accepted`) or the id was taken (`PreviouslyAccepted`).
    pub fn send(&self, run_id: &str, handler: &str, body: &Value) -> Result<String, CallError> {
        let reply = self.post(&format!("/GraphRun/{run_id}/{handler}/send"), Some(body))?;
        Ok(reply.get("status").and_then(Value::as_str).unwrap_or_default().to_string())
    }

    /// The workflow's result: `None` while the run goes on.
    pub fn output(&self, run_id: &str) -> Result<Option<Value>, CallError> {
        let url = format!("{}/restate/workflow/GraphRun/{run_id}/output", self.base);
        let mut request = self.agent.get(&url);
        if let Some(a) = &self.authorization {
            request = request.header("authorization", a);
        }
        let reply = request.call().map_err(|e| self.unreachable(&e))?;
        // 470: the workflow has not finished.
        if reply.status().as_u16() == 470 {
            return Ok(None);
        }
        Self::read(reply).map(Some)
    }

    fn post(&self, path: &str, body: Option<&Value>) -> Result<Value, CallError> {
        let url = format!("{}{path}", self.base);
        let mut request = self.agent.post(&url);
        if let Some(a) = &self.authorization {
            request = request.header("authorization", a);
        }
        let reply = match body {
            Some(body) => request.header("content-type", "application/json").send(body.to_string()),
            // A handler without input takes no body and no content type.
            None => request.send_empty(),
        }
        .map_err(|e| self.unreachable(&e))?;
        Self::read(reply)
    }

    fn read(mut reply: ureq::http::Response<ureq::Body>) -> Result<Value, CallError> {
        let status = reply.status().as_u16();
        let text = reply
            .body_mut()
            .with_config()
            .limit(1 << 30)
            .read_to_string()
            .map_err(|e| CallError::Unreachable(format!("the reply could not be read: {e}")))?;
        if (200..300).contains(&status) {
            if text.trim().is_empty() {
                return Ok(Value::Null);
            }
            return serde_json::from_str(&text)
                .map_err(|e| CallError::Unreachable(format!("the reply is not JSON: {e}")));
        }
        // Restate words a refusal as {"message": "...", ...}.
        let message = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_string))
            .unwrap_or(text);
        Err(CallError::Refused { status, message })
    }

    fn unreachable(&self, e: &ureq::Error) -> CallError {
        CallError::Unreachable(format!(
            "cannot reach the Restate ingress at {} ({e}); start one with `./dev restate`, or name it with --server or {SERVER_VAR}",
            self.base
        ))
    }
}

/// Whether `id` can be a run id: a path segment without escaping.
pub fn valid_run_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 200 && id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}
