//! What the run record's schema needs beyond its types' derived shapes: a node's update (an
//! object of any values, kept as a sorted list in memory), a step's JSON Patch (RFC 6902),
//! and a step's state snapshot (present or absent, never `null`).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use crate::update::Update;

/// What one node wrote in a step: field → value.
impl JsonSchema for Update {
    fn schema_name() -> Cow<'static, str> {
        "Update".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "What one node wrote in the step: field → value.",
            "type": "object"
        })
    }
}

/// A step's `patch`: an RFC 6902 JSON Patch, one operation per item.
pub fn patch(_: &mut SchemaGenerator) -> Schema {
    let pointer = json_schema!({
        "type": "string",
        "pattern": "^(/[\\s\\S]*)?$",
        "description": "A JSON Pointer (RFC 6901) into the state."
    });
    let op = |name: &str, extra: serde_json::Value| {
        let mut properties = serde_json::json!({ "op": { "const": name }, "path": pointer });
        let mut required = vec!["op".to_string(), "path".to_string()];
        if let serde_json::Value::Object(fields) = extra {
            for (k, v) in fields {
                required.push(k.clone());
                properties[k] = v;
            }
        }
        serde_json::json!({ "type": "object", "properties": properties, "required": required })
    };
    let value = serde_json::json!({ "value": true });
    let from = serde_json::json!({ "from": pointer });
    json_schema!({
        "description": "An RFC 6902 JSON Patch from the state before the step to the state after it.",
        "type": "array",
        "items": { "oneOf": [
            op("add", value.clone()),
            op("remove", serde_json::json!({})),
            op("replace", value.clone()),
            op("move", from.clone()),
            op("copy", from),
            op("test", value)
        ] }
    })
}

/// A step's `state`: an object where the record keeps a snapshot, absent elsewhere.
pub fn snapshot(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "The state after the step, on the steps that keep a snapshot: the first, the last, and a step where the patches since the previous snapshot add up (as compact JSON) to the size of the state; every step with --full-states. Absent elsewhere: the nearest earlier snapshot with the patches after it applied gives it.",
        "type": "object"
    })
}
