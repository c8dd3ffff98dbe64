//! A JSON Schema read into form fields: the subset a form can show. Anything else (`$ref`,
//! unions of several types, free-form maps, very large or deep schemas) is refused with a
//! reason (the caller then offers raw JSON). A field may allow `null` (`type: ["T", "null"]`,
//! or `anyOf`/`oneOf` with a `{"type": "null"}` branch): the form can then send `null`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::field::{FieldChoice, FieldKind, FormField};
use super::format::TextFormat;

/// Nesting deeper than this is refused (a form that deep is unusable anyway, and the
/// recursion stays bounded whatever the server sends).
const MAX_DEPTH: usize = 8;
/// More fields than this are refused, so a huge schema cannot freeze the page.
const MAX_FIELDS: usize = 400;

/// The top-level properties of an object schema, or why a form cannot show it.
pub(super) fn parse_root(schema: &Map<String, Value>) -> Result<Vec<Arc<FormField>>, String> {
    let mut budget = MAX_FIELDS;
    let root = Value::Object(schema.clone());
    let (schema, _) = resolve_union(&root)?;
    match type_name(&schema)?.as_deref() {
        Some("object") | None => object_fields(&schema, 0, &mut budget),
        Some(other) => Err(format!(
            "the arguments schema is of type {other}, not object"
        )),
    }
}

fn object_fields(
    schema: &Map<String, Value>,
    depth: usize,
    budget: &mut usize,
) -> Result<Vec<Arc<FormField>>, String> {
    let properties = match schema.get("properties") {
        Some(Value::Object(properties)) => properties.clone(),
        Some(_) => return Err("`properties` is not an object".to_owned()),
        None => Map::new(),
    };
    if properties.is_empty() && allows_extra(schema) && schema.contains_key("additionalProperties")
    {
        return Err("it is a free-form map of keys".to_owned());
    }
    let required: Vec<&str> = match schema.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    properties
        .iter()
        .map(|(name, property)| {
            parse_field(
                name,
                property,
                required.contains(&name.as_str()),
                depth,
                budget,
            )
            .map(Arc::new)
        })
        .collect()
}

fn allows_extra(schema: &Map<String, Value>) -> bool {
    !matches!(schema.get("additionalProperties"), Some(Value::Bool(false)))
}

fn parse_field(
    name: &str,
    schema: &Value,
    required: bool,
    depth: usize,
    budget: &mut usize,
) -> Result<FormField, String> {
    if depth > MAX_DEPTH {
        return Err(format!("it nests deeper than {MAX_DEPTH} levels"));
    }
    *budget = budget
        .checked_sub(1)
        .ok_or_else(|| format!("it has more than {MAX_FIELDS} fields"))?;
    let (schema, null_branch) = resolve_union(schema).map_err(|why| format!("`{name}`: {why}"))?;
    let text = |key: &str| schema.get(key).and_then(Value::as_str).map(str::to_owned);
    let kind = parse_kind(name, &schema, depth, budget)?;
    let null_type = matches!(schema.get("type"), Some(Value::Array(names)) if names.iter().any(|n| n == "null"));
    Ok(FormField {
        name: name.to_owned(),
        label: text("title").unwrap_or_else(|| name.to_owned()),
        help: text("description"),
        required,
        nullable: null_branch || null_type,
        default: schema.get("default").cloned(),
        kind,
        schema: Value::Object(schema),
    })
}

fn parse_kind(
    name: &str,
    schema: &Map<String, Value>,
    depth: usize,
    budget: &mut usize,
) -> Result<FieldKind, String> {
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    let text = |key: &str| schema.get(key).and_then(Value::as_str).map(str::to_owned);
    if let Some(options) = choices(schema) {
        return Ok(FieldKind::Choice(options));
    }
    let kind = match type_name(schema)?.as_deref() {
        Some("string") => FieldKind::Text {
            format: match schema.get("format").and_then(Value::as_str) {
                Some("email") => TextFormat::Email,
                Some("uri") => TextFormat::Uri,
                Some("date") => TextFormat::Date,
                Some("date-time") => TextFormat::DateTime,
                _ => TextFormat::Plain,
            },
            min_length: count("minLength"),
            max_length: count("maxLength"),
            pattern: text("pattern"),
        },
        Some(kind @ ("number" | "integer")) => FieldKind::Number {
            integer: kind == "integer",
            minimum: number("minimum"),
            maximum: number("maximum"),
            exclusive_minimum: number("exclusiveMinimum"),
            exclusive_maximum: number("exclusiveMaximum"),
            multiple_of: number("multipleOf"),
        },
        Some("boolean") => FieldKind::Boolean,
        Some("array") => {
            let items = match schema.get("items") {
                // The item's own `null` is kept in its schema: `parse_field` reads it again.
                Some(items @ Value::Object(_)) => resolve_union(items)?.0,
                _ => return Err(format!("`{name}` is an array without one `items` schema")),
            };
            match choices(&items) {
                Some(options) => FieldKind::MultiChoice {
                    options,
                    min_items: count("minItems"),
                    max_items: count("maxItems"),
                },
                None => FieldKind::List {
                    item: Arc::new(parse_field(
                        "Item",
                        schema.get("items").unwrap_or(&Value::Null),
                        true,
                        depth + 1,
                        budget,
                    )?),
                    min_items: count("minItems"),
                    max_items: count("maxItems"),
                },
            }
        }
        Some("object") | None if schema.contains_key("properties") => {
            FieldKind::Object(object_fields(schema, depth + 1, budget)?)
        }
        Some("object") => FieldKind::Object(object_fields(schema, depth + 1, budget)?),
        Some(other) => return Err(format!("`{name}` has type {other}")),
        None => return Err(format!("`{name}` has no type")),
    };
    Ok(kind)
}

/// The schema itself, or for `anyOf`/`oneOf` of one type plus `null` (how optional values are
/// often written) that one type, keeping the outer title, description and default; and
/// whether a `null` branch was there. A union of constants (with or without `null`) stays a
/// list of choices. `$ref` and real unions cannot be shown as a form.
fn resolve_union(schema: &Value) -> Result<(Map<String, Value>, bool), String> {
    let Value::Object(schema) = schema else {
        return Err("a schema that is not an object".to_owned());
    };
    for unsupported in [
        "$ref",
        "allOf",
        "not",
        "if",
        "patternProperties",
        "$dynamicRef",
    ] {
        if schema.contains_key(unsupported) {
            return Err(format!("it uses `{unsupported}`"));
        }
    }
    let union = ["anyOf", "oneOf"]
        .into_iter()
        .find_map(|key| schema.get(key).and_then(Value::as_array).map(|b| (key, b)));
    let Some((key, branches)) = union else {
        return Ok((schema.clone(), false));
    };
    if choice_list(branches).is_some() {
        return Ok((schema.clone(), false));
    }
    let is_null = |branch: &&Value| {
        branch.get("type").and_then(Value::as_str) == Some("null")
            || branch.get("const") == Some(&Value::Null)
    };
    let nullable = branches.iter().any(|branch| is_null(&branch));
    let real: Vec<Value> = branches
        .iter()
        .filter(|branch| !is_null(branch))
        .cloned()
        .collect();
    if real.len() > 1 && choice_list(&real).is_some() {
        let mut choices = schema.clone();
        choices.insert(key.to_owned(), Value::Array(real));
        return Ok((choices, nullable));
    }
    match real.as_slice() {
        [only] => {
            let (mut merged, inner_null) = resolve_union(only)?;
            for key in ["title", "description", "default"] {
                if let Some(outer) = schema.get(key) {
                    merged.insert(key.to_owned(), outer.clone());
                }
            }
            Ok((merged, nullable || inner_null))
        }
        _ => Err("it is a union of several types".to_owned()),
    }
}

/// `type`, allowing `["T", "null"]`.
fn type_name(schema: &Map<String, Value>) -> Result<Option<String>, String> {
    match schema.get("type") {
        None => Ok(None),
        Some(Value::String(name)) => Ok(Some(name.clone())),
        Some(Value::Array(names)) => {
            let mut real = names
                .iter()
                .filter_map(Value::as_str)
                .filter(|name| *name != "null");
            match (real.next(), real.next()) {
                (Some(only), None) => Ok(Some(only.to_owned())),
                _ => Err("a property may be of several types".to_owned()),
            }
        }
        Some(_) => Err("`type` is not a string".to_owned()),
    }
}

/// The fixed values of an enum-like schema, with their labels.
fn choices(schema: &Map<String, Value>) -> Option<Vec<FieldChoice>> {
    if let Some(Value::Array(values)) = schema.get("enum") {
        let names = schema.get("enumNames").and_then(Value::as_array);
        return Some(
            values
                .iter()
                .enumerate()
                .map(|(index, value)| FieldChoice {
                    value: value.clone(),
                    label: names
                        .and_then(|names| names.get(index))
                        .and_then(Value::as_str)
                        .map_or_else(|| FieldChoice::key_of(value), str::to_owned),
                })
                .collect(),
        );
    }
    ["oneOf", "anyOf"]
        .iter()
        .find_map(|key| schema.get(*key).and_then(Value::as_array))
        .and_then(|branches| choice_list(branches))
}

/// `[{const, title?}, ...]` as choices; None if any branch is not a constant.
fn choice_list(branches: &[Value]) -> Option<Vec<FieldChoice>> {
    if branches.is_empty() {
        return None;
    }
    branches
        .iter()
        .map(|branch| {
            let value = branch.get("const")?.clone();
            let label = branch
                .get("title")
                .and_then(Value::as_str)
                .map_or_else(|| FieldChoice::key_of(&value), str::to_owned);
            Some(FieldChoice { value, label })
        })
        .collect()
}
