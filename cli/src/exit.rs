//! Exit codes (cli.md) and what a command hands back to `main` to print.

use engine::Status;

/// Unreadable or invalid input: nothing was run.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Output could not be written (stdout, or the final record of `--record`).
pub const EXIT_OUTPUT_FAILED: u8 = 1;

/// What a command prints on stdout, and its exit code.
pub struct Printed {
    pub text: String,
    pub code: u8,
}

impl Printed {
    pub fn new(text: String, code: u8) -> Printed {
        Printed { text, code }
    }
}

/// A served run that is still going (`status` and `record` only).
pub const EXIT_RUNNING: u8 = 5;

/// The exit code of a run that stopped with `status`.
pub fn of_status(status: Status) -> u8 {
    match status {
        Status::Completed => 0,
        Status::Failed => 1,
        Status::Interrupted => 3,
        Status::LimitReached => 4,
        // `run` and `resume` drive a run until it stops; only a served run is seen going.
        Status::Running => EXIT_RUNNING,
    }
}
