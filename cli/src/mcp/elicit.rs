//! A waiting human node as an MCP elicitation (SPEC §5 `mcp`): the form's fields become the
//! requested schema, and the client's answer becomes the run's answer. Plain JSON; the rmcp
//! glue sends it.
//!
//! | form field | requested schema |
//! |---|---|
//! | `string` | `{type: string}`; with `options`, `enum` (an untitled single select, valid in 2025-06-18 and 2025-11-25) |
//! | `number`, `integer`, `boolean` | the same type |
//! | `list`, `object`, `any` | `{type: string}` holding JSON, parsed from the answer |
//! | `messages` | cannot be asked: the call fails naming the field |
//!
//! `label` becomes `title`, the evaluated default `default`, and required fields without a
//! default `required` (a field the client leaves out takes its default).

use engine::document::FieldType;
use engine::record::WaitingField;
use serde_json::{Map, Value, json};

/// What a waiting node asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub node: String,
    /// The prompt, rendered.
    pub prompt: String,
    pub asks: Asks,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Asks {
    /// A form: its fields in order, defaults evaluated.
    Form(Vec<(String, WaitingField)>),
    /// One value written to the state field `writes`.
    One { writes: String, ty: FieldType, options: Option<Vec<String>> },
}

/// A field that elicitation cannot carry.
#[derive(Debug, Clone, PartialEq)]
pub struct Unaskable {
    pub field: String,
}

impl Question {
    /// The fields asked, as form fields (a one-value node is a form of one required field).
    fn fields(&self) -> Vec<(String, WaitingField)> {
        match &self.asks {
            Asks::Form(fields) => fields.clone(),
            Asks::One { writes, ty, options } => vec![(
                writes.clone(),
                WaitingField { ty: *ty, options: options.clone(), required: true, label: None, default: None },
            )],
        }
    }

    /// The elicitation's message: the node, then its prompt.
    pub fn message(&self) -> String {
        if self.prompt.is_empty() {
            format!("node `{}`", self.node)
        } else {
            format!("node `{}`: {}", self.node, self.prompt)
        }
    }

    /// The requested schema: a flat object of primitive properties.
    pub fn requested_schema(&self) -> Result<Value, Unaskable> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for (name, field) in self.fields() {
            properties.insert(name.clone(), field_schema(&name, &field)?);
            // A client may leave out a field with a default: the default is filled in.
            if field.required && field.default.is_none() {
                required.push(Value::String(name));
            }
        }
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        Ok(Value::Object(schema))
    }

    /// The fields in one line, for a client that cannot be asked:
    /// `decision: approve|reject, comment: string (optional)`.
    pub fn fields_line(&self) -> String {
        self.fields()
            .iter()
            .map(|(name, f)| {
                let ty = match &f.options {
                    Some(options) => options.join("|"),
                    None => f.ty.name().to_string(),
                };
                let optional = if f.required && f.default.is_none() { "" } else { " (optional)" };
                format!("{name}: {ty}{optional}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The run's answer from an accepted elicitation's content: a form's object (fields held
    /// as JSON text parsed back), or the one value.
    pub fn answer(&self, content: Option<Value>) -> Result<Value, String> {
        let mut given = match content {
            Some(Value::Object(m)) => m,
            None => Map::new(),
            Some(other) => return Err(format!("the answer is not an object: {other}")),
        };
        let mut out = Map::new();
        for (name, field) in self.fields() {
            match given.remove(&name) {
                Some(v) => {
                    out.insert(name.clone(), from_elicited(&name, field.ty, v)?);
                }
                None => {
                    if let Some(d) = field.default {
                        out.insert(name, d);
                    }
                }
            }
        }
        if let Some(extra) = given.keys().next() {
            return Err(format!("the answer has a field `{extra}` the form does not ask for"));
        }
        match &self.asks {
            Asks::Form(_) => Ok(Value::Object(out)),
            Asks::One { writes, .. } => out.remove(writes).ok_or_else(|| format!("the answer has no `{writes}`")),
        }
    }
}

/// One form field as a property of the requested schema.
fn field_schema(name: &str, field: &WaitingField) -> Result<Value, Unaskable> {
    let mut p = match (field.ty, &field.options) {
        (_, Some(options)) => json!({"type": "string", "enum": options}),
        (FieldType::String, None) => json!({"type": "string"}),
        (FieldType::Number, None) => json!({"type": "number"}),
        (FieldType::Integer, None) => json!({"type": "integer"}),
        (FieldType::Boolean, None) => json!({"type": "boolean"}),
        (FieldType::List | FieldType::Object | FieldType::Any, None) => {
            json!({"type": "string", "description": format!("JSON ({})", field.ty.name())})
        }
        (FieldType::Messages, None) => return Err(Unaskable { field: name.to_string() }),
    };
    if let Some(label) = &field.label {
        p["title"] = label.clone().into();
    }
    if let Some(default) = &field.default {
        p["default"] = match field.ty {
            FieldType::List | FieldType::Object | FieldType::Any => default.to_string().into(),
            _ => default.clone(),
        };
    }
    Ok(p)
}

/// A value as the client sent it, back to the field's type: JSON text parsed for the types
/// asked as text.
fn from_elicited(name: &str, ty: FieldType, v: Value) -> Result<Value, String> {
    match (ty, v) {
        (FieldType::List | FieldType::Object | FieldType::Any, Value::String(text)) => {
            serde_json::from_str(&text).map_err(|e| format!("field `{name}`: not JSON ({e})"))
        }
        (_, v) => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(
        ty: FieldType,
        options: Option<&[&str]>,
        required: bool,
        label: Option<&str>,
        default: Option<Value>,
    ) -> WaitingField {
        WaitingField {
            ty,
            options: options.map(|o| o.iter().map(|s| s.to_string()).collect()),
            required,
            label: label.map(str::to_string),
            default,
        }
    }

    fn review() -> Question {
        Question {
            node: "review".into(),
            prompt: "Approve lunch?".into(),
            asks: Asks::Form(vec![
                (
                    "decision".into(),
                    field(FieldType::String, Some(&["approve", "reject"]), true, Some("Decision"), None),
                ),
                ("to_pay".into(), field(FieldType::Number, None, true, None, Some(json!(120)))),
                ("tags".into(), field(FieldType::List, None, false, None, Some(json!(["a"])))),
                ("comment".into(), field(FieldType::String, None, false, Some("Comment"), Some(json!("none")))),
            ]),
        }
    }

    #[test]
    fn a_form_becomes_a_flat_schema() {
        assert_eq!(
            review().requested_schema().unwrap(),
            json!({"type":"object","properties":{
                "decision":{"type":"string","enum":["approve","reject"],"title":"Decision"},
                "to_pay":{"type":"number","default":120},
                "tags":{"type":"string","description":"JSON (list)","default":"[\"a\"]"},
                "comment":{"type":"string","title":"Comment","default":"none"}},
              "required":["decision"]})
        );
        assert_eq!(review().message(), "node `review`: Approve lunch?");
        assert_eq!(
            review().fields_line(),
            "decision: approve|reject, to_pay: number (optional), tags: list (optional), comment: string (optional)"
        );
    }

    #[test]
    fn answers_come_back_typed() {
        let a = review().answer(Some(json!({"decision":"approve","to_pay":90,"tags":"[1,2]"}))).unwrap();
        assert_eq!(a, json!({"decision":"approve","to_pay":90,"tags":[1,2],"comment":"none"}));
        let a = review().answer(Some(json!({"decision":"reject"}))).unwrap();
        assert_eq!(a, json!({"decision":"reject","to_pay":120,"tags":["a"],"comment":"none"}));
        assert!(review().answer(Some(json!({"tags":"[1,"}))).unwrap_err().contains("field `tags`: not JSON"));
        assert!(review().answer(Some(json!({"nope":1}))).unwrap_err().contains("`nope`"));
    }

    #[test]
    fn a_one_value_node_asks_for_its_field() {
        let q = Question {
            node: "ok".into(),
            prompt: String::new(),
            asks: Asks::One {
                writes: "choice".into(),
                ty: FieldType::String,
                options: Some(vec!["yes".into(), "no".into()]),
            },
        };
        assert_eq!(
            q.requested_schema().unwrap(),
            json!({"type":"object","properties":{"choice":{"type":"string","enum":["yes","no"]}},"required":["choice"]})
        );
        assert_eq!(q.answer(Some(json!({"choice":"yes"}))).unwrap(), json!("yes"));
        assert_eq!(q.message(), "node `ok`");
    }

    #[test]
    fn messages_cannot_be_asked() {
        let q = Question {
            node: "n".into(),
            prompt: String::new(),
            asks: Asks::Form(vec![("chat".into(), field(FieldType::Messages, None, true, None, None))]),
        };
        assert_eq!(q.requested_schema(), Err(Unaskable { field: "chat".into() }));
    }
}
