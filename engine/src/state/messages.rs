//! The `messages` reducer (format.md §4 (llm, tools) and §8, LangGraph's `add_messages`): a message whose id is in
//! the list replaces that message in place, any other is appended; `{"remove": id}` removes
//! one message, `{"remove": "all"}` empties the list; then `max_items` keeps the newest
//! messages plus a leading `system` message, which is never dropped and not counted. Each
//! change is one JSON Patch operation, so the record's patch replays it exactly.
//!
//! Removals by id take effect at the end of the update, as in LangGraph: a message removed
//! and written again in one update keeps its place, and removing it twice is no error. An id
//! no message has (in the list, or written earlier in the update) fails the update
//! ([`AbsentId`]).

use json_patch::PatchOperation;
use serde_json::Value;

use super::list::List;
use super::message_ops::{add_op, remove_all_op, remove_op, replace_op};
use super::{FieldSpec, State, message_batch};
use crate::messages::{self, AbsentId, Item};

/// The most items an update is applied with one by one; a larger one goes through
/// [`message_batch`], which finds messages by id without scanning the list for each.
const ONE_BY_ONE: usize = 16;

impl State {
    /// Applies an update (normalised: see [`crate::messages::normalize_update`]) to the
    /// `messages` field `key`. On an error the list is left part changed: the caller drops
    /// the state.
    pub(super) fn add_messages(
        &mut self,
        spec: &FieldSpec,
        key: &str,
        update: &Value,
        patch: &mut Vec<PatchOperation>,
    ) -> Result<(), AbsentId> {
        let Some(list) = self.list_mut(key, patch) else { return Ok(()) };
        let items: Vec<Item<'_>> = messages::items(update).collect();
        apply_items(list, key, &items, items.len() > ONE_BY_ONE, patch)?;
        if let Some(max) = spec.max_items {
            trim(list, key, max, patch);
        }
        Ok(())
    }
}

/// Applies the items of one update, by the batch path or one by one (the two give the same
/// list; tests hold them to it).
fn apply_items(
    list: &mut List,
    key: &str,
    items: &[Item<'_>],
    batch: bool,
    patch: &mut Vec<PatchOperation>,
) -> Result<(), AbsentId> {
    if batch { message_batch::apply(list, key, items, patch) } else { one_by_one(list, key, items, patch) }
}

/// Applies a small update item by item, scanning the list for ids.
fn one_by_one(list: &mut List, key: &str, items: &[Item<'_>], patch: &mut Vec<PatchOperation>) -> Result<(), AbsentId> {
    // Ids to remove at the end of the update; written again, an id is no longer removed.
    let mut doomed: Vec<&str> = Vec::new();
    for item in items {
        match *item {
            Item::Message(m) => {
                if let Some(id) = messages::id_of(m) {
                    doomed.retain(|d| *d != id);
                }
                put(list, key, m, patch);
            }
            Item::Remove(id) => {
                if list.position_of_id(id).is_none() {
                    return Err(AbsentId(id.to_string()));
                }
                if !doomed.contains(&id) {
                    doomed.push(id);
                }
            }
            Item::RemoveAll => {
                doomed.clear();
                if list.len > 0 {
                    list.clear();
                    patch.push(remove_all_op(key));
                }
            }
        }
    }
    for id in doomed {
        if let Some(index) = list.position_of_id(id) {
            list.remove(index);
            patch.push(remove_op(key, index));
        }
    }
    Ok(())
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
    use crate::state::{FieldError, Schema, normalize_written};

    fn schema() -> Schema {
        let g = parse_graph(
            r#"{"format":"switchyard/graph@1","nodes":[],"state":{
              "chat":{"type":"messages"},
              "short":{"type":"messages","max_items":2}}}"#,
        )
        .unwrap();
        Schema::from_graph(&g)
    }

    /// Normalises `update` as node `n` in step `step` writes it and applies it; when it
    /// applies, checks that the patch replays the change and the tracked size is right.
    fn try_write(st: &mut State, s: &Schema, key: &str, update: Value, step: u64) -> Result<(), FieldError> {
        let mut v = update;
        normalize_written(s.spec(key), &mut v, Some(Writer { node: "n", step })).unwrap();
        let before = Value::Object(st.to_json());
        let mut patch = vec![];
        let mut u = Map::new();
        u.insert(key.to_string(), v);
        st.apply(s, &u, &mut patch)?;
        let mut replayed = before;
        json_patch::patch(&mut replayed, &patch).unwrap();
        assert_eq!(replayed, Value::Object(st.to_json()));
        assert_eq!(st.serialized_len(), serde_json::to_string(&st.to_json()).unwrap().len());
        Ok(())
    }

    fn write(st: &mut State, s: &Schema, key: &str, update: Value, step: u64) {
        try_write(st, s, key, update, step).unwrap();
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
        write(&mut st, &s, "chat", json!([{"remove": "n:1:1"}, "c"]), 3);
        assert_eq!(contents(&st, "chat"), ["n:1:2=b", "n:3:2=c"]);
        write(&mut st, &s, "chat", json!([{"remove": "all"}, "d"]), 4);
        assert_eq!(contents(&st, "chat"), ["n:4:2=d"]);
    }

    #[test]
    fn a_message_removed_and_written_again_in_one_update_keeps_its_place() {
        let s = schema();
        let mut st = State::initial(&s);
        write(&mut st, &s, "chat", json!(["a", "b", "c"]), 1);
        let again = json!({"id": "n:1:2", "role": "user", "content": "B"});
        write(&mut st, &s, "chat", json!([{"remove": "n:1:2"}, again, {"remove": "n:1:1"}]), 2);
        assert_eq!(contents(&st, "chat"), ["n:1:2=B", "n:1:3=c"]);
        // Removed twice, or written and then removed: gone, and no error.
        write(&mut st, &s, "chat", json!([{"remove": "n:1:3"}, {"remove": "n:1:3"}, "d", {"remove": "n:3:3"}]), 3);
        assert_eq!(contents(&st, "chat"), ["n:1:2=B"]);
    }

    #[test]
    fn removing_an_id_no_message_has_fails_naming_field_and_id() {
        let s = schema();
        let mut st = State::initial(&s);
        write(&mut st, &s, "chat", json!(["a"]), 1);
        let err = try_write(&mut st.clone(), &s, "chat", json!(["b", {"remove": "ghost"}]), 2).unwrap_err();
        assert_eq!(err.field, "chat");
        assert_eq!(err.message, "cannot remove message `ghost`: no message in the list has that id");
        // After `{"remove": "all"}` the list is empty: its old ids are gone.
        let err = try_write(&mut st, &s, "chat", json!([{"remove": "all"}, {"remove": "n:1:1"}]), 2).unwrap_err();
        assert!(err.message.contains("`n:1:1`"), "{err}");
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

    /// `items` applied to a list of `base` by one path: the list after, or the error.
    fn by_path(base: &[Value], items: &[Value], batch: bool) -> Result<Vec<Value>, AbsentId> {
        let mut list = List::new(base.to_vec());
        let update = Value::Array(items.to_vec());
        let items: Vec<Item<'_>> = messages::items(&update).collect();
        let mut patch = vec![];
        apply_items(&mut list, "chat", &items, batch, &mut patch)?;
        let after: Vec<Value> = list.items().iter().map(|v| (**v).clone()).collect();
        let mut replayed = json!({"chat": base});
        json_patch::patch(&mut replayed, &patch).unwrap();
        assert_eq!(replayed["chat"], Value::Array(after.clone()), "the patch replays the update");
        Ok(after)
    }

    #[test]
    fn the_batch_path_gives_what_the_one_by_one_path_gives() {
        let base: Vec<Value> = (0..30).map(|i| message(&format!("m{i}"), "old")).collect();
        let mut update = vec![
            message("m3", "new"),
            json!({"remove": "m0"}),
            message("m3", "newer"),
            json!({"remove": "m0"}),
            message("m29", "old"),
            json!({"remove": "m15"}),
            message("m15", "back in place"),
            message("x1", "added"),
            json!({"remove": "x1"}),
            message("x1", "again"),
            json!({"remove": "m7"}),
        ];
        update.extend((0..10).map(|i| message(&format!("y{i}"), "y")));
        update.extend([json!({"remove": "all"}), message("z", "after"), json!({"remove": "all"})]);
        update.extend([message("m3", "back"), json!({"remove": "m3"}), message("w", "last"), message("w", "last!")]);
        assert!(update.len() > ONE_BY_ONE);
        for cut in [update.len(), 21, 12, 7, 3] {
            let part = &update[..cut];
            assert_eq!(by_path(&base, part, true), by_path(&base, part, false), "the first {cut} items");
        }
        let kept = by_path(&base, &update[..12], true).unwrap();
        let ids: Vec<&str> = kept.iter().map(|m| m["id"].as_str().unwrap()).collect();
        assert_eq!(ids[..4], ["m1", "m2", "m3", "m4"]);
        assert_eq!(ids[13..16], ["m15", "m16", "m17"], "removed and written again, m15 keeps its place");
        for absent in [json!({"remove": "ghost"}), json!({"remove": "all"})] {
            let update = [message("a", "x"), absent.clone(), json!({"remove": "m1"})];
            assert_eq!(by_path(&base, &update, true), by_path(&base, &update, false), "{absent}");
        }
        assert_eq!(by_path(&base, &[json!({"remove": "ghost"})], true), Err(AbsentId("ghost".into())));
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
