//! What one node did in a step, before the step's results are checked and applied.

use serde_json::Value;

use crate::effects::Effect;
use crate::record::{NodeError, RunRecord, Waiting};
use crate::update::Update;

/// What one node did in a step.
pub(super) enum Outcome {
    Update {
        update: Update,
        route: Route,
        detail: Option<Value>,
    },
    /// A disabled node: writes nothing, follows its unconditional edges.
    Bypass,
    Failed {
        error: NodeError,
        detail: Option<Value>,
    },
    /// A subgraph stopped for a human: the parent waits too, keeping the child's record.
    Suspended {
        record: Box<RunRecord>,
        waiting: Waiting,
        detail: Value,
    },
}

impl Outcome {
    /// An update that follows the node's edges as usual.
    pub(super) fn update(update: Update, detail: Option<Value>) -> Outcome {
        Outcome::Update { update, route: Route::Normal, detail }
    }

    /// A failure without details.
    pub(super) fn failed(error: NodeError) -> Outcome {
        Outcome::Failed { error, detail: None }
    }
}

impl From<Effect> for Outcome {
    fn from(effect: Effect) -> Outcome {
        match effect.result {
            Ok(update) => Outcome::update(update, effect.detail),
            Err(error) => Outcome::Failed { error, detail: effect.detail },
        }
    }
}

/// Which edges a node that ran follows.
#[derive(Clone)]
pub(super) enum Route {
    /// Every edge whose `when` holds (not `error` edges).
    Normal,
    /// The edges with these labels (a router, or a human answering with an option).
    Labels(Vec<String>),
}
