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
/// the node itself first; a step runs them in [step order](Fanout::tasks) instead.
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
/// order, and the order the instances run and apply in. Shared, not copied, between the run
/// and the step records that name them.
///
/// A step's tasks go in step order (format.md §10): the nodes running as themselves by node
/// id, then the instances in the order their map edges were taken, each edge's by index, as
/// LangGraph applies its `Send` tasks after the others, in the order sent. Two edges into one
/// node number its instances on, so the order is kept as runs of consecutive indices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fanout {
    items: BTreeMap<usize, Rc<[MapItem]>>,
    /// (node, how many instances) in the order the edges were taken; a node's runs take its
    /// indices in turn.
    order: Rc<[(usize, u32)]>,
}

impl Fanout {
    /// The instances routed in one step: each target's items, and the runs of instances in
    /// the order the edges gave them (see [`Fanout`]).
    pub fn routed(items: BTreeMap<usize, Vec<MapItem>>, order: Vec<(usize, u32)>) -> Fanout {
        let items: BTreeMap<usize, Rc<[MapItem]>> =
            items.into_iter().filter(|(_, v)| !v.is_empty()).map(|(ix, v)| (ix, v.into())).collect();
        let fanout = Fanout { order: order.into_iter().filter(|&(_, n)| n > 0).collect(), items };
        if fanout.order_fits() { fanout } else { fanout.in_node_order() }
    }

    /// These instances run in the order of `tasks` (a record's `next`) when its instances are
    /// exactly these, each node's in index order; otherwise (a record written before the
    /// order was kept) in node order.
    pub fn ordered_as(self, tasks: &[Task]) -> Fanout {
        let mut order: Vec<(usize, u32)> = Vec::new();
        for t in tasks.iter().filter(|t| t.instance.is_some()) {
            match order.last_mut() {
                Some((node, n)) if *node == t.node => *n += 1,
                _ => order.push((t.node, 1)),
            }
        }
        let fanout = Fanout { order: order.into(), items: self.items };
        if fanout.order_fits() && fanout.tasks().eq(tasks.iter().copied().filter(|t| t.instance.is_some())) {
            fanout
        } else {
            fanout.in_node_order()
        }
    }

    /// Whether the runs in `order` cover each node's items exactly.
    fn order_fits(&self) -> bool {
        let mut counts: BTreeMap<usize, u64> = BTreeMap::new();
        for &(ix, n) in self.order.iter() {
            *counts.entry(ix).or_default() += u64::from(n);
        }
        counts.len() == self.items.len()
            && self.items.iter().all(|(ix, items)| counts.get(ix) == Some(&(items.len() as u64)))
    }

    /// The same instances, each node's in one run, in node order.
    fn in_node_order(mut self) -> Fanout {
        self.order = self.items.iter().map(|(&ix, items)| (ix, items.len() as u32)).collect();
        self
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The items of the instances of node `ix`.
    pub fn items(&self, ix: usize) -> Option<&Rc<[MapItem]>> {
        self.items.get(&ix)
    }

    /// Node index → items, in node order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Rc<[MapItem]>)> {
        self.items.iter().map(|(&ix, items)| (ix, items))
    }

    /// Every instance, in step order.
    pub fn tasks(&self) -> impl Iterator<Item = Task> + '_ {
        let mut taken: BTreeMap<usize, u32> = BTreeMap::new();
        self.order.iter().flat_map(move |&(ix, n)| {
            let first = taken.entry(ix).or_default();
            let from = *first;
            *first += n;
            (from..from + n).map(move |i| Task::mapped(ix, i))
        })
    }

    /// The item of instance `task`.
    pub fn item(&self, task: Task) -> Option<&MapItem> {
        self.items.get(&task.node)?.get(task.instance? as usize)
    }
}

impl FromIterator<(usize, Rc<[MapItem]>)> for Fanout {
    /// Instances in node order.
    fn from_iter<I: IntoIterator<Item = (usize, Rc<[MapItem]>)>>(iter: I) -> Self {
        let items = iter.into_iter().filter(|(_, items)| !items.is_empty()).collect();
        Fanout { items, order: Rc::from([]) }.in_node_order()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<MapItem> {
        (0..n).map(|i| MapItem { name: "item".into(), item: serde_json::json!(i) }).collect()
    }

    #[test]
    fn instances_run_in_the_order_their_edges_were_taken() {
        let fanout = Fanout::routed(BTreeMap::from([(2, items(3)), (5, items(1))]), vec![(2, 2), (5, 1), (2, 1)]);
        let order = [Task::mapped(2, 0), Task::mapped(2, 1), Task::mapped(5, 0), Task::mapped(2, 2)];
        assert_eq!(fanout.tasks().collect::<Vec<_>>(), order);
        // A record's `next` gives the order back; one that does not fit gives node order.
        let plain: Fanout = [(2, Rc::from(items(3))), (5, Rc::from(items(1)))].into_iter().collect();
        assert_eq!(plain.clone().ordered_as(&order), fanout);
        let node_order = [Task::mapped(2, 0), Task::mapped(2, 1), Task::mapped(2, 2), Task::mapped(5, 0)];
        assert_eq!(plain.clone().ordered_as(&order[..3]).tasks().collect::<Vec<_>>(), node_order);
        let swapped = [order[1], order[0], order[2], order[3]];
        assert_eq!(plain.ordered_as(&swapped).tasks().collect::<Vec<_>>(), node_order);
    }

    #[test]
    fn tasks_order_by_node_then_instance() {
        let mut tasks = vec![Task::mapped(2, 1), Task::plain(3), Task::mapped(2, 0), Task::plain(2), Task::plain(1)];
        tasks.sort();
        assert_eq!(tasks, [Task::plain(1), Task::plain(2), Task::mapped(2, 0), Task::mapped(2, 1), Task::plain(3)]);
    }
}
