//! The active set: which nodes run in the next step.

/// A small sorted set of node indices (the active set). Clearing it keeps its memory, so
/// a step allocates nothing for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct NodeSet(Vec<usize>);

impl NodeSet {
    pub(super) fn insert(&mut self, ix: usize) {
        if let Err(at) = self.0.binary_search(&ix) {
            self.0.insert(at, ix);
        }
    }
    pub(super) fn contains(&self, ix: &usize) -> bool {
        self.0.binary_search(ix).is_ok()
    }
    pub(super) fn iter(&self) -> std::slice::Iter<'_, usize> {
        self.0.iter()
    }
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
    pub(super) fn extend(&mut self, items: impl IntoIterator<Item = usize>) {
        for i in items {
            self.insert(i);
        }
    }
}

impl FromIterator<usize> for NodeSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut v: Vec<usize> = iter.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        NodeSet(v)
    }
}

impl<'a> IntoIterator for &'a NodeSet {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
