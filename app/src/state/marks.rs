//! What the canvas marks on each node and edge for the run on display (a node's status,
//! whether its step runs now, how many instances it ran; whether an edge was taken), as one
//! signal per node and per edge. One effect works the marks out when the shown step changes
//! and sets only those that changed, so a step wakes the nodes and edges it changed, not all
//! of them: with a memo per node reading one shared map, each step re-subscribed every node
//! and edge of a large graph (about 0.4 s a step at 1,000 nodes and 1,500 edges).

use std::collections::HashMap;

use leptos::prelude::*;

/// A node's look for the run on display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeMark {
    /// `data-status`: idle, active, done, error or waiting.
    pub status: &'static str,
    /// In the step running now.
    pub running: bool,
    /// Instances of a mapped node the shown step ran.
    pub instances: usize,
}

#[derive(Clone, Copy)]
pub struct Marks {
    nodes: StoredValue<HashMap<String, ArcRwSignal<NodeMark>>, LocalStorage>,
    edges: StoredValue<HashMap<usize, ArcRwSignal<bool>>, LocalStorage>,
}

impl Marks {
    pub(super) fn new() -> Marks {
        Marks { nodes: StoredValue::new_local(HashMap::new()), edges: StoredValue::new_local(HashMap::new()) }
    }

    /// Keeps every mark handed out up to date: `track` reads what the marks depend on, `node`
    /// and `edge` work out one mark (read untracked).
    pub(super) fn follow(
        self,
        track: impl Fn() + 'static,
        node: impl Fn(&str) -> NodeMark + 'static,
        edge: impl Fn(usize) -> bool + 'static,
    ) {
        Effect::new(move |_| {
            track();
            untrack(|| self.refresh(&node, &edge));
        });
    }

    fn refresh(self, node: &dyn Fn(&str) -> NodeMark, edge: &dyn Fn(usize) -> bool) {
        self.nodes.with_value(|nodes| {
            for (id, mark) in nodes {
                let now = node(id);
                if mark.get_untracked() != now {
                    mark.set(now);
                }
            }
        });
        self.edges.with_value(|edges| {
            for (index, mark) in edges {
                let now = edge(*index);
                if mark.get_untracked() != now {
                    mark.set(now);
                }
            }
        });
    }

    /// The mark of node `id` (`now` when it is new), kept up to date from now on.
    pub fn node(self, id: &str, now: impl FnOnce() -> NodeMark) -> ArcRwSignal<NodeMark> {
        if let Some(mark) = self.nodes.with_value(|m| m.get(id).cloned()) {
            return mark;
        }
        let mark = ArcRwSignal::new(untrack(now));
        self.nodes.update_value(|m| {
            m.insert(id.to_string(), mark.clone());
        });
        mark
    }

    /// Whether edge `index` is marked taken (`now` when it is new), kept up to date from now on.
    pub fn edge(self, index: usize, now: impl FnOnce() -> bool) -> ArcRwSignal<bool> {
        if let Some(mark) = self.edges.with_value(|m| m.get(&index).cloned()) {
            return mark;
        }
        let mark = ArcRwSignal::new(untrack(now));
        self.edges.update_value(|m| {
            m.insert(index, mark.clone());
        });
        mark
    }
}
