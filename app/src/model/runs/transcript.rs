//! A `messages` state field read as a chat transcript: one entry per message with its role,
//! content, tool calls (name and arguments as readable JSON) and, for a tool message, the call
//! it answers; each marked changed when the shown step added it or replaced it (by id, against
//! the state before the step). Anything that is not a well-formed message is still shown, as
//! JSON, rather than hidden. Which fields are transcripts: `state_fields::messages_fields`.

use std::collections::HashMap;

use serde_json::{Map, Value};

/// A tool call of an assistant message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallView {
    pub id: String,
    pub name: String,
    /// The arguments as indented JSON.
    pub arguments: String,
}

/// The call a tool message answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    pub call_id: String,
    /// The tool's name, when the call is found earlier in the transcript.
    pub tool: Option<String>,
}

/// What the shown step did to a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Kept,
    /// Its id was not in the field before the step.
    Added,
    /// A message with its id was there, and differed.
    Replaced,
}

/// One message as the transcript shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageView {
    /// The message's id, or `#<index>` for one without.
    pub key: String,
    /// `system`, `user`, `assistant`, `tool`, or what the message says (`?` when it says nothing).
    pub role: String,
    /// Text content as it is; other content as indented JSON.
    pub content: String,
    pub name: Option<String>,
    pub tool_calls: Vec<CallView>,
    pub answers: Option<Answered>,
    pub change: Change,
}

impl MessageView {
    /// Added or replaced by the shown step (`data-changed`).
    pub fn changed(&self) -> bool {
        self.change != Change::Kept
    }
}

/// The transcript of `now` (the field's value after the shown step); `before` is its value
/// before that step (`None` at step 0, where nothing changed). A value that is not a list
/// has no transcript.
pub fn transcript(now: &Value, before: Option<&Value>) -> Option<Vec<MessageView>> {
    let list = now.as_array()?;
    let earlier: Option<HashMap<String, &Value>> = before.map(|b| {
        b.as_array().map(|l| l.iter().enumerate().map(|(i, m)| (key_of(m, i), m)).collect()).unwrap_or_default()
    });
    let mut calls: HashMap<String, String> = HashMap::new();
    let views = list
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let key = key_of(m, i);
            let change = match earlier.as_ref().map(|e| e.get(&key)) {
                None => Change::Kept,
                Some(None) => Change::Added,
                Some(Some(old)) if *old != m => Change::Replaced,
                Some(Some(_)) => Change::Kept,
            };
            let view = view_of(m, key, change, &calls);
            for c in &view.tool_calls {
                calls.insert(c.id.clone(), c.name.clone());
            }
            view
        })
        .collect();
    Some(views)
}

/// A message's identity: its id, or its place for one without.
fn key_of(message: &Value, index: usize) -> String {
    match message.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(id @ Value::Number(_)) => id.to_string(),
        _ => format!("#{index}"),
    }
}

fn view_of(m: &Value, key: String, change: Change, calls: &HashMap<String, String>) -> MessageView {
    let Some(obj) = m.as_object() else {
        return MessageView {
            key,
            role: "?".into(),
            content: pretty(m),
            name: None,
            tool_calls: Vec::new(),
            answers: None,
            change,
        };
    };
    let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_string);
    let answers = text("tool_call_id").map(|call_id| Answered { tool: calls.get(&call_id).cloned(), call_id });
    MessageView {
        key,
        role: text("role").unwrap_or_else(|| "?".into()),
        content: content_of(obj.get("content")),
        name: text("name"),
        tool_calls: obj.get("tool_calls").and_then(Value::as_array).map(|c| calls_of(c)).unwrap_or_default(),
        answers,
        change,
    }
}

fn content_of(content: Option<&Value>) -> String {
    match content {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => pretty(other),
    }
}

fn calls_of(calls: &[Value]) -> Vec<CallView> {
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let field = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
            CallView {
                id: field("id").unwrap_or_else(|| format!("#{i}")),
                name: field("name").unwrap_or_else(|| "?".into()),
                arguments: arguments_of(c.get("arguments")),
            }
        })
        .collect()
}

/// Arguments as indented JSON; a JSON text (as OpenAI sends them) is read first.
fn arguments_of(args: Option<&Value>) -> String {
    match args {
        None | Some(Value::Null) => pretty(&Value::Object(Map::new())),
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).map(|v| pretty(&v)).unwrap_or_else(|_| s.clone()),
        Some(v) => pretty(v),
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn agent_before() -> Value {
        json!([
            {"id": "input:0:1", "role": "system", "content": "You answer about weather."},
            {"id": "input:0:2", "role": "user", "content": "Weather in Paris?"}
        ])
    }

    fn agent_after() -> Value {
        json!([
            {"id": "input:0:1", "role": "system", "content": "You answer about weather."},
            {"id": "input:0:2", "role": "user", "content": "Weather in Paris?"},
            {"id": "agent:1:1", "role": "assistant", "content": "",
             "tool_calls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"id": "tools:2:1", "role": "tool", "content": "{\"temp\":18}", "tool_call_id": "call_1", "name": "get_weather"}
        ])
    }

    #[test]
    fn messages_show_role_content_calls_and_the_call_a_result_answers() {
        let t = transcript(&agent_after(), Some(&agent_before())).unwrap();
        assert_eq!(t.iter().map(|m| m.role.as_str()).collect::<Vec<_>>(), ["system", "user", "assistant", "tool"]);
        assert_eq!(t[1].content, "Weather in Paris?");
        assert_eq!(t[2].tool_calls.len(), 1);
        assert_eq!(t[2].tool_calls[0].name, "get_weather");
        assert_eq!(t[2].tool_calls[0].arguments, "{\n  \"city\": \"Paris\"\n}");
        assert_eq!(t[3].answers, Some(Answered { call_id: "call_1".into(), tool: Some("get_weather".into()) }));
        assert_eq!(t[3].content, "{\"temp\":18}");
    }

    #[test]
    fn added_and_replaced_messages_are_changed_and_kept_ones_are_not() {
        let t = transcript(&agent_after(), Some(&agent_before())).unwrap();
        assert_eq!(
            t.iter().map(|m| m.change).collect::<Vec<_>>(),
            [Change::Kept, Change::Kept, Change::Added, Change::Added]
        );
        // Replaced in place: same id, new content.
        let mut edited = agent_after();
        edited[1]["content"] = json!("Weather in Lyon?");
        let t = transcript(&edited, Some(&agent_after())).unwrap();
        assert_eq!(t.iter().map(MessageView::changed).collect::<Vec<_>>(), [false, true, false, false]);
        assert_eq!(t[1].change, Change::Replaced);
        // At step 0 nothing changed; from an empty field, everything is new.
        assert!(transcript(&agent_after(), None).unwrap().iter().all(|m| !m.changed()));
        assert!(transcript(&agent_after(), Some(&json!([]))).unwrap().iter().all(|m| m.changed()));
        // Removing messages changes nothing that is still there.
        let t = transcript(&agent_before(), Some(&agent_after())).unwrap();
        assert!(t.iter().all(|m| !m.changed()));
    }

    #[test]
    fn odd_messages_are_shown_not_dropped() {
        let odd = json!([
            "just text",
            {"role": "assistant", "content": [{"type": "text", "text": "hi"}]},
            {"id": 7, "content": null, "tool_calls": [{"name": "f", "arguments": "{\"a\":1}"}, {"arguments": "not json"}]},
            {"id": "t", "role": "tool", "tool_call_id": "nowhere", "content": "error: unknown tool"}
        ]);
        let t = transcript(&odd, Some(&json!(null))).unwrap();
        assert_eq!(t.len(), 4);
        assert_eq!((t[0].role.as_str(), t[0].content.as_str(), t[0].key.as_str()), ("?", "\"just text\"", "#0"));
        assert!(t[1].content.contains("\"text\": \"hi\""));
        assert_eq!(t[2].key, "7");
        assert_eq!(t[2].content, "");
        assert_eq!(t[2].tool_calls[0].arguments, "{\n  \"a\": 1\n}");
        assert_eq!((t[2].tool_calls[1].name.as_str(), t[2].tool_calls[1].arguments.as_str()), ("?", "not json"));
        assert_eq!(t[3].answers, Some(Answered { call_id: "nowhere".into(), tool: None }));
        assert!(t.iter().all(|m| m.changed()), "nothing was a list before");
        assert_eq!(transcript(&json!({"not": "a list"}), None), None);
    }
}
