use serde_json::{Value, json};

use super::*;

/// One case: a schema, a value, and whether the value is valid. Every case is also put to
/// the `jsonschema` crate (a full implementation, a dev-dependency only), which must agree.
struct Case {
    name: &'static str,
    schema: Value,
    value: Value,
    valid: bool,
}

fn case(name: &'static str, schema: Value, value: Value, valid: bool) -> Case {
    Case {
        name,
        schema,
        value,
        valid,
    }
}

fn table() -> Vec<Case> {
    let note = json!({
        "type": "object",
        "properties": {
            "text": {"type": "string", "minLength": 1, "maxLength": 5},
            "lines": {"type": "integer", "minimum": 1},
            "title": {"type": ["string", "null"]}
        },
        "required": ["text", "lines"],
        "additionalProperties": false
    });
    vec![
        // type, including arrays of types and integers written as 1.0
        case("string", json!({"type": "string"}), json!("a"), true),
        case(
            "string, got number",
            json!({"type": "string"}),
            json!(1),
            false,
        ),
        case("integer 1", json!({"type": "integer"}), json!(1), true),
        case("integer 1.0", json!({"type": "integer"}), json!(1.0), true),
        case("integer 1.5", json!({"type": "integer"}), json!(1.5), false),
        case("number 0.1", json!({"type": "number"}), json!(0.1), true),
        case(
            "null or string: null",
            json!({"type": ["string", "null"]}),
            json!(null),
            true,
        ),
        case(
            "null or string: 3",
            json!({"type": ["string", "null"]}),
            json!(3),
            false,
        ),
        case("boolean", json!({"type": "boolean"}), json!(false), true),
        case(
            "array, got object",
            json!({"type": "array"}),
            json!({}),
            false,
        ),
        // objects
        case(
            "note ok",
            note.clone(),
            json!({"text": "hi", "lines": 1, "title": null}),
            true,
        ),
        case(
            "note: required missing",
            note.clone(),
            json!({"text": "hi"}),
            false,
        ),
        case(
            "note: extra key",
            note.clone(),
            json!({"text": "hi", "lines": 1, "x": 1}),
            false,
        ),
        case(
            "note: wrong type inside",
            note.clone(),
            json!({"text": "hi", "lines": "1"}),
            false,
        ),
        case(
            "note: too long",
            note.clone(),
            json!({"text": "héllo!", "lines": 1}),
            false,
        ),
        case(
            "note: 5 code points",
            note.clone(),
            json!({"text": "héllo", "lines": 1}),
            true,
        ),
        case(
            "note: empty text",
            note,
            json!({"text": "", "lines": 1}),
            false,
        ),
        case(
            "additionalProperties schema",
            json!({"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}),
            json!({"a": "x", "b": 2}),
            true,
        ),
        case(
            "additionalProperties schema broken",
            json!({"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}),
            json!({"a": "x", "b": "2"}),
            false,
        ),
        case(
            "minProperties",
            json!({"minProperties": 2}),
            json!({"a": 1}),
            false,
        ),
        case(
            "maxProperties",
            json!({"maxProperties": 1}),
            json!({"a": 1}),
            true,
        ),
        case(
            "propertyNames",
            json!({"propertyNames": {"maxLength": 3}}),
            json!({"long-name": 1}),
            false,
        ),
        case(
            "dependentRequired",
            json!({"dependentRequired": {"card": ["cvc"]}}),
            json!({"card": "4242"}),
            false,
        ),
        case(
            "dependentSchemas",
            json!({"dependentSchemas": {"card": {"required": ["cvc"]}}}),
            json!({"card": "4242", "cvc": "123"}),
            true,
        ),
        // arrays
        case(
            "items",
            json!({"items": {"type": "string"}}),
            json!(["a", "b"]),
            true,
        ),
        case(
            "items broken",
            json!({"items": {"type": "string"}}),
            json!(["a", 2]),
            false,
        ),
        case(
            "prefixItems then items",
            json!({"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}),
            json!([1, "a", "b"]),
            true,
        ),
        case(
            "prefixItems then items broken",
            json!({"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}),
            json!([1, 2]),
            false,
        ),
        case(
            "prefixItems, items false",
            json!({"prefixItems": [{"type": "integer"}], "items": false}),
            json!([1, 2]),
            false,
        ),
        case("minItems", json!({"minItems": 2}), json!([1]), false),
        case("maxItems", json!({"maxItems": 2}), json!([1, 2]), true),
        case(
            "uniqueItems",
            json!({"uniqueItems": true}),
            json!([1, 2, 1.0]),
            false,
        ),
        case(
            "uniqueItems ok",
            json!({"uniqueItems": true}),
            json!([{"a": 1}, {"a": 2}]),
            true,
        ),
        case(
            "contains",
            json!({"contains": {"const": 3}}),
            json!([1, 2]),
            false,
        ),
        case(
            "maxContains",
            json!({"contains": {"type": "integer"}, "maxContains": 1}),
            json!([1, 2]),
            false,
        ),
        // numbers
        case("minimum", json!({"minimum": 1}), json!(0), false),
        case("maximum", json!({"maximum": 1}), json!(1), true),
        case(
            "exclusiveMinimum",
            json!({"exclusiveMinimum": 1}),
            json!(1),
            false,
        ),
        case(
            "exclusiveMaximum",
            json!({"exclusiveMaximum": 1.5}),
            json!(1.4),
            true,
        ),
        case(
            "multipleOf integer",
            json!({"multipleOf": 3}),
            json!(9),
            true,
        ),
        case(
            "multipleOf fraction",
            json!({"multipleOf": 0.5}),
            json!(1.5),
            true,
        ),
        case(
            "multipleOf broken",
            json!({"multipleOf": 2}),
            json!(3),
            false,
        ),
        case(
            "bounds ignore strings",
            json!({"minimum": 5}),
            json!("1"),
            true,
        ),
        // enum and const, numbers compared by value
        case(
            "enum",
            json!({"enum": ["LF", "CRLF", "CR"]}),
            json!("CRLF"),
            true,
        ),
        case(
            "enum broken",
            json!({"enum": ["LF", "CRLF", "CR"]}),
            json!("crlf"),
            false,
        ),
        case("enum 1 vs 1.0", json!({"enum": [1, 2]}), json!(1.0), true),
        case(
            "const",
            json!({"const": {"a": [1]}}),
            json!({"a": [1]}),
            true,
        ),
        case("const broken", json!({"const": null}), json!(false), false),
        // combinations
        case(
            "anyOf",
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!(null),
            true,
        ),
        case(
            "anyOf none",
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!(1),
            false,
        ),
        case(
            "oneOf two match",
            json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
            json!(1),
            false,
        ),
        case(
            "oneOf one match",
            json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
            json!(-1),
            true,
        ),
        case(
            "allOf",
            json!({"allOf": [{"type": "integer"}, {"minimum": 0}]}),
            json!(-1),
            false,
        ),
        case("not", json!({"not": {"type": "null"}}), json!(null), false),
        case(
            "if then",
            json!({"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}),
            json!({"kind": "a"}),
            false,
        ),
        case(
            "if else",
            json!({"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}),
            json!({"kind": "z", "b": 1}),
            true,
        ),
        // boolean schemas
        case("true schema", json!(true), json!({"any": "thing"}), true),
        case(
            "false schema",
            json!({"properties": {"x": false}}),
            json!({"x": 1}),
            false,
        ),
        // local $ref, 2020-12 $defs and draft-07 definitions, and recursion
        case(
            "$ref to $defs",
            json!({"$defs": {"ending": {"enum": ["LF", "CRLF"]}}, "items": {"$ref": "#/$defs/ending"}}),
            json!(["LF", "CR"]),
            false,
        ),
        case(
            "$ref to definitions",
            json!({"definitions": {"n": {"type": "integer"}}, "properties": {"n": {"$ref": "#/definitions/n"}}}),
            json!({"n": 2}),
            true,
        ),
        case(
            "recursive $ref",
            json!({"type": "object", "properties": {"child": {"$ref": "#"}, "v": {"type": "integer"}}}),
            json!({"v": 1, "child": {"v": 2, "child": {"v": "three"}}}),
            false,
        ),
        case(
            "$ref with siblings (2020-12)",
            json!({"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 2}),
            json!("abc"),
            false,
        ),
        // annotations assert nothing
        case(
            "format is an annotation",
            json!({"type": "string", "format": "email"}),
            json!("not an address"),
            true,
        ),
        case(
            "unknown keywords are ignored",
            json!({"type": "string", "x-mcp-header": "Region", "nullable": true}),
            json!("eu"),
            true,
        ),
    ]
}

#[test]
fn every_case_of_the_table() {
    for case in table() {
        let checked = check(&case.schema, &case.value);
        assert_eq!(
            checked.is_valid(),
            case.valid,
            "{}: {:?}",
            case.name,
            checked.violations
        );
        assert!(!checked.cut_short, "{}", case.name);
    }
}

#[test]
fn a_full_validator_agrees_with_every_case() {
    for case in table() {
        let full = jsonschema::validator_for(&case.schema)
            .unwrap_or_else(|error| panic!("{}: {error}", case.name));
        assert_eq!(
            full.is_valid(&case.value),
            case.valid,
            "{}: the table disagrees with the jsonschema crate",
            case.name
        );
    }
}

#[test]
fn violations_say_where_and_why() {
    let schema = json!({
        "type": "object",
        "properties": {
            "lines": {"type": "integer"},
            "items": {"type": "array", "items": {"enum": ["LF", "CRLF"]}},
            "a/b": {"type": "string"}
        },
        "required": ["title"],
        "additionalProperties": false
    });
    let checked = check(
        &schema,
        &json!({"lines": "3", "items": ["LF", "lf"], "a/b": 1, "extra": true}),
    );
    let said: Vec<String> = checked.violations.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "/lines: expected integer, got string",
            "/items/1: expected one of [\"LF\",\"CRLF\"], got \"lf\"",
            "/a~1b: expected string, got integer",
            "(root): `title` is required",
            "(root): `extra` is not allowed (additionalProperties is false)",
        ]
    );
    assert_eq!(checked.violations[0].keyword, "type");
    assert_eq!(checked.more, 0);
}

#[test]
fn what_is_not_checked_is_named() {
    let schema = json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]+$"},
            "remote": {"$ref": "https://example.com/schema.json"},
            "later": {"$dynamicRef": "#meta"}
        },
        "unevaluatedProperties": false,
        "x-vendor": 1
    });
    let checked = check(
        &schema,
        &json!({"code": "lower", "remote": 1, "later": 2, "more": 3}),
    );
    assert!(checked.is_valid(), "{:?}", checked.violations);
    assert_eq!(
        checked.not_checked,
        [
            "pattern",
            "$ref https://example.com/schema.json",
            "$dynamicRef",
            "unevaluatedProperties"
        ]
    );
}

#[test]
fn a_hostile_schema_is_cut_short_not_looped() {
    // Refers to itself without consuming the value: only the depth bound ends it.
    let schema = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
    let checked = check(&schema, &json!(1));
    assert!(checked.cut_short);
    // A wide, deep union: the visit budget ends it.
    let mut wide = json!({"type": "integer"});
    for _ in 0..10 {
        wide = json!({"anyOf": [wide.clone(), wide.clone(), wide]});
    }
    assert!(check(&wide, &json!("x")).cut_short);
}

#[test]
fn many_violations_are_counted_past_the_first_ones() {
    let value = Value::Array((0..50).map(|n| json!(n)).collect());
    let checked = check(&json!({"items": {"type": "string"}}), &value);
    assert_eq!(checked.violations.len(), 20);
    assert_eq!(checked.more, 30);
}

#[test]
fn local_pointers_resolve_with_escapes() {
    let root = json!({"$defs": {"a/b": {"const": 1}, "c%d": {"const": 2}}});
    assert_eq!(
        resolve_local(&root, "#/$defs/a~1b"),
        Some(&json!({"const": 1}))
    );
    assert_eq!(
        resolve_local(&root, "#/$defs/c%25d"),
        Some(&json!({"const": 2}))
    );
    assert_eq!(resolve_local(&root, "#"), Some(&root));
    assert_eq!(resolve_local(&root, "other.json#/$defs/a~1b"), None);
    assert_eq!(resolve_local(&root, "#anchor"), None);
}
