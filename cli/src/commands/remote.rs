//! What the client commands share: a refusal turned into exit 2 with the server's words, a
//! server out of reach into exit 1, run ids checked, and records printed as `run` prints them.

use engine::RunRecord;

use crate::exit::{self, Printed};
use crate::ingress::{CallError, valid_run_id};
use crate::input::BadInput;
use crate::output::say;
use crate::record_text;

/// A refusal is bad input (exit 2, the server's message after `origin`); a server that could
/// not be reached is exit 1.
pub fn refused_or_failed(e: CallError, origin: &str) -> Result<Printed, BadInput> {
    match e {
        CallError::Refused { status, message } if (400..500).contains(&status) => {
            Err(BadInput::new(format!("{origin}: {message}")))
        }
        CallError::Refused { status, message } => {
            say(&format!("the server failed (HTTP {status}): {message}"));
            Ok(Printed::new(String::new(), 1))
        }
        CallError::Unreachable(message) => {
            say(&message);
            Ok(Printed::new(String::new(), 1))
        }
    }
}

/// A run id given on the command line, checked.
pub fn run_id_arg(id: &str) -> Result<String, BadInput> {
    if valid_run_id(id) {
        return Ok(id.to_string());
    }
    Err(BadInput::new(format!("`{id}` is not a run id (letters, digits, `-`, `_` and `.`, at most 200)")))
}

/// A record from the server, printed as `run` prints one, with the exit code of its status.
pub fn print_record(record: serde_json::Value, run_id: &str) -> Result<Printed, BadInput> {
    let record: RunRecord = serde_json::from_value(record)
        .map_err(|e| BadInput::new(format!("{run_id}: the server's record is not a run record: {e}")))?;
    let code = exit::of_status(record.status);
    Ok(Printed::new(record_text::printed_record(&record), code))
}
