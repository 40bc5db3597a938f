//! JSON Schema (format.md §4 (llm, tools) and §8): a tool's `parameters` and an `llm` node's `output_schema`, checked
//! when the graph is compiled, and values checked against them at run time.
//!
//! The keywords of draft 2020-12 that describe values are implemented here, with draft-07's
//! spellings (`definitions`, `items` as a list, `additionalItems`, `dependencies`) too. A
//! general-purpose validator crate brought half a megabyte of regex engines and URI
//! resolution into the editor's wasm for this; the subset a model's reply needs is small.
//!
//! | module | what |
//! |---|---|
//! | [`schema`] | checks a schema when it is compiled: keywords' types, `$ref`s, `pattern`s |
//! | [`validate`] | checks a value against a compiled schema |
//! | [`location`] | where in a value (or a schema) a check is, shown as a JSON path |
//! | `budget` | the work one check may take, and its deadline: [`CheckError`] |
//! | `unique` | `uniqueItems` in linear time |
//!
//! Not supported, and refused when compiled: `$ref` to anything but a place in the same
//! schema (`#`, `#/$defs/…`), `$dynamicRef`, and `unevaluatedProperties`/`unevaluatedItems`.
//! `format` is an annotation, as draft 2020-12 has it by default. `pattern` uses the syntax of
//! the `regex-lite` crate, which covers the ECMAScript patterns schemas use in practice
//! (classes, anchors, repetition, groups) but not look-around or `\p{…}`.

mod budget;
mod location;
mod schema;
mod unique;
mod validate;

use std::collections::HashMap;
use std::fmt;

use regex_lite::Regex;
use serde_json::Value;

use location::At;

pub use self::budget::{CheckError, MAX_WORK};

/// A compiled JSON Schema, with the document it came from (sent to model providers).
pub struct JsonSchema {
    source: Value,
    /// Every `pattern` and `patternProperties` key, compiled once.
    patterns: HashMap<String, Regex>,
}

impl fmt::Debug for JsonSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonSchema").field("source", &self.source).finish()
    }
}

/// Where a value breaks its schema, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// A JSON path into the value: `$`, `$.items[0].name`.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.path, self.message)
    }
}

impl std::error::Error for Mismatch {}

impl JsonSchema {
    /// Compiles `schema`; a schema that is not valid JSON Schema, or whose references cannot
    /// be resolved, is a [`Mismatch`] whose path points into the schema itself.
    pub fn compile(schema: &Value) -> Result<JsonSchema, Mismatch> {
        let patterns = schema::check(schema)?;
        Ok(JsonSchema { source: schema.clone(), patterns })
    }

    /// The schema as written.
    pub fn source(&self) -> &Value {
        &self.source
    }

    /// Checks `value`: the first place it breaks the schema, or why checking ended first (it
    /// took more than [`MAX_WORK`] units of work).
    pub fn check(&self, value: &Value) -> Result<(), CheckError> {
        self.check_until(value, &|| false)
    }

    /// [`JsonSchema::check`], also ended ([`CheckError::Stopped`]) once `stop` says the
    /// caller's deadline has passed; `stop` is asked every few thousand units of work.
    pub fn check_until(&self, value: &Value, stop: &dyn Fn() -> bool) -> Result<(), CheckError> {
        let validator = validate::Validator::new(&self.source, &self.patterns, stop);
        let checked = validator.check(&self.source, value, &At::Root, 0);
        match validator.ended() {
            Some(ended) => Err(ended),
            None => checked.map_err(CheckError::Mismatch),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Where `v` breaks `s` (a check that ends early is a failed test).
    fn check(s: &JsonSchema, v: &Value) -> Result<(), Mismatch> {
        s.check(v).map_err(|e| match e {
            CheckError::Mismatch(m) => m,
            other => panic!("{other}"),
        })
    }

    fn schema(s: Value) -> JsonSchema {
        JsonSchema::compile(&s).unwrap_or_else(|e| panic!("{s} does not compile: {e}"))
    }

    #[test]
    fn a_mismatch_names_its_path() {
        let s = schema(json!({
            "type": "object",
            "properties": { "items": { "type": "array", "items": { "type": "object",
                "properties": { "n": { "type": "integer" }, "odd key": { "type": "string" } } } } }
        }));
        assert!(check(&s, &json!({"items": [{"n": 1}]})).is_ok());
        let e = check(&s, &json!({"items": [{"n": 1}, {"n": "x"}]})).unwrap_err();
        assert_eq!(e.path, "$.items[1].n");
        assert!(e.message.contains("integer"), "{e}");
        let e = check(&s, &json!({"items": [{"odd key": 2}]})).unwrap_err();
        assert_eq!(e.path, "$.items[0][\"odd key\"]");
    }

    #[test]
    fn invalid_schemas_are_refused_with_a_path_into_the_schema() {
        let e = JsonSchema::compile(&json!({"type": "strnig"})).unwrap_err();
        assert!(e.message.contains("strnig"), "{e}");
        assert_eq!(e.path, "$.type");
        let e = JsonSchema::compile(&json!({"properties": {"a": {"minLength": -1}}})).unwrap_err();
        assert_eq!(e.path, "$.properties.a.minLength");
        let e = JsonSchema::compile(&json!({"$ref": "https://example.com/s.json"})).unwrap_err();
        assert!(e.message.contains("inside the schema"), "{e}");
        let e = JsonSchema::compile(&json!({"$ref": "#/$defs/missing"})).unwrap_err();
        assert!(e.message.contains("#/$defs/missing"), "{e}");
        let e = JsonSchema::compile(&json!({"items": {"pattern": "(unclosed"}})).unwrap_err();
        assert_eq!(e.path, "$.items.pattern");
        assert!(JsonSchema::compile(&json!({"required": ["a", "a"]})).is_err());
        assert!(JsonSchema::compile(&json!({"anyOf": []})).is_err());
        assert!(JsonSchema::compile(&json!({"unevaluatedProperties": false})).is_err());
        assert!(JsonSchema::compile(&json!("object")).is_err());
        assert!(JsonSchema::compile(&json!(true)).is_ok());
        // Unknown keywords and annotations are allowed, as JSON Schema says.
        assert!(JsonSchema::compile(&json!({"x-ui": 1, "title": "t", "format": "email"})).is_ok());
    }

    #[test]
    fn types_and_numbers() {
        let s = schema(json!({"type": ["integer", "null"], "minimum": 1, "exclusiveMaximum": 10, "multipleOf": 3}));
        assert!(check(&s, &json!(3)).is_ok());
        assert!(check(&s, &json!(6.0)).is_ok(), "6.0 is an integer in JSON Schema");
        assert!(check(&s, &json!(null)).is_ok());
        assert!(check(&s, &json!(2.5)).unwrap_err().message.contains("integer"));
        assert!(check(&s, &json!(0)).unwrap_err().message.contains("minimum"));
        assert!(check(&s, &json!(12)).unwrap_err().message.contains("maximum"));
        assert!(check(&s, &json!(4)).unwrap_err().message.contains("multiple of 3"));
        let s = schema(json!({"type": "number", "multipleOf": 0.1}));
        assert!(check(&s, &json!(0.3)).is_ok(), "0.3 is a multiple of 0.1 despite float rounding");
        assert!(check(&s, &json!(0.35)).is_err());
    }

    #[test]
    fn strings() {
        let s = schema(json!({"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-zé]+$"}));
        assert!(check(&s, &json!("éé")).is_ok(), "lengths count characters, not bytes");
        assert!(check(&s, &json!("a")).unwrap_err().message.contains("shorter"));
        assert!(check(&s, &json!("abcd")).unwrap_err().message.contains("longer"));
        assert!(check(&s, &json!("A1")).unwrap_err().message.contains("^[a-zé]+$"));
        assert!(check(&s, &json!(7)).unwrap_err().message.contains("string"));
    }

    #[test]
    fn objects() {
        let s = schema(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "patternProperties": {"^x-": {"type": "integer"}},
            "additionalProperties": false,
            "required": ["a"],
            "dependentRequired": {"b": ["a"]},
            "propertyNames": {"maxLength": 5},
            "maxProperties": 3
        }));
        assert!(check(&s, &json!({"a": "1", "x-n": 2})).is_ok());
        let e = check(&s, &json!({})).unwrap_err();
        assert_eq!((e.path.as_str(), e.message.contains("\"a\" is a required property")), ("$", true), "{e}");
        let e = check(&s, &json!({"a": "1", "x-n": "2"})).unwrap_err();
        assert_eq!(e.path, "$[\"x-n\"]");
        let e = check(&s, &json!({"a": "1", "zz": 1})).unwrap_err();
        assert!(e.message.contains("zz"), "{e}");
        assert!(check(&s, &json!({"a": "1", "x-long-name": 1})).is_err());
        let s = schema(json!({"additionalProperties": {"type": "boolean"}, "minProperties": 1}));
        assert!(check(&s, &json!({"q": true})).is_ok());
        assert_eq!(check(&s, &json!({"q": 1})).unwrap_err().path, "$.q");
        assert!(check(&s, &json!({})).is_err());
    }

    #[test]
    fn arrays() {
        let s = schema(json!({"prefixItems": [{"type": "string"}], "items": {"type": "integer"},
            "minItems": 1, "maxItems": 3, "uniqueItems": true, "contains": {"const": 2}}));
        assert!(check(&s, &json!(["a", 1, 2])).is_ok());
        assert_eq!(check(&s, &json!(["a", "b"])).unwrap_err().path, "$[1]");
        assert!(check(&s, &json!(["a", 2, 2.0])).unwrap_err().message.contains("unique"));
        assert!(check(&s, &json!(["a", 1])).is_err(), "contains 2");
        assert!(check(&s, &json!([])).is_err());
        // Draft-07's tuple form.
        let s = schema(json!({"items": [{"type": "string"}], "additionalItems": false}));
        assert!(check(&s, &json!(["a"])).is_ok());
        assert!(check(&s, &json!(["a", 1])).is_err());
    }

    #[test]
    fn combinations_references_and_conditions() {
        let s = schema(json!({
            "$defs": {"pos": {"type": "integer", "minimum": 1}, "tree": {
                "type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}}},
            "type": "object",
            "properties": {
                "n": {"$ref": "#/$defs/pos"},
                "t": {"$ref": "#/$defs/tree"},
                "kind": {"enum": ["a", "b", 1]},
                "v": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "w": {"oneOf": [{"minimum": 0}, {"maximum": 10}]},
                "x": {"not": {"const": "no"}},
                "y": {"allOf": [{"type": "string"}, {"minLength": 1}]}
            },
            "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            "then": {"required": ["n"]}
        }));
        assert!(check(&s, &json!({"n": 1, "kind": "a", "v": 2, "w": -1, "x": "yes", "y": "z"})).is_ok());
        assert_eq!(check(&s, &json!({"n": 0})).unwrap_err().path, "$.n");
        assert!(check(&s, &json!({"kind": 1.0})).is_ok(), "1.0 equals 1 in enum");
        assert!(check(&s, &json!({"kind": "c"})).is_err());
        assert!(check(&s, &json!({"v": true})).unwrap_err().message.contains("anyOf"));
        assert!(check(&s, &json!({"w": 5})).unwrap_err().message.contains("more than one"));
        assert!(check(&s, &json!({"x": "no"})).is_err());
        assert!(check(&s, &json!({"y": ""})).is_err());
        assert!(check(&s, &json!({"kind": "a"})).unwrap_err().message.contains("\"n\""));
        assert!(check(&s, &json!({"kind": "b"})).is_ok());
        let e = check(&s, &json!({"t": {"kids": [{"kids": [{"kids": 3}]}]}})).unwrap_err();
        assert_eq!(e.path, "$.t.kids[0].kids[0].kids");
    }

    #[test]
    fn a_reference_loop_is_an_error_not_a_hang() {
        let e = JsonSchema::compile(&json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
            "$ref": "#/$defs/a"}))
        .unwrap_err();
        assert!(e.message.contains("loop"), "{e}");
        // A loop through allOf is only found when a value is checked.
        let s = schema(json!({"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}));
        assert!(check(&s, &json!(1)).unwrap_err().message.contains("deep"));
    }

    #[test]
    fn a_schema_that_takes_exponential_time_is_ended_by_its_work_ceiling_or_deadline() {
        // Both branches refer back to the schema: every level of the list is checked twice
        // over, 2⁴⁰ checks for this value.
        let s = schema(json!({"oneOf": [{"items": {"$ref": "#"}}, {"items": {"$ref": "#"}}]}));
        let mut deep = json!([]);
        for _ in 0..40 {
            deep = json!([deep]);
        }
        assert_eq!(s.check(&deep), Err(CheckError::TooMuchWork));
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() == 3
        };
        assert_eq!(s.check_until(&deep, &stop), Err(CheckError::Stopped));
        assert_eq!(asked.get(), 3, "asked again after it said stop");
        // The same schema on a small value is checked to the end.
        assert!(check(&s, &json!([[1]])).is_err());
    }

    #[test]
    fn unique_items_takes_linear_time() {
        // 100,000 items: comparing every pair took minutes.
        let s = schema(json!({"uniqueItems": true}));
        let mut items: Vec<Value> = (0..100_000).map(|i| json!({"n": i, "tags": ["a", i]})).collect();
        let t0 = std::time::Instant::now();
        assert!(check(&s, &Value::Array(items.clone())).is_ok());
        items.push(json!({"tags": ["a", 7.0], "n": 7}));
        let e = check(&s, &Value::Array(items)).unwrap_err();
        assert!(e.message.contains("appears twice"), "{e}");
        assert!(t0.elapsed() < std::time::Duration::from_secs(20), "took {:?}", t0.elapsed());
        // Equal as JSON Schema has it, not as text: `1` and `1.0`, keys in any order.
        assert!(check(&s, &json!([1, 1.0])).is_err());
        assert!(check(&s, &json!([9007199254740993_i64, 9007199254740992_i64])).is_ok());
        assert!(check(&s, &json!([0.0, -0.0])).is_err());
    }
}
