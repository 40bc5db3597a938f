//! What the graph document's schema says beyond its types' shapes: the id pattern, which
//! fields each node kind takes and needs, which reducers fit which field types, and the
//! layout's free-form keys. Each rule is one the validator reports as an error, generated
//! from the same tables ([`NodeKind::node_fields`], [`Reducer::fits`]) where there is one.
//!
//! The rules are applied to the generated schema by type name ([`add_rules`]) rather than by
//! attributes on the types, so that the document's types do not depend on this module.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value, json};

use crate::document::{FieldType, Layout, NodeField, NodeKind, Position, Reducer, VIEWPORT_KEY, Viewport};
use crate::schema::ID_PATTERN;

/// Adds one type's rules to its schema.
type Rule = fn(&mut Value);

/// Adds the rules to `schema`, a graph document's schema whose root is [`crate::Graph`]'s. A
/// type it has no rule for is a bug: `tests/schema.rs` checks that every rule refuses what it
/// should.
pub fn add_rules(schema: &mut Value) {
    graph_rules(schema);
    let rules: [(&str, Rule); 4] =
        [("Node", node_rules), ("Edge", edge_rules), ("StateField", state_field_rules), ("ToolRun", tool_run_rules)];
    for (name, rule) in rules {
        if let Some(def) = schema.pointer_mut(&format!("/$defs/{name}")) {
            rule(def);
        }
    }
}

/// `graph`: tool and definition names are ids.
fn graph_rules(schema: &mut Value) {
    for key in ["tools", "definitions"] {
        if let Some(p) = schema.pointer_mut(&format!("/properties/{key}")) {
            each_object_schema(p, |o| {
                o.insert("propertyNames".into(), json!({ "pattern": ID_PATTERN }));
            });
        }
    }
}

/// `node`: its id's pattern, a description of every field from [`NodeField::about`], and per
/// kind the fields it must not carry (another kind's) and the ones it needs.
fn node_rules(schema: &mut Value) {
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for field in NodeField::ALL {
            match props.get_mut(field.name()) {
                Some(Value::Object(p)) => {
                    p.insert("description".into(), json!(field_description(field)));
                }
                // `true` (any value) cannot hold a description; `{}` says the same and can.
                Some(p @ Value::Bool(true)) => *p = json!({ "description": field_description(field) }),
                _ => {}
            }
        }
        if let Some(Value::Object(id)) = props.get_mut(NodeField::Id.name()) {
            id.insert("pattern".into(), json!(ID_PATTERN));
        }
    }
    set(schema, "allOf", NodeKind::ALL.into_iter().map(kind_rule).collect());
}

/// `edge`: its ends are node ids.
fn edge_rules(schema: &mut Value) {
    for end in ["from", "to"] {
        if let Some(Value::Object(p)) = schema.pointer_mut(&format!("/properties/{end}")) {
            p.insert("pattern".into(), json!(ID_PATTERN));
        }
    }
}

/// `state` field: the reducer fits the type, the default has the type, `max_items` and `evict`
/// go with list reducers.
fn state_field_rules(schema: &mut Value) {
    let mut rules: Vec<Value> = Reducer::ALL
        .into_iter()
        .map(|r| {
            let fitting: Vec<&str> = FieldType::ALL.into_iter().filter(|&t| r.fits(t)).map(FieldType::name).collect();
            json!({
                "if": { "properties": { "reducer": { "const": r.name() } }, "required": ["reducer"] },
                "then": { "properties": { "type": { "enum": fitting } } }
            })
        })
        .collect();
    for ty in FieldType::ALL {
        if let Some(json_type) = json_type(ty) {
            rules.push(json!({
                "if": { "properties": { "type": { "const": ty.name() } } },
                "then": { "properties": { "default": { "type": json_type } } }
            }));
        }
    }
    // The reducer in force: the one given, else `messages` on a `messages` field (`replace`
    // on others). `null` reads as absent.
    let in_force = |r: Reducer| {
        let given = json!({ "properties": { "reducer": { "const": r.name() } }, "required": ["reducer"] });
        if r != Reducer::Messages {
            return vec![given];
        }
        let by_default = json!({ "properties": {
            "type": { "const": FieldType::Messages.name() },
            "reducer": { "type": "null" }
        } });
        vec![given, by_default]
    };
    // Only list reducers keep a window of items, and a transcript takes no `evict`.
    let windowed: Vec<Value> = [Reducer::Append, Reducer::Messages].into_iter().flat_map(in_force).collect();
    rules.push(json!({
        "if": { "required": ["max_items"], "properties": { "max_items": { "type": "integer" } } },
        "then": { "anyOf": windowed }
    }));
    rules.push(json!({
        "if": { "required": ["evict"], "properties": { "evict": { "type": "string" } } },
        "then": { "not": { "anyOf": in_force(Reducer::Messages) } }
    }));
    set(schema, "allOf", Value::Array(rules));
    if let Some(p) = schema.pointer_mut("/properties/evict") {
        each_string_schema(p, |o| {
            o.insert("pattern".into(), json!("^(oldest|lowest:[\\s\\S]+)$"));
        });
    }
}

/// `tool.run`: exactly one of `script`, `http`, `use` and `mcp`; `inputs` and `outputs` only with `use`.
fn tool_run_rules(schema: &mut Value) {
    let has = |f: &str| json!({ "required": [f], "properties": { f: { "not": { "type": "null" } } } });
    set(schema, "oneOf", json!([has("script"), has("http"), has("use"), has("mcp")]));
    set(schema, "if", json!({ "not": has("use") }));
    set(schema, "then", json!({ "properties": { "inputs": { "type": "null" }, "outputs": { "type": "null" } } }));
}

/// Sets a keyword of an object schema.
fn set(schema: &mut Value, key: &str, value: Value) {
    if let Some(o) = schema.as_object_mut() {
        o.insert(key.into(), value);
    }
}

/// The JSON type a default of a field of type `ty` has (`None`: any value).
fn json_type(ty: FieldType) -> Option<&'static str> {
    Some(match ty {
        FieldType::String => "string",
        FieldType::Number => "number",
        FieldType::Integer => "integer",
        FieldType::Boolean => "boolean",
        FieldType::List | FieldType::Messages => "array",
        FieldType::Object => "object",
        FieldType::Any => return None,
    })
}

/// A node field's description: what it holds, and for a kind-specific field which kinds take it.
fn field_description(field: NodeField) -> String {
    let about = field.about();
    // "llm: …; tools: …" starts with kind names, which stay as written.
    let by_kind = NodeKind::ALL.iter().any(|k| about.starts_with(&format!("{}:", k.name())));
    let mut text = if by_kind { about.to_string() } else { about[..1].to_uppercase() + &about[1..] };
    text.push('.');
    if !field.is_common() {
        let kinds: Vec<String> = NodeKind::ALL
            .into_iter()
            .filter(|k| k.node_fields().contains(&field))
            .map(|k| format!("`{}`", k.name()))
            .collect();
        let listed = match kinds.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        text.push_str(&format!(" Used by {listed} nodes."));
    }
    text
}

/// For nodes of `kind`: other kinds' fields must be absent (or `null`), and the fields the
/// kind cannot do without present.
fn kind_rule(kind: NodeKind) -> Value {
    let stray: Map<String, Value> = NodeField::ALL
        .into_iter()
        .filter(|f| !f.is_common() && !kind.node_fields().contains(f))
        .map(|f| (f.name().to_string(), json!({ "type": "null" })))
        .collect();
    let mut then = json!({ "properties": stray });
    let (all, any_of, one_of) = needs(kind);
    if !all.is_empty() {
        then["required"] = json!(all.iter().map(|f| f.name()).collect::<Vec<_>>());
    }
    let has =
        |f: &NodeField| json!({ "required": [f.name()], "properties": { f.name(): { "not": { "type": "null" } } } });
    if !any_of.is_empty() {
        then["anyOf"] = any_of.iter().map(has).collect();
    }
    if !one_of.is_empty() {
        then["oneOf"] = one_of.iter().map(has).collect();
    }
    json!({ "if": { "properties": { "kind": { "const": kind.name() } }, "required": ["kind"] }, "then": then })
}

/// The fields a node of `kind` needs: all of the first list, at least one of the second,
/// exactly one of the third. The validator's error messages ("a `set` node needs `set`")
/// say the same; `tests/schema.rs` checks that both refuse a node without them.
fn needs(kind: NodeKind) -> (&'static [NodeField], &'static [NodeField], &'static [NodeField]) {
    use NodeField as F;
    match kind {
        NodeKind::Set => (&[F::Set], &[], &[]),
        NodeKind::Script => (&[F::Script], &[], &[]),
        NodeKind::Router => (&[F::Route], &[], &[]),
        NodeKind::Http => (&[F::Url, F::Writes], &[], &[]),
        NodeKind::Llm => (&[F::Model, F::Writes], &[F::Prompt, F::Messages], &[]),
        NodeKind::Human => (&[], &[F::Writes, F::Fields], &[]),
        NodeKind::Subgraph => (&[], &[], &[F::Graph, F::Use]),
        NodeKind::Tools => (&[F::Messages], &[], &[]),
        NodeKind::Start | NodeKind::End | NodeKind::Note => (&[], &[], &[]),
    }
}

/// Calls `f` on each object-typed alternative of a property's schema (`anyOf` with `null`).
fn each_object_schema(p: &mut Value, mut f: impl FnMut(&mut Map<String, Value>)) {
    each_alternative(p, "object", &mut f);
}

/// Calls `f` on each string-typed alternative of a property's schema.
fn each_string_schema(p: &mut Value, mut f: impl FnMut(&mut Map<String, Value>)) {
    each_alternative(p, "string", &mut f);
}

fn each_alternative(p: &mut Value, ty: &str, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    if let Some(alts) = p.get_mut("anyOf").and_then(Value::as_array_mut) {
        for alt in alts {
            each_alternative(alt, ty, f);
        }
        return;
    }
    let Some(o) = p.as_object_mut() else { return };
    let matches = match o.get("type") {
        Some(Value::String(t)) => t == ty,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == ty),
        _ => false,
    };
    if matches {
        f(o);
    }
}

/// `layout`: node id → position, and the reserved key `viewport`.
impl JsonSchema for Layout {
    fn schema_name() -> Cow<'static, str> {
        "Layout".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let viewport = generator.subschema_for::<Viewport>();
        let position = generator.subschema_for::<Position>();
        json_schema!({
            "description": "Where the editor draws each node: node id → position, plus the canvas's `viewport`. No meaning to a run, and left out of the graph's hash.",
            "type": "object",
            "properties": { VIEWPORT_KEY: viewport },
            "additionalProperties": position
        })
    }
}
