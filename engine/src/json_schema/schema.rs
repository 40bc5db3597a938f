//! A schema checked when it is compiled: each keyword's value has the shape the keyword needs,
//! every `$ref` points at a schema inside the document, every pattern compiles. This stands in
//! for checking against the meta-schema, with messages that say what is expected.

use std::collections::HashMap;

use regex_lite::{Regex, RegexBuilder};
use serde_json::{Map, Value};

use super::Mismatch;
use super::location::{At, quote};

/// The longest chain of `$ref`s that each point straight at another `$ref`; longer is a loop.
const MAX_REF_CHAIN: usize = 64;
/// A compiled pattern's size ceiling in bytes: schemas come with untrusted graphs.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The names `type` takes.
pub(super) const TYPES: [&str; 7] = ["null", "boolean", "object", "array", "number", "string", "integer"];

/// Checks the schema `root`; its compiled patterns, keyed by their source.
pub(super) fn check(root: &Value) -> Result<HashMap<String, Regex>, Mismatch> {
    let mut check = SchemaCheck { root, patterns: HashMap::new() };
    check.schema(root, &At::Root)?;
    Ok(check.patterns)
}

/// What `reference` (`#`, `#/$defs/name`, a JSON pointer in a URI fragment) points at in `root`.
pub(super) fn resolve<'r>(root: &'r Value, reference: &str) -> Option<&'r Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    root.pointer(&percent_decode(pointer)?)
}

/// `%XX` escapes in a URI fragment; `None` when an escape is malformed.
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

struct SchemaCheck<'r> {
    root: &'r Value,
    patterns: HashMap<String, Regex>,
}

impl SchemaCheck<'_> {
    fn schema(&mut self, s: &Value, at: &At<'_>) -> Result<(), Mismatch> {
        match s {
            Value::Bool(_) => Ok(()),
            Value::Object(map) => {
                for (k, v) in map {
                    self.keyword(k, v, &at.key(k))?;
                }
                Ok(())
            }
            other => {
                Err(at.mismatch(format!("{} is not a schema: a schema is an object, true or false", quote(other))))
            }
        }
    }

    fn keyword(&mut self, k: &str, v: &Value, at: &At<'_>) -> Result<(), Mismatch> {
        match k {
            "type" => type_names(v, at),
            "properties" | "$defs" | "definitions" | "dependentSchemas" => self.schema_map(v, at),
            "patternProperties" => self.pattern_properties(v, at),
            "items" => match v {
                // Draft-07's tuple form.
                Value::Array(list) => self.schema_list(list, at),
                _ => self.schema(v, at),
            },
            "prefixItems" | "allOf" | "anyOf" | "oneOf" => match v {
                Value::Array(list) if !list.is_empty() => self.schema_list(list, at),
                _ => Err(at.mismatch(format!("`{k}` must be a non-empty list of schemas"))),
            },
            "additionalItems"
            | "additionalProperties"
            | "contains"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else" => self.schema(v, at),
            "enum" => expect(v.is_array(), at, "`enum` must be a list of values"),
            "minimum" | "maximum" => expect(v.is_number(), at, &format!("`{k}` must be a number")),
            "exclusiveMinimum" | "exclusiveMaximum" => {
                // A boolean is draft-04's form, modifying `minimum`/`maximum`.
                expect(v.is_number() || v.is_boolean(), at, &format!("`{k}` must be a number"))
            }
            "multipleOf" => expect(v.as_f64().is_some_and(|m| m > 0.0), at, "`multipleOf` must be a number above 0"),
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minContains"
            | "maxContains" => expect(count(v).is_some(), at, &format!("`{k}` must be a whole number, 0 or more")),
            "required" => names(v, at),
            "dependentRequired" => match v {
                Value::Object(map) => map.iter().try_for_each(|(key, list)| names(list, &at.key(key))),
                _ => Err(at.mismatch("`dependentRequired` must map names to lists of names".into())),
            },
            "dependencies" => self.dependencies(v, at),
            "uniqueItems" => expect(v.is_boolean(), at, "`uniqueItems` must be true or false"),
            "pattern" => match v {
                Value::String(p) => self.pattern(p, at),
                _ => Err(at.mismatch("`pattern` must be a string".into())),
            },
            "$ref" => self.reference(v, at),
            "$schema" | "$id" | "$anchor" | "$comment" | "title" | "description" | "format" => {
                expect(v.is_string(), at, &format!("`{k}` must be a string"))
            }
            "unevaluatedProperties" | "unevaluatedItems" | "$dynamicRef" | "$recursiveRef" => {
                Err(at.mismatch(format!("`{k}` is not supported")))
            }
            // Annotations (`default`, `examples`, …) and keywords JSON Schema does not define
            // are allowed and ignored, as the standard says.
            _ => Ok(()),
        }
    }

    fn schema_map(&mut self, v: &Value, at: &At<'_>) -> Result<(), Mismatch> {
        match v {
            Value::Object(map) => map.iter().try_for_each(|(k, s)| self.schema(s, &at.key(k))),
            other => Err(at.mismatch(format!("{} must map names to schemas", quote(other)))),
        }
    }

    fn schema_list(&mut self, list: &[Value], at: &At<'_>) -> Result<(), Mismatch> {
        list.iter().enumerate().try_for_each(|(i, s)| self.schema(s, &at.index(i)))
    }

    fn pattern_properties(&mut self, v: &Value, at: &At<'_>) -> Result<(), Mismatch> {
        self.schema_map(v, at)?;
        let keys = v.as_object().map(Map::keys).into_iter().flatten();
        keys.into_iter().try_for_each(|p| self.pattern(p, &at.key(p)))
    }

    fn dependencies(&mut self, v: &Value, at: &At<'_>) -> Result<(), Mismatch> {
        let Value::Object(map) = v else {
            return Err(at.mismatch("`dependencies` must map names to lists of names or to schemas".into()));
        };
        map.iter().try_for_each(|(k, d)| match d {
            Value::Array(_) => names(d, &at.key(k)),
            _ => self.schema(d, &at.key(k)),
        })
    }

    fn pattern(&mut self, p: &str, at: &At<'_>) -> Result<(), Mismatch> {
        if self.patterns.contains_key(p) {
            return Ok(());
        }
        match RegexBuilder::new(p).size_limit(PATTERN_SIZE_LIMIT).build() {
            Ok(re) => {
                self.patterns.insert(p.to_string(), re);
                Ok(())
            }
            Err(e) => Err(at.mismatch(format!("the pattern {} does not compile: {e}", quote(&Value::from(p))))),
        }
    }

    fn reference(&mut self, v: &Value, at: &At<'_>) -> Result<(), Mismatch> {
        let Value::String(r) = v else {
            return Err(at.mismatch("`$ref` must be a string".into()));
        };
        if !r.starts_with('#') {
            return Err(
                at.mismatch(format!("`{r}`: only references inside the schema are supported (`#`, `#/$defs/name`)"))
            );
        }
        let Some(mut target) = resolve(self.root, r) else {
            return Err(at.mismatch(format!("`{r}` points at nothing in this schema")));
        };
        if !(target.is_object() || target.is_boolean()) {
            return Err(at.mismatch(format!("`{r}` points at {}, which is not a schema", quote(target))));
        }
        for _ in 0..MAX_REF_CHAIN {
            match target.get("$ref").and_then(Value::as_str).and_then(|next| resolve(self.root, next)) {
                Some(next) => target = next,
                // The next reference, if broken, is reported where it is written.
                None => return Ok(()),
            }
        }
        Err(at.mismatch(format!("`{r}`: the references loop without reaching a schema")))
    }
}

fn expect(ok: bool, at: &At<'_>, message: &str) -> Result<(), Mismatch> {
    if ok { Ok(()) } else { Err(at.mismatch(message.to_string())) }
}

/// A whole number, 0 or more (`2.0` counts, as in draft 2020-12).
pub(super) fn count(v: &Value) -> Option<u64> {
    match v.as_u64() {
        Some(n) => Some(n),
        None => v.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64),
    }
}

fn type_names(v: &Value, at: &At<'_>) -> Result<(), Mismatch> {
    let one = |t: &Value, at: &At<'_>| match t.as_str() {
        Some(name) if TYPES.contains(&name) => Ok(()),
        _ => Err(at.mismatch(format!("{} is not a type: one of {}", quote(t), TYPES.join(", ")))),
    };
    match v {
        Value::Array(list) if !list.is_empty() => {
            list.iter().enumerate().try_for_each(|(i, t)| one(t, &at.index(i)))?;
            unique(list, at)
        }
        Value::Array(_) => Err(at.mismatch("`type` must name at least one type".into())),
        _ => one(v, at),
    }
}

/// A list of distinct property names (`required`, `dependentRequired`).
fn names(v: &Value, at: &At<'_>) -> Result<(), Mismatch> {
    let Value::Array(list) = v else {
        return Err(at.mismatch(format!("{} must be a list of property names", quote(v))));
    };
    for (i, name) in list.iter().enumerate() {
        expect(name.is_string(), &at.index(i), &format!("{} is not a property name", quote(name)))?;
    }
    unique(list, at)
}

fn unique(list: &[Value], at: &At<'_>) -> Result<(), Mismatch> {
    match list.iter().enumerate().find(|(i, x)| list[..*i].contains(x)) {
        Some((i, x)) => Err(at.index(i).mismatch(format!("{} is listed twice", quote(x)))),
        None => Ok(()),
    }
}
