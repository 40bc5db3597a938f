//! The `messages` reducer (spec 2.6, LangGraph's `add_messages`): a message whose id is in
//! the list replaces that message in place, any other is appended; `{"remove": id}` removes
//! one message (an id not in the list removes nothing), `{"remove": "all"}` empties the list;
//! then `max_items` keeps the newest messages plus a leading `system` message, which is
//! never dropped and not counted. Each change is one JSON Patch operation, so the record's
//! patch replays it exactly.

use json_patch::{AddOperation, PatchOperation, RemoveOperation, ReplaceOperation};
use serde_json::Value;

use super::list::List;
use super::{FieldSpec, State, pointer};
use crate::messages::{self, Item};

impl State {
    /// Applies an update (normalised: see [`crate::messages::normalize_update`]) to the
    /// `messages` field `key`.
    pub(super) fn add_messages(
        &mut self,
        spec: &FieldSpec,
        key: &str,
        update: &Value,
        patch: &mut Vec<PatchOperation>,
    ) {
        let Some(list) = self.list_mut(key, patch) else { return };
        for item in messages::items(update) {
            match item {
                Item::Message(m) => put(list, key, m, patch),
                Item::Remove(id) => {
                    if let Some(index) = list.position_of_id(id) {
                        list.remove(index);
                        patch.push(remove_op(key, index));
                    }
                }
                Item::RemoveAll => {
                    if list.len > 0 {
                        list.clear();
                        patch.push(PatchOperation::Replace(ReplaceOperation {
                            path: pointer(&[key]),
                            value: Value::Array(Vec::new()),
                        }));
                    }
                }
            }
        }
        if let Some(max) = spec.max_items {
            trim(list, key, max, patch);
        }
    }
}

/// Adds message `m`, or puts it in place of the message with its id.
fn put(list: &mut List, key: &str, m: &Value, patch: &mut Vec<PatchOperation>) {
    let existing = messages::id_of(m).and_then(|id| list.position_of_id(id));
    match existing {
        Some(index) if *list.items()[index] == *m => {}
        Some(index) => {
            list.replace(index, m.clone());
            patch.push(PatchOperation::Replace(ReplaceOperation {
                path: pointer(&[key, &index.to_string()]),
                value: m.clone(),
            }));
        }
        None => {
            list.push(m.clone());
            patch.push(PatchOperation::Add(AddOperation { path: pointer(&[key, "-"]), value: m.clone() }));
        }
    }
}

/// Keeps the newest `max` messages, and a leading system message besides.
fn trim(list: &mut List, key: &str, max: usize, patch: &mut Vec<PatchOperation>) {
    let first = usize::from(list.items().first().is_some_and(|m| messages::is_system(m)));
    let counted = list.len - first;
    if counted <= max {
        return;
    }
    let drop = counted - max;
    list.remove_range(first, drop);
    for _ in 0..drop {
        patch.push(remove_op(key, first));
    }
}

fn remove_op(key: &str, index: usize) -> PatchOperation {
    PatchOperation::Remove(RemoveOperation { path: pointer(&[key, &index.to_string()]) })
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    use super::*;
    use crate::messages::Writer;
    use crate::parse::parse_graph;
    use crate::state::{Schema, normalize_written};

    fn schema() -> Schema {
        let g = parse_graph(
            r#"{"format":"switchyard/graph@1","nodes":[],"state":{
              "chat":{"type":"messages"},
              "short":{"type":"messages","max_items":2}}}"#,
        )
        .unwrap();
        Schema::from_graph(&g)
    }

    /// Normalises `update` as node `n` in step `step` writes it, applies it, and checks that
    /// the patch replays the change and the tracked size is right.
    fn write(st: &mut State, s: &Schema, key: &str, update: Value, step: u64) {
        let mut v = update;
        normalize_written(s.spec(key), &mut v, Some(Writer { node: "n", step })).unwrap();
        let before = Value::Object(st.to_json());
        let mut patch = vec![];
        let mut u = Map::new();
        u.insert(key.to_string(), v);
        st.apply(s, &u, &mut patch).unwrap();
        let mut replayed = before;
        json_patch::patch(&mut replayed, &patch).unwrap();
        assert_eq!(replayed, Value::Object(st.to_json()));
        assert_eq!(st.serialized_len(), serde_json::to_string(&st.to_json()).unwrap().len());
    }

    fn contents(st: &State, key: &str) -> Vec<String> {
        st.get(key)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|m| format!("{}={}", m["id"].as_str().unwrap(), m["content"].as_str().unwrap()))
            .collect()
    }

    #[test]
    fn appends_replaces_and_removes_by_id() {
        let s = schema();
        let mut st = State::initial(&s);
        write(&mut st, &s, "chat", json!(["a", "b"]), 1);
        assert_eq!(contents(&st, "chat"), ["n:1:1=a", "n:1:2=b"]);
        let snapshot = st.clone();
        write(&mut st, &s, "chat", json!({"id": "n:1:1", "role": "user", "content": "A"}), 2);
        assert_eq!(contents(&st, "chat"), ["n:1:1=A", "n:1:2=b"]);
        assert_eq!(contents(&snapshot, "chat"), ["n:1:1=a", "n:1:2=b"], "a checkpoint keeps its messages");
        write(&mut st, &s, "chat", json!([{"remove": "n:1:1"}, {"remove": "ghost"}, "c"]), 3);
        assert_eq!(contents(&st, "chat"), ["n:1:2=b", "n:3:3=c"]);
        write(&mut st, &s, "chat", json!([{"remove": "all"}, "d"]), 4);
        assert_eq!(contents(&st, "chat"), ["n:4:2=d"]);
    }

    #[test]
    fn max_items_keeps_a_leading_system_message() {
        let s = schema();
        let mut st = State::initial(&s);
        write(&mut st, &s, "short", json!([{"role": "system", "content": "rules"}, "a", "b", "c"]), 1);
        assert_eq!(contents(&st, "short"), ["n:1:1=rules", "n:1:3=b", "n:1:4=c"]);
        write(&mut st, &s, "short", json!("d"), 2);
        assert_eq!(contents(&st, "short"), ["n:1:1=rules", "n:1:4=c", "n:2:1=d"]);
        let mut st = State::initial(&s);
        write(&mut st, &s, "short", json!(["a", "b", "c"]), 1);
        assert_eq!(contents(&st, "short"), ["n:1:2=b", "n:1:3=c"]);
    }
}
