//! Any JSON Schema checked against any JSON value. Schemas that do not compile and values that
//! do not match are expected; panics, stack overflows and hangs are bugs (a check ends at its
//! work ceiling, whatever the schema: `oneOf` branches that refer back to the schema would
//! otherwise take time exponential in the value).
//!
//! Input: `<schema JSON>\0<value JSON>`.

use engine::json_schema::JsonSchema;
use serde_json::Value;

/// One input through the checks this module describes; a failed check panics.
pub fn check(data: &[u8]) {
    let mut parts = data.splitn(2, |b| *b == 0);
    let (Some(schema), Some(value)) = (parts.next(), parts.next()) else { return };
    let (Ok(schema), Ok(value)) = (serde_json::from_slice::<Value>(schema), serde_json::from_slice::<Value>(value))
    else {
        return;
    };
    if let Ok(compiled) = JsonSchema::compile(&schema) {
        let _ = compiled.check(&value);
    }
}
