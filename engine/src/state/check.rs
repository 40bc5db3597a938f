//! Type checks of what is written to the state (format.md §3): a value against its field's type,
//! and an update against its field's reducer, normalised in place (`2.0` becomes `2` for an
//! integer field, a message update becomes a list of canonical messages with ids).

use serde_json::{Number, Value};

use super::FieldSpec;
pub use crate::describe::{excerpt, type_name};
use crate::document::{FieldType, Reducer};
use crate::messages::{self, Writer};

/// `n` as an integer field holds it: a 64-bit signed integer (a whole float such as `2.0`
/// becomes `2`, while floats are exact).
fn integral(n: &Number) -> Option<Value> {
    if n.is_i64() {
        return Some(Value::Number(n.clone()));
    }
    let f = n.as_f64()?;
    (!n.is_u64() && f.fract() == 0.0 && f.abs() < 9.0e15).then(|| Value::from(f as i64))
}

/// Why `n` does not fit an `integer` field: past the 64-bit range (a value such as
/// 9223372036854775808 would otherwise silently become a float), or not whole.
fn not_integral(n: &Number, value: &Value) -> String {
    let f = n.as_f64().unwrap_or(0.0);
    if n.is_u64() || (f.fract() == 0.0 && f >= i64::MAX as f64) {
        format!("{n} is above the largest integer an `integer` field holds ({})", i64::MAX)
    } else if f.fract() == 0.0 && f <= i64::MIN as f64 {
        format!("{n} is below the smallest integer an `integer` field holds ({})", i64::MIN)
    } else {
        mismatch(FieldType::Integer, value)
    }
}

/// Checks `value` against `ty`, returning it normalised (`2.0` becomes `2` for integers).
pub fn check_type(ty: FieldType, value: &Value) -> Result<Value, String> {
    let mut v = value.clone();
    normalize_type(ty, &mut v)?;
    Ok(v)
}

/// Checks `value` against `ty` in place, normalising integers and messages (a `messages`
/// value is a whole list of messages; ids are not added here).
pub fn normalize_type(ty: FieldType, value: &mut Value) -> Result<(), String> {
    let ok = match (ty, &*value) {
        (FieldType::Any, _) => true,
        (FieldType::String, Value::String(_)) => true,
        (FieldType::Number, Value::Number(_)) => true,
        (FieldType::Integer, Value::Number(n)) => {
            let Some(i) = integral(n) else { return Err(not_integral(n, value)) };
            *value = i;
            true
        }
        (FieldType::Boolean, Value::Bool(_)) => true,
        (FieldType::List, Value::Array(_)) => true,
        (FieldType::Object, Value::Object(_)) => true,
        (FieldType::Messages, Value::Array(_)) => {
            return messages::normalize_list(value, None).map_err(|e| e.to_string());
        }
        _ => false,
    };
    if ok { Ok(()) } else { Err(mismatch(ty, value)) }
}

fn mismatch(ty: FieldType, value: &Value) -> String {
    format!("expected {}, got {} ({})", ty.name(), type_name(value), excerpt(value))
}

/// The value a node may write to a field, normalised, or why it may not.
pub fn check_update(spec: &FieldSpec, value: &Value) -> Result<Value, String> {
    let mut v = value.clone();
    normalize_update(spec, &mut v)?;
    Ok(v)
}

/// Checks, in place, a value written to a field. Messages get no ids here (see
/// [`normalize_written`]).
pub fn normalize_update(spec: &FieldSpec, value: &mut Value) -> Result<(), String> {
    normalize_written(spec, value, None)
}

/// Checks, in place, a value `writer` writes to a field; messages it writes without an id
/// get `<node>:<step>:<n>`.
pub fn normalize_written(spec: &FieldSpec, value: &mut Value, writer: Option<Writer<'_>>) -> Result<(), String> {
    match spec.reducer {
        Reducer::Replace => normalize_type(spec.ty, value),
        // A list is concatenated, anything else appended as one item.
        Reducer::Append => Ok(()),
        Reducer::Messages => messages::normalize_update(value, writer).map_err(|e| e.to_string()),
        Reducer::Add => match value {
            Value::Number(_) if spec.ty == FieldType::Integer => normalize_type(FieldType::Integer, value),
            Value::Number(_) => Ok(()),
            _ => Err(format!("`add` needs a number, got {} ({})", type_name(value), excerpt(value))),
        },
        Reducer::Merge => match value {
            Value::Object(_) => Ok(()),
            _ => Err(format!("`merge` needs an object, got {} ({})", type_name(value), excerpt(value))),
        },
    }
}
