//! A waiting human form (format.md §4, human) as the `Input required` region fills it in: one control
//! per field, prefilled with the default the engine evaluated, the text typed into each, the
//! answer object built from them with each field checked as the engine will check it, and
//! the engine's own refusal (an [`InputError`] whose path names the field) put back next to
//! the field it is about.

use std::collections::BTreeMap;

use engine::document::FieldType;
use engine::run::{InputError, WaitingField};
use indexmap::IndexMap;
use serde_json::{Map, Value};

/// Which control a field is answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// A text box (a `string` field).
    Text,
    /// A number box; `integer` takes whole numbers only.
    Number { integer: bool },
    /// A checkbox (a `boolean` field).
    Checkbox,
    /// A combo box of the field's options.
    Choice(Vec<String>),
    /// A text box holding JSON (`list`, `object`, `any` and `messages` fields).
    Json,
}

impl Control {
    fn for_field(field: &WaitingField) -> Control {
        if let Some(options) = &field.options {
            return Control::Choice(options.clone());
        }
        match field.ty {
            FieldType::String => Control::Text,
            FieldType::Number => Control::Number { integer: false },
            FieldType::Integer => Control::Number { integer: true },
            FieldType::Boolean => Control::Checkbox,
            FieldType::List | FieldType::Object | FieldType::Any | FieldType::Messages => Control::Json,
        }
    }
}

/// One field of the form as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct FormControl {
    pub name: String,
    /// The field's label, else its name.
    pub label: String,
    pub ty: FieldType,
    pub required: bool,
    pub control: Control,
}

/// The error map key for what is wrong with the answer as a whole rather than one field.
pub const WHOLE_FORM: &str = "";

/// A form being filled in: its controls, the text of each (a checkbox's is `true`/`false`),
/// and the errors shown next to the fields (by field name, [`WHOLE_FORM`] for the rest).
#[derive(Debug, Clone, PartialEq)]
pub struct FormDraft {
    pub node: String,
    pub controls: Vec<FormControl>,
    pub texts: IndexMap<String, String>,
    pub errors: BTreeMap<String, String>,
}

impl FormDraft {
    /// The form of node `node` waiting with `fields`, prefilled with their defaults.
    pub fn new(node: &str, fields: &IndexMap<String, WaitingField>) -> FormDraft {
        let mut controls = Vec::new();
        let mut texts = IndexMap::new();
        for (name, f) in fields {
            let control = Control::for_field(f);
            texts.insert(name.clone(), initial_text(&control, f.default.as_ref()));
            controls.push(FormControl {
                name: name.clone(),
                label: f.label.clone().filter(|l| !l.trim().is_empty()).unwrap_or_else(|| name.clone()),
                ty: f.ty,
                required: f.required,
                control,
            });
        }
        FormDraft { node: node.to_string(), controls, texts, errors: BTreeMap::new() }
    }

    /// What field `name` holds now.
    pub fn text(&self, name: &str) -> String {
        self.texts.get(name).cloned().unwrap_or_default()
    }

    /// Field `name` now holds `text`; its error goes until the next check.
    pub fn set(&mut self, name: &str, text: String) {
        if let Some(t) = self.texts.get_mut(name) {
            *t = text;
            self.errors.remove(name);
        }
    }

    /// The error shown next to field `name`, if any.
    pub fn error(&self, name: &str) -> Option<&str> {
        self.errors.get(name).map(String::as_str)
    }

    /// Builds the answer object, checking each field as the engine will; on failure the
    /// errors are kept (and returned) by field.
    pub fn answer(&mut self) -> Result<Value, BTreeMap<String, String>> {
        let mut answer = Map::new();
        let mut errors = BTreeMap::new();
        for c in &self.controls {
            match read(c, &self.text(&c.name)) {
                Ok(Some(v)) => {
                    answer.insert(c.name.clone(), v);
                }
                Ok(None) => {}
                Err(why) => {
                    errors.insert(c.name.clone(), why);
                }
            }
        }
        self.errors = errors.clone();
        if errors.is_empty() { Ok(Value::Object(answer)) } else { Err(errors) }
    }

    /// Puts the engine's refusal of the answer next to the field its path names
    /// (`answer.<node>.<field>…`), or on the whole form.
    pub fn engine_error(&mut self, e: &InputError) {
        let field = field_of_path(&e.path, &self.node).filter(|f| self.texts.contains_key(f));
        self.errors.insert(field.unwrap_or_else(|| WHOLE_FORM.to_string()), e.message.clone());
    }
}

/// The field an answer's error path is about: `answer.review.decision` → `decision` for
/// node `review` (deeper paths name their first field).
pub fn field_of_path(path: &str, node: &str) -> Option<String> {
    let rest = path.strip_prefix("answer.")?.strip_prefix(node)?.strip_prefix('.')?;
    let field = rest.split(['.', '[']).next().unwrap_or_default();
    (!field.is_empty()).then(|| field.to_string())
}

/// The text a control starts with: the default, written for that control.
fn initial_text(control: &Control, default: Option<&Value>) -> String {
    match (control, default) {
        (_, None | Some(Value::Null)) if *control == Control::Checkbox => "false".into(),
        (_, None | Some(Value::Null)) => String::new(),
        (Control::Json, Some(v)) => serde_json::to_string(v).unwrap_or_default(),
        (_, Some(Value::String(s))) => s.clone(),
        (_, Some(v)) => v.to_string(),
    }
}

/// One field's value read off its text: `None` when an optional field is left empty.
fn read(c: &FormControl, text: &str) -> Result<Option<Value>, String> {
    let blank = text.trim().is_empty();
    let missing = || if c.required { Err("This field is required.".to_string()) } else { Ok(None) };
    match &c.control {
        // An empty text is an answer (the empty string) when the field must be given.
        Control::Text if text.is_empty() && !c.required => Ok(None),
        Control::Text => Ok(Some(Value::String(text.to_string()))),
        Control::Checkbox => Ok(Some(Value::Bool(text == "true"))),
        _ if blank => missing(),
        Control::Choice(options) => {
            if options.iter().any(|o| o == text) {
                Ok(Some(Value::String(text.to_string())))
            } else {
                Err(format!("Choose one of: {}.", options.join(", ")))
            }
        }
        Control::Number { integer } => read_number(text.trim(), *integer).map(Some),
        Control::Json => read_json(text, c.ty).map(Some),
    }
}

fn read_number(text: &str, integer: bool) -> Result<Value, String> {
    let Ok(n) = text.parse::<f64>() else { return Err(format!("`{text}` is not a number.")) };
    if !n.is_finite() {
        return Err(format!("`{text}` is not a number."));
    }
    if integer {
        if n.fract() != 0.0 || n.abs() > 9.007_199_254_740_991e15 {
            return Err(format!("`{text}` is not a whole number."));
        }
        return Ok(Value::from(n as i64));
    }
    // `3` stays an integer in JSON, as the person typed it.
    Ok(text.parse::<i64>().map(Value::from).unwrap_or_else(|_| Value::from(n)))
}

fn read_json(text: &str, ty: FieldType) -> Result<Value, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("Not JSON: {e}."))?;
    match (ty, &v) {
        (FieldType::List | FieldType::Messages, Value::Array(_)) | (FieldType::Object, Value::Object(_)) => Ok(v),
        (FieldType::List | FieldType::Messages, _) => Err("Give a JSON list, like [\"a\", \"b\"].".into()),
        (FieldType::Object, _) => Err("Give a JSON object, like {\"key\": \"value\"}.".into()),
        _ => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field(ty: FieldType, default: Option<Value>) -> WaitingField {
        WaitingField { ty, options: None, required: true, label: None, default }
    }

    fn review_form() -> FormDraft {
        let mut fields = IndexMap::new();
        let mut decision = field(FieldType::String, Some(json!("approve")));
        decision.options = Some(vec!["approve".into(), "reject".into()]);
        decision.label = Some("Decision".into());
        fields.insert("decision".to_string(), decision);
        let mut comment = field(FieldType::String, None);
        comment.required = false;
        fields.insert("comment".to_string(), comment);
        fields.insert("score".to_string(), field(FieldType::Integer, Some(json!(3))));
        fields.insert("ratio".to_string(), field(FieldType::Number, Some(json!(0.5))));
        fields.insert("urgent".to_string(), field(FieldType::Boolean, None));
        fields.insert("plan".to_string(), field(FieldType::List, Some(json!(["a", "b"]))));
        FormDraft::new("review", &fields)
    }

    #[test]
    fn each_type_gets_its_control_prefilled_with_the_default() {
        let f = review_form();
        let shown: Vec<(&str, &str, &Control)> =
            f.controls.iter().map(|c| (c.name.as_str(), c.label.as_str(), &c.control)).collect();
        assert_eq!(shown[0], ("decision", "Decision", &Control::Choice(vec!["approve".into(), "reject".into()])));
        assert_eq!(shown[1], ("comment", "comment", &Control::Text), "no label: the name");
        assert_eq!(shown[2].2, &Control::Number { integer: true });
        assert_eq!(shown[3].2, &Control::Number { integer: false });
        assert_eq!(shown[4].2, &Control::Checkbox);
        assert_eq!(shown[5].2, &Control::Json);
        let texts: Vec<String> = f.controls.iter().map(|c| f.text(&c.name)).collect();
        assert_eq!(texts, ["approve", "", "3", "0.5", "false", r#"["a","b"]"#]);
    }

    #[test]
    fn the_prefilled_form_answers_with_its_defaults_and_leaves_out_an_empty_optional_field() {
        let mut f = review_form();
        assert_eq!(
            f.answer(),
            Ok(json!({"decision": "approve", "score": 3, "ratio": 0.5, "urgent": false, "plan": ["a", "b"]}))
        );
        f.set("decision", "reject".into());
        f.set("comment", "too long".into());
        f.set("urgent", "true".into());
        f.set("ratio", "2".into());
        let a = f.answer().unwrap();
        assert_eq!(a["decision"], "reject");
        assert_eq!(a["comment"], "too long");
        assert_eq!(a["urgent"], true);
        assert_eq!(a["ratio"], json!(2));
    }

    #[test]
    fn wrong_values_are_named_by_field_and_cleared_when_edited() {
        let mut f = review_form();
        f.set("score", "2.5".into());
        f.set("ratio", "lots".into());
        f.set("plan", "{\"a\": 1}".into());
        f.set("decision", String::new());
        let errors = f.answer().unwrap_err();
        assert_eq!(errors.keys().collect::<Vec<_>>(), ["decision", "plan", "ratio", "score"]);
        assert_eq!(f.error("score"), Some("`2.5` is not a whole number."));
        assert_eq!(f.error("ratio"), Some("`lots` is not a number."));
        assert!(f.error("plan").unwrap().contains("JSON list"));
        assert_eq!(f.error("decision"), Some("This field is required."));
        f.set("score", "4".into());
        assert_eq!(f.error("score"), None);
        f.set("plan", "[1".into());
        f.answer().unwrap_err();
        assert!(f.error("plan").unwrap().starts_with("Not JSON"));
    }

    #[test]
    fn an_option_not_offered_is_refused() {
        let mut f = review_form();
        f.set("decision", "maybe".into());
        f.answer().unwrap_err();
        assert_eq!(f.error("decision"), Some("Choose one of: approve, reject."));
    }

    #[test]
    fn the_engines_refusal_lands_next_to_its_field() {
        let mut f = review_form();
        f.engine_error(&InputError { path: "answer.review.score".into(), message: "must be at most 5".into() });
        assert_eq!(f.error("score"), Some("must be at most 5"));
        f.engine_error(&InputError { path: "answer.review.plan[2]".into(), message: "bad item".into() });
        assert_eq!(f.error("plan"), Some("bad item"));
        f.engine_error(&InputError { path: "answer.review.extra".into(), message: "unknown field".into() });
        assert_eq!(f.error(WHOLE_FORM), Some("unknown field"), "a field the form does not show");
        f.engine_error(&InputError { path: "answer.other".into(), message: "not waiting".into() });
        assert_eq!(f.error(WHOLE_FORM), Some("not waiting"));
        assert_eq!(field_of_path("answer.reviewer.x", "review"), None, "another node with a longer id");
    }
}
