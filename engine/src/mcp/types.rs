//! The protocol's messages the client reads, as lenient serde types: unknown fields are
//! ignored and missing optional ones defaulted, so a server a version ahead still reads; and
//! the requests the client sends, built as one-line JSON.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::OFFERED_VERSION;

/// `initialize`'s result.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    pub protocol_version: String,
    #[serde(default)]
    pub server_info: ServerInfo,
    #[serde(default)]
    pub capabilities: Value,
    #[serde(default)]
    pub instructions: Option<String>,
}

/// Who the server says it is.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ServerInfo {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub version: String,
}

/// One page of `tools/list`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    #[serde(default)]
    pub tools: Vec<Tool>,
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// A tool as a server lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default = "empty_object_schema")]
    pub input_schema: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
}

fn empty_object_schema() -> Value {
    json!({"type": "object"})
}

impl Tool {
    /// Its `inputSchema` as a model provider takes it: without `$schema` (servers written
    /// with zod name draft-07 there, which some providers refuse).
    pub fn parameters(&self) -> Value {
        without_schema_keyword(&self.input_schema)
    }
}

/// `schema` without its top-level `$schema`.
pub fn without_schema_keyword(schema: &Value) -> Value {
    let mut s = schema.clone();
    if let Value::Object(map) = &mut s {
        map.remove("$schema");
    }
    s
}

/// `tools/call`'s result.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    #[serde(default)]
    pub structured_content: Option<Value>,
    #[serde(default)]
    pub is_error: bool,
}

/// One item of a result's `content`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    Image {
        #[serde(default)]
        data: String,
        #[serde(default, rename = "mimeType")]
        mime_type: Option<String>,
    },
    Audio {
        #[serde(default)]
        data: String,
        #[serde(default, rename = "mimeType")]
        mime_type: Option<String>,
    },
    ResourceLink {
        #[serde(default)]
        uri: String,
        #[serde(default, rename = "mimeType")]
        mime_type: Option<String>,
    },
    Resource {
        #[serde(default)]
        resource: EmbeddedResource,
    },
    /// A kind of item a later version adds.
    #[serde(other)]
    Other,
}

/// An embedded resource: text or a base64 blob.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddedResource {
    #[serde(default)]
    pub uri: String,
    #[serde(default)]
    pub mime_type: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub blob: Option<String>,
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RpcError {
    pub code: i64,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub data: Option<Value>,
}

/// A response read: its result, or its error.
pub fn response_of(text: &str) -> Result<Result<Value, RpcError>, String> {
    let mut v: Map<String, Value> = serde_json::from_str(text).map_err(|e| format!("not a JSON object ({e})"))?;
    if let Some(e) = v.remove("error") {
        return serde_json::from_value(e).map(Err).map_err(|e| format!("a malformed error object ({e})"));
    }
    v.remove("result").map(Ok).ok_or_else(|| "a response without `result`".to_string())
}

/// The `initialize` request, offering [`OFFERED_VERSION`] and no client capabilities (so a
/// compliant server asks nothing of the client).
pub fn initialize_request(id: u64) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {
            "protocolVersion": OFFERED_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "switchyard", "title": "Switchyard", "version": env!("CARGO_PKG_VERSION")},
        },
    })
    .to_string()
}

/// `notifications/initialized`.
pub fn initialized_notification() -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()
}

/// `tools/list`, from `cursor` when given.
pub fn list_tools_request(id: u64, cursor: Option<&str>) -> String {
    let params = match cursor {
        Some(c) => json!({ "cursor": c }),
        None => json!({}),
    };
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}).to_string()
}

/// `tools/call`, asking for progress under the request's own id.
pub fn call_tool_request(id: u64, name: &str, arguments: &Value) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": {"progressToken": id}},
    })
    .to_string()
}

/// `notifications/cancelled` for request `id`.
pub fn cancelled_notification(id: u64, reason: &str) -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": reason}})
        .to_string()
}

/// A notification's method and params, when `text` is one.
pub fn notification_of(text: &str) -> Option<(String, Value)> {
    let v: Value = serde_json::from_str(text).ok()?;
    if v.get("id").is_some() {
        return None;
    }
    let method = v.get("method")?.as_str()?.to_string();
    Some((method, v.get("params").cloned().unwrap_or(Value::Null)))
}
