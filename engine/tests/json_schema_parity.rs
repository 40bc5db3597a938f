//! Our JSON Schema validator (`engine::json_schema`) agrees with the `jsonschema` crate, a
//! widely used implementation of draft 2020-12, on which values match: the same schemas,
//! many generated values, the same verdict.
#![cfg(not(target_arch = "wasm32"))]

use engine::json_schema::JsonSchema;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Schemas using every keyword the validator implements, in the forms draft 2020-12 has.
fn schemas() -> Vec<Value> {
    vec![
        json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}, "required": ["a"]}),
        json!({"type": ["integer", "null"], "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 2}),
        json!({"type": "number", "exclusiveMinimum": -2, "maximum": 7}),
        json!({"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^[a-c]+$"}),
        json!({"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3, "uniqueItems": true}),
        json!({"prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": false}),
        json!({"type": "array", "contains": {"type": "string"}, "minContains": 2, "maxContains": 3}),
        json!({"type": "object", "additionalProperties": false, "properties": {"a": true},
            "patternProperties": {"^x-": {"type": "integer"}}}),
        json!({"type": "object", "additionalProperties": {"type": "boolean"}, "minProperties": 1, "maxProperties": 2}),
        json!({"propertyNames": {"maxLength": 1}, "dependentRequired": {"a": ["b"]}}),
        json!({"dependentSchemas": {"a": {"required": ["n"]}}}),
        json!({"enum": [1, "a", [1, 2], {"k": null}, null]}),
        json!({"const": {"a": [1, "x"]}}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]}),
        json!({"oneOf": [{"type": "integer"}, {"minimum": 3}]}),
        json!({"allOf": [{"type": "object"}, {"required": ["b"]}], "not": {"required": ["n"]}}),
        json!({"if": {"properties": {"a": {"const": 1}}, "required": ["a"]}, "then": {"required": ["b"]},
            "else": {"properties": {"b": {"type": "integer"}}}}),
        json!({"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            "n": {"$ref": "#/$defs/small"}}}, "small": {"type": "integer", "maximum": 3}}, "$ref": "#/$defs/node"}),
        json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object",
            "properties": {"n": {"type": "integer"}}, "required": ["n"]}}}}),
        json!(false),
        json!(true),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..12).prop_map(Value::from),
        (-3i64..12).prop_map(|n| json!(n as f64 + 0.5)),
        (-3i64..12).prop_map(|n| json!(n as f64)),
        prop::sample::select(vec!["", "a", "ab", "abc", "abcd", "A", "x"]).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec!["a", "b", "n", "x-1", "kids", "items", "k", "zz"]),
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn same_verdict_as_a_reference_validator(v in value()) {
        for s in schemas() {
            let ours = JsonSchema::compile(&s).expect("every schema here compiles");
            let theirs = jsonschema::validator_for(&s).expect("every schema here compiles");
            let (a, b) = (ours.check(&v).is_ok(), theirs.is_valid(&v));
            prop_assert_eq!(a, b, "schema {} value {}: ours {:?}", s, v, ours.check(&v));
        }
    }
}

#[test]
fn a_schema_the_reference_refuses_is_refused() {
    let bad = [
        json!({"type": "strnig"}),
        json!({"minLength": -1}),
        json!({"required": "a"}),
        json!({"properties": {"a": 3}}),
        json!({"multipleOf": 0}),
        json!({"pattern": "(unclosed"}),
        json!({"anyOf": []}),
    ];
    for s in bad {
        assert!(jsonschema::validator_for(&s).is_err(), "the reference accepts {s}");
        assert!(JsonSchema::compile(&s).is_err(), "ours accepts {s}");
    }
}
