//! A mock model's `responses` (format.md §4 (llm, tools) and §8) as the inspector shows them: each item is plain
//! text, a reply object with tool calls, or a rule `{when, reply}`; anything else is kept as
//! it was written. Reading an item and writing it back gives the same JSON, so opening a
//! graph in the inspector never changes it.

use serde_json::{Map, Value};

/// One tool call a mock reply makes: the tool's name and its arguments (absent: none
/// written).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MockCall {
    pub name: String,
    pub arguments: Option<Value>,
}

/// What a mock answers: text, or a message with tool calls.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Text(String),
    Message { content: Option<String>, tool_calls: Vec<MockCall> },
}

/// One item of `responses`.
#[derive(Debug, Clone, PartialEq)]
pub enum MockResponse {
    /// Answers in turn.
    Reply(Reply),
    /// Answers whenever `when` holds, tried in order before the replies in turn.
    Rule { when: String, reply: Reply },
    /// Not of a shape above; kept as written (the validator says what is wrong).
    Other(Value),
}

/// The choice each row of the responses editor offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseKind {
    Text,
    ToolCall,
    Rule,
    Other,
}

impl ResponseKind {
    /// The kinds a person may pick (`Other` is only shown for an item already of that kind).
    pub const CHOICES: [ResponseKind; 3] = [ResponseKind::Text, ResponseKind::ToolCall, ResponseKind::Rule];

    pub fn name(self) -> &'static str {
        match self {
            ResponseKind::Text => "text",
            ResponseKind::ToolCall => "tool_call",
            ResponseKind::Rule => "rule",
            ResponseKind::Other => "other",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            ResponseKind::Text => "Text",
            ResponseKind::ToolCall => "Tool call",
            ResponseKind::Rule => "Rule",
            ResponseKind::Other => "Other (JSON)",
        }
    }

    pub fn from_name(name: &str) -> Option<ResponseKind> {
        [ResponseKind::Text, ResponseKind::ToolCall, ResponseKind::Rule, ResponseKind::Other]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

impl Reply {
    pub fn from_value(v: &Value) -> Option<Reply> {
        match v {
            Value::String(s) => Some(Reply::Text(s.clone())),
            Value::Object(m) if only_keys(m, &["content", "tool_calls"]) => {
                let content = match m.get("content") {
                    None => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => return None,
                };
                let tool_calls = match m.get("tool_calls") {
                    None => Vec::new(),
                    Some(Value::Array(calls)) => calls.iter().map(call_from_value).collect::<Option<Vec<_>>>()?,
                    Some(_) => return None,
                };
                // `{"tool_calls": []}` would come back without the list: keep it as written.
                if m.get("tool_calls").is_some() && tool_calls.is_empty() {
                    return None;
                }
                Some(Reply::Message { content, tool_calls })
            }
            _ => None,
        }
    }

    pub fn to_value(&self) -> Value {
        match self {
            Reply::Text(s) => Value::String(s.clone()),
            Reply::Message { content, tool_calls } => {
                let mut m = Map::new();
                if let Some(c) = content {
                    m.insert("content".into(), Value::String(c.clone()));
                }
                if !tool_calls.is_empty() {
                    m.insert("tool_calls".into(), Value::Array(tool_calls.iter().map(call_to_value).collect()));
                }
                Value::Object(m)
            }
        }
    }

    /// The reply's text (a message's content).
    pub fn text(&self) -> String {
        match self {
            Reply::Text(s) => s.clone(),
            Reply::Message { content, .. } => content.clone().unwrap_or_default(),
        }
    }

    /// The reply as a message with tool calls: text becomes its content, and a message
    /// without calls gets one to `tool` (the first of the graph's tools).
    pub fn with_calls(self, tool: &str) -> Reply {
        let (content, mut tool_calls) = match self {
            Reply::Text(s) => ((!s.is_empty()).then_some(s), Vec::new()),
            Reply::Message { content, tool_calls } => (content, tool_calls),
        };
        if tool_calls.is_empty() {
            tool_calls.push(MockCall { name: tool.to_string(), arguments: Some(Value::Object(Map::new())) });
        }
        Reply::Message { content, tool_calls }
    }
}

impl MockResponse {
    pub fn from_value(v: &Value) -> MockResponse {
        if let Some(r) = Reply::from_value(v) {
            return MockResponse::Reply(r);
        }
        if let Value::Object(m) = v
            && only_keys(m, &["when", "reply"])
            && let (Some(Value::String(when)), Some(reply)) =
                (m.get("when"), m.get("reply").and_then(Reply::from_value))
        {
            return MockResponse::Rule { when: when.clone(), reply };
        }
        MockResponse::Other(v.clone())
    }

    pub fn to_value(&self) -> Value {
        match self {
            MockResponse::Reply(r) => r.to_value(),
            MockResponse::Rule { when, reply } => {
                let mut m = Map::new();
                m.insert("when".into(), Value::String(when.clone()));
                m.insert("reply".into(), reply.to_value());
                Value::Object(m)
            }
            MockResponse::Other(v) => v.clone(),
        }
    }

    pub fn kind(&self) -> ResponseKind {
        match self {
            MockResponse::Reply(Reply::Text(_)) => ResponseKind::Text,
            MockResponse::Reply(Reply::Message { .. }) => ResponseKind::ToolCall,
            MockResponse::Rule { .. } => ResponseKind::Rule,
            MockResponse::Other(_) => ResponseKind::Other,
        }
    }

    /// The same response as another kind, keeping what carries over: the text, the calls,
    /// the rule's reply. `tool` names the tool a new call goes to.
    pub fn convert(self, kind: ResponseKind, tool: &str) -> MockResponse {
        let reply = match self {
            MockResponse::Reply(r) | MockResponse::Rule { reply: r, .. } => r,
            MockResponse::Other(v) => Reply::Text(v.to_string()),
        };
        match kind {
            ResponseKind::Text => MockResponse::Reply(Reply::Text(reply.text())),
            ResponseKind::ToolCall => MockResponse::Reply(reply.with_calls(tool)),
            ResponseKind::Rule => MockResponse::Rule { when: "true".into(), reply },
            ResponseKind::Other => MockResponse::Other(reply.to_value()),
        }
    }

    /// A new response of `kind`, as the add button makes it.
    pub fn fresh(kind: ResponseKind, tool: &str) -> MockResponse {
        MockResponse::Reply(Reply::Text(String::new())).convert(kind, tool)
    }
}

/// `responses` as the editor's rows.
pub fn read(items: &[Value]) -> Vec<MockResponse> {
    items.iter().map(MockResponse::from_value).collect()
}

/// The rows back as `responses`.
pub fn write(rows: &[MockResponse]) -> Vec<Value> {
    rows.iter().map(MockResponse::to_value).collect()
}

fn only_keys(m: &Map<String, Value>, allowed: &[&str]) -> bool {
    !m.is_empty() && m.keys().all(|k| allowed.contains(&k.as_str()))
}

fn call_from_value(v: &Value) -> Option<MockCall> {
    let m = v.as_object()?;
    if !m.keys().all(|k| k == "name" || k == "arguments") {
        return None;
    }
    Some(MockCall { name: m.get("name")?.as_str()?.to_string(), arguments: m.get("arguments").cloned() })
}

fn call_to_value(c: &MockCall) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(c.name.clone()));
    if let Some(a) = &c.arguments {
        m.insert("arguments".into(), a.clone());
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(v: Value) -> MockResponse {
        let r = MockResponse::from_value(&v);
        assert_eq!(r.to_value(), v, "{v} is written back as it was read");
        r
    }

    #[test]
    fn each_shape_is_read_as_its_kind_and_written_back_unchanged() {
        assert_eq!(round_trip(json!("hello")).kind(), ResponseKind::Text);
        let call =
            round_trip(json!({"content": "Let me look.", "tool_calls": [{"name": "search", "arguments": {"q": "x"}}]}));
        assert_eq!(
            call,
            MockResponse::Reply(Reply::Message {
                content: Some("Let me look.".into()),
                tool_calls: vec![MockCall { name: "search".into(), arguments: Some(json!({"q": "x"})) }],
            })
        );
        assert_eq!(round_trip(json!({"tool_calls": [{"name": "clock"}]})).kind(), ResponseKind::ToolCall);
        assert_eq!(round_trip(json!({"content": "just text"})).kind(), ResponseKind::ToolCall);
        let rule = round_trip(
            json!({"when": "has_tool_calls(messages)", "reply": {"tool_calls": [{"name": "a", "arguments": {}}]}}),
        );
        assert_eq!(rule.kind(), ResponseKind::Rule);
        assert_eq!(round_trip(json!({"when": "true", "reply": "done"})).kind(), ResponseKind::Rule);
    }

    #[test]
    fn anything_else_is_kept_as_written() {
        for v in [
            json!(42),
            json!({}),
            json!({"content": 3}),
            json!({"content": "x", "extra": 1}),
            json!({"tool_calls": []}),
            json!({"tool_calls": [{"name": "a", "id": "c1"}]}),
            json!({"tool_calls": [{"arguments": {}}]}),
            json!({"when": 1, "reply": "x"}),
            json!({"when": "true"}),
            json!({"when": "true", "reply": 5}),
        ] {
            assert_eq!(round_trip(v).kind(), ResponseKind::Other);
        }
    }

    #[test]
    fn converting_keeps_what_carries_over() {
        let text = MockResponse::Reply(Reply::Text("Sunny".into()));
        let call = text.clone().convert(ResponseKind::ToolCall, "weather");
        assert_eq!(call.to_value(), json!({"content": "Sunny", "tool_calls": [{"name": "weather", "arguments": {}}]}));
        let rule = call.clone().convert(ResponseKind::Rule, "weather");
        assert_eq!(rule.to_value()["reply"], call.to_value(), "a rule keeps the calls as its reply");
        assert_eq!(rule.clone().convert(ResponseKind::Text, "x"), text);
        assert_eq!(rule.convert(ResponseKind::ToolCall, "other"), call, "existing calls are not replaced");
        assert_eq!(MockResponse::fresh(ResponseKind::Rule, "t").to_value(), json!({"when": "true", "reply": ""}));
        assert_eq!(
            MockResponse::fresh(ResponseKind::ToolCall, "t").to_value(),
            json!({"tool_calls": [{"name": "t", "arguments": {}}]}),
            "empty text is not written as content"
        );
        let other = MockResponse::Other(json!(7)).convert(ResponseKind::Text, "t");
        assert_eq!(other.to_value(), json!("7"));
    }

    #[test]
    fn kinds_have_names_for_the_select() {
        for k in ResponseKind::CHOICES {
            assert_eq!(ResponseKind::from_name(k.name()), Some(k));
        }
        assert_eq!(ResponseKind::ToolCall.title(), "Tool call");
        assert_eq!(ResponseKind::from_name("nope"), None);
        let items = vec![json!("a"), json!({"when": "true", "reply": "b"})];
        assert_eq!(write(&read(&items)), items);
    }
}
