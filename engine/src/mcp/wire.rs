//! JSON-RPC messages as they come off the wire: what kind each is, and the answer the client
//! gives to a request from the server.

use serde_json::{Value, json};

/// One message from a server.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A response (result or error) to the client's request `id` (a number the client chose;
    /// a string id is kept as text).
    Response { id: Value },
    /// A request the server makes of the client.
    Request { id: Value, method: String },
    /// A notification (progress, log message, list changed…).
    Notification { method: String },
    /// Not a JSON-RPC 2.0 message, and why.
    Invalid(String),
}

impl Incoming {
    /// Whether this is the response to request `id`.
    pub fn answers(&self, id: u64) -> bool {
        matches!(self, Incoming::Response { id: v } if v.as_u64() == Some(id))
    }
}

/// What `text` (one message, serialized) is.
pub fn classify(text: &str) -> Incoming {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Incoming::Invalid(format!("not JSON ({e})")),
    };
    classify_value(&value)
}

/// What a parsed message is.
pub fn classify_value(value: &Value) -> Incoming {
    let Some(obj) = value.as_object() else {
        return Incoming::Invalid(format!("a {} where a JSON-RPC object was expected", kind(value)));
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Incoming::Invalid("`jsonrpc` is not \"2.0\"".into());
    }
    let id = obj.get("id").filter(|v| v.is_string() || v.is_number());
    match (obj.get("method").and_then(Value::as_str), id) {
        (Some(method), Some(id)) => Incoming::Request { id: id.clone(), method: method.to_string() },
        (Some(method), None) => Incoming::Notification { method: method.to_string() },
        (None, Some(id)) if obj.contains_key("result") != obj.contains_key("error") => {
            Incoming::Response { id: id.clone() }
        }
        (None, Some(_)) => Incoming::Invalid("a response needs exactly one of `result` and `error`".into()),
        (None, None) => Incoming::Invalid("neither a method nor an id".into()),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list (batches are not part of MCP since 2025-06-18)",
        Value::Object(_) => "object",
    }
}

/// The client's answer to a request the server made: `ping` is answered, anything else
/// (sampling, elicitation, roots…) gets "method not found" saying Switchyard does not offer
/// it, so the server is never left waiting. `None` when `text` is not a request.
pub fn answer_server_request(text: &str) -> Option<String> {
    let Incoming::Request { id, method } = classify(text) else { return None };
    let answer = if method == "ping" {
        json!({ "jsonrpc": "2.0", "id": id, "result": {} })
    } else {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": -32601,
                "message": format!("Switchyard does not offer `{method}` to MCP servers"),
            },
        })
    };
    Some(answer.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_told_apart() {
        assert!(classify(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#).answers(3));
        assert!(!classify(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#).answers(4));
        assert!(classify(r#"{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}"#).answers(3));
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":"a","method":"roots/list"}"#),
            Incoming::Request { id: json!("a"), method: "roots/list".into() }
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#),
            Incoming::Notification { method: "notifications/progress".into() }
        );
        for bad in ["Starting server…", "[]", r#"{"id":1,"result":{}}"#, r#"{"jsonrpc":"2.0","id":1}"#] {
            assert!(matches!(classify(bad), Incoming::Invalid(_)), "{bad}");
        }
    }

    #[test]
    fn requests_from_a_server_are_answered_at_once() {
        let ping = answer_server_request(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&ping).unwrap(), json!({"jsonrpc":"2.0","id":9,"result":{}}));
        let roots = answer_server_request(r#"{"jsonrpc":"2.0","id":"r","method":"roots/list"}"#).unwrap();
        let roots: Value = serde_json::from_str(&roots).unwrap();
        assert_eq!(roots["id"], "r");
        assert_eq!(roots["error"]["code"], -32601);
        assert!(roots["error"]["message"].as_str().unwrap().contains("roots/list"));
        assert_eq!(answer_server_request(r#"{"jsonrpc":"2.0","method":"notifications/x"}"#), None);
    }
}
