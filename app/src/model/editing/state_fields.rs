//! Choosing a state field's type and reducer (format.md §3; format.md §4 (llm, tools) and §8) so that the two fit: a
//! `messages` field has the `messages` reducer and no other, and the other types never keep
//! it. Also which fields hold a chat transcript, for the `tools` node's choice.

use engine::Graph;
use engine::document::{FieldType, Reducer, StateField};

/// Every type, in the order the inspector lists them.
pub const TYPES: [FieldType; 8] = FieldType::ALL;

/// Every reducer, in the order the inspector lists them.
pub const REDUCERS: [Reducer; 5] = [Reducer::Replace, Reducer::Append, Reducer::Add, Reducer::Merge, Reducer::Messages];

/// The reducers offered for a field of type `ty`: a transcript is merged only by `messages`.
pub fn reducers_for(ty: FieldType) -> &'static [Reducer] {
    if ty == FieldType::Messages { &REDUCERS[4..] } else { &REDUCERS }
}

/// The reducer in force: the one written, else the type's default.
pub fn reducer_of(field: &StateField) -> Reducer {
    field.reducer.unwrap_or(if field.ty == FieldType::Messages { Reducer::Messages } else { Reducer::Replace })
}

/// Changes the type, and the reducer with it when they would no longer fit: `messages` sets
/// the `messages` reducer (and drops an `evict` rule, which a transcript does not take);
/// leaving `messages` drops it.
pub fn set_type(field: &mut StateField, ty: FieldType) {
    field.ty = ty;
    if ty == FieldType::Messages {
        field.reducer = Some(Reducer::Messages);
        field.evict = None;
    } else if field.reducer == Some(Reducer::Messages) {
        field.reducer = None;
    }
}

/// Changes the reducer; choosing `messages` makes the field a transcript, and `replace` (the
/// default) is written as no reducer at all.
pub fn set_reducer(field: &mut StateField, reducer: Reducer) {
    if reducer == Reducer::Messages {
        set_type(field, FieldType::Messages);
    } else {
        if field.ty == FieldType::Messages {
            field.ty = FieldType::List;
        }
        field.reducer = (reducer != Reducer::Replace).then_some(reducer);
    }
}

/// The names of the graph's `messages` fields, in declaration order.
pub fn messages_fields(graph: &Graph) -> Vec<String> {
    graph.state.iter().flatten().filter(|(_, f)| f.ty == FieldType::Messages).map(|(name, _)| name.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use indexmap::IndexMap;

    fn field(ty: FieldType) -> StateField {
        StateField { ty, reducer: None, default: None, max_items: None, evict: None, description: None }
    }

    #[test]
    fn a_transcript_gets_the_messages_reducer_and_loses_it_when_retyped() {
        let mut f = field(FieldType::List);
        f.reducer = Some(Reducer::Append);
        f.max_items = Some(20);
        f.evict = Some("lowest:score".into());
        set_type(&mut f, FieldType::Messages);
        assert_eq!(f.reducer, Some(Reducer::Messages));
        assert_eq!(f.max_items, Some(20), "max_items applies to transcripts too");
        assert_eq!(f.evict, None);
        assert_eq!(reducers_for(f.ty), [Reducer::Messages]);
        set_type(&mut f, FieldType::List);
        assert_eq!(f.reducer, None);
        assert_eq!(reducer_of(&f), Reducer::Replace);
        let mut g = field(FieldType::List);
        g.reducer = Some(Reducer::Append);
        set_type(&mut g, FieldType::Any);
        assert_eq!(g.reducer, Some(Reducer::Append), "a reducer that still fits stays");
    }

    #[test]
    fn choosing_the_messages_reducer_makes_a_transcript() {
        let mut f = field(FieldType::String);
        set_reducer(&mut f, Reducer::Messages);
        assert_eq!((f.ty, f.reducer), (FieldType::Messages, Some(Reducer::Messages)));
        set_reducer(&mut f, Reducer::Append);
        assert_eq!((f.ty, f.reducer), (FieldType::List, Some(Reducer::Append)));
        set_reducer(&mut f, Reducer::Replace);
        assert_eq!(f.reducer, None, "replace is the default, not written");
        assert_eq!(reducer_of(&field(FieldType::Messages)), Reducer::Messages);
        assert_eq!(reducers_for(FieldType::Number).len(), 5);
    }

    #[test]
    fn lists_the_transcripts_in_order() {
        let mut g = Graph::new("t");
        assert!(messages_fields(&g).is_empty());
        let mut s = IndexMap::new();
        s.insert("chat".to_string(), field(FieldType::Messages));
        s.insert("notes".to_string(), field(FieldType::List));
        s.insert("audit".to_string(), field(FieldType::Messages));
        g.state = Some(s);
        assert_eq!(messages_fields(&g), ["chat", "audit"]);
    }
}
