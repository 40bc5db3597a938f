//! A value checked against a compiled schema: the first place it breaks the schema. Keywords
//! whose value has the wrong shape cannot occur (the schema was checked when compiled), so
//! they are read leniently here.

use std::cmp::Ordering;
use std::collections::HashMap;

use regex_lite::Regex;
use serde_json::{Map, Number, Value};

use super::Mismatch;
use super::budget::{Budget, CheckError};
use super::location::{At, quote};
use super::schema::{count, resolve};
use super::unique;

/// How deep schemas may nest while one value is checked, references included: a schema that
/// refers to itself without going further into the value would otherwise never end.
const MAX_DEPTH: u32 = 256;

type Checked = Result<(), Mismatch>;
type Schema = Map<String, Value>;

pub(super) struct Validator<'s> {
    root: &'s Value,
    patterns: &'s HashMap<String, Regex>,
    budget: Budget<'s>,
}

impl<'s> Validator<'s> {
    pub(super) fn new(
        root: &'s Value,
        patterns: &'s HashMap<String, Regex>,
        stop: &'s dyn Fn() -> bool,
    ) -> Validator<'s> {
        Validator { root, patterns, budget: Budget::new(stop) }
    }

    /// Why the check was ended before it was done, if it was: then any result it gave is
    /// meaningless (every check after the end fails at once, so that `anyOf` and `not`
    /// unwind instead of trying their other branches).
    pub(super) fn ended(&self) -> Option<CheckError> {
        self.budget.ended()
    }

    /// Checks `v`, found at `at`, against `schema`, `depth` schemas deep.
    pub(super) fn check(&self, schema: &Value, v: &Value, at: &At<'_>, depth: u32) -> Checked {
        if depth > MAX_DEPTH {
            return Err(at.mismatch(format!("the schema nests more than {MAX_DEPTH} deep here (a `$ref` that loops?)")));
        }
        if !self.budget.spend(1) {
            return Err(at.mismatch("the check was ended".into()));
        }
        let s = match schema {
            Value::Object(s) => s,
            Value::Bool(false) => {
                return Err(at.mismatch(format!("{} is not allowed here (the schema is false)", quote(v))));
            }
            _ => return Ok(()),
        };
        let depth = depth + 1;
        if let Some(target) = s.get("$ref").and_then(Value::as_str).and_then(|r| resolve(self.root, r)) {
            self.check(target, v, at, depth)?;
        }
        kind(s, v, at)?;
        match v {
            Value::Number(n) => number(s, n, at)?,
            Value::String(t) => self.string(s, t, at)?,
            Value::Array(items) => self.array(s, items, v, at, depth)?,
            Value::Object(map) => self.object(s, map, v, at, depth)?,
            _ => {}
        }
        self.combinations(s, v, at, depth)?;
        self.condition(s, v, at, depth)
    }

    fn string(&self, s: &Schema, t: &str, at: &At<'_>) -> Checked {
        let (min, max) = (s.get("minLength").and_then(count), s.get("maxLength").and_then(count));
        if min.is_some() || max.is_some() {
            // JSON Schema counts characters (code points), not bytes.
            let len = t.chars().count() as u64;
            if let Some(min) = min.filter(|m| len < *m) {
                return Err(at.mismatch(format!("{} is shorter than {min} characters", quote(&t.into()))));
            }
            if let Some(max) = max.filter(|m| len > *m) {
                return Err(at.mismatch(format!("{} is longer than {max} characters", quote(&t.into()))));
            }
        }
        if let Some(Value::String(p)) = s.get("pattern")
            && self.patterns.get(p).is_some_and(|re| !re.is_match(t))
        {
            return Err(at.mismatch(format!(
                "{} does not match the pattern {}",
                quote(&t.into()),
                quote(&p.as_str().into())
            )));
        }
        Ok(())
    }

    fn array(&self, s: &Schema, items: &[Value], v: &Value, at: &At<'_>, depth: u32) -> Checked {
        let len = items.len() as u64;
        if let Some(min) = s.get("minItems").and_then(count).filter(|m| len < *m) {
            return Err(at.mismatch(format!("{} has fewer than {min} items", quote(v))));
        }
        if let Some(max) = s.get("maxItems").and_then(count).filter(|m| len > *m) {
            return Err(at.mismatch(format!("{} has more than {max} items", quote(v))));
        }
        if s.get("uniqueItems") == Some(&Value::Bool(true))
            && let Some(i) = unique::first_repeat(items, equal, &self.budget)
        {
            return Err(at.mismatch(format!("{} is not unique: {} appears twice", quote(v), quote(&items[i]))));
        }
        let (prefix, rest) = positional_schemas(s);
        for (i, item) in items.iter().enumerate() {
            if let Some(schema) = prefix.get(i).or(rest) {
                self.check(schema, item, &at.index(i), depth)?;
            }
        }
        if let Some(wanted) = s.get("contains") {
            let found = items.iter().filter(|x| self.check(wanted, x, at, depth).is_ok()).count() as u64;
            let min = s.get("minContains").and_then(count).unwrap_or(1);
            if found < min {
                return Err(
                    at.mismatch(format!("{} has {found} items matching `contains`, fewer than {min}", quote(v)))
                );
            }
            if let Some(max) = s.get("maxContains").and_then(count).filter(|m| found > *m) {
                return Err(at.mismatch(format!("{} has {found} items matching `contains`, more than {max}", quote(v))));
            }
        }
        Ok(())
    }

    fn object(&self, s: &Schema, map: &Map<String, Value>, v: &Value, at: &At<'_>, depth: u32) -> Checked {
        let len = map.len() as u64;
        if let Some(min) = s.get("minProperties").and_then(count).filter(|m| len < *m) {
            return Err(at.mismatch(format!("{} has fewer than {min} properties", quote(v))));
        }
        if let Some(max) = s.get("maxProperties").and_then(count).filter(|m| len > *m) {
            return Err(at.mismatch(format!("{} has more than {max} properties", quote(v))));
        }
        if let Some(required) = s.get("required") {
            present(map, required, at, None)?;
        }
        self.dependents(s, map, v, at, depth)?;
        if let Some(names) = s.get("propertyNames") {
            for k in map.keys() {
                self.check(names, &Value::String(k.clone()), &at.key(k), depth)?;
            }
        }
        self.properties(s, map, at, depth)
    }

    /// `properties`, `patternProperties` and `additionalProperties`, property by property.
    fn properties(&self, s: &Schema, map: &Map<String, Value>, at: &At<'_>, depth: u32) -> Checked {
        let named = s.get("properties").and_then(Value::as_object);
        let patterned = s.get("patternProperties").and_then(Value::as_object);
        let additional = s.get("additionalProperties");
        for (k, x) in map {
            let here = at.key(k);
            let mut described = false;
            if let Some(schema) = named.and_then(|p| p.get(k)) {
                described = true;
                self.check(schema, x, &here, depth)?;
            }
            for (p, schema) in patterned.into_iter().flatten() {
                if self.patterns.get(p).is_some_and(|re| re.is_match(k)) {
                    described = true;
                    self.check(schema, x, &here, depth)?;
                }
            }
            match additional {
                _ if described => {}
                Some(Value::Bool(false)) => {
                    return Err(at.mismatch(format!(
                        "{} is not an allowed property (additionalProperties is false)",
                        quote(&k.as_str().into())
                    )));
                }
                Some(schema) => self.check(schema, x, &here, depth)?,
                None => {}
            }
        }
        Ok(())
    }

    /// `dependentRequired`, `dependentSchemas` and draft-07's `dependencies`.
    fn dependents(&self, s: &Schema, map: &Map<String, Value>, v: &Value, at: &At<'_>, depth: u32) -> Checked {
        let groups =
            ["dependentRequired", "dependentSchemas", "dependencies"].map(|k| s.get(k).and_then(Value::as_object));
        for (k, dependent) in groups.into_iter().flatten().flatten() {
            if !map.contains_key(k) {
                continue;
            }
            match dependent {
                Value::Array(_) => present(map, dependent, at, Some(k))?,
                schema => self.check(schema, v, at, depth)?,
            }
        }
        Ok(())
    }

    fn combinations(&self, s: &Schema, v: &Value, at: &At<'_>, depth: u32) -> Checked {
        if let Some(Value::Array(all)) = s.get("allOf") {
            for schema in all {
                self.check(schema, v, at, depth)?;
            }
        }
        if let Some(Value::Array(any)) = s.get("anyOf")
            && !any.iter().any(|schema| self.check(schema, v, at, depth).is_ok())
        {
            return Err(at.mismatch(format!("{} matches none of the schemas in anyOf", quote(v))));
        }
        if let Some(Value::Array(one)) = s.get("oneOf") {
            match one.iter().filter(|schema| self.check(schema, v, at, depth).is_ok()).count() {
                1 => {}
                0 => return Err(at.mismatch(format!("{} matches none of the schemas in oneOf", quote(v)))),
                _ => return Err(at.mismatch(format!("{} matches more than one of the schemas in oneOf", quote(v)))),
            }
        }
        if let Some(not) = s.get("not")
            && self.check(not, v, at, depth).is_ok()
        {
            return Err(at.mismatch(format!("{} matches the schema in `not`", quote(v))));
        }
        Ok(())
    }

    /// `if`, `then`, `else`.
    fn condition(&self, s: &Schema, v: &Value, at: &At<'_>, depth: u32) -> Checked {
        let Some(condition) = s.get("if") else { return Ok(()) };
        let branch = if self.check(condition, v, at, depth).is_ok() { s.get("then") } else { s.get("else") };
        match branch {
            Some(schema) => self.check(schema, v, at, depth),
            None => Ok(()),
        }
    }
}

/// The schemas for items by position, and the one for the items after them: `prefixItems` and
/// `items`, or draft-07's `items` as a list and `additionalItems`.
fn positional_schemas(s: &Schema) -> (&[Value], Option<&Value>) {
    match (s.get("prefixItems"), s.get("items")) {
        (Some(Value::Array(prefix)), rest) => (prefix, rest),
        (None, Some(Value::Array(prefix))) => (prefix, s.get("additionalItems")),
        (_, rest) => (&[], rest),
    }
}

/// `type`, `enum` and `const`.
fn kind(s: &Schema, v: &Value, at: &At<'_>) -> Checked {
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(name) => has_type(v, name),
            Value::Array(names) => names.iter().any(|n| n.as_str().is_some_and(|n| has_type(v, n))),
            _ => true,
        };
        if !ok {
            return Err(at.mismatch(format!("{} is not of type {}", quote(v), type_list(t))));
        }
    }
    if let Some(Value::Array(options)) = s.get("enum")
        && !options.iter().any(|o| equal(o, v))
    {
        return Err(at.mismatch(format!("{} is not one of {}", quote(v), quote(&Value::Array(options.clone())))));
    }
    match s.get("const") {
        Some(c) if !equal(c, v) => Err(at.mismatch(format!("{} is not {}", quote(v), quote(c)))),
        _ => Ok(()),
    }
}

fn type_list(t: &Value) -> String {
    match t {
        Value::Array(names) => names.iter().map(quote).collect::<Vec<_>>().join(" or "),
        _ => quote(t),
    }
}

fn has_type(v: &Value, name: &str) -> bool {
    match name {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        // A number with no fractional part, `1.0` included.
        "integer" => {
            v.as_number().is_some_and(|n| n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0))
        }
        _ => false,
    }
}

/// `minimum`, `maximum` (with draft-04's boolean `exclusive…`), `exclusiveMinimum`,
/// `exclusiveMaximum` and `multipleOf`.
fn number(s: &Schema, n: &Number, at: &At<'_>) -> Checked {
    let bound = |k: &str| s.get(k).and_then(Value::as_number);
    let flag = |k: &str| s.get(k) == Some(&Value::Bool(true));
    let shown = Value::Number(n.clone());
    if let Some(m) = bound("minimum") {
        match (compare(n, m), flag("exclusiveMinimum")) {
            (Ordering::Less, _) => return Err(at.mismatch(format!("{shown} is less than the minimum of {m}"))),
            (Ordering::Equal, true) => return Err(at.mismatch(format!("{shown} is not above the minimum of {m}"))),
            _ => {}
        }
    }
    if let Some(m) = bound("maximum") {
        match (compare(n, m), flag("exclusiveMaximum")) {
            (Ordering::Greater, _) => return Err(at.mismatch(format!("{shown} is greater than the maximum of {m}"))),
            (Ordering::Equal, true) => return Err(at.mismatch(format!("{shown} is not below the maximum of {m}"))),
            _ => {}
        }
    }
    if let Some(m) = bound("exclusiveMinimum").filter(|m| compare(n, m) != Ordering::Greater) {
        return Err(at.mismatch(format!("{shown} is not above the exclusive minimum of {m}")));
    }
    if let Some(m) = bound("exclusiveMaximum").filter(|m| compare(n, m) != Ordering::Less) {
        return Err(at.mismatch(format!("{shown} is not below the exclusive maximum of {m}")));
    }
    match bound("multipleOf") {
        Some(m) if !is_multiple(n, m) => Err(at.mismatch(format!("{shown} is not a multiple of {m}"))),
        _ => Ok(()),
    }
}

/// Whole numbers compare exactly, others as floats.
fn compare(a: &Number, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x.cmp(&y);
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x.cmp(&y);
    }
    let (x, y) = (a.as_f64().unwrap_or(f64::NAN), b.as_f64().unwrap_or(f64::NAN));
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
}

/// Exact for whole numbers; for fractions, within rounding (`0.3` is a multiple of `0.1`).
fn is_multiple(n: &Number, m: &Number) -> bool {
    if let (Some(x), Some(y)) = (n.as_i64(), m.as_i64()) {
        return x.checked_rem(y) == Some(0);
    }
    let q = n.as_f64().unwrap_or(f64::NAN) / m.as_f64().unwrap_or(f64::NAN);
    q.is_finite() && (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

/// JSON equality as JSON Schema has it: `1` equals `1.0`.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| equal(p, q)))
        }
        _ => a == b,
    }
}

/// Every name in `names` is a property of `map`; `because` names the property that needs them.
fn present(map: &Map<String, Value>, names: &Value, at: &At<'_>, because: Option<&str>) -> Checked {
    let missing = names.as_array().into_iter().flatten().filter_map(Value::as_str).find(|n| !map.contains_key(*n));
    match (missing, because) {
        (None, _) => Ok(()),
        (Some(name), None) => Err(at.mismatch(format!("{} is a required property", quote(&name.into())))),
        (Some(name), Some(k)) => Err(at.mismatch(format!(
            "{} is a required property when {} is present",
            quote(&name.into()),
            quote(&k.into())
        ))),
    }
}
