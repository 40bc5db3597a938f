//! Chat messages (format.md §4 (llm, tools) and §8): the shape of a message kept in a `messages` field, how an update
//! to such a field is read and checked, and the ids given to messages written without one.
//!
//! A message is `{id, role, content, name?, tool_calls?, tool_call_id?}` with `role` one of
//! `system`, `user`, `assistant`, `tool`; a tool call is `{id, name, arguments}` with
//! `arguments` an object. An update is one message, a list of them, or a string (a user
//! message); a list may also hold `{"remove": id}` and `{"remove": "all"}`. Reading an update
//! gives a list of [`Item`]s in a canonical form (content always a string, empty optional
//! parts left out), which is what the run record shows as the node's update.

use std::fmt;

use serde_json::{Map, Value};

use crate::describe::{excerpt, type_name};

/// The roles a message may have.
pub const ROLES: [&str; 4] = ["system", "user", "assistant", "tool"];

/// The keys a message may have.
const MESSAGE_KEYS: [&str; 6] = ["id", "role", "content", "name", "tool_calls", "tool_call_id"];

/// Who wrote an update to a `messages` field: node `node` in step `step`. A message written
/// without an id gets `<node>:<step>:<n>`, `n` being its position in the update from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writer<'a> {
    pub node: &'a str,
    pub step: u64,
}

impl Writer<'_> {
    /// Messages in the run's input.
    pub const INPUT: Writer<'static> = Writer { node: "input", step: 0 };
    /// Messages in a field's `default`.
    pub const DEFAULT: Writer<'static> = Writer { node: "default", step: 0 };

    /// The id of the `n`th item (from 1) of this writer's update.
    pub fn id(&self, n: usize) -> String {
        format!("{}:{}:{n}", self.node, self.step)
    }
}

/// What is wrong with item `item` (from 1) of an update or list of messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageError {
    pub item: usize,
    pub problem: String,
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "message {}: {}", self.item, self.problem)
    }
}

impl std::error::Error for MessageError {}

/// `{"remove": id}` for an id no message has (neither in the list nor written earlier in the
/// update): an error of the node that wrote it, as in LangGraph, so a mistyped id does not
/// pass unnoticed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsentId(pub String);

impl fmt::Display for AbsentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot remove message `{}`: no message in the list has that id", self.0)
    }
}

impl std::error::Error for AbsentId {}

/// One item of a normalised update.
#[derive(Debug, Clone, PartialEq)]
pub enum Item<'a> {
    /// A message to add, or to put in place of the message with its id.
    Message(&'a Value),
    /// Removes the message with this id.
    Remove(&'a str),
    /// Empties the list.
    RemoveAll,
}

/// The items of a normalised update (see [`normalize_update`]).
pub fn items(update: &Value) -> impl Iterator<Item = Item<'_>> {
    let list: &[Value] = match update {
        Value::Array(items) => items,
        one => std::slice::from_ref(one),
    };
    list.iter().map(|v| match v.get("remove").and_then(Value::as_str) {
        Some("all") => Item::RemoveAll,
        Some(id) if v.get("role").is_none() => Item::Remove(id),
        _ => Item::Message(v),
    })
}

/// Reads an update to a `messages` field, in place: a list of canonical messages and
/// removals. With a `writer`, messages without an id get one.
pub fn normalize_update(value: &mut Value, writer: Option<Writer<'_>>) -> Result<(), MessageError> {
    let list: &[Value] = match &*value {
        Value::Array(items) => items,
        one => std::slice::from_ref(one),
    };
    let mut out = Vec::with_capacity(list.len());
    for (k, item) in list.iter().enumerate() {
        let n = k + 1;
        let at = |problem: String| MessageError { item: n, problem };
        let mut item =
            if let Some(remove) = removal(item).map_err(at)? { remove } else { message(item).map_err(at)? };
        if let (Some(w), Value::Object(m)) = (writer, &mut item)
            && !m.contains_key("id")
            && !m.contains_key("remove")
        {
            m.insert("id".into(), Value::String(w.id(n)));
        }
        out.push(item);
    }
    *value = Value::Array(out);
    Ok(())
}

/// Reads a whole transcript (a field's default, an edited value, the messages an `llm`
/// node sends), in place: a list of canonical messages, no removals. With a `writer`,
/// messages without an id get one.
pub fn normalize_list(value: &mut Value, writer: Option<Writer<'_>>) -> Result<(), MessageError> {
    let Value::Array(list) = &*value else {
        return Err(MessageError {
            item: 1,
            problem: format!("expected a list of messages, got {} ({})", type_name(value), excerpt(value)),
        });
    };
    let mut out = Vec::with_capacity(list.len());
    for (k, item) in list.iter().enumerate() {
        let n = k + 1;
        let mut m = message(item).map_err(|problem| MessageError { item: n, problem })?;
        if let (Some(w), Value::Object(map)) = (writer, &mut m)
            && !map.contains_key("id")
        {
            map.insert("id".into(), Value::String(w.id(n)));
        }
        out.push(m);
    }
    *value = Value::Array(out);
    Ok(())
}

/// `{"remove": id}` or `{"remove": "all"}`, canonical; `None` when `v` is not a removal.
fn removal(v: &Value) -> Result<Option<Value>, String> {
    let Value::Object(m) = v else { return Ok(None) };
    let Some(target) = m.get("remove") else { return Ok(None) };
    if m.len() > 1 {
        return Err("`{\"remove\": id}` takes no other keys".into());
    }
    match target {
        Value::String(id) if !id.is_empty() => Ok(Some(v.clone())),
        other => Err(format!("`remove` takes a message id or \"all\", got {}", excerpt(other))),
    }
}

/// One message in canonical form: a string is a user message; `content` is a string (empty
/// when absent or null); empty `tool_calls` are left out.
pub fn message(v: &Value) -> Result<Value, String> {
    let m = match v {
        Value::String(s) => {
            let mut m = Map::new();
            m.insert("role".into(), "user".into());
            m.insert("content".into(), Value::String(s.clone()));
            return Ok(Value::Object(m));
        }
        Value::Object(m) => m,
        other => {
            return Err(format!(
                "expected a message object, a string or {{\"remove\": id}}, got {} ({})",
                type_name(other),
                excerpt(other)
            ));
        }
    };
    if let Some(k) = m.keys().find(|k| !MESSAGE_KEYS.contains(&k.as_str())) {
        return Err(format!("unknown key `{k}` (a message has {})", MESSAGE_KEYS.join(", ")));
    }
    let role = match m.get("role") {
        None => return Err("has no `role`".into()),
        Some(Value::String(r)) if ROLES.contains(&r.as_str()) => r.as_str(),
        Some(Value::String(r)) => return Err(format!("role `{r}` is not one of {}", ROLES.join(", "))),
        Some(other) => return Err(format!("`role` must be a string, got {}", excerpt(other))),
    };
    let mut out = Map::new();
    if let Some(id) = m.get("id") {
        out.insert("id".into(), Value::String(non_empty_string(id, "id")?));
    }
    out.insert("role".into(), Value::String(role.to_string()));
    let content = match m.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => return Err(format!("`content` must be a string, got {}", type_name(other))),
    };
    out.insert("content".into(), Value::String(content));
    if let Some(name) = m.get("name") {
        out.insert("name".into(), Value::String(non_empty_string(name, "name")?));
    }
    match (role, m.get("tool_calls")) {
        (_, None | Some(Value::Null)) => {}
        ("assistant", Some(calls)) => {
            let calls = tool_calls(calls)?;
            if !calls.is_empty() {
                out.insert("tool_calls".into(), Value::Array(calls));
            }
        }
        (_, Some(_)) => return Err(format!("`tool_calls` belong to assistant messages, not to a `{role}` message")),
    }
    match (role, m.get("tool_call_id")) {
        ("tool", Some(id)) => {
            out.insert("tool_call_id".into(), Value::String(non_empty_string(id, "tool_call_id")?));
        }
        ("tool", None) => return Err("a `tool` message needs `tool_call_id`: the id of the call it answers".into()),
        (_, Some(_)) => return Err(format!("`tool_call_id` belongs to tool messages, not to a `{role}` message")),
        (_, None) => {}
    }
    Ok(Value::Object(out))
}

/// An assistant message's tool calls, canonical: `{id, name, arguments}` each.
fn tool_calls(v: &Value) -> Result<Vec<Value>, String> {
    let Value::Array(calls) = v else {
        return Err(format!("`tool_calls` must be a list, got {}", type_name(v)));
    };
    let mut out = Vec::with_capacity(calls.len());
    for (k, call) in calls.iter().enumerate() {
        let at = |p: String| format!("tool call {}: {p}", k + 1);
        let Value::Object(c) = call else {
            return Err(at(format!("expected {{id, name, arguments}}, got {}", type_name(call))));
        };
        if let Some(key) = c.keys().find(|k| !["id", "name", "arguments"].contains(&k.as_str())) {
            return Err(at(format!("unknown key `{key}` (a tool call has id, name, arguments)")));
        }
        let id = c.get("id").ok_or_else(|| at("has no `id`".into()))?;
        let name = c.get("name").ok_or_else(|| at("has no `name`".into()))?;
        let arguments = match c.get("arguments") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(a @ Value::Object(_)) => a.clone(),
            Some(other) => return Err(at(format!("`arguments` must be an object, got {}", type_name(other)))),
        };
        let mut call = Map::new();
        call.insert("id".into(), Value::String(non_empty_string(id, "id").map_err(at)?));
        call.insert("name".into(), Value::String(non_empty_string(name, "name").map_err(at)?));
        call.insert("arguments".into(), arguments);
        out.push(Value::Object(call));
    }
    Ok(out)
}

fn non_empty_string(v: &Value, key: &str) -> Result<String, String> {
    match v {
        Value::String(s) if !s.is_empty() => Ok(s.clone()),
        Value::String(_) => Err(format!("`{key}` must not be empty")),
        other => Err(format!("`{key}` must be a string, got {}", type_name(other))),
    }
}

/// Whether the last message of `list` is an assistant message with tool calls (what an
/// agent's loop routes on: `has_tool_calls(state.messages)`).
pub fn has_tool_calls(list: &[Value]) -> bool {
    list.last().is_some_and(|m| {
        m.get("role").and_then(Value::as_str) == Some("assistant")
            && m.get("tool_calls").and_then(Value::as_array).is_some_and(|c| !c.is_empty())
    })
}

/// The id of a message, when it has one.
pub fn id_of(message: &Value) -> Option<&str> {
    message.get("id").and_then(Value::as_str)
}

/// Whether `message` is a `system` message.
pub fn is_system(message: &Value) -> bool {
    message.get("role").and_then(Value::as_str) == Some("system")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn norm(v: Value, writer: Option<Writer<'_>>) -> Result<Value, String> {
        let mut v = v;
        normalize_update(&mut v, writer).map_err(|e| e.to_string())?;
        Ok(v)
    }

    #[test]
    fn a_string_is_a_user_message_with_an_id() {
        let w = Writer { node: "ask", step: 3 };
        assert_eq!(norm(json!("hi"), Some(w)).unwrap(), json!([{"id": "ask:3:1", "role": "user", "content": "hi"}]));
    }

    #[test]
    fn ids_count_the_items_of_the_update() {
        let w = Writer { node: "n", step: 2 };
        let out = norm(
            json!([{"remove": "x"}, {"role": "assistant", "content": null}, {"id": "k", "role": "user"}]),
            Some(w),
        )
        .unwrap();
        assert_eq!(
            out,
            json!([{"remove": "x"}, {"id": "n:2:2", "role": "assistant", "content": ""}, {"id": "k", "role": "user", "content": ""}])
        );
    }

    #[test]
    fn malformed_messages_say_what_is_wrong() {
        let e = |v: Value| norm(v, None).unwrap_err();
        assert_eq!(
            e(json!([{"role": "user", "content": "a"}, {"role": "bot", "content": "b"}])),
            "message 2: role `bot` is not one of system, user, assistant, tool"
        );
        assert!(e(json!({"role": "user", "text": "a"})).contains("unknown key `text`"));
        assert!(e(json!({"role": "tool", "content": "a"})).contains("needs `tool_call_id`"));
        assert!(e(json!({"role": "user", "tool_calls": []})).contains("belong to assistant messages"));
        assert!(
            e(json!({"role": "assistant", "tool_calls": [{"id": "c", "name": "f", "arguments": "{}"}]}))
                .contains("tool call 1: `arguments` must be an object")
        );
        assert!(e(json!(3)).contains("expected a message object"));
        assert!(e(json!({"remove": 3})).contains("`remove` takes a message id"));
    }

    #[test]
    fn tool_calls_are_read() {
        let list = [json!({"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]})];
        assert!(has_tool_calls(&list));
        assert!(!has_tool_calls(&[json!({"role": "assistant", "content": "done"})]));
        assert!(!has_tool_calls(&[]));
    }
}
