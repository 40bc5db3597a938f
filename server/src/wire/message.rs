//! Messages on the wire (LangChain's dicts, which UIs switch on by `type`) and in Switchyard
//! (`role`). Output carries both `type` and `role`; input takes either form, or a bare string.

use serde_json::{Map, Value, json};

/// LangChain's `type` for a Switchyard role.
fn type_of(role: &str) -> &str {
    match role {
        "user" => "human",
        "assistant" => "ai",
        other => other,
    }
}

/// Switchyard's role for a LangChain `type` (or an OpenAI role given as such).
fn role_of(ty: &str) -> &str {
    match ty {
        "human" | "user" => "user",
        "ai" | "assistant" | "AIMessageChunk" => "assistant",
        other => other,
    }
}

/// A Switchyard message as LangChain's dict.
pub fn to_wire(message: &Value) -> Value {
    let Value::Object(m) = message else { return message.clone() };
    let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
    let ty = type_of(role);
    let mut out = Map::new();
    out.insert("type".into(), json!(ty));
    out.insert("role".into(), json!(role));
    out.insert("content".into(), m.get("content").cloned().unwrap_or(json!("")));
    out.insert("id".into(), m.get("id").cloned().unwrap_or(Value::Null));
    out.insert("name".into(), m.get("name").cloned().unwrap_or(Value::Null));
    out.insert("additional_kwargs".into(), json!({}));
    out.insert("response_metadata".into(), json!({}));
    if ty == "ai" {
        let calls: Vec<Value> = m
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| json!({"id": c.get("id"), "name": c.get("name"), "args": c.get("arguments").cloned().unwrap_or(json!({})), "type": "tool_call"}))
            .collect();
        out.insert("tool_calls".into(), Value::Array(calls));
        out.insert("invalid_tool_calls".into(), json!([]));
        out.insert("usage_metadata".into(), Value::Null);
    }
    if let Some(id) = m.get("tool_call_id") {
        out.insert("tool_call_id".into(), id.clone());
    }
    Value::Object(out)
}

/// A message given by a client (LangChain's dict, OpenAI's, or a string) as Switchyard's.
pub fn from_wire(message: &Value) -> Value {
    let Value::Object(m) = message else { return message.clone() };
    if m.contains_key("remove") || (!m.contains_key("type") && m.contains_key("role")) {
        return message.clone();
    }
    let Some(ty) = m.get("type").and_then(Value::as_str) else { return message.clone() };
    if ty == "remove" {
        return m.get("id").map_or_else(|| message.clone(), |id| json!({"remove": id}));
    }
    let mut out = Map::new();
    out.insert("role".into(), json!(role_of(ty)));
    out.insert("content".into(), m.get("content").cloned().unwrap_or(json!("")));
    for key in ["id", "name", "tool_call_id"] {
        if let Some(v) = m.get(key).filter(|v| !v.is_null()) {
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(calls) = m.get("tool_calls").and_then(Value::as_array).filter(|c| !c.is_empty()) {
        let calls: Vec<Value> = calls
            .iter()
            .map(|c| json!({"id": c.get("id"), "name": c.get("name"), "arguments": c.get("args").cloned().unwrap_or(json!({}))}))
            .collect();
        out.insert("tool_calls".into(), Value::Array(calls));
    }
    Value::Object(out)
}

/// A state's values with each message field in LangChain's form.
pub fn values_to_wire(values: &Map<String, Value>, message_fields: &[String]) -> Map<String, Value> {
    let mut out = values.clone();
    for field in message_fields {
        if let Some(Value::Array(list)) = out.get_mut(field) {
            for m in list.iter_mut() {
                *m = to_wire(m);
            }
        }
    }
    out
}

/// An update (an input, a state update) with each message field read from either form.
pub fn values_from_wire(values: &mut Map<String, Value>, message_fields: &[String]) {
    for field in message_fields {
        match values.get_mut(field) {
            Some(Value::Array(list)) => list.iter_mut().for_each(|m| *m = from_wire(m)),
            Some(one @ Value::Object(_)) => *one = from_wire(one),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_and_types_map_both_ways() {
        let ours = json!({"id": "a", "role": "assistant", "content": "hi", "tool_calls": [{"id": "c", "name": "add", "arguments": {"a": 1}}]});
        let wire = to_wire(&ours);
        assert_eq!(wire["type"], "ai");
        assert_eq!(wire["role"], "assistant");
        assert_eq!(wire["tool_calls"][0]["args"], json!({"a": 1}));
        assert_eq!(from_wire(&wire), ours);
        assert_eq!(from_wire(&json!({"type": "human", "content": "yo"})), json!({"role": "user", "content": "yo"}));
        assert_eq!(from_wire(&json!({"role": "user", "content": "yo"})), json!({"role": "user", "content": "yo"}));
    }
}
