//! `uniqueItems` in time linear in the list: items are put in buckets by a hash that equal
//! values share (numbers hashed as floats, so that `1` and `1.0` land together, and objects
//! whatever their key order), and only items in one bucket are compared, each comparison
//! counted against the check's work ceiling. Comparing every pair took minutes for a list of
//! 100,000 items.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use super::budget::Budget;

/// The index of the first item equal to an item before it (by `equal`), if any; `None` too
/// when the work ceiling ended the check.
pub(super) fn first_repeat(
    items: &[Value],
    equal: impl Fn(&Value, &Value) -> bool,
    budget: &Budget<'_>,
) -> Option<usize> {
    let mut buckets: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let bucket = buckets.entry(fingerprint(item)).or_default();
        for &j in bucket.iter() {
            if !budget.spend(1) {
                return None;
            }
            if equal(&items[j], item) {
                return Some(i);
            }
        }
        bucket.push(i);
        if !budget.spend(1) {
            return None;
        }
    }
    None
}

/// A hash equal values share.
fn fingerprint(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    feed(v, &mut h);
    h.finish()
}

fn feed(v: &Value, h: &mut DefaultHasher) {
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => {
            // Equal numbers are equal as floats; `-0.0` and `0.0` too.
            let f = n.as_f64().unwrap_or(0.0);
            (2u8, if f == 0.0 { 0 } else { f.to_bits() }).hash(h);
        }
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(items) => {
            (4u8, items.len()).hash(h);
            for x in items {
                feed(x, h);
            }
        }
        Value::Object(map) => {
            (5u8, map.len()).hash(h);
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_unstable();
            for k in keys {
                k.hash(h);
                feed(&map[k], h);
            }
        }
    }
}
