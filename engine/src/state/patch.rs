//! A recorded patch applied to a [`State`], and a state compared with a snapshot: how a run
//! read back from its record gets every step's state without a full state per step.
//!
//! Patches apply as RFC 6902 says they do on the state's JSON, but in place: setting a field,
//! appending to a list field or removing from it touches that field alone and keeps sharing
//! the rest with the earlier checkpoints, so rebuilding a 20,000-step record costs about what
//! running it did. Any other operation (a path inside a field's value, `move`, `copy`,
//! `test`) goes through the field's JSON, or the whole state's for `move` and `copy`.

use std::rc::Rc;
use std::sync::Arc;

use json_patch::{PatchErrorKind, PatchOperation};
use serde_json::{Map, Value};

use super::patch_bound::{PatchBound, PatchError, PatchFailure, check_op, check_size, op_name};
use super::{Schema, Slot, State, excerpt};

/// Where a patch operation points, as far as the state is concerned.
enum Target {
    /// A whole field: `/name`.
    Field(String),
    /// An item of a field's list: `/name/3`, or `/name/-` (just past the end).
    Item(String, Option<usize>),
    /// Something else: deeper inside a field (`/name/...`), or the state itself.
    Other(Option<String>),
    /// Not reached by the fast path at all (`move`, `copy`, `test`).
    Whole,
}

impl State {
    /// Applies `ops` (a recorded step's patch) as RFC 6902 would to the state's JSON, each
    /// operation held to `bound` before and after it is applied. On failure the state is left
    /// partly patched (the caller drops it) and the error names the operation.
    pub fn apply_patch(
        &mut self,
        schema: &Schema,
        ops: &[PatchOperation],
        bound: PatchBound,
    ) -> Result<(), PatchError> {
        for (index, op) in ops.iter().enumerate() {
            let fail = |failure| PatchError { index, op: op_name(op), path: op.path().as_str().to_string(), failure };
            check_op(op, self.serialized_len() as u64, bound, |from| self.value_at(from)).map_err(fail)?;
            self.apply_op(schema, op).map_err(|kind| fail(PatchFailure::DoesNotApply(kind)))?;
            check_size(self.serialized_len() as u64, bound).map_err(fail)?;
        }
        Ok(())
    }

    /// The value at JSON pointer `pointer` (a `copy` or `move` operation's `from`), if any.
    fn value_at(&self, pointer: &str) -> Option<Value> {
        let Some(rest) = pointer.strip_prefix('/') else { return Some(Value::Object(self.to_json())) };
        let (key, inner) = rest.find('/').map_or((rest, ""), |i| (&rest[..i], &rest[i..]));
        let field = self.get(&key.replace("~1", "/").replace("~0", "~"))?;
        field.pointer(inner).cloned()
    }

    /// `None` when the state is `snapshot`; otherwise the first field (in name order) that
    /// differs, with both values shortened.
    pub fn difference(&self, snapshot: &Map<String, Value>) -> Option<String> {
        let missing = |k: &str| format!("`{k}` is in the snapshot, but the patches do not give it");
        for (k, slot) in self.fields.iter() {
            match snapshot.get(&**k) {
                None => return Some(format!("the patches give `{k}`, which the snapshot does not have")),
                Some(v) if !slot.equals(v) => {
                    return Some(format!(
                        "`{k}` is {} in the snapshot, but the patches give {}",
                        excerpt(v),
                        excerpt(&slot.to_json())
                    ));
                }
                Some(_) => {}
            }
        }
        snapshot.keys().find(|k| !self.fields.contains_key(k)).map(|k| missing(k))
    }

    fn apply_op(&mut self, schema: &Schema, op: &PatchOperation) -> Result<(), PatchErrorKind> {
        match (target(op), op) {
            (Target::Field(key), PatchOperation::Add(a)) => self.set_field(schema, key, a.value.clone()),
            (Target::Field(key), PatchOperation::Replace(r)) if self.fields.contains_key(&key) => {
                self.set_field(schema, key, r.value.clone())
            }
            (Target::Field(key), PatchOperation::Remove(_)) if self.fields.contains_key(&key) => {
                let fields = Rc::make_mut(&mut self.fields);
                if let Ok(i) = fields.find(&key) {
                    fields.0.remove(i);
                }
            }
            (Target::Item(key, index), _) if self.list_op(&key, index, op) => {}
            (Target::Field(key) | Target::Item(key, _) | Target::Other(Some(key)), _) => {
                self.patch_field(schema, key, op)?
            }
            (Target::Other(None) | Target::Whole, _) => self.patch_whole(schema, op)?,
        }
        Ok(())
    }

    fn set_field(&mut self, schema: &Schema, key: String, value: Value) {
        let slot = Slot::new(schema.spec(&key), value);
        Rc::make_mut(&mut self.fields).insert(Arc::from(key), slot);
    }

    /// An `add`, `replace` or `remove` of one item of a list field, done on the list itself
    /// when it can be (the field holds a list and the index is in range); whether it was.
    fn list_op(&mut self, key: &str, index: Option<usize>, op: &PatchOperation) -> bool {
        let Some(Slot::List(list)) = self.fields.get(key) else { return false };
        let len = list.len;
        let fits = match (op, index) {
            (PatchOperation::Add(_), None) => true,
            (PatchOperation::Add(_), Some(i)) => i == len,
            (PatchOperation::Replace(_) | PatchOperation::Remove(_), Some(i)) => i < len,
            _ => false,
        };
        if !fits {
            return false;
        }
        let fields = Rc::make_mut(&mut self.fields);
        let Some(Slot::List(list)) = fields.get_mut(key) else { return false };
        match (op, index) {
            (PatchOperation::Add(a), _) => list.push(a.value.clone()),
            (PatchOperation::Replace(r), Some(i)) => list.replace(i, r.value.clone()),
            (PatchOperation::Remove(_), Some(i)) => list.remove(i),
            _ => return false,
        }
        true
    }

    /// Applies `op`, whose path starts at field `key`, to that field's JSON alone.
    fn patch_field(&mut self, schema: &Schema, key: String, op: &PatchOperation) -> Result<(), PatchErrorKind> {
        let mut doc = Map::new();
        if let Some(slot) = self.fields.get(&key) {
            doc.insert(key.clone(), slot.to_json());
        }
        let mut doc = Value::Object(doc);
        json_patch::patch(&mut doc, std::slice::from_ref(op)).map_err(|e| e.kind)?;
        let Value::Object(mut doc) = doc else { return Err(PatchErrorKind::InvalidPointer) };
        match doc.remove(&key) {
            Some(value) => self.set_field(schema, key, value),
            None => {
                let fields = Rc::make_mut(&mut self.fields);
                if let Ok(i) = fields.find(&key) {
                    fields.0.remove(i);
                }
            }
        }
        Ok(())
    }

    /// Applies `op` to the whole state's JSON (a `move` or `copy` between fields, say).
    fn patch_whole(&mut self, schema: &Schema, op: &PatchOperation) -> Result<(), PatchErrorKind> {
        let mut doc = Value::Object(self.to_json());
        json_patch::patch(&mut doc, std::slice::from_ref(op)).map_err(|e| e.kind)?;
        match doc {
            Value::Object(map) => {
                *self = State::from_json(schema, &map);
                Ok(())
            }
            // A patch that replaces the state with something other than an object.
            _ => Err(PatchErrorKind::InvalidPointer),
        }
    }
}

/// What `op` points at.
fn target(op: &PatchOperation) -> Target {
    if matches!(op, PatchOperation::Move(_) | PatchOperation::Copy(_) | PatchOperation::Test(_)) {
        return Target::Whole;
    }
    let mut tokens = op.path().tokens();
    let Some(key) = tokens.next().map(|t| t.decoded().into_owned()) else { return Target::Other(None) };
    let Some(second) = tokens.next() else { return Target::Field(key) };
    if tokens.next().is_some() {
        return Target::Other(Some(key));
    }
    match second.decoded().as_ref() {
        "-" => Target::Item(key, None),
        // RFC 6901: an array index is `0` or digits without a leading zero.
        t if t == "0" || (!t.starts_with('0') && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())) => {
            match t.parse() {
                Ok(i) => Target::Item(key, Some(i)),
                Err(_) => Target::Other(Some(key)),
            }
        }
        _ => Target::Other(Some(key)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_graph;
    use serde_json::json;

    fn schema() -> Schema {
        let g = parse_graph(
            r#"{"format":"switchyard/graph@1","nodes":[],"state":{
              "n":{"type":"integer"},
              "items":{"type":"list","reducer":"append"},
              "meta":{"type":"object","reducer":"merge"}}}"#,
        )
        .unwrap();
        Schema::from_graph(&g)
    }

    /// Applies `patch` both ways: to the state, and with `json_patch` to its JSON; both must
    /// agree, and the state's tracked size must stay true.
    fn both(state: &mut State, schema: &Schema, patch: Value) -> Result<(), PatchError> {
        let ops: json_patch::Patch = serde_json::from_value(patch).unwrap();
        let mut json = Value::Object(state.to_json());
        let want = json_patch::patch(&mut json, &ops);
        let got = state.apply_patch(schema, &ops, PatchBound::NONE);
        assert_eq!(got.is_ok(), want.is_ok(), "{got:?} vs {want:?}");
        if let Err(e) = want {
            assert_eq!(got.as_ref().unwrap_err().to_string(), e.to_string());
            return got;
        }
        assert_eq!(Value::Object(state.to_json()), json);
        assert_eq!(state.serialized_len(), serde_json::to_string(&json).unwrap().len());
        Ok(())
    }

    #[test]
    fn patches_apply_as_on_json() {
        let s = schema();
        let mut st = State::initial(&s);
        both(&mut st, &s, json!([{"op": "replace", "path": "/n", "value": 3}])).unwrap();
        both(
            &mut st,
            &s,
            json!([{"op": "add", "path": "/items/-", "value": 1}, {"op": "add", "path": "/items/1", "value": 2}]),
        )
        .unwrap();
        both(&mut st, &s, json!([{"op": "replace", "path": "/items/0", "value": {"a": 1}}])).unwrap();
        both(&mut st, &s, json!([{"op": "add", "path": "/items/0/b", "value": 2}])).unwrap();
        both(&mut st, &s, json!([{"op": "remove", "path": "/items/0"}])).unwrap();
        both(
            &mut st,
            &s,
            json!([{"op": "add", "path": "/meta/x", "value": [1]}, {"op": "add", "path": "/free", "value": "f"}]),
        )
        .unwrap();
        both(&mut st, &s, json!([{"op": "copy", "from": "/meta", "path": "/copy"}, {"op": "move", "from": "/copy", "path": "/moved"}]))
            .unwrap();
        both(&mut st, &s, json!([{"op": "test", "path": "/n", "value": 3}, {"op": "remove", "path": "/moved"}]))
            .unwrap();
        both(&mut st, &s, json!([{"op": "add", "path": "/a~1b", "value": 1}])).unwrap();
        // Appending still works on the rebuilt list.
        both(&mut st, &s, json!([{"op": "add", "path": "/items/-", "value": 9}])).unwrap();
        assert_eq!(st.get("items"), Some(json!([2, 9])));
    }

    #[test]
    fn bad_patches_fail_as_on_json() {
        let s = schema();
        let mut st = State::initial(&s);
        for bad in [
            json!([{"op": "replace", "path": "/nothing", "value": 1}]),
            json!([{"op": "remove", "path": "/nothing"}]),
            json!([{"op": "remove", "path": "/nothing/here"}]),
            json!([{"op": "add", "path": "/items/5", "value": 1}]),
            json!([{"op": "remove", "path": "/items/0"}]),
            json!([{"op": "add", "path": "/n", "value": 1}, {"op": "test", "path": "/n", "value": 2}]),
            json!([{"op": "move", "from": "/none", "path": "/x"}]),
        ] {
            let mut fresh = st.clone();
            assert!(both(&mut fresh, &s, bad.clone()).is_err(), "{bad}");
        }
        both(&mut st, &s, json!([])).unwrap();
    }

    #[test]
    fn a_patched_state_shares_its_list_with_the_checkpoint_before() {
        let s = schema();
        let mut st = State::initial(&s);
        both(&mut st, &s, json!([{"op": "add", "path": "/items/-", "value": 1}])).unwrap();
        let checkpoint = st.clone();
        both(&mut st, &s, json!([{"op": "add", "path": "/items/-", "value": 2}])).unwrap();
        assert_eq!(checkpoint.get("items"), Some(json!([1])));
        assert_eq!(st.get("items"), Some(json!([1, 2])));
    }

    #[test]
    fn difference_names_the_first_field_that_differs() {
        let s = schema();
        let st = State::from_json(&s, &json!({"n": 1, "items": [1]}).as_object().cloned().unwrap());
        assert_eq!(st.difference(&json!({"n": 1, "items": [1]}).as_object().cloned().unwrap()), None);
        let d = st.difference(&json!({"n": 2, "items": [1]}).as_object().cloned().unwrap()).unwrap();
        assert!(d.contains("`n` is 2 in the snapshot, but the patches give 1"), "{d}");
        let d = st.difference(&json!({"n": 1, "items": [1], "x": 0}).as_object().cloned().unwrap()).unwrap();
        assert!(d.contains("`x` is in the snapshot"), "{d}");
        let d = st.difference(&json!({"n": 1}).as_object().cloned().unwrap()).unwrap();
        assert!(d.contains("the patches give `items`"), "{d}");
    }
}
