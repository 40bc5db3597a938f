//! Keys of `--input` (and of `resume --set`) that no state field declares: each is a warning
//! on stderr, with the declared field it probably meant, and the run goes on; with
//! `--strict` they are bad input and nothing runs.

use engine::Plan;
use engine::plan::UndeclaredKey;
use serde_json::{Map, Value};

use crate::input::BadInput;
use crate::output::say;

/// Where the keys came from.
#[derive(Clone, Copy)]
pub enum Origin {
    Input,
    Set,
}

/// One line about `key`, as given in `origin`.
fn describe(origin: Origin, key: &UndeclaredKey) -> String {
    match origin {
        Origin::Input => key.to_string(),
        Origin::Set => format!("--set: {}", key.message()),
    }
}

/// Warns about each undeclared key of `update`, or refuses them all when `strict`.
pub fn check(plan: &Plan, update: &Map<String, Value>, origin: Origin, strict: bool) -> Result<(), BadInput> {
    let keys = plan.undeclared_input_keys(update);
    if keys.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = keys.iter().map(|k| describe(origin, k)).collect();
    if strict {
        return Err(BadInput::new(format!("{} (--strict refuses undeclared keys)", lines.join("; "))));
    }
    for line in lines {
        say(&format!("warning: {line}"));
    }
    Ok(())
}
