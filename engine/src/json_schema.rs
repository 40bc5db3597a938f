//! JSON Schema (spec 2.6): a tool's `parameters` and an `llm` node's `output_schema`, checked
//! against their meta-schema when the graph is compiled, and values checked against them at
//! run time. The `jsonschema` crate does the work (built without its network and file
//! resolvers, so a `$ref` must point inside the schema).

use std::fmt;

use jsonschema::paths::LocationSegment;
use serde_json::Value;

/// How much of a validator's message an error keeps (its messages quote the value).
const MESSAGE_CHARS: usize = 200;

/// A compiled JSON Schema, with the document it came from (sent to model providers).
pub struct JsonSchema {
    source: Value,
    validator: jsonschema::Validator,
}

impl fmt::Debug for JsonSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonSchema").field("source", &self.source).finish()
    }
}

/// Where a value breaks its schema, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// A JSON path into the value: `$`, `$.items[0].name`.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.path, self.message)
    }
}

impl std::error::Error for Mismatch {}

impl JsonSchema {
    /// Compiles `schema`; a schema that is not valid JSON Schema (by its meta-schema), or
    /// whose references cannot be resolved, is a [`Mismatch`] whose path points into the
    /// schema itself.
    pub fn compile(schema: &Value) -> Result<JsonSchema, Mismatch> {
        match jsonschema::validator_for(schema) {
            Ok(validator) => Ok(JsonSchema { source: schema.clone(), validator }),
            Err(e) => Err(Mismatch { path: json_path(e.instance_path().segments()), message: cut(&e.to_string()) }),
        }
    }

    /// The schema as written.
    pub fn source(&self) -> &Value {
        &self.source
    }

    /// Checks `value`: the first place it breaks the schema.
    pub fn check(&self, value: &Value) -> Result<(), Mismatch> {
        match self.validator.validate(value) {
            Ok(()) => Ok(()),
            Err(e) => Err(Mismatch { path: json_path(e.instance_path().segments()), message: cut(&e.to_string()) }),
        }
    }
}

/// `$` followed by `.name` (or `["odd name"]`) and `[index]` segments.
fn json_path<'a>(segments: impl Iterator<Item = LocationSegment<'a>>) -> String {
    let mut out = String::from("$");
    for s in segments {
        match s {
            LocationSegment::Index(i) => out.push_str(&format!("[{i}]")),
            LocationSegment::Property(p) => {
                let plain = !p.is_empty()
                    && !p.starts_with(|c: char| c.is_ascii_digit())
                    && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if plain {
                    out.push('.');
                    out.push_str(&p);
                } else {
                    out.push_str(&format!("[{}]", Value::String(p.to_string())));
                }
            }
        }
    }
    out
}

fn cut(text: &str) -> String {
    if text.chars().count() > MESSAGE_CHARS {
        format!("{}…", text.chars().take(MESSAGE_CHARS).collect::<String>())
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_mismatch_names_its_path() {
        let s = JsonSchema::compile(&json!({
            "type": "object",
            "properties": { "items": { "type": "array", "items": { "type": "object",
                "properties": { "n": { "type": "integer" }, "odd key": { "type": "string" } } } } }
        }))
        .unwrap();
        assert!(s.check(&json!({"items": [{"n": 1}]})).is_ok());
        let e = s.check(&json!({"items": [{"n": 1}, {"n": "x"}]})).unwrap_err();
        assert_eq!(e.path, "$.items[1].n");
        assert!(e.message.contains("integer"), "{e}");
        let e = s.check(&json!({"items": [{"odd key": 2}]})).unwrap_err();
        assert_eq!(e.path, "$.items[0][\"odd key\"]");
    }

    #[test]
    fn invalid_schemas_are_refused() {
        let e = JsonSchema::compile(&json!({"type": "strnig"})).unwrap_err();
        assert!(e.message.contains("strnig"), "{e}");
        assert!(JsonSchema::compile(&json!({"properties": {"a": {"minLength": -1}}})).is_err());
        assert!(JsonSchema::compile(&json!({"$ref": "https://example.com/s.json"})).is_err());
        assert!(JsonSchema::compile(&json!(true)).is_ok());
    }
}
