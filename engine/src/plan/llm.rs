//! `llm` nodes (format.md §4; format.md §4 (llm, tools) and §8): the model, the prompts or earlier `messages`, the tools the
//! model may call, `output_schema`, where the reply goes, and a mock model's replies and
//! rules, each checked and compiled into an [`LlmOp`].

use serde_json::Value;

use crate::document::{FieldType, ModelConfig, NodeField, Parse, Provider};
use crate::json_schema::JsonSchema;
use crate::plan::check::{Checker, NodeAt};
use crate::plan::types::{LlmOp, MockItem, MockReply, Op, ToolSpec};
use crate::script::{Expr, Template};

/// Names a mock rule's `when` sees besides the usual scope.
pub(crate) const MOCK_SCOPE: [&str; 2] = ["prompt", "messages"];

/// The keys of a mock reply that is an assistant message.
const MESSAGE_REPLY_KEYS: [&str; 2] = ["content", "tool_calls"];

impl Checker {
    /// `llm`: the model, the prompts, the tools, where the reply goes.
    pub(super) fn llm_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let (n, id) = (at.n, at.id());
        let writes = self.require_writes(at);
        let Some(model) = &n.model else {
            self.error(at.path(NodeField::Model), "an `llm` node needs `model`: {provider, …}".into(), id, None);
            return None;
        };
        let writes_messages = writes.as_deref().is_some_and(|w| at.schema.spec(w).ty == FieldType::Messages);
        let prompts = self.llm_prompts(at);
        let tools = self.llm_tools(at, writes_messages);
        let output_schema = self.output_schema(at);
        let mock = self.mock_items(at, model);
        let (Some((prompt, system, messages)), Some(writes), Some(tools), Some(output_schema), Some(mock)) =
            (prompts, writes, tools, output_schema, mock)
        else {
            return None;
        };
        let parse = if output_schema.is_some() { Parse::Json } else { n.parse.unwrap_or(Parse::Text) };
        Some(Op::Llm(Box::new(LlmOp {
            prompt,
            system,
            messages,
            tools,
            output_schema,
            writes,
            writes_messages,
            parse,
            model: model.clone(),
            mock,
        })))
    }

    /// `prompt` (optional when `messages` is set), `system` and `messages`, compiled.
    #[allow(clippy::type_complexity)]
    fn llm_prompts(&mut self, at: &NodeAt<'_>) -> Option<(Option<Template>, Option<Template>, Option<Expr>)> {
        let (n, id, s) = (at.n, at.id(), at.scripting);
        if n.prompt.is_none() && n.messages.is_none() {
            let message = "an `llm` node needs `prompt` (or `messages`: the conversation so far)";
            self.error(at.path(NodeField::Prompt), message.into(), id, None);
            return None;
        }
        let prompt = n.prompt.as_ref().map(|p| self.template(s, p, at.path(NodeField::Prompt), id));
        let system = n.system.as_ref().map(|t| self.template(s, t, at.path(NodeField::System), id));
        let messages = n.messages.as_ref().map(|m| self.expr(s, m, at.path(NodeField::Messages), id, None, &[]));
        // Each is absent, or present and compiled; one that does not compile fails the op.
        if matches!(prompt, Some(None)) || matches!(system, Some(None)) || matches!(messages, Some(None)) {
            return None;
        }
        Some((prompt.flatten(), system.flatten(), messages.flatten()))
    }

    /// The graph's tools the node names, as its model is told of them.
    fn llm_tools(&mut self, at: &NodeAt<'_>, writes_messages: bool) -> Option<Vec<ToolSpec>> {
        let (n, id) = (at.n, at.id());
        let Some(names) = &n.tools else { return Some(Vec::new()) };
        let defined: Vec<&String> = at.graph.tools.iter().flatten().map(|(k, _)| k).collect();
        let mut specs = Vec::new();
        let mut ok = true;
        for (k, name) in names.iter().enumerate() {
            let path = format!("{}[{k}]", at.path(NodeField::Tools));
            if names[..k].contains(name) {
                self.error(path, format!("`{name}` is listed twice"), id, None);
                ok = false;
            } else if !defined.contains(&name) {
                let known = if defined.is_empty() {
                    "the graph defines no tools".to_string()
                } else {
                    format!("the graph's tools: {}", defined.iter().map(|d| d.as_str()).collect::<Vec<_>>().join(", "))
                };
                self.error(path, format!("no tool is named `{name}` ({known})"), id, None);
                ok = false;
            } else if let Some(tool) = at.tools.iter().find(|t| t.spec.name == *name) {
                specs.push(tool.spec.clone());
            }
        }
        if !names.is_empty() && !writes_messages {
            let message = "the model's tool calls are kept only when `writes` names a field of type messages";
            self.warn(at.path(NodeField::Tools), message.into(), id, None);
        }
        ok.then_some(specs)
    }

    /// `output_schema`, compiled. `Some(None)` when there is none; `None` on an error.
    fn output_schema(&mut self, at: &NodeAt<'_>) -> Option<Option<JsonSchema>> {
        let (n, id) = (at.n, at.id());
        let Some(schema) = &n.output_schema else { return Some(None) };
        if n.parse == Some(Parse::Text) {
            let message = "`output_schema` reads the reply as JSON; `parse: text` is ignored";
            self.warn(at.path(NodeField::Parse), message.into(), id, None);
        }
        match JsonSchema::compile(schema) {
            Ok(s) => Some(Some(s)),
            Err(e) => {
                let path = format!("{}{}", at.path(NodeField::OutputSchema), e.path.trim_start_matches('$'));
                self.error(path, format!("not a valid JSON Schema: {}", e.message), id, None);
                None
            }
        }
    }

    /// A mock model's `responses`, compiled: plain replies, and rules whose `when` sees
    /// `prompt` and `messages` besides the usual scope.
    fn mock_items(&mut self, at: &NodeAt<'_>, model: &ModelConfig) -> Option<Vec<MockItem>> {
        let id = at.id();
        if model.provider == Provider::Mock && model.responses.as_ref().is_none_or(Vec::is_empty) {
            self.warn(
                at.key_path(NodeField::Model, "responses"),
                "a mock model without responses answers with an empty string".into(),
                id,
                None,
            );
        }
        let mut items = Vec::new();
        let mut ok = true;
        for (k, item) in model.responses.iter().flatten().enumerate() {
            let path = format!("{}[{k}]", at.key_path(NodeField::Model, "responses"));
            let compiled = match item {
                Value::Object(o) if o.contains_key("when") => self.mock_rule(at, o, &path),
                other => self.mock_reply(at, other, &path).map(MockItem::Plain),
            };
            match compiled {
                Some(c) => items.push(c),
                None => ok = false,
            }
        }
        ok.then_some(items)
    }

    /// A rule `{when, reply}`.
    fn mock_rule(&mut self, at: &NodeAt<'_>, o: &serde_json::Map<String, Value>, path: &str) -> Option<MockItem> {
        let id = at.id();
        if let Some(k) = o.keys().find(|k| *k != "when" && *k != "reply") {
            self.error(format!("{path}.{k}"), "unknown key (a rule is {when, reply})".into(), id, None);
            return None;
        }
        let Some(reply) = o.get("reply") else {
            self.error(path.to_string(), "a rule needs `reply`: what the model answers".into(), id, None);
            return None;
        };
        let when = match o.get("when") {
            Some(Value::String(src)) => self.expr(at.scripting, src, format!("{path}.when"), id, None, &MOCK_SCOPE),
            _ => {
                self.error(format!("{path}.when"), "must be an expression (a string)".into(), id, None);
                None
            }
        };
        let reply = self.mock_reply(at, reply, &format!("{path}.reply"));
        Some(MockItem::Rule { when: when?, reply: reply? })
    }

    /// A reply: an assistant message `{content?, tool_calls?: [{name, arguments}]}`, or any
    /// other value (text, or JSON used as it is). Strings holding `{{` are templates that see
    /// what a rule's `when` sees.
    fn mock_reply(&mut self, at: &NodeAt<'_>, v: &Value, path: &str) -> Option<MockReply> {
        let id = at.id();
        let template =
            |c: &mut Checker, v: &Value, path: String| c.json_template(at.scripting, v, path, id, &MOCK_SCOPE);
        let Value::Object(o) = v else { return template(self, v, path.to_string()).map(MockReply::Value) };
        let is_message = !o.is_empty() && o.keys().all(|k| MESSAGE_REPLY_KEYS.contains(&k.as_str()));
        if !is_message {
            return template(self, v, path.to_string()).map(MockReply::Value);
        }
        let content = match o.get("content") {
            None | Some(Value::Null) => Value::String(String::new()),
            Some(s @ Value::String(_)) => s.clone(),
            Some(other) => Value::String(other.to_string()),
        };
        let content = template(self, &content, format!("{path}.content"))?;
        let mut tool_calls = Vec::new();
        let calls = match o.get("tool_calls") {
            None => &Vec::new(),
            Some(Value::Array(calls)) => calls,
            Some(_) => {
                self.error(format!("{path}.tool_calls"), "must be a list of {name, arguments}".into(), id, None);
                return None;
            }
        };
        for (j, call) in calls.iter().enumerate() {
            let (name, args) = self.mock_tool_call(call, &format!("{path}.tool_calls[{j}]"), id)?;
            let args = template(self, &args, format!("{path}.tool_calls[{j}].arguments"))?;
            tool_calls.push((name, args));
        }
        Some(MockReply::Message { content, tool_calls })
    }

    /// A mock tool call `{name, arguments}` (arguments `{}` when absent).
    fn mock_tool_call(&mut self, call: &Value, path: &str, id: Option<&str>) -> Option<(String, Value)> {
        let Value::Object(c) = call else {
            self.error(path.to_string(), "a tool call is {name, arguments}".into(), id, None);
            return None;
        };
        if let Some(k) = c.keys().find(|k| *k != "name" && *k != "arguments") {
            self.error(path.to_string(), format!("unknown key `{k}` (a tool call is {{name, arguments}})"), id, None);
            return None;
        }
        let Some(name) = c.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) else {
            self.error(path.to_string(), "a tool call needs `name`".into(), id, None);
            return None;
        };
        match c.get("arguments") {
            None => Some((name.to_string(), Value::Object(Default::default()))),
            Some(args @ Value::Object(_)) => Some((name.to_string(), args.clone())),
            Some(_) => {
                self.error(format!("{path}.arguments"), "must be an object".into(), id, None);
                None
            }
        }
    }
}
