//! The list of saved graphs and how they are keyed in storage (README, The editor). The browser
//! keeps each graph under its own `switchyard.graph.<id>` key and this index under
//! `switchyard.index`; reading and writing them is the UI's job, deciding what to write is
//! this module's.

use serde::{Deserialize, Serialize};

pub const PREFIX: &str = "switchyard.";
pub const INDEX_KEY: &str = "switchyard.index";

pub fn graph_key(id: &str) -> String {
    format!("{PREFIX}graph.{id}")
}

/// The key of a graph's test suite in the browser (`switchyard.tests.<id>`).
pub fn suite_key(id: &str) -> String {
    format!("{PREFIX}tests.{id}")
}

/// One saved graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    pub name: String,
    /// Milliseconds since the epoch of the last save.
    pub updated: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Library {
    pub entries: Vec<Entry>,
}

impl Library {
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// A storage id not used yet, derived from a name.
    pub fn fresh_id(&self, name: &str, now: f64) -> String {
        let slug: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let slug = if slug.is_empty() { "graph".to_string() } else { slug.chars().take(40).collect() };
        let base = format!("{slug}-{:x}", now as u64 % 0xfffff);
        if self.get(&base).is_none() {
            return base;
        }
        (2..).map(|k| format!("{base}-{k}")).find(|id| self.get(id).is_none()).unwrap_or(base)
    }

    /// A file name not used yet, derived from a name (the desktop app's graphs are files).
    pub fn fresh_file_name(&self, name: &str) -> String {
        let slug = engine::Graph::file_stem(name);
        let base = format!("{slug}.json");
        if self.get(&base).is_none() {
            return base;
        }
        (2..).map(|k| format!("{slug}-{k}.json")).find(|id| self.get(id).is_none()).unwrap_or(base)
    }

    /// Records a save, newest first.
    pub fn touch(&mut self, id: &str, name: &str, now: f64) {
        self.entries.retain(|e| e.id != id);
        self.entries.insert(0, Entry { id: id.to_string(), name: name.to_string(), updated: now });
    }

    pub fn rename(&mut self, id: &str, name: &str) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            e.name = name.to_string();
        }
    }

    pub fn remove(&mut self, id: &str) {
        self.entries.retain(|e| e.id != id);
    }

    /// A name not used by another entry: "Approval", "Approval (2)", …
    pub fn unique_name(&self, name: &str) -> String {
        let taken = |n: &str| self.entries.iter().any(|e| e.name == n);
        if !taken(name) {
            return name.to_string();
        }
        (2..).map(|k| format!("{name} ({k})")).find(|n| !taken(n)).unwrap_or_else(|| name.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_newest_first_and_ids_unique() {
        let mut lib = Library::default();
        let a = lib.fresh_id("My Flow!", 1000.0);
        assert!(a.starts_with("my-flow-"));
        lib.touch(&a, "My Flow!", 1.0);
        let b = lib.fresh_id("My Flow!", 1000.0);
        assert_ne!(a, b);
        lib.touch(&b, "Other", 2.0);
        lib.touch(&a, "My Flow!", 3.0);
        assert_eq!(lib.entries[0].id, a);
        assert_eq!(lib.unique_name("Other"), "Other (2)");
        lib.rename(&b, "Renamed");
        assert_eq!(lib.get(&b).unwrap().name, "Renamed");
        lib.remove(&a);
        lib.touch("flow.json", "Flow", 4.0);
        assert_eq!(lib.fresh_file_name("Flow"), "flow-2.json");
        assert_eq!(lib.fresh_file_name("Ünï Côde"), "ünï-côde.json");
        assert_eq!(lib.entries.len(), 2, "b and flow.json");
        assert_eq!(graph_key("x"), "switchyard.graph.x");
        assert_eq!(suite_key("x"), "switchyard.tests.x");
    }
}
