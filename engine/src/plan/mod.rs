//! A graph compiled for execution, and the validation that comes with compiling it.
//!
//! [`compile`] walks the document once, reporting every problem it finds (format.md §2 and the
//! validator's list), and, when there is no error, produces a [`Plan`]: nodes in id order
//! (which is the order updates are applied in), compiled expressions, and edge tables.
//!
//! | module | what it holds |
//! |---|---|
//! | `types` | [`Plan`], [`PlanNode`], [`PlanEdge`], [`Op`] and the ops of each kind, [`Compiled`], the definitions compiled |
//! | `compile` | the walk over the document, and building the plan |
//! | `definitions` | the document's `definitions`: names, cycles of uses, each compiled once and shared |
//! | `check` | the checker: diagnostics, and compiling expressions and templates (with a warning for each undeclared field they read) |
//! | `graph` | checks of the whole graph: limits, state, ids, start, edges, labels, reachability |
//! | `node` | the rules every node shares, and which fields apply to its kind |
//! | `input_keys` | input keys no state field declares, with the field a typo probably meant |
//! | `kinds` | `start`, `set`, `script` and `router` nodes |
//! | `human` | `human` nodes: one answer (`writes`, `options`) or a form (`fields`, `route_by`) |
//! | `end` | `end` nodes: `outcome` and the failed run's `message` |
//! | `effectful` | `http` and `subgraph` nodes (an embedded `graph` or a `use`) |
//! | `llm` | `llm` nodes: prompts, messages, tools offered, `output_schema`, mock replies and rules |
//! | `tools` | the graph's `tools` (a `script`, an `http` request, a `use` or an `mcp` tool) and the `tools` node |
//! | `mcp` | the document's `mcp_servers` (format.md §2.11): URL or command, headers, env; `run.mcp` naming one; [`mcp_endpoints`] for a host's consent |
//! | `map` | map edges: their list, their item's name, their targets, the names each target sees |
//! | `reads` | reads of state fields the graph does not declare, with the name a typo probably meant |

mod check;
mod compile;
mod definitions;
mod effectful;
mod end;
mod graph;
mod human;
mod input_keys;
mod kinds;
mod llm;
mod map;
mod mcp;
mod node;
mod reads;
mod tools;
mod types;

pub use self::graph::valid_id;
pub use self::input_keys::UndeclaredKey;
pub(crate) use self::input_keys::nearest;
pub use self::mcp::{endpoint_as_written, mcp_endpoints};
pub use self::reads::{KnownKeys, UndeclaredRead};
pub use self::types::{
    Body, Compiled, FailedEnd, FormFieldOp, FormOp, HttpOp, HumanAnswer, HumanOp, JsonTemplate, LlmOp, MapEdge,
    McpServerOp, McpToolOp, McpTransport, MockItem, MockReply, Op, Plan, PlanEdge, PlanNode, PlanTool, RequestOp,
    SubgraphOp, ToolRunOp, ToolSpec, ToolsOp, UseOp,
};
use crate::diagnostic::Diagnostic;
use crate::document::Graph;

// Declared here rather than in `map`, which checks them: `reads` needs them too, and `map`
// depends on the checker, which depends on `reads`.
/// The name an item has when its edge gives no `as`.
pub const DEFAULT_ITEM_NAME: &str = "item";

/// The name of an instance's index in its target's scope.
pub const INDEX_NAME: &str = "index";

/// Validates a graph: every problem at once, errors first then warnings, each in document
/// order.
pub fn validate(graph: &Graph) -> Vec<Diagnostic> {
    compile(graph).diagnostics
}

/// Compiles a graph: its diagnostics, and a [`Plan`] when none is an error.
pub fn compile(graph: &Graph) -> Compiled {
    compile::compile_document(graph)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_graph;

    fn diags(text: &str) -> Vec<String> {
        validate(&parse_graph(text).unwrap()).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn example_from_the_spec_is_valid() {
        let d = diags(
            r#"{"format":"switchyard/graph@1","name":"Approval",
            "state":{"request":{"type":"string","default":""},"status":{"type":"string"}},
            "nodes":[{"id":"start","kind":"start","required":["request"]},
              {"id":"classify","kind":"set","set":{"status":"if state.request.len() > 40 { \"complex\" } else { \"simple\" }"}},
              {"id":"route","kind":"router","route":"state.status"},{"id":"end","kind":"end"}],
            "edges":[{"from":"start","to":"classify"},{"from":"classify","to":"route"},
              {"from":"route","to":"end","label":"simple"},{"from":"route","to":"classify","label":"complex"}]}"#,
        );
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn reports_every_problem_with_its_path() {
        let d = diags(
            r#"{"format":"switchyard/graph@1","state":{"a":{"type":"string"}},
            "nodes":[{"id":"start","kind":"start"},{"id":"start","kind":"start"},
              {"id":"bad id","kind":"set","set":{"a":"1 +"}},
              {"id":"r","kind":"router","route":"state.a"},
              {"id":"n","kind":"note","text":"hi"},
              {"id":"lost","kind":"set","set":{"zzz":"1"}}],
            "edges":[{"from":"start","to":"r"},{"from":"r","to":"ghost"},{"from":"r","to":"n","label":"x"}]}"#,
        );
        let joined = d.join("\n");
        for needle in [
            "error nodes[1].id: duplicate node id `start`",
            "error nodes[2].id: `bad id` is not a valid id",
            "error nodes[2].set.a: does not compile",
            "error edges[1].to: no node has the id `ghost`",
            "error edges[1].label: edges out of router `r` need a label",
            "error edges[2].to: `n` is a note",
            "warning nodes[5].set: writes `zzz`, which is not a declared state field",
            "warning nodes[5]: `lost` is unreachable from start",
        ] {
            assert!(joined.contains(needle), "missing {needle:?} in\n{joined}");
        }
        // Errors come before warnings.
        let first_warning = d.iter().position(|l| l.starts_with("warning")).unwrap();
        assert!(d[first_warning..].iter().all(|l| l.starts_with("warning")));
    }
}
