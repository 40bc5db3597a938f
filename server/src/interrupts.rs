//! Human nodes' waits as LangGraph interrupts: an id stable per (engine run, node), the
//! record's waiting entry (prompt, options or form) as the value. Breakpoint stops are not
//! interrupts (LangGraph shows them only as `next`).

use engine::record::Waiting;
use serde_json::json;
use uuid::Uuid;

use crate::domain::Interrupt;

/// The id of `node`'s interrupt in the engine run `run_id`.
pub fn interrupt_id(run_id: &str, node: &str) -> String {
    Uuid::new_v5(&Uuid::NAMESPACE_OID, format!("switchyard-interrupt:{run_id}:{node}").as_bytes()).simple().to_string()
}

/// The interrupts among `waiting`, by node.
pub fn interrupts(run_id: &str, waiting: &[Waiting]) -> Vec<(String, Interrupt)> {
    waiting
        .iter()
        .filter(|w| w.breakpoint.is_none())
        .map(|w| (w.node.clone(), Interrupt { id: interrupt_id(run_id, &w.node), value: json!(w) }))
        .collect()
}
