//! JSON values compared as JSON means them: `1` and `1.0` are the same number. A record or a
//! suite that went through another JSON tool (JavaScript writes `1.0` as `1`) must still
//! compare equal to the run that made it.

use serde_json::{Map, Number, Value};

/// `v` with every whole number written as an integer, so that `==` on two canonical values
/// compares numbers by value.
pub fn canonical(v: &Value) -> Value {
    match v {
        Value::Number(n) => Value::Number(canonical_number(n)),
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(map) => Value::Object(canonical_map(map)),
        other => other.clone(),
    }
}

/// [`canonical`] for an object's fields.
pub fn canonical_map(map: &Map<String, Value>) -> Map<String, Value> {
    map.iter().map(|(k, v)| (k.clone(), canonical(v))).collect()
}

/// Whether `a` and `b` are the same JSON value, numbers compared by value.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => canonical_number(x) == canonical_number(y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| same(p, q)))
        }
        _ => a == b,
    }
}

/// Integers beyond this are not all exact as floats: left as written.
const EXACT: f64 = 9_007_199_254_740_992.0;

fn canonical_number(n: &Number) -> Number {
    match n.as_f64() {
        Some(f) if !n.is_i64() && !n.is_u64() && f.fract() == 0.0 && f.abs() < EXACT => Number::from(f as i64),
        _ => n.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_numbers_compare_by_value() {
        let a: Value = serde_json::from_str(r#"{"score": 1.0, "list": [2.0, 0.5], "n": -3}"#).expect("JSON");
        let b: Value = serde_json::from_str(r#"{"score": 1, "list": [2, 0.5], "n": -3.0}"#).expect("JSON");
        assert_ne!(a, b, "serde_json tells them apart");
        assert!(same(&a, &b));
        assert_eq!(canonical(&a), canonical(&b));
        assert!(!same(&json!({"score": 1}), &json!({"score": 1.5})));
        assert!(!same(&json!([1, 2]), &json!([1, 2, 3])));
        assert!(!same(&json!({"a": 1}), &json!({"b": 1})));
    }
}
