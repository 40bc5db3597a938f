//! The `messages` reducer (format.md §4 (llm, tools) and §8, LangGraph's `add_messages`): a message whose id is in
//! the list replaces that message in place, any other is appended; `{"remove": id}` removes
//! one message (an id not in the list removes nothing), `{"remove": "all"}` empties the list;
//! then `max_items` keeps the newest messages plus a leading `system` message, which is
//! never dropped and not counted. Each change is one JSON Patch operation, so the record's
//! patch replays it exactly.

use json_patch::PatchOperation;
use serde_json::Value;

use super::list::List;
use super::message_ops::{add_op, remove_all_op, remove_op, replace_op};
use super::{FieldSpec, State, message_batch};
use crate::messages::{self, Item};

/// The most items an update is applied with one by one; a larger one goes through
/// [`message_batch`], which finds messages by id without scanning the list for each.
const ONE_BY_ONE: usize = 16;

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
        let items: Vec<Item<'_>> = messages::items(update).collect();
        if items.len() > ONE_BY_ONE {
            message_batch::apply(list, key, &items, patch);
        } else {
            for item in items {
                one(list, key, item, patch);
            }
        }
        if let Some(max) = spec.max_items {
            trim(list, key, max, patch);
        }
    }
}

/// Applies one item of an update: a message added or put in place, or removals.
fn one(list: &mut List, key: &str, item: Item<'_>, patch: &mut Vec<PatchOperation>) {
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
                patch.push(remove_all_op(key));
            }
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
            patch.push(replace_op(key, index, m));
        }
        None => {
            list.push(m.clone());
            patch.push(add_op(key, m));
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

    fn message(id: &str, content: &str) -> Value {
        json!({"id": id, "role": "user", "content": content})
    }

    #[test]
    fn a_large_update_changes_the_list_as_its_items_would_one_by_one() {
        let s = schema();
        let mut base = State::initial(&s);
        let first: Vec<Value> = (0..30).map(|i| message(&format!("m{i}"), "old")).collect();
        write(&mut base, &s, "chat", Value::Array(first), 1);
        let mut update = vec![
            message("m3", "new"),
            json!({"remove": "m0"}),
            json!({"remove": "ghost"}),
            message("m3", "newer"),
            message("m29", "old"),
            json!({"remove": "m15"}),
            message("x1", "added"),
            json!({"remove": "x1"}),
            message("x1", "again"),
        ];
        update.extend((0..10).map(|i| message(&format!("y{i}"), "y")));
        update.extend([json!({"remove": "all"}), message("z", "after"), json!({"remove": "all"})]);
        update.extend([message("m3", "back"), json!({"remove": "m3"}), message("w", "last"), message("w", "last!")]);
        assert!(update.len() > ONE_BY_ONE);
        for cut in [update.len(), 12, 6] {
            let (mut batch, mut single) = (base.clone(), base.clone());
            let part = Value::Array(update[..cut].to_vec());
            write(&mut batch, &s, "chat", part, 2);
            for item in &update[..cut] {
                write(&mut single, &s, "chat", item.clone(), 2);
            }
            assert_eq!(batch.get("chat"), single.get("chat"), "the first {cut} items");
        }
    }

    #[test]
    fn an_update_of_many_messages_takes_about_linear_time() {
        // 40,000 messages replaced, then removed, by id: each found by scanning the list, and
        // the list copied at each change, took minutes.
        let s = schema();
        let mut st = State::initial(&s);
        let n = 40_000;
        let t0 = std::time::Instant::now();
        write(&mut st, &s, "chat", (0..n).map(|i| message(&format!("m{i}"), "a")).collect(), 1);
        write(&mut st, &s, "chat", (0..n).rev().map(|i| message(&format!("m{i}"), "b")).collect(), 2);
        assert_eq!(contents(&st, "chat")[n - 1], format!("m{}=b", n - 1));
        write(&mut st, &s, "chat", (0..n).map(|i| json!({"remove": format!("m{}", (i * 7) % n)})).collect(), 3);
        assert!(contents(&st, "chat").is_empty());
        assert!(t0.elapsed() < std::time::Duration::from_secs(60), "took {:?}", t0.elapsed());
    }
}
