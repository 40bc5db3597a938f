//! Runs the real `switchyard` binary for the CLI's integration tests and keeps what it
//! printed, with assertions that show the whole invocation when they fail.

#![allow(dead_code, reason = "each test file uses the part it needs")]

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// What one invocation of the binary produced.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    /// The command line, for messages.
    pub what: String,
}

impl Out {
    /// Everything needed to understand a failed assertion.
    pub fn describe(&self) -> String {
        format!(
            "command: {}\nexit code: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.what, self.code, self.stdout, self.stderr
        )
    }

    pub fn assert_code(&self, code: i32) -> &Out {
        assert_eq!(self.code, code, "wrong exit code\n{}", self.describe());
        self
    }

    /// stdout parsed as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{}", self.describe()))
    }

    /// Checks the exit code and returns the record printed on stdout.
    pub fn record(&self, code: i32) -> Value {
        self.assert_code(code).json()
    }

    /// Bad input: exit 2, nothing on stdout, one line on stderr holding every needle.
    pub fn assert_bad_input(&self, needles: &[&str]) {
        assert_eq!(self.code, 2, "bad input exits 2\n{}", self.describe());
        assert!(self.stdout.trim().is_empty(), "bad input prints nothing on stdout\n{}", self.describe());
        assert_eq!(self.stderr.lines().count(), 1, "one line on stderr\n{}", self.describe());
        assert!(!self.stderr.contains("panicked"), "{}", self.describe());
        for needle in needles {
            assert!(self.stderr.contains(needle), "stderr should mention {needle:?}\n{}", self.describe());
        }
    }
}

/// Runs `switchyard ARGS` in `dir` (the test's own directory when `None`).
pub fn run_in(dir: Option<&Path>, args: &[&str]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(args);
    // If anything panics, make it as loud as it can be, so the stderr checks catch it.
    cmd.env("RUST_BACKTRACE", "1");
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let out = cmd.output().expect("the switchyard binary runs");
    let what = format!("switchyard {}", args.join(" "));
    Out {
        code: out.status.code().unwrap_or_else(|| panic!("`{what}` was killed by a signal: {:?}", out.status)),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        what,
    }
}

/// Runs `switchyard ARGS`.
pub fn sy(args: &[&str]) -> Out {
    run_in(None, args)
}

/// Runs `switchyard ARGS` in `dir`.
pub fn sy_in(dir: &Path, args: &[&str]) -> Out {
    run_in(Some(dir), args)
}
