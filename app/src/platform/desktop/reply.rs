//! What the app's `http` and `http_stream` commands answer, as the engine takes it: the reply,
//! or the `HttpFailure` the app rejects with (any other rejection is its message).

use engine::host::{HttpFailure, HttpResponse};
use switchyard_ipc as cmd;

use super::ipc::IpcError;

/// What an `http` or `http_stream` command answered, as the engine takes it.
pub fn reply_of(answer: Result<cmd::HttpReply, IpcError>) -> Result<HttpResponse, HttpFailure> {
    match answer {
        Ok(r) => Ok(HttpResponse { status: r.status, body: r.body, headers: r.headers }),
        // The app rejects with an `HttpFailure`; anything else is its message.
        Err(IpcError::Refused(text)) => Err(serde_json::from_str::<cmd::HttpFailure>(&text)
            .map(|f| HttpFailure { message: f.message, timed_out: f.timed_out })
            .unwrap_or(HttpFailure { message: text, timed_out: false })),
        Err(e) => Err(HttpFailure { message: e.to_string(), timed_out: false }),
    }
}
