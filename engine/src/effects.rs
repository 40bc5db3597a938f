//! Nodes that reach outside the engine: `llm`, `http` and `subgraph`.

use crate::host::Host;
use crate::run::{ErrorKind, NodeError, Outcome, Run};
use crate::script::Ctx;

pub(crate) async fn exec(run: &Run, ix: usize, _ctx: &Ctx, _host: &dyn Host) -> Outcome {
    let node = run.plan.node(ix);
    Outcome::Failed {
        error: NodeError {
            kind: ErrorKind::Llm,
            message: format!("node `{}`: `{}` nodes are not supported yet", node.id, node.kind.name()),
        },
        detail: None,
    }
}
