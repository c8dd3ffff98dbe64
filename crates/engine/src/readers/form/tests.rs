//! [`FormSchema`] read from both sources (a JSON object schema, rmcp's typed elicitation
//! schema), and every keyword its fields check, `pattern` through a native matcher.

use rmcp::model::{ElicitationSchema, JsonObject};
use serde_json::{Value, json};

use super::*;
use crate::readers::schema_check::{self, PatternMatcher};

/// `pattern` through a native regex engine (a dev-dependency only; the app passes the
/// browser's `RegExp`).
struct Native;

impl PatternMatcher for Native {
    fn find(&self, pattern: &str, text: &str) -> Option<bool> {
        regex::Regex::new(pattern)
            .ok()
            .map(|regex| regex.is_match(text))
    }
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("not an object: {other}"),
    }
}

/// Every keyword the form shows, in one elicitation-shaped schema (primitive properties).
fn booking() -> Value {
    json!({
        "type": "object",
        "title": "Book a table",
        "properties": {
            "size": {"type": "integer", "title": "Party size", "description": "People",
                     "exclusiveMinimum": 0, "maximum": 12, "default": 2},
            "budget": {"type": "number", "minimum": 5, "exclusiveMaximum": 500,
                       "multipleOf": 0.5},
            "code": {"type": "string", "minLength": 3, "maxLength": 6, "pattern": "^[A-Z]+[0-9]*$"},
            "email": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "day": {"type": "string", "format": "date"},
            "time": {"type": "string", "format": "date-time"},
            "room": {"type": "string", "enum": ["hall", "garden"], "enumNames": ["Hall", "Garden"]},
            "seat": {"type": "string", "oneOf": [{"const": "w", "title": "Window"}, {"const": "a", "title": "Aisle"}]},
            "vegan": {"type": "boolean", "default": false}
        },
        "required": ["size", "time", "code"]
    })
}

fn field<'f>(form: &'f FormSchema, name: &str) -> &'f FormField {
    form.fields
        .iter()
        .find(|field| field.name == name)
        .unwrap_or_else(|| panic!("no field {name}"))
}

#[test]
fn an_input_schema_lists_its_fields_with_kinds_bounds_choices_and_defaults() {
    let form = FormSchema::from_json(&object(booking())).expect("a form");
    let names: Vec<&str> = form.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "size", "budget", "code", "email", "site", "day", "time", "room", "seat", "vegan"
        ]
    );
    let size = field(&form, "size");
    assert_eq!(size.label, "Party size");
    assert_eq!(size.help.as_deref(), Some("People"));
    assert!(size.required && !size.nullable);
    assert_eq!(size.default, Some(json!(2)));
    assert_eq!(
        size.kind,
        FieldKind::Number {
            integer: true,
            minimum: None,
            maximum: Some(12.0),
            exclusive_minimum: Some(0.0),
            exclusive_maximum: None,
            multiple_of: None,
        }
    );
    assert_eq!(
        field(&form, "budget").kind,
        FieldKind::Number {
            integer: false,
            minimum: Some(5.0),
            maximum: None,
            exclusive_minimum: None,
            exclusive_maximum: Some(500.0),
            multiple_of: Some(0.5),
        }
    );
    assert_eq!(
        field(&form, "code").kind,
        FieldKind::Text {
            format: TextFormat::Plain,
            min_length: Some(3),
            max_length: Some(6),
            pattern: Some("^[A-Z]+[0-9]*$".to_owned()),
        }
    );
    let formats: Vec<TextFormat> = ["email", "site", "day", "time"]
        .iter()
        .map(|name| match field(&form, name).kind {
            FieldKind::Text { format, .. } => format,
            ref other => panic!("{name} is {other:?}"),
        })
        .collect();
    assert_eq!(
        formats,
        [
            TextFormat::Email,
            TextFormat::Uri,
            TextFormat::Date,
            TextFormat::DateTime
        ]
    );
    let labels = |name: &str| match &field(&form, name).kind {
        FieldKind::Choice(options) => options
            .iter()
            .map(|o| (o.key(), o.label.clone()))
            .collect::<Vec<_>>(),
        other => panic!("{name} is {other:?}"),
    };
    assert_eq!(
        labels("room"),
        [
            ("hall".to_owned(), "Hall".to_owned()),
            ("garden".to_owned(), "Garden".to_owned())
        ]
    );
    assert_eq!(
        labels("seat"),
        [
            ("w".to_owned(), "Window".to_owned()),
            ("a".to_owned(), "Aisle".to_owned())
        ]
    );
    assert_eq!(field(&form, "vegan").kind, FieldKind::Boolean);
    assert_eq!(field(&form, "vegan").default, Some(json!(false)));
    assert_eq!(
        form.required().collect::<Vec<_>>(),
        ["size", "code", "time"]
    );
}

/// What rmcp's typed elicitation model carries: bounds as `minimum`/`maximum`, lengths,
/// formats, enums, defaults.
fn typed_booking() -> Value {
    json!({
        "type": "object",
        "properties": {
            "size": {"type": "integer", "title": "Party size", "description": "People",
                     "minimum": 1, "maximum": 12, "default": 2},
            "budget": {"type": "number", "minimum": 5, "maximum": 500},
            "code": {"type": "string", "minLength": 3, "maxLength": 6},
            "email": {"type": "string", "format": "email"},
            "time": {"type": "string", "format": "date-time"},
            "room": {"type": "string", "enum": ["hall", "garden"]},
            "seat": {"type": "string", "oneOf": [{"const": "w", "title": "Window"}, {"const": "a", "title": "Aisle"}]},
            "vegan": {"type": "boolean", "default": false}
        },
        "required": ["size", "time"]
    })
}

#[test]
fn a_typed_elicitation_schema_gives_the_same_fields_in_the_servers_order() {
    let typed: ElicitationSchema =
        serde_json::from_value(typed_booking()).expect("an elicitation schema");
    let from_typed = FormSchema::from_elicitation(&typed).expect("a form");
    let from_json = FormSchema::from_json(&object(typed_booking())).expect("a form");
    let names =
        |form: &FormSchema| -> Vec<String> { form.fields.iter().map(|f| f.name.clone()).collect() };
    // Not alphabetical: the order the server wrote.
    assert_eq!(
        names(&from_typed),
        [
            "size", "budget", "code", "email", "time", "room", "seat", "vegan"
        ]
    );
    assert_eq!(names(&from_typed), names(&from_json));
    for (typed, json) in from_typed.fields.iter().zip(&from_json.fields) {
        assert_eq!(typed.kind, json.kind, "{}", json.name);
        assert_eq!(
            (&typed.label, &typed.help, typed.required, &typed.default),
            (&json.label, &json.help, json.required, &json.default),
        );
    }
    // And the typed one checks as the JSON one does.
    let size = field(&from_typed, "size");
    assert!(size.check(&json!(0), &Native).is_err());
    assert!(size.check(&json!(1), &Native).is_ok());
    assert!(
        field(&from_typed, "email")
            .check(&json!("x"), &Native)
            .is_err()
    );
    assert!(
        from_typed.check(&json!({"size": 2}), &Native).is_err(),
        "time is required"
    );
}

#[test]
fn the_typed_model_drops_what_it_does_not_model_so_the_json_as_sent_is_read() {
    // rmcp's typed model has no `exclusiveMinimum`, `multipleOf` or `pattern`: a form read
    // from it would accept what the server's schema refuses. The engine's input requests
    // keep the `requestedSchema` as sent for that reason.
    let typed: ElicitationSchema =
        serde_json::from_value(booking()).expect("an elicitation schema");
    let from_typed = FormSchema::from_elicitation(&typed).expect("a form");
    let from_json = FormSchema::from_json(&object(booking())).expect("a form");
    assert!(field(&from_typed, "size").check(&json!(0), &Native).is_ok());
    assert!(field(&from_json, "size").check(&json!(0), &Native).is_err());
}

#[test]
fn numbers_are_checked_against_every_bound() {
    let form = FormSchema::from_json(&object(booking())).expect("a form");
    let size = field(&form, "size");
    let budget = field(&form, "budget");
    let refused = |field: &FormField, value: Value| field.check(&value, &Native).err();
    // exclusiveMinimum 0, maximum 12, integer
    assert_eq!(
        refused(size, json!(0)).as_deref(),
        Some("expected more than 0, got 0")
    );
    assert_eq!(refused(size, json!(1)), None);
    assert_eq!(refused(size, json!(12)), None);
    assert_eq!(
        refused(size, json!(13)).as_deref(),
        Some("expected at most 12, got 13")
    );
    assert_eq!(
        refused(size, json!(2.5)).as_deref(),
        Some("expected integer, got number")
    );
    // minimum 5, exclusiveMaximum 500, multipleOf 0.5
    assert_eq!(
        refused(budget, json!(4.5)).as_deref(),
        Some("expected at least 5, got 4.5")
    );
    assert_eq!(refused(budget, json!(5)), None);
    assert_eq!(refused(budget, json!(499.5)), None);
    assert_eq!(
        refused(budget, json!(500)).as_deref(),
        Some("expected less than 500, got 500")
    );
    assert_eq!(
        refused(budget, json!(7.25)).as_deref(),
        Some("expected a multiple of 0.5, got 7.25")
    );
    assert_eq!(
        refused(budget, json!("7")).as_deref(),
        Some("expected number, got string")
    );
}

#[test]
fn draft_04_boolean_exclusive_bounds_are_kept() {
    let form = FormSchema::from_json(&object(json!({"properties": {
        "n": {"type": "number", "minimum": 1, "exclusiveMinimum": true,
              "maximum": 3, "exclusiveMaximum": true}
    }})))
    .expect("a form");
    let n = field(&form, "n");
    assert!(n.check(&json!(1), &Native).is_err());
    assert!(n.check(&json!(2), &Native).is_ok());
    assert!(n.check(&json!(3), &Native).is_err());
}

#[test]
fn strings_are_checked_for_length_and_pattern_through_the_matcher() {
    let form = FormSchema::from_json(&object(booking())).expect("a form");
    let code = field(&form, "code");
    let refused = |value: &str| code.check(&json!(value), &Native).err();
    assert_eq!(
        refused("AB").as_deref(),
        Some("expected at least 3 characters, got 2")
    );
    assert_eq!(
        refused("ABCDEFG").as_deref(),
        Some("expected at most 6 characters, got 7")
    );
    assert_eq!(
        refused("abc").as_deref(),
        Some("expected text matching /^[A-Z]+[0-9]*$/")
    );
    assert_eq!(refused("ABC12"), None);
    // Lengths are in code points.
    assert_eq!(refused("ÉÉÉ"), refused("abc"), "É is not in [A-Z]");
}

#[test]
fn the_matcher_decides_pattern_and_a_pattern_it_cannot_read_is_named() {
    /// A matcher that reads no pattern at all.
    struct Blind;
    impl PatternMatcher for Blind {
        fn find(&self, _pattern: &str, _text: &str) -> Option<bool> {
            None
        }
    }
    let schema = json!({"type": "string", "pattern": "^a"});
    let checked = schema_check::check_with(&schema, &json!("b"), &Native);
    assert_eq!(checked.violations.len(), 1);
    assert_eq!(checked.violations[0].keyword, "pattern");
    assert!(checked.not_checked.is_empty(), "{:?}", checked.not_checked);
    assert!(schema_check::check_with(&schema, &json!("abc"), &Native).is_valid());
    // Not anchored: a match anywhere counts.
    let inner = json!({"pattern": "[0-9]"});
    assert!(schema_check::check_with(&inner, &json!("ab3c"), &Native).is_valid());
    let blind = schema_check::check_with(&schema, &json!("b"), &Blind);
    assert!(blind.is_valid());
    assert_eq!(blind.not_checked, ["pattern /^a/"]);
    // Without a matcher at all, `pattern` is named as before.
    assert_eq!(
        schema_check::check(&schema, &json!("b")).not_checked,
        ["pattern"]
    );
}

#[test]
fn choices_accept_only_their_values() {
    let form = FormSchema::from_json(&object(booking())).expect("a form");
    let room = field(&form, "room");
    assert!(room.check(&json!("hall"), &Native).is_ok());
    assert_eq!(
        room.check(&json!("roof"), &Native).err().as_deref(),
        Some("expected one of [\"hall\",\"garden\"], got \"roof\"")
    );
    let seat = field(&form, "seat");
    assert!(seat.check(&json!("w"), &Native).is_ok());
    assert!(seat.check(&json!("x"), &Native).is_err());
}

#[test]
fn the_formats_a_form_has_inputs_for_are_checked() {
    let form = FormSchema::from_json(&object(booking())).expect("a form");
    let cases = [
        ("email", "name@example.com", true),
        ("email", "name@", false),
        ("email", "na me@example.com", false),
        ("site", "https://example.com/", true),
        ("site", "urn:isbn:0451450523", true),
        ("site", "example.com", false),
        ("site", "1http://x", false),
        ("site", "https://exa mple.com", false),
        ("day", "2026-07-28", true),
        ("day", "2026-13-01", false),
        ("day", "2026-7-28", false),
        ("time", "2026-07-28T09:30:00Z", true),
        ("time", "2026-07-28T09:30:00.250+02:00", true),
        ("time", "2026-07-28T09:30Z", false),
        ("time", "2026-07-28T24:00:00Z", false),
        ("time", "2026-07-28 09:30:00", false),
    ];
    for (name, text, valid) in cases {
        let checked = field(&form, name).check(&json!(text), &Native);
        assert_eq!(checked.is_ok(), valid, "{name} {text:?}: {checked:?}");
    }
}

#[test]
fn the_whole_form_checks_required_and_what_spans_fields() {
    let form = FormSchema::from_json(&object(booking())).expect("a form");
    let good = json!({"size": 2, "time": "2026-07-28T09:30:00Z", "code": "AB1"});
    assert_eq!(form.check(&good, &Native), Ok(()));
    assert_eq!(
        form.check(&json!({"size": 2, "code": "AB1"}), &Native),
        Err("`time` is required".to_owned())
    );
    assert_eq!(
        form.check(
            &json!({"size": 2, "time": "2026-07-28T09:30:00Z", "code": "ab"}),
            &Native
        ),
        Err("/code: expected at least 3 characters, got 2".to_owned())
    );
    let closed = FormSchema::from_json(&object(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "dependentRequired": {"a": ["b"]},
        "additionalProperties": false
    })))
    .expect("a form");
    assert!(closed.check(&json!({"a": "x"}), &Native).is_err());
    assert!(closed.check(&json!({"a": "x", "b": "y"}), &Native).is_ok());
    assert!(closed.check(&json!({"c": 1}), &Native).is_err());
}

#[test]
fn null_is_taken_where_the_schema_allows_it() {
    let form = FormSchema::from_json(&object(json!({"properties": {
        "maybe": {"anyOf": [{"type": "string", "minLength": 2}, {"type": "null"}], "title": "Maybe"},
        "typed": {"type": ["integer", "null"], "multipleOf": 5},
        "plain": {"type": "string"},
        "pick": {"enum": ["a", null]}
    }})))
    .expect("a form");
    let maybe = field(&form, "maybe");
    assert!(maybe.nullable);
    assert_eq!(maybe.label, "Maybe");
    assert!(maybe.check(&Value::Null, &Native).is_ok());
    assert!(
        maybe.check(&json!("a"), &Native).is_err(),
        "the branch's own bound holds"
    );
    let typed = field(&form, "typed");
    assert!(typed.nullable && typed.check(&Value::Null, &Native).is_ok());
    assert!(typed.check(&json!(7), &Native).is_err());
    assert!(typed.check(&json!(10), &Native).is_ok());
    assert_eq!(
        field(&form, "plain")
            .check(&Value::Null, &Native)
            .err()
            .as_deref(),
        Some("the schema does not allow null here")
    );
    let pick = field(&form, "pick");
    assert!(pick.null_is_a_choice() && pick.check(&Value::Null, &Native).is_ok());
}

#[test]
fn lists_and_objects_check_their_counts_and_their_insides() {
    let form = FormSchema::from_json(&object(json!({"properties": {
        "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
        "lines": {"type": "array", "items": {"type": "string", "maxLength": 3},
                  "uniqueItems": true, "maxItems": 3},
        "place": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    }})))
    .expect("a form");
    let tags = field(&form, "tags");
    assert!(
        matches!(&tags.kind, FieldKind::MultiChoice { options, min_items: Some(1), max_items: Some(2) } if options.len() == 3)
    );
    assert_eq!(
        tags.count_problem(0).as_deref(),
        Some("expected at least 1 items, got 0")
    );
    assert_eq!(tags.count_problem(2), None);
    assert!(tags.check(&json!(["a", "b", "c"]), &Native).is_err());
    let lines = field(&form, "lines");
    assert!(
        matches!(&lines.kind, FieldKind::List { item, max_items: Some(3), .. } if item.name == "Item")
    );
    assert_eq!(
        lines.count_problem(4).as_deref(),
        Some("expected at most 3 items, got 4")
    );
    assert!(
        lines.check(&json!(["ab", "ab"]), &Native).is_err(),
        "uniqueItems"
    );
    assert_eq!(
        lines
            .check(&json!(["ab", "abcd"]), &Native)
            .err()
            .as_deref(),
        Some("/1: expected at most 3 characters, got 4")
    );
    let place = field(&form, "place");
    assert!(matches!(&place.kind, FieldKind::Object(fields) if fields[0].required));
    assert!(place.check(&json!({}), &Native).is_err());
    assert!(place.check(&json!({"city": "Oslo"}), &Native).is_ok());
    assert_eq!(place.count_problem(5), None, "no item bounds");
}

#[test]
fn schemas_a_form_cannot_show_are_refused_with_a_reason() {
    let refused = |schema: Value| FormSchema::from_json(&object(schema)).err();
    assert_eq!(
        refused(json!({"properties": {"a": {"$ref": "#/$defs/a"}}})).as_deref(),
        Some("`a`: it uses `$ref`")
    );
    assert_eq!(
        refused(json!({"properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}))
            .as_deref(),
        Some("`a`: it is a union of several types")
    );
    assert_eq!(
        refused(json!({"type": "array"})).as_deref(),
        Some("the arguments schema is of type array, not object")
    );
    assert_eq!(
        refused(json!({"additionalProperties": {"type": "string"}})).as_deref(),
        Some("it is a free-form map of keys")
    );
    let mut deep = json!({"type": "string"});
    for _ in 0..12 {
        deep = json!({"type": "object", "properties": {"a": deep}});
    }
    assert!(refused(json!({"properties": {"a": deep}})).is_some_and(|why| why.contains("deeper")));
}
