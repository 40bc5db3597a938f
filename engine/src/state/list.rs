//! The list behind `append` and `messages` fields: a window onto an append-only log shared
//! by every snapshot of the state, so that a checkpoint after each step costs no copy.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use serde_json::Value;

use super::json_len;

/// An `append` list: a window onto an append-only log shared by every snapshot of the
/// state. Appending to the newest snapshot pushes onto the log without copying anything, and
/// dropping the oldest items just moves the window; older snapshots keep seeing their own
/// window. Only a branch (a fork appending where the log has moved on) or a removal from the
/// middle copies the window into a fresh log.
#[derive(Debug, Clone)]
pub(super) struct List {
    /// Items are reference-counted so that copying a window (a branch, or removing an item
    /// from the middle) copies pointers, not values.
    log: Rc<RefCell<Vec<Rc<Value>>>>,
    start: usize,
    pub(super) len: usize,
    /// Serialized size of the items in the window.
    pub(super) bytes: usize,
}

impl List {
    pub(super) fn new(items: Vec<Value>) -> List {
        let bytes = items.iter().map(json_len).sum();
        List::from_shared(items.into_iter().map(Rc::new).collect(), bytes)
    }

    /// A list of these items, in a log of its own.
    pub(super) fn from_items(items: Vec<Rc<Value>>) -> List {
        let bytes = items.iter().map(|v| json_len(v)).sum();
        List::from_shared(items, bytes)
    }

    fn from_shared(items: Vec<Rc<Value>>, bytes: usize) -> List {
        List { len: items.len(), log: Rc::new(RefCell::new(items)), start: 0, bytes }
    }

    pub(super) fn items(&self) -> Ref<'_, [Rc<Value>]> {
        Ref::map(self.log.borrow(), |v| &v[self.start..self.start + self.len])
    }

    pub(super) fn push(&mut self, item: Value) {
        let end = self.start + self.len;
        if self.log.borrow().len() != end {
            let own: Vec<Rc<Value>> = self.items().to_vec();
            *self = List::from_shared(own, self.bytes);
        }
        self.bytes += json_len(&item);
        self.log.borrow_mut().push(Rc::new(item));
        self.len += 1;
    }

    pub(super) fn remove(&mut self, index: usize) {
        let removed = json_len(&self.items()[index]);
        if index == 0 {
            self.start += 1;
            self.len -= 1;
            self.bytes -= removed;
            return;
        }
        let mut own: Vec<Rc<Value>> = self.items().to_vec();
        own.remove(index);
        *self = List::from_shared(own, self.bytes - removed);
    }
}

impl List {
    /// Puts `item` in place of the item at `index`. The window is copied first (pointers
    /// only): older snapshots share the log and must keep their item.
    pub(super) fn replace(&mut self, index: usize, item: Value) {
        let mut own: Vec<Rc<Value>> = self.items().to_vec();
        let bytes = self.bytes - json_len(&own[index]) + json_len(&item);
        own[index] = Rc::new(item);
        *self = List::from_shared(own, bytes);
    }

    /// Removes the items at `index..index + count` at once.
    pub(super) fn remove_range(&mut self, index: usize, count: usize) {
        if index == 0 {
            let removed: usize = self.items()[..count].iter().map(|v| json_len(v)).sum();
            self.start += count;
            self.len -= count;
            self.bytes -= removed;
            return;
        }
        let mut own: Vec<Rc<Value>> = self.items().to_vec();
        let removed: usize = own.drain(index..index + count).map(|v| json_len(&v)).sum();
        *self = List::from_shared(own, self.bytes - removed);
    }

    /// Empties the list (a fresh log: older snapshots keep theirs).
    pub(super) fn clear(&mut self) {
        *self = List::new(Vec::new());
    }

    /// The index of the item whose `id` is `id`.
    pub(super) fn position_of_id(&self, id: &str) -> Option<usize> {
        self.items().iter().position(|v| crate::messages::id_of(v) == Some(id))
    }
}
