//! The `add` reducer's sum (format.md §3). JSON numbers are what the state holds, so a sum must
//! be one: an `integer` field's sum must stay within a 64-bit integer (it never turns into a
//! float), and a `number` field's must stay finite (JSON has no infinity). A sum that does not
//! is refused, for the caller to fail the node that wrote it.

use serde_json::{Number, Value};

use crate::document::FieldType;

/// `current + update` for a field of type `ty` (`current` is `null` before the first write).
/// Two integers sum as integers; past the 64-bit range that is an error on an `integer`
/// field and a float elsewhere. Anything else sums as floats, which must stay finite.
pub(super) fn add(ty: FieldType, current: &Value, update: &Value) -> Result<Value, String> {
    let (a, b) = (current.as_i64().or(current.is_null().then_some(0)), update.as_i64());
    if let (Some(x), Some(y)) = (a, b) {
        return match x.checked_add(y) {
            Some(sum) => Ok(Value::from(sum)),
            None if ty == FieldType::Integer => Err(out_of_range(current, update, x.signum())),
            None => Ok(Value::from(x as f64 + y as f64)),
        };
    }
    let (x, y) = (current.as_f64().unwrap_or(0.0), update.as_f64().unwrap_or(0.0));
    if ty == FieldType::Integer {
        // Only a value from outside the integer range gets here (a record saved before it was
        // checked): its sum cannot be an integer either.
        return Err(out_of_range(current, update, (x + y).signum() as i64));
    }
    let sum = x + y;
    Number::from_f64(sum).map(Value::Number).ok_or_else(|| {
        format!("`add` gives {current} + {update} = {sum}, which is not a finite number (JSON has no such number)")
    })
}

/// Why `current + update` does not fit an `integer` field; `sign` is the sum's.
fn out_of_range(current: &Value, update: &Value, sign: i64) -> String {
    let (side, bound) = if sign < 0 { ("below the smallest", i64::MIN) } else { ("above the largest", i64::MAX) };
    format!("`add` overflows: {current} + {update} is {side} integer an `integer` field holds ({bound})")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn integers_stay_integers_or_fail() {
        assert_eq!(add(FieldType::Integer, &json!(null), &json!(2)), Ok(json!(2)));
        assert_eq!(add(FieldType::Integer, &json!(i64::MAX - 1), &json!(1)), Ok(json!(i64::MAX)));
        let err = add(FieldType::Integer, &json!(i64::MAX), &json!(1)).unwrap_err();
        assert!(err.contains("9223372036854775807 + 1 is above the largest integer"), "{err}");
        let err = add(FieldType::Integer, &json!(i64::MIN), &json!(-1)).unwrap_err();
        assert!(err.contains("is below the smallest integer an `integer` field holds (-9223372036854775808)"), "{err}");
    }

    #[test]
    fn numbers_turn_float_but_stay_finite() {
        let big = add(FieldType::Number, &json!(i64::MAX), &json!(i64::MAX)).unwrap();
        assert_eq!(big.as_f64(), Some(i64::MAX as f64 * 2.0));
        assert_eq!(add(FieldType::Number, &json!(0.5), &json!(1)), Ok(json!(1.5)));
        let err = add(FieldType::Number, &json!(1.5e308), &json!(1.5e308)).unwrap_err();
        assert!(err.contains("1.5e+308 + 1.5e+308 = inf, which is not a finite number"), "{err}");
        assert!(add(FieldType::Any, &json!(-1.5e308), &json!(-1.5e308)).is_err());
    }
}
