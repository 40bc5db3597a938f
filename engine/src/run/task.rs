//! What runs in a step: a node as itself, or one instance of a map over it (format.md §5, map edges).
//!
//! A map edge runs its target once per item of a list, all in the next step. Each instance
//! is a [`Task`] named `<node>[<index>]` in the record, and sees its [`MapItem`] (under the
//! edge's `as` name) and its `index` in scope. The items of the instances that run next are
//! kept with the active set as a [`Fanout`], and written into each step's record so that a
//! run rebuilt from its record runs the same instances.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::plan::Plan;
use crate::record::MapItem;

/// One run of a node in a step: the node itself (`instance: None`), or the instance of a map
/// over it with that index. Tasks order by node (plan index, so node id) and then instance,
/// the node itself first: the order a step's updates are applied in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Task {
    /// The node's plan index.
    pub node: usize,
    /// The instance's index in its map, for a mapped run.
    pub instance: Option<u32>,
}

impl Task {
    /// Node `node` running as itself.
    pub fn plain(node: usize) -> Task {
        Task { node, instance: None }
    }

    /// Instance `index` of a map over node `node`.
    pub fn mapped(node: usize, index: u32) -> Task {
        Task { node, instance: Some(index) }
    }

    /// Its name in the record: the node's id, or `<id>[<index>]` for an instance.
    pub fn name(self, plan: &Plan) -> String {
        let id = &plan.node(self.node).id;
        match self.instance {
            None => id.to_string(),
            Some(i) => format!("{id}[{i}]"),
        }
    }
}

/// The map instances due to run: for each target node (by plan index), its items in index
/// order. Shared, not copied, between the run and the step records that name them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fanout(BTreeMap<usize, Rc<[MapItem]>>);

impl Fanout {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The items of the instances of node `ix`.
    pub fn items(&self, ix: usize) -> Option<&Rc<[MapItem]>> {
        self.0.get(&ix)
    }

    /// Node index → items, in node order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Rc<[MapItem]>)> {
        self.0.iter().map(|(&ix, items)| (ix, items))
    }

    /// Every instance, in task order.
    pub fn tasks(&self) -> impl Iterator<Item = Task> + '_ {
        self.0.iter().flat_map(|(&ix, items)| (0..items.len() as u32).map(move |i| Task::mapped(ix, i)))
    }

    /// The item of instance `task`.
    pub fn item(&self, task: Task) -> Option<&MapItem> {
        self.0.get(&task.node)?.get(task.instance? as usize)
    }
}

impl FromIterator<(usize, Rc<[MapItem]>)> for Fanout {
    fn from_iter<I: IntoIterator<Item = (usize, Rc<[MapItem]>)>>(iter: I) -> Self {
        Fanout(iter.into_iter().filter(|(_, items)| !items.is_empty()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_order_by_node_then_instance() {
        let mut tasks = vec![Task::mapped(2, 1), Task::plain(3), Task::mapped(2, 0), Task::plain(2), Task::plain(1)];
        tasks.sort();
        assert_eq!(tasks, [Task::plain(1), Task::plain(2), Task::mapped(2, 0), Task::mapped(2, 1), Task::plain(3)]);
    }
}
