//! What a node writes in a step: field → value.
//!
//! Kept as a small vector sorted by field name rather than a map: updates have a handful of
//! fields, and every step's updates stay in the run record, so their size is what a long
//! run's memory is made of.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Update(Vec<(String, Value)>);

impl Update {
    pub fn new() -> Update {
        Update(Vec::new())
    }

    pub fn with_capacity(n: usize) -> Update {
        Update(Vec::with_capacity(n))
    }

    /// Sets `key`, replacing any earlier value.
    pub fn insert(&mut self, key: String, value: Value) {
        match self.0.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (key, value)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok().map(|i| &self.0[i].1)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&String, &mut Value)> {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn to_map(&self) -> Map<String, Value> {
        self.0.iter().cloned().collect()
    }
}

impl From<Map<String, Value>> for Update {
    fn from(map: Map<String, Value>) -> Update {
        // A serde_json map iterates in key order already.
        let mut u = Update(Vec::with_capacity(map.len()));
        for (k, v) in map {
            u.insert(k, v);
        }
        u
    }
}

impl FromIterator<(String, Value)> for Update {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Update {
        let mut u = Update::new();
        for (k, v) in iter {
            u.insert(k, v);
        }
        u
    }
}

impl Serialize for Update {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de> Deserialize<'de> for Update {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Update, D::Error> {
        Map::<String, Value>::deserialize(d).map(Update::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_keys_sorted_and_unique() {
        let mut u = Update::new();
        u.insert("b".into(), json!(1));
        u.insert("a".into(), json!(2));
        u.insert("b".into(), json!(3));
        assert_eq!(serde_json::to_value(&u).unwrap(), json!({"a": 2, "b": 3}));
        assert_eq!(u.get("b"), Some(&json!(3)));
        let back: Update = serde_json::from_value(json!({"z": 1, "y": 2})).unwrap();
        assert_eq!(back.keys().collect::<Vec<_>>(), ["y", "z"]);
    }
}
