//! Map edges at run time (format.md §5, map edges): the list a followed map edge gives becomes one instance
//! of its target per item, up to `max_fanout` per node and step; each instance sees its item
//! and `index` in its own scope, and takes its own mock turn.

use std::collections::BTreeMap;
use std::ops::Deref;

use rhai::{Dynamic, INT};
use serde_json::Value;

use super::Run;
use crate::plan::{INDEX_NAME, MapEdge, PlanEdge, PlanNode};
use crate::record::{ErrorKind, MapItem, RunError};
use crate::run::task::Task;
use crate::script::{Ctx, to_dynamic};
use crate::state::{excerpt, type_name};

/// Where a step's routing leads: nodes to run as themselves (in the order routed, repeats
/// allowed), and map instances, each target's items in the order routed, with the order the
/// edges gave them in ([`crate::run::task::Fanout`]).
#[derive(Debug, Default)]
pub(super) struct Targets {
    pub(super) plain: Vec<usize>,
    pub(super) mapped: BTreeMap<usize, Vec<MapItem>>,
    /// (target, how many instances) per map edge followed, in the order followed.
    pub(super) order: Vec<(usize, u32)>,
}

/// The scope a task's expressions see: the run's own, or, for a node some map edge leads
/// to, its own copy with the items' names and `index` added (instances of one step run at
/// the same time, so each needs its own).
pub(super) enum TaskScope<'a> {
    Shared(&'a Ctx),
    Own(Ctx),
}

impl Deref for TaskScope<'_> {
    type Target = Ctx;
    fn deref(&self) -> &Ctx {
        match self {
            TaskScope::Shared(ctx) => ctx,
            TaskScope::Own(ctx) => ctx,
        }
    }
}

impl Run {
    /// Follows map edge `e` (whose map is `m`) out of `node`: its list, evaluated on the state
    /// after the step, adds one instance of the target per item to `targets`.
    pub(super) fn map_into(
        &self,
        node: &PlanNode,
        e: &PlanEdge,
        m: &MapEdge,
        targets: &mut Targets,
    ) -> Result<(), RunError> {
        let target = &self.plan.node(e.to).id;
        let edge = || format!("edge {} → {target} (edges[{}].map)", node.id, e.index);
        let fail = |kind, message| RunError { node: Some(node.id.to_string()), kind, message };
        let list = self
            .plan
            .scripting
            .eval_json(&m.list, &self.ctx)
            .map_err(|err| fail(ErrorKind::of_eval(&err), format!("{}: {err}", edge())))?;
        let Value::Array(items) = list else {
            let message = format!("{} must give a list, got {} ({})", edge(), type_name(&list), excerpt(&list));
            return Err(fail(ErrorKind::Expression, message));
        };
        let instances = targets.mapped.entry(e.to).or_default();
        let max = self.plan.limits.max_fanout;
        let total = (instances.len() + items.len()) as u64;
        if total > max {
            let already = match instances.len() {
                0 => String::new(),
                n => format!(", {total} with the {n} other edges gave it"),
            };
            let message = format!(
                "{} gives {} items{already}, over max_fanout ({max} instances of `{target}` in one step)",
                edge(),
                items.len()
            );
            return Err(fail(ErrorKind::Limit, message));
        }
        let count = items.len() as u32;
        instances.extend(items.into_iter().map(|item| MapItem { name: m.name.clone(), item }));
        targets.order.push((e.to, count));
        Ok(())
    }

    /// The scope an effect's `task` runs in: the run's own, or for a node some map edge
    /// leads to, a copy with its items' names and `index` (see [`Run::item_values`]).
    pub(super) fn scope_for(&self, task: Task) -> TaskScope<'_> {
        let node = self.plan.node(task.node);
        if node.item_names.is_empty() {
            return TaskScope::Shared(&self.ctx);
        }
        TaskScope::Own(self.ctx.with_names(self.item_values(node, task)))
    }

    /// Runs `f` in the scope `task` sees, for work that finishes before any other task runs:
    /// the names of a map target are pushed onto the run's scope and taken off after, which
    /// costs far less than a copy of the scope.
    pub(super) fn with_item<R>(&self, task: Task, f: impl FnOnce(&Ctx) -> R) -> R {
        let node = self.plan.node(task.node);
        if node.item_names.is_empty() {
            return f(&self.ctx);
        }
        self.ctx.scoped(self.item_values(node, task), f)
    }

    /// The names a map target sees besides the usual ones, with their values for `task`: its
    /// item under the name its edge gives and its index for an instance, `()` for the other
    /// names (and for all of them when the node runs as itself).
    fn item_values<'a>(&'a self, node: &'a PlanNode, task: Task) -> impl Iterator<Item = (&'a str, Dynamic)> + 'a {
        let item = self.fanout.item(task);
        let index = match (task.instance, item) {
            (Some(i), Some(_)) => Dynamic::from_int(INT::from(i)),
            _ => Dynamic::UNIT,
        };
        let items = node.item_names.iter().map(move |name| {
            let value = match item {
                Some(m) if m.name == *name => to_dynamic(&m.item),
                _ => Dynamic::UNIT,
            };
            (&**name, value)
        });
        items.chain([(INDEX_NAME, index)])
    }

    /// How many runs of `task`'s node came before it: a mock model answers by turn. The
    /// instances of a step take the turns after the node's own run in that step, one each,
    /// in index order.
    pub(super) fn turn(&self, task: Task) -> u64 {
        let before = self.run_counts[task.node];
        match task.instance {
            None => before,
            Some(i) => {
                let own_run = self.next.contains(&task.node) && !self.needs_answer(task.node);
                before + u64::from(own_run) + u64::from(i)
            }
        }
    }
}
