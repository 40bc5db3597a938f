//! A human node's form (format.md §4, human) as the inspector edits it: adding, renaming, retyping and
//! removing fields, their options, and `route_by` kept naming a field with options. Each
//! operation changes a copy of the node, which the inspector hands to
//! `Editor::update_node`, so one gesture is one step of undo.

use engine::Node;
use engine::document::{FieldType, FormField};
use indexmap::IndexMap;

/// The types a form field may have (a transcript is not something a person types).
pub const FORM_TYPES: [FieldType; 7] = [
    FieldType::String,
    FieldType::Number,
    FieldType::Integer,
    FieldType::Boolean,
    FieldType::List,
    FieldType::Object,
    FieldType::Any,
];

/// Why a field cannot take a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldNameError {
    Empty,
    /// A field is written to the state field of the same name: a name an expression can use.
    Invalid(String),
    Taken(String),
}

impl std::fmt::Display for FieldNameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldNameError::Empty => f.write_str("A field needs a name"),
            FieldNameError::Invalid(n) => {
                write!(f, "`{n}` is not a valid field name: start with a letter or `_`, then letters, digits or `_`")
            }
            FieldNameError::Taken(n) => write!(f, "The form already has a field `{n}`"),
        }
    }
}

impl std::error::Error for FieldNameError {}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

/// A new field: a required string.
fn blank_field() -> FormField {
    FormField { ty: FieldType::String, options: None, required: None, label: None, default: None }
}

/// Adds a field and returns its name. The node's first field takes over a single answer's
/// `writes` and `options` (the field is named after `writes`), which a form replaces.
pub fn add_field(node: &mut Node) -> String {
    let fields = node.fields.get_or_insert_with(IndexMap::new);
    if fields.is_empty() {
        let name = node.writes.take().filter(|w| valid_name(w)).unwrap_or_else(|| "answer".to_string());
        let mut field = blank_field();
        field.options = node.options.take();
        fields.insert(name.clone(), field);
        return name;
    }
    let name = (1..).map(|i| format!("field_{i}")).find(|n| !fields.contains_key(n)).unwrap_or_default();
    fields.insert(name.clone(), blank_field());
    name
}

/// Removes field `name` (with `route_by` when it named it); no fields left, no form.
pub fn remove_field(node: &mut Node, name: &str) {
    if let Some(fields) = &mut node.fields {
        fields.shift_remove(name);
        if fields.is_empty() {
            node.fields = None;
        }
    }
    if node.route_by.as_deref() == Some(name) {
        node.route_by = None;
    }
}

/// Renames field `old` in place (its position kept), and `route_by` with it.
pub fn rename_field(node: &mut Node, old: &str, new: &str) -> Result<(), FieldNameError> {
    let new = new.trim();
    if new == old {
        return Ok(());
    }
    if new.is_empty() {
        return Err(FieldNameError::Empty);
    }
    if !valid_name(new) {
        return Err(FieldNameError::Invalid(new.to_string()));
    }
    let Some(fields) = &mut node.fields else { return Ok(()) };
    if fields.contains_key(new) {
        return Err(FieldNameError::Taken(new.to_string()));
    }
    let Some(ix) = fields.get_index_of(old) else { return Ok(()) };
    if let Some((_, field)) = fields.shift_remove_index(ix) {
        fields.shift_insert(ix, new.to_string(), field);
    }
    if node.route_by.as_deref() == Some(old) {
        node.route_by = Some(new.to_string());
    }
    Ok(())
}

/// Changes field `name` with `f`; a field left without options no longer routes.
pub fn change_field(node: &mut Node, name: &str, f: impl FnOnce(&mut FormField)) {
    let Some(field) = node.fields.as_mut().and_then(|m| m.get_mut(name)) else { return };
    f(field);
    if field.options.as_ref().is_some_and(Vec::is_empty) {
        field.options = None;
    }
    if field.options.is_none() && node.route_by.as_deref() == Some(name) {
        node.route_by = None;
    }
}

/// The fields `route_by` may name: those with options, in the form's order.
pub fn route_choices(node: &Node) -> Vec<String> {
    node.fields.iter().flatten().filter(|(_, f)| f.options.is_some()).map(|(n, _)| n.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::NodeKind;

    fn human() -> Node {
        let mut n = Node::new("review", NodeKind::Human);
        n.writes = Some("decision".into());
        n.options = Some(vec!["approve".into(), "reject".into()]);
        n
    }

    #[test]
    fn the_first_field_takes_over_writes_and_options_then_fields_get_fresh_names() {
        let mut n = human();
        assert_eq!(add_field(&mut n), "decision");
        assert_eq!((n.writes.clone(), n.options.clone()), (None, None));
        let f = &n.fields.as_ref().unwrap()["decision"];
        assert_eq!(f.options.as_deref(), Some(&["approve".to_string(), "reject".to_string()][..]));
        assert!(f.is_required());
        assert_eq!(add_field(&mut n), "field_1");
        assert_eq!(add_field(&mut n), "field_2");
        assert_eq!(route_choices(&n), ["decision"]);
        let mut bare = Node::new("ask", NodeKind::Human);
        assert_eq!(add_field(&mut bare), "answer", "no writes: a plain name");
    }

    #[test]
    fn renaming_keeps_the_place_and_route_by_and_refuses_bad_or_taken_names() {
        let mut n = human();
        add_field(&mut n);
        add_field(&mut n);
        n.route_by = Some("decision".into());
        rename_field(&mut n, "decision", "verdict").unwrap();
        assert_eq!(n.fields.as_ref().unwrap().keys().collect::<Vec<_>>(), ["verdict", "field_1"]);
        assert_eq!(n.route_by.as_deref(), Some("verdict"));
        assert_eq!(rename_field(&mut n, "verdict", "field_1"), Err(FieldNameError::Taken("field_1".into())));
        assert_eq!(rename_field(&mut n, "verdict", "2nd"), Err(FieldNameError::Invalid("2nd".into())));
        assert_eq!(rename_field(&mut n, "verdict", "  "), Err(FieldNameError::Empty));
        assert_eq!(n.fields.as_ref().unwrap().keys().collect::<Vec<_>>(), ["verdict", "field_1"]);
    }

    #[test]
    fn a_field_that_loses_its_options_or_goes_no_longer_routes_and_the_last_one_ends_the_form() {
        let mut n = human();
        add_field(&mut n);
        add_field(&mut n);
        n.route_by = Some("decision".into());
        change_field(&mut n, "decision", |f| f.label = Some("Decision".into()));
        assert_eq!(n.route_by.as_deref(), Some("decision"));
        change_field(&mut n, "decision", |f| f.options = Some(Vec::new()));
        assert_eq!(n.fields.as_ref().unwrap()["decision"].options, None, "no options is none");
        assert_eq!(n.route_by, None);
        n.route_by = Some("field_1".into());
        remove_field(&mut n, "field_1");
        assert_eq!(n.route_by, None);
        remove_field(&mut n, "decision");
        assert_eq!(n.fields, None);
    }
}
