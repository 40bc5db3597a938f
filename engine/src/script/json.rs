//! Rhai values and JSON: the conversion both ways, why a value may have no JSON form (a
//! number that is not finite, nesting too deep), and the text a value reads as when a script
//! puts it in a string (a backtick string's `${…}`, or `+` onto a string): JSON, as in a
//! `{{ }}` template.

use std::fmt;

use rhai::{Array, Dynamic, Engine, FLOAT, ImmutableString, Map as RhaiMap};
use serde_json::{Map, Number, Value};

use super::View;

/// How deeply nested a value may be to be stored as JSON (deeper values would exhaust the
/// stack converting them, and no sensible state is that deep).
pub const MAX_DEPTH: usize = 128;

/// JSON → Rhai.
pub fn to_dynamic(v: &Value) -> Dynamic {
    match v {
        Value::Null => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Dynamic::from_int(i),
            None => Dynamic::from_float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Dynamic::from(s.clone()),
        Value::Array(items) => Dynamic::from_array(items.iter().map(to_dynamic).collect()),
        Value::Object(map) => {
            let mut m = RhaiMap::new();
            for (k, v) in map {
                m.insert(k.as_str().into(), to_dynamic(v));
            }
            Dynamic::from_map(m)
        }
    }
}

/// A Rhai value that has no JSON form.
#[derive(Debug, Clone, PartialEq)]
pub enum NotJson {
    /// A number that is infinite or NaN (float arithmetic that overflowed, `0.0 / 0.0`), at
    /// `at` inside the value (empty for the value itself).
    NotFinite { value: f64, at: Vec<Step> },
    /// Nested more than [`MAX_DEPTH`] levels deep.
    TooDeep,
    /// A Rhai value JSON has nothing for (a function pointer, a range…): its type name.
    Unsupported(String),
}

/// One step into a value: a map's key or a list's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

impl NotJson {
    /// The same problem, one level further in: under `step` of the value that holds it.
    fn under(mut self, step: Step) -> NotJson {
        if let NotJson::NotFinite { at, .. } = &mut self {
            at.insert(0, step);
        }
        self
    }

    /// Whether the value is a number JSON cannot hold.
    pub fn is_not_finite(&self) -> bool {
        matches!(self, NotJson::NotFinite { .. })
    }
}

impl fmt::Display for NotJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotJson::NotFinite { value, at } if at.is_empty() => {
                write!(f, "gave {value}, which is not a finite number (JSON has no such number)")
            }
            NotJson::NotFinite { value, at } => {
                f.write_str("gave ")?;
                for (i, step) in at.iter().enumerate() {
                    match step {
                        Step::Key(k) if i == 0 => write!(f, "`{k}")?,
                        Step::Key(k) => write!(f, ".{k}")?,
                        Step::Index(n) if i == 0 => write!(f, "`[{n}]")?,
                        Step::Index(n) => write!(f, "[{n}]")?,
                    }
                }
                write!(f, "` = {value}, which is not a finite number (JSON has no such number)")
            }
            NotJson::TooDeep => write!(f, "the value is nested more than {MAX_DEPTH} levels deep"),
            NotJson::Unsupported(ty) => write!(f, "a value of type `{ty}` cannot be stored as JSON"),
        }
    }
}

impl std::error::Error for NotJson {}

/// Rhai → JSON.
pub fn from_dynamic(d: &Dynamic) -> Result<Value, NotJson> {
    from_dynamic_at(d, 0)
}

fn from_dynamic_at(d: &Dynamic, depth: usize) -> Result<Value, NotJson> {
    if depth > MAX_DEPTH {
        return Err(NotJson::TooDeep);
    }
    if d.is_unit() {
        return Ok(Value::Null);
    }
    if let Ok(b) = d.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = d.as_int() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = d.as_float() {
        return Number::from_f64(f).map(Value::Number).ok_or(NotJson::NotFinite { value: f, at: Vec::new() });
    }
    if let Some(s) = d.read_lock::<ImmutableString>() {
        return Ok(Value::String(s.to_string()));
    }
    if let Ok(c) = d.as_char() {
        return Ok(Value::String(c.to_string()));
    }
    if let Some(items) = d.read_lock::<Array>() {
        return list_json(&items, depth);
    }
    if let Some(map) = d.read_lock::<RhaiMap>() {
        return map_json(&map, depth);
    }
    if let Some(view) = d.read_lock::<View>() {
        return Ok(view.0.to_json());
    }
    if let Some(blob) = d.read_lock::<rhai::Blob>() {
        return Ok(Value::Array(blob.iter().map(|b| Value::from(*b)).collect()));
    }
    Err(NotJson::Unsupported(d.type_name().to_string()))
}

fn list_json(items: &Array, depth: usize) -> Result<Value, NotJson> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(from_dynamic_at(item, depth + 1).map_err(|e| e.under(Step::Index(i)))?);
    }
    Ok(Value::Array(out))
}

fn map_json(map: &RhaiMap, depth: usize) -> Result<Value, NotJson> {
    let mut out = Map::new();
    for (k, v) in map.iter() {
        let value = from_dynamic_at(v, depth + 1).map_err(|e| e.under(Step::Key(k.to_string())))?;
        out.insert(k.to_string(), value);
    }
    Ok(Value::Object(out))
}

/// The error of a value nested past [`MAX_DEPTH`].
pub(super) fn too_deep_error() -> Box<rhai::EvalAltResult> {
    NotJson::TooDeep.to_string().into()
}

/// Whether `d` is nested more than [`MAX_DEPTH`] levels deep, as [`from_dynamic`] counts
/// them (a walk at most that many calls deep).
pub(super) fn too_deep(d: &Dynamic) -> bool {
    fn past(d: &Dynamic, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        if let Some(items) = d.read_lock::<Array>() {
            return items.iter().any(|x| past(x, depth + 1));
        }
        if let Some(map) = d.read_lock::<RhaiMap>() {
            return map.values().any(|x| past(x, depth + 1));
        }
        false
    }
    past(d, 0)
}

/// Makes lists, maps and numbers read as JSON when a script turns them into text: Rhai calls
/// `to_string` for a backtick string's `${…}` and for `+` onto a string, and its own
/// `to_string` writes `#{"a": 1}` and `[1, 2]`. Strings stay themselves (Rhai does not call
/// `to_string` for them). A value without a JSON form (a list holding NaN) keeps Rhai's
/// rendering, except one nested too deep to write out: that is the error it would be stored.
pub(super) fn register_text(engine: &mut Engine) {
    engine.register_fn("to_string", |a: &mut Array| json_text(list_json(a, 0), || Dynamic::from_array(a.clone())));
    engine.register_fn("to_string", |m: &mut RhaiMap| json_text(map_json(m, 0), || Dynamic::from_map(m.clone())));
    engine.register_fn("to_string", |x: FLOAT| json_text(from_dynamic(&Dynamic::from_float(x)), || x.into()));
}

/// The JSON text of a value converted to `json`, or, when it has no JSON form, the text Rhai
/// writes for it (`rhai`).
fn json_text(
    json: Result<Value, NotJson>,
    rhai: impl FnOnce() -> Dynamic,
) -> Result<ImmutableString, Box<rhai::EvalAltResult>> {
    match json {
        Ok(v) => Ok(v.to_string().into()),
        Err(NotJson::TooDeep) => Err(too_deep_error()),
        Err(_) => {
            let value = rhai();
            if too_deep(&value) {
                return Err(too_deep_error());
            }
            Ok(value.to_string().into())
        }
    }
}
