//! The shared state: declared fields, reducers, type checks, and per-step patches
//! (format.md §3; format.md §4 (llm, tools) and §8; format.md §10).
//!
//! A [`State`] is cheap to clone: values sit behind reference counts and `append` and
//! `messages` lists are windows onto shared append-only logs, so taking a checkpoint after
//! every step costs the same whether the run is at step 3 or step 30,000. Patches are produced
//! by the reducers themselves (an `append` is an `add …/-`), never by diffing the whole state.
//!
//! | module | what it holds |
//! |---|---|
//! | `add` | the `add` reducer's sum: an integer field's stays an integer, a number field's finite |
//! | `check` | type checks of values and updates, normalised in place |
//! | `list` | the shared-log list behind `append` and `messages` fields |
//! | `messages` | the `messages` reducer (LangGraph's `add_messages`) and its patches |
//! | `message_batch` | a large `messages` update applied with an index by id, in about linear time |
//! | `message_ops` | the `messages` reducer's patch operations |
//! | `patch` | a recorded patch applied to a state in place, and a state compared with a snapshot |
//! | `patch_bound` | how far one recorded patch may take the state: its size and nesting |

mod add;
mod check;
mod list;
mod message_batch;
mod message_ops;
mod messages;
mod patch;
pub(crate) mod patch_bound;

use std::rc::Rc;
use std::sync::Arc;

use indexmap::IndexMap;
use json_patch::jsonptr::PointerBuf;
use json_patch::{AddOperation, PatchOperation, RemoveOperation, ReplaceOperation};
use rhai::Dynamic;
use serde_json::{Map, Value};

pub use self::check::{
    check_type, check_update, excerpt, normalize_type, normalize_update, normalize_written, type_name,
};
use self::list::List;
pub use self::patch_bound::{MAX_NESTING, PatchBound, PatchError, PatchFailure};
use crate::document::{FieldType, Graph, Reducer};
use crate::script::{ViewSource, to_dynamic};

/// How a `max_items` list makes room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evict {
    /// Drop from the front: a rolling window.
    Oldest,
    /// Drop the item whose `key` is lowest, the oldest first among equals.
    Lowest(String),
}

impl Evict {
    /// Reads `oldest` or `lowest:<key>`.
    pub fn parse(text: &str) -> Option<Evict> {
        if text == "oldest" {
            return Some(Evict::Oldest);
        }
        let key = text.strip_prefix("lowest:")?;
        (!key.is_empty()).then(|| Evict::Lowest(key.to_string()))
    }
}

/// One field's rules, defaults applied.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    pub ty: FieldType,
    pub reducer: Reducer,
    pub default: Value,
    pub max_items: Option<usize>,
    pub evict: Evict,
}

impl FieldSpec {
    /// The reducer of a field of type `ty` that names none: `messages` for a transcript,
    /// else `replace`.
    pub fn default_reducer(ty: FieldType) -> Reducer {
        if ty == FieldType::Messages { Reducer::Messages } else { Reducer::Replace }
    }

    /// The rule for keys that are not declared.
    pub fn free() -> FieldSpec {
        FieldSpec {
            ty: FieldType::Any,
            reducer: Reducer::Replace,
            default: Value::Null,
            max_items: None,
            evict: Evict::Oldest,
        }
    }
}

/// The declared fields of a graph.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    fields: IndexMap<String, FieldSpec>,
    free: FieldSpecHolder,
}

#[derive(Debug, Clone)]
struct FieldSpecHolder(FieldSpec);

impl Default for FieldSpecHolder {
    fn default() -> Self {
        FieldSpecHolder(FieldSpec::free())
    }
}

impl Schema {
    /// Reads the graph's `state` section. Invalid entries (reported by the validator) fall
    /// back to free-form rules so that this never fails.
    pub fn from_graph(graph: &Graph) -> Schema {
        let mut fields = IndexMap::new();
        for (name, f) in graph.state.iter().flatten() {
            let mut default = f.default.clone().unwrap_or_else(|| f.ty.zero());
            if f.ty == FieldType::Messages {
                // A transcript's default messages get ids like any other (checked by the
                // validator; a bad default is kept as it is).
                let _ = crate::messages::normalize_list(&mut default, Some(crate::messages::Writer::DEFAULT));
            }
            fields.insert(
                name.clone(),
                FieldSpec {
                    ty: f.ty,
                    reducer: f.reducer.unwrap_or(FieldSpec::default_reducer(f.ty)),
                    default,
                    max_items: f.max_items.and_then(|n| usize::try_from(n).ok()),
                    evict: f.evict.as_deref().and_then(Evict::parse).unwrap_or(Evict::Oldest),
                },
            );
        }
        Schema { fields, free: FieldSpecHolder::default() }
    }

    pub fn spec(&self, key: &str) -> &FieldSpec {
        self.fields.get(key).unwrap_or(&self.free.0)
    }

    pub fn is_declared(&self, key: &str) -> bool {
        self.fields.contains_key(key)
    }

    pub fn fields(&self) -> impl Iterator<Item = (&String, &FieldSpec)> {
        self.fields.iter()
    }
}

/// A field update that breaks the field's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.field, self.message)
    }
}

impl std::error::Error for FieldError {}

#[derive(Debug, Clone)]
enum Slot {
    Value { value: Arc<Value>, bytes: usize },
    List(List),
}

impl Slot {
    fn new(spec: &FieldSpec, value: Value) -> Slot {
        match (spec.reducer, value) {
            (Reducer::Append | Reducer::Messages, Value::Array(items)) => Slot::List(List::new(items)),
            (Reducer::Append | Reducer::Messages, Value::Null) => Slot::List(List::new(Vec::new())),
            (_, value) => Slot::Value { bytes: json_len(&value), value: Arc::new(value) },
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Slot::Value { value, .. } => (**value).clone(),
            Slot::List(list) => Value::Array(list.items().iter().map(|v| (**v).clone()).collect()),
        }
    }

    fn to_dynamic(&self) -> Dynamic {
        match self {
            Slot::Value { value, .. } => to_dynamic(value),
            Slot::List(list) => Dynamic::from_array(list.items().iter().map(|v| to_dynamic(v)).collect()),
        }
    }

    fn serialized_len(&self) -> usize {
        match self {
            Slot::Value { bytes, .. } => *bytes,
            Slot::List(list) => 2 + list.bytes + list.len.saturating_sub(1),
        }
    }

    fn equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Slot::Value { value, .. }, o) => **value == *o,
            (Slot::List(list), Value::Array(o)) => list.items().iter().map(|v| &**v).eq(o.iter()),
            _ => false,
        }
    }
}

/// Field name → slot, as a vector sorted by name: a state has few fields, and a small
/// vector is both faster and a fraction of the memory of a tree for each checkpoint.
#[derive(Debug, Clone, Default)]
struct Fields(Vec<(Arc<str>, Slot)>);

impl Fields {
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| (**k).cmp(key))
    }
    fn get(&self, key: &str) -> Option<&Slot> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }
    fn get_mut(&mut self, key: &str) -> Option<&mut Slot> {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }
    fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }
    fn insert(&mut self, key: Arc<str>, slot: Slot) {
        match self.find(&key) {
            Ok(i) => self.0[i].1 = slot,
            Err(i) => self.0.insert(i, (key, slot)),
        }
    }
    fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Slot)> {
        self.0.iter().map(|(k, s)| (k, s))
    }
    fn keys(&self) -> impl Iterator<Item = &Arc<str>> {
        self.0.iter().map(|(k, _)| k)
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

impl FromIterator<(Arc<str>, Slot)> for Fields {
    fn from_iter<I: IntoIterator<Item = (Arc<str>, Slot)>>(iter: I) -> Self {
        let mut f = Fields::default();
        for (k, s) in iter {
            f.insert(k, s);
        }
        f
    }
}

/// The run's state: field name → value. Cloning it (a checkpoint) is one reference count.
#[derive(Debug, Clone, Default)]
pub struct State {
    fields: Rc<Fields>,
}

impl State {
    /// Every declared field at its default.
    pub fn initial(schema: &Schema) -> State {
        let mut fields = Fields::default();
        for (name, spec) in schema.fields() {
            fields.insert(Arc::from(name.as_str()), Slot::new(spec, spec.default.clone()));
        }
        State { fields: Rc::new(fields) }
    }

    /// Rebuilds a state from its JSON form (a saved run record).
    pub fn from_json(schema: &Schema, map: &Map<String, Value>) -> State {
        let fields = map.iter().map(|(k, v)| (Arc::from(k.as_str()), Slot::new(schema.spec(k), v.clone()))).collect();
        State { fields: Rc::new(fields) }
    }

    pub fn to_json(&self) -> Map<String, Value> {
        self.fields.iter().map(|(k, s)| (k.to_string(), s.to_json())).collect()
    }

    pub fn get(&self, key: &str) -> Option<Value> {
        self.fields.get(key).map(Slot::to_json)
    }

    /// The last item of list field `key` (a transcript's last message), without copying
    /// the rest.
    pub fn last_item(&self, key: &str) -> Option<Value> {
        match self.fields.get(key)? {
            Slot::List(list) => list.items().last().map(|v| (**v).clone()),
            Slot::Value { value, .. } => value.as_array().and_then(|a| a.last()).cloned(),
        }
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.fields.keys().map(|k| &**k)
    }

    /// Size of the state serialized as compact JSON, kept up to date without serializing.
    pub fn serialized_len(&self) -> usize {
        let inner: usize = self.fields.iter().map(|(k, s)| str_len(k) + 1 + s.serialized_len()).sum();
        2 + inner + self.fields.len().saturating_sub(1)
    }

    /// Applies one node's (already checked) update through the reducers, appending the
    /// RFC 6902 operations that describe the change to `patch`. Fails at the first field
    /// whose reducer cannot give a value (an `add` past what a JSON number or an integer
    /// field holds, a message removed by an id no message has), with the fields before it
    /// applied: the caller drops the state.
    pub fn apply<'a>(
        &mut self,
        schema: &Schema,
        update: impl IntoIterator<Item = (&'a String, &'a Value)>,
        patch: &mut Vec<PatchOperation>,
    ) -> Result<(), FieldError> {
        for (key, value) in update {
            let spec = schema.spec(key);
            self.apply_field(spec, key, value.clone(), patch)
                .map_err(|message| FieldError { field: key.clone(), message })?;
        }
        Ok(())
    }

    /// Sets fields to the given values as they are, bypassing the reducers.
    pub fn overwrite<'a>(
        &mut self,
        schema: &Schema,
        values: impl IntoIterator<Item = (&'a String, &'a Value)>,
        patch: &mut Vec<PatchOperation>,
    ) {
        for (key, value) in values {
            self.replace(schema.spec(key), key, value.clone(), patch);
        }
    }

    fn apply_field(
        &mut self,
        spec: &FieldSpec,
        key: &str,
        value: Value,
        patch: &mut Vec<PatchOperation>,
    ) -> Result<(), String> {
        match spec.reducer {
            Reducer::Replace => self.replace(spec, key, value, patch),
            Reducer::Append => self.append(spec, key, value, patch),
            Reducer::Messages => self.add_messages(spec, key, &value, patch).map_err(|e| e.to_string())?,
            Reducer::Add => {
                let sum = match self.fields.get(key) {
                    Some(Slot::Value { value: current, .. }) => add::add(spec.ty, current, &value)?,
                    _ => add::add(spec.ty, &Value::Null, &value)?,
                };
                self.replace(spec, key, sum, patch);
            }
            Reducer::Merge => self.merge(key, value, patch),
        }
        Ok(())
    }

    /// `merge`: the update's keys set into the field's object, shallowly.
    fn merge(&mut self, key: &str, value: Value, patch: &mut Vec<PatchOperation>) {
        let Value::Object(update) = value else { return };
        let fields = Rc::make_mut(&mut self.fields);
        if !fields.contains_key(key) {
            fields.insert(Arc::from(key), Slot::Value { value: Arc::new(Value::Object(Map::new())), bytes: 2 });
        }
        let Some(slot) = fields.get_mut(key) else { return };
        let Slot::Value { value: current, bytes } = slot else { return };
        let obj = Arc::make_mut(current);
        if !obj.is_object() {
            *obj = Value::Object(Map::new());
        }
        let Value::Object(map) = obj else { return };
        for (k, v) in update {
            if map.get(&k) == Some(&v) {
                continue;
            }
            patch.push(PatchOperation::Add(AddOperation { path: pointer(&[key, &k]), value: v.clone() }));
            map.insert(k, v);
        }
        *bytes = json_len(obj);
    }

    fn replace(&mut self, spec: &FieldSpec, key: &str, value: Value, patch: &mut Vec<PatchOperation>) {
        let path = pointer(&[key]);
        match (self.fields.get(key), patch.last_mut()) {
            (Some(old), _) if old.equals(&value) => return,
            // The field was just set by the update before (many nodes adding to one counter in
            // a step): that operation takes the newer value, so a step's patch grows with the
            // fields it changed, not with the updates that changed them.
            (_, Some(PatchOperation::Replace(ReplaceOperation { path: p, value: v })))
            | (_, Some(PatchOperation::Add(AddOperation { path: p, value: v })))
                if *p == path =>
            {
                *v = value.clone();
            }
            (Some(_), _) => patch.push(PatchOperation::Replace(ReplaceOperation { path, value: value.clone() })),
            (None, _) => patch.push(PatchOperation::Add(AddOperation { path, value: value.clone() })),
        }
        let fields = Rc::make_mut(&mut self.fields);
        match fields.get_mut(key) {
            Some(slot) => *slot = Slot::new(spec, value),
            None => {
                fields.insert(Arc::from(key), Slot::new(spec, value));
            }
        }
    }

    fn append(&mut self, spec: &FieldSpec, key: &str, value: Value, patch: &mut Vec<PatchOperation>) {
        let new_items = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        let Some(list) = self.list_mut(key, patch) else { return };
        for item in new_items {
            patch.push(PatchOperation::Add(AddOperation { path: pointer(&[key, "-"]), value: item.clone() }));
            list.push(item);
        }
        let Some(max) = spec.max_items else { return };
        while list.len > max {
            let index = match &spec.evict {
                Evict::Oldest => 0,
                Evict::Lowest(k) => lowest_index(&list.items(), k),
            };
            list.remove(index);
            patch.push(PatchOperation::Remove(RemoveOperation { path: pointer(&[key, &index.to_string()]) }));
        }
    }

    /// The list of field `key` (an `append` or `messages` field), created empty (with its
    /// patch) when the field is absent.
    fn list_mut(&mut self, key: &str, patch: &mut Vec<PatchOperation>) -> Option<&mut List> {
        if !self.fields.contains_key(key) {
            patch.push(PatchOperation::Add(AddOperation { path: pointer(&[key]), value: Value::Array(vec![]) }));
        }
        let fields = Rc::make_mut(&mut self.fields);
        let index = match fields.find(key) {
            Ok(i) => i,
            Err(i) => {
                fields.0.insert(i, (Arc::from(key), Slot::List(List::new(Vec::new()))));
                i
            }
        };
        let slot = &mut fields.0[index].1;
        if let Slot::Value { value, .. } = slot {
            // A value stored before its field became a list field (an edited graph).
            let old = match &**value {
                Value::Array(items) => items.clone(),
                Value::Null => vec![],
                other => vec![other.clone()],
            };
            *slot = Slot::List(List::new(old));
        }
        match slot {
            Slot::List(list) => Some(list),
            Slot::Value { .. } => None,
        }
    }
}

/// The index of the item whose `key` is lowest; the first (oldest) among equals. Items
/// without a numeric `key` count as lowest of all.
fn lowest_index(items: &[Rc<Value>], key: &str) -> usize {
    let mut best = 0;
    let mut best_score = f64::INFINITY;
    for (i, item) in items.iter().enumerate() {
        let score = item.get(key).and_then(Value::as_f64).unwrap_or(f64::NEG_INFINITY);
        if score < best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

/// A JSON Pointer from unescaped tokens.
pub fn pointer(tokens: &[&str]) -> PointerBuf {
    PointerBuf::from_tokens(tokens.iter().copied())
}

/// Length of `v` serialized as compact JSON.
pub fn json_len(v: &Value) -> usize {
    usize::try_from(crate::json_size::json_len(v)).unwrap_or(usize::MAX)
}

fn str_len(s: &str) -> usize {
    usize::try_from(crate::json_size::json_len(s)).unwrap_or(usize::MAX)
}

/// The state as scripts see it.
pub struct StateView(pub State);

impl ViewSource for StateView {
    fn get(&self, key: &str) -> Option<Dynamic> {
        self.0.fields.get(key).map(Slot::to_dynamic)
    }
    fn keys(&self) -> Vec<String> {
        self.0.keys().map(str::to_string).collect()
    }
    fn to_json(&self) -> Value {
        Value::Object(self.0.to_json())
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
              "count":{"type":"integer","reducer":"add"},
              "notes":{"type":"list","reducer":"append"},
              "window":{"type":"list","reducer":"append","max_items":3},
              "memory":{"type":"list","reducer":"append","max_items":2,"evict":"lowest:importance"},
              "meta":{"type":"object","reducer":"merge"},
              "status":{"type":"string"}}}"#,
        )
        .unwrap();
        Schema::from_graph(&g)
    }

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    /// Applying the produced patch to the old state gives the new one, and the tracked size
    /// matches real serialization.
    fn apply_checked(state: &mut State, schema: &Schema, update: Value) -> Vec<PatchOperation> {
        let before = Value::Object(state.to_json());
        let mut patch = vec![];
        state.apply(schema, &obj(update), &mut patch).unwrap();
        let mut replayed = before;
        json_patch::patch(&mut replayed, &patch).unwrap();
        assert_eq!(replayed, Value::Object(state.to_json()));
        assert_eq!(state.serialized_len(), serde_json::to_string(&state.to_json()).unwrap().len());
        patch
    }

    #[test]
    fn reducers_behave_as_specified() {
        let s = schema();
        let mut st = State::initial(&s);
        apply_checked(&mut st, &s, json!({"count": 2, "notes": ["a", "b"], "meta": {"x": 1}}));
        apply_checked(&mut st, &s, json!({"count": 3, "notes": "c", "meta": {"y": 2}, "status": "ok"}));
        assert_eq!(st.get("count"), Some(json!(5)));
        assert_eq!(st.get("notes"), Some(json!(["a", "b", "c"])));
        assert_eq!(st.get("meta"), Some(json!({"x": 1, "y": 2})));
        assert_eq!(st.get("status"), Some(json!("ok")));
    }

    #[test]
    fn updates_to_one_field_in_a_step_make_one_operation() {
        let s = schema();
        let mut st = State::initial(&s);
        let before = Value::Object(st.to_json());
        let mut patch = vec![];
        for _ in 0..500 {
            st.apply(&s, &obj(json!({"count": 1})), &mut patch).unwrap();
        }
        st.apply(&s, &obj(json!({"status": "ok"})), &mut patch).unwrap();
        st.apply(&s, &obj(json!({"count": 1})), &mut patch).unwrap();
        assert_eq!(patch.len(), 3, "{patch:?}");
        let mut replayed = before;
        json_patch::patch(&mut replayed, &patch).unwrap();
        assert_eq!(replayed, Value::Object(st.to_json()));
        assert_eq!(st.get("count"), Some(json!(501)));
    }

    #[test]
    fn rolling_window_drops_oldest() {
        let s = schema();
        let mut st = State::initial(&s);
        for i in 0..5 {
            apply_checked(&mut st, &s, json!({ "window": i }));
        }
        assert_eq!(st.get("window"), Some(json!([2, 3, 4])));
    }

    #[test]
    fn lowest_importance_is_evicted_oldest_first_among_ties() {
        let s = schema();
        let mut st = State::initial(&s);
        apply_checked(&mut st, &s, json!({"memory": [{"n": 1, "importance": 0.5}, {"n": 2, "importance": 0.9}]}));
        apply_checked(&mut st, &s, json!({"memory": {"n": 3, "importance": 0.5}}));
        assert_eq!(st.get("memory"), Some(json!([{"n": 2, "importance": 0.9}, {"n": 3, "importance": 0.5}])));
    }

    #[test]
    fn unchanged_values_produce_no_patch() {
        let s = schema();
        let mut st = State::initial(&s);
        assert!(apply_checked(&mut st, &s, json!({"status": ""})).is_empty());
    }

    #[test]
    fn type_checks_name_expected_and_actual() {
        let s = schema();
        let err = check_update(s.spec("status"), &json!(3)).unwrap_err();
        assert!(err.contains("expected string, got integer"), "{err}");
        assert!(check_update(s.spec("count"), &json!("x")).is_err());
        assert_eq!(check_type(FieldType::Integer, &json!(2.0)).unwrap(), json!(2));
        assert!(check_type(FieldType::Integer, &json!(2.5)).is_err());
    }

    #[test]
    fn overwrite_sets_lists_without_appending() {
        let s = schema();
        let mut st = State::initial(&s);
        apply_checked(&mut st, &s, json!({"notes": ["a", "b"]}));
        let before = Value::Object(st.to_json());
        let mut patch = vec![];
        st.overwrite(&s, obj(json!({"notes": ["z"], "count": 7})).iter(), &mut patch);
        assert_eq!(st.get("notes"), Some(json!(["z"])));
        assert_eq!(st.get("count"), Some(json!(7)));
        let mut replayed = before;
        json_patch::patch(&mut replayed, &patch).unwrap();
        assert_eq!(replayed, Value::Object(st.to_json()));
        // Appending still works after an overwrite.
        apply_checked(&mut st, &s, json!({"notes": "y"}));
        assert_eq!(st.get("notes"), Some(json!(["z", "y"])));
    }

    #[test]
    fn keys_with_slashes_are_escaped_in_patches() {
        let s = Schema::default();
        let mut st = State::default();
        let patch = apply_checked(&mut st, &s, json!({"a/b~c": 1}));
        assert_eq!(patch[0].path().as_str(), "/a~1b~0c");
    }
}
