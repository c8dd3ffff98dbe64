//! A small JSON Schema checker for what tool schemas really use (2020-12, and the draft-07
//! spellings servers still send): a value in, the ways it breaks the schema out.
//!
//! Checked: `type` (one or several), `enum`, `const`, `properties`, `required`,
//! `additionalProperties` (false or a schema), `minProperties`/`maxProperties`,
//! `propertyNames`, `dependentRequired`, `dependentSchemas`, `items`/`prefixItems` (and
//! draft-07's array `items` with `additionalItems`), `minItems`/`maxItems`, `uniqueItems`,
//! `contains` with `minContains`/`maxContains`, `minimum`/`maximum`,
//! `exclusiveMinimum`/`exclusiveMaximum` (numbers, or draft-04 booleans), `multipleOf`,
//! `minLength`/`maxLength` (in code points), `allOf`/`anyOf`/`oneOf`/`not`,
//! `if`/`then`/`else`, `$ref` to the same document (`#`, `#/$defs/…`, `#/definitions/…`,
//! any local JSON pointer), and `pattern` through the [`PatternMatcher`] the caller passes
//! to [`check_with`] (no regex engine in the engine: the browser build would pay for one in
//! wasm; the app passes the browser's `RegExp`).
//!
//! Not checked, and said so ([`Checked::not_checked`]): `pattern` when no matcher is given,
//! `patternProperties`, `unevaluated*`, `$dynamicRef`/`$recursiveRef`, any `$ref` that is
//! not local (never fetched, never dereferenced over the network), and any keyword this
//! checker does not know. `format` is an annotation in 2020-12 and is not asserted.
//!
//! Work is bounded whatever the schema: nesting depth and the number of schema visits.

use serde_json::{Map, Value};

mod pattern;

pub use pattern::PatternMatcher;

/// Deeper than this (schemas inside schemas, `$ref` hops included), the rest is not checked.
const MAX_DEPTH: usize = 64;
/// Schema visits per check; past this the check stops and says so.
const MAX_VISITS: usize = 20_000;
/// Violations kept; the rest are counted.
const MAX_VIOLATIONS: usize = 20;

/// One way the value breaks the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Where in the value, as a JSON pointer (`""` is the value itself, `/lines`, `/items/0`).
    pub at: String,
    /// The keyword that failed.
    pub keyword: &'static str,
    /// What was expected, for people.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.at.is_empty() {
            "(root)"
        } else {
            &self.at
        };
        write!(f, "{at}: {}", self.message)
    }
}

/// The result of one check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// The first violations, in the order found.
    pub violations: Vec<Violation>,
    /// Violations found beyond the ones kept.
    pub more: usize,
    /// Keywords (and non-local `$ref`s) met but not checked, each once, in the order met.
    pub not_checked: Vec<String>,
    /// The check stopped early (too deep, too much work): what was not reached is unknown.
    pub cut_short: bool,
}

impl Checked {
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Check `value` against `schema` (the whole document: local `$ref`s resolve inside it),
/// without a matcher for `pattern` (named as not checked).
pub fn check(schema: &Value, value: &Value) -> Checked {
    run(schema, value, None)
}

/// As [`check`], with `pattern` checked by `patterns`.
pub fn check_with(schema: &Value, value: &Value, patterns: &dyn PatternMatcher) -> Checked {
    run(schema, value, Some(patterns))
}

fn run<'s>(schema: &'s Value, value: &Value, patterns: Option<&'s dyn PatternMatcher>) -> Checked {
    let mut checker = Checker {
        root: schema,
        patterns,
        visits: 0,
        out: Checked::default(),
    };
    let mut violations = Vec::new();
    checker.schema(schema, value, &mut String::new(), 0, &mut violations);
    checker.out.more = violations.len().saturating_sub(MAX_VIOLATIONS);
    violations.truncate(MAX_VIOLATIONS);
    checker.out.violations = violations;
    checker.out
}

/// Keywords that only annotate (or hold subschemas reached through others): never asserted.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "definitions",
    "title",
    "description",
    "default",
    "examples",
    "readOnly",
    "writeOnly",
    "deprecated",
    "format",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "then",
    "else",
    "additionalItems",
    "minContains",
    "maxContains",
    "enumNames",
];

/// Keywords this checker knows it cannot check.
const UNCHECKED: &[&str] = &[
    "patternProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
];

struct Checker<'s> {
    root: &'s Value,
    patterns: Option<&'s dyn PatternMatcher>,
    visits: usize,
    out: Checked,
}

type Found = Vec<Violation>;

impl<'s> Checker<'s> {
    fn not_checked(&mut self, what: String) {
        if !self.out.not_checked.contains(&what) {
            self.out.not_checked.push(what);
        }
    }

    /// Check `value` (at pointer `at`) against one schema, adding violations to `found`.
    fn schema(
        &mut self,
        schema: &'s Value,
        value: &Value,
        at: &mut String,
        depth: usize,
        found: &mut Found,
    ) {
        self.visits += 1;
        if depth > MAX_DEPTH || self.visits > MAX_VISITS {
            self.out.cut_short = true;
            return;
        }
        let schema = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                return found.push(violation(
                    at,
                    "false",
                    "no value is allowed here".to_owned(),
                ));
            }
            Value::Object(schema) => schema,
            // Not a schema: nothing it could assert.
            _ => return,
        };
        for (keyword, rule) in schema {
            self.keyword(schema, keyword, rule, value, at, depth, found);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn keyword(
        &mut self,
        schema: &'s Map<String, Value>,
        keyword: &str,
        rule: &'s Value,
        value: &Value,
        at: &mut String,
        depth: usize,
        found: &mut Found,
    ) {
        match keyword {
            "type" => {
                if !type_matches(rule, value) {
                    found.push(violation(
                        at,
                        "type",
                        format!("expected {}, got {}", type_list(rule), kind_of(value)),
                    ));
                }
            }
            "enum" => {
                if let Value::Array(options) = rule
                    && !options.iter().any(|option| json_equal(option, value))
                {
                    found.push(violation(
                        at,
                        "enum",
                        format!("expected one of {}, got {}", short(rule), short(value)),
                    ));
                }
            }
            "const" => {
                if !json_equal(rule, value) {
                    found.push(violation(
                        at,
                        "const",
                        format!("expected {}, got {}", short(rule), short(value)),
                    ));
                }
            }
            "$ref" => self.reference(rule, value, at, depth, found),
            "pattern" => self.pattern(rule, value, at, found),
            "allOf" => self.combination("allOf", rule, value, at, depth, found),
            "anyOf" => self.combination("anyOf", rule, value, at, depth, found),
            "oneOf" => self.combination("oneOf", rule, value, at, depth, found),
            "not" => {
                if self.passes(rule, value, at, depth) {
                    found.push(violation(
                        at,
                        "not",
                        "matches the schema under `not`".to_owned(),
                    ));
                }
            }
            "if" => {
                let branch = if self.passes(rule, value, at, depth) {
                    schema.get("then")
                } else {
                    schema.get("else")
                };
                if let Some(branch) = branch {
                    self.schema(branch, value, at, depth + 1, found);
                }
            }
            _ => match value {
                Value::Object(object) => {
                    self.object_keyword(schema, keyword, rule, (value, object), at, depth, found)
                }
                Value::Array(items) => {
                    self.array_keyword(schema, keyword, rule, items, at, depth, found)
                }
                Value::String(text) => string_keyword(keyword, rule, text, at, found),
                Value::Number(_) => number_keyword(schema, keyword, rule, value, at, found),
                Value::Bool(_) | Value::Null => {}
            },
        }
        if !known(keyword) && !keyword.starts_with("x-") {
            self.not_checked(keyword.to_owned());
        }
    }

    /// Whether `value` passes `schema`, without reporting (for `not`, `if`, unions).
    fn passes(&mut self, schema: &'s Value, value: &Value, at: &mut String, depth: usize) -> bool {
        let mut scratch = Vec::new();
        self.schema(schema, value, at, depth + 1, &mut scratch);
        scratch.is_empty()
    }

    fn reference(
        &mut self,
        rule: &Value,
        value: &Value,
        at: &mut String,
        depth: usize,
        found: &mut Found,
    ) {
        let Some(reference) = rule.as_str() else {
            return;
        };
        match resolve_local(self.root, reference) {
            Some(target) => self.schema(target, value, at, depth + 1, found),
            None => self.not_checked(format!("$ref {reference}")),
        }
    }

    fn combination(
        &mut self,
        keyword: &'static str,
        rule: &'s Value,
        value: &Value,
        at: &mut String,
        depth: usize,
        found: &mut Found,
    ) {
        let Value::Array(branches) = rule else {
            return;
        };
        if keyword == "allOf" {
            for branch in branches {
                self.schema(branch, value, at, depth + 1, found);
            }
            return;
        }
        let matching = branches
            .iter()
            .filter(|branch| self.passes(branch, value, at, depth))
            .count();
        let message = match (keyword, matching) {
            ("anyOf", 0) | ("oneOf", 0) => format!(
                "matches none of the {} `{keyword}` branches",
                branches.len()
            ),
            ("oneOf", n) if n > 1 => format!("matches {n} `oneOf` branches, not exactly one"),
            _ => return,
        };
        found.push(violation(at, keyword, message));
    }

    #[allow(clippy::too_many_arguments)]
    fn object_keyword(
        &mut self,
        schema: &'s Map<String, Value>,
        keyword: &str,
        rule: &'s Value,
        (value, object): (&Value, &Map<String, Value>),
        at: &mut String,
        depth: usize,
        found: &mut Found,
    ) {
        match keyword {
            "properties" => {
                let Value::Object(properties) = rule else {
                    return;
                };
                for (name, property) in properties {
                    if let Some(inner) = object.get(name) {
                        self.at_child(at, name, |this, at| {
                            this.schema(property, inner, at, depth + 1, found);
                        });
                    }
                }
            }
            "required" => {
                for name in rule
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !object.contains_key(name) {
                        found.push(violation(at, "required", format!("`{name}` is required")));
                    }
                }
            }
            "additionalProperties" => {
                if schema.contains_key("patternProperties") {
                    // Which keys a pattern covers is unknown without regexes.
                    self.not_checked("additionalProperties (beside patternProperties)".to_owned());
                    return;
                }
                let declared = schema.get("properties").and_then(Value::as_object);
                for (name, inner) in object {
                    if declared.is_some_and(|declared| declared.contains_key(name)) {
                        continue;
                    }
                    if rule == &Value::Bool(false) {
                        found.push(violation(
                            at,
                            "additionalProperties",
                            format!("`{name}` is not allowed (additionalProperties is false)"),
                        ));
                    } else {
                        self.at_child(at, name, |this, at| {
                            this.schema(rule, inner, at, depth + 1, found);
                        });
                    }
                }
            }
            "minProperties" | "maxProperties" => {
                count_bound(keyword, rule, object.len(), "properties", at, found);
            }
            "propertyNames" => {
                for name in object.keys() {
                    let key = Value::String(name.clone());
                    if !self.passes(rule, &key, at, depth) {
                        found.push(violation(
                            at,
                            "propertyNames",
                            format!("the property name `{name}` does not match propertyNames"),
                        ));
                    }
                }
            }
            "dependentRequired" => {
                let Value::Object(dependencies) = rule else {
                    return;
                };
                for (name, needed) in dependencies {
                    if !object.contains_key(name) {
                        continue;
                    }
                    for other in needed
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        if !object.contains_key(other) {
                            found.push(violation(
                                at,
                                "dependentRequired",
                                format!("`{other}` is required when `{name}` is present"),
                            ));
                        }
                    }
                }
            }
            "dependentSchemas" => {
                let Value::Object(dependencies) = rule else {
                    return;
                };
                for (name, dependent) in dependencies {
                    if object.contains_key(name) {
                        self.schema(dependent, value, at, depth + 1, found);
                    }
                }
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn array_keyword(
        &mut self,
        schema: &'s Map<String, Value>,
        keyword: &str,
        rule: &'s Value,
        items: &[Value],
        at: &mut String,
        depth: usize,
        found: &mut Found,
    ) {
        match keyword {
            "prefixItems" => {
                for (index, (item, item_schema)) in items
                    .iter()
                    .zip(rule.as_array().into_iter().flatten())
                    .enumerate()
                {
                    self.at_child(at, &index.to_string(), |this, at| {
                        this.schema(item_schema, item, at, depth + 1, found);
                    });
                }
            }
            "items" => {
                // draft-07: an array of schemas is a tuple, `additionalItems` covers the rest.
                let (tuple, rest) = match rule {
                    Value::Array(tuple) => (tuple.as_slice(), schema.get("additionalItems")),
                    single => {
                        let skip = schema
                            .get("prefixItems")
                            .and_then(Value::as_array)
                            .map_or(0, Vec::len);
                        for (index, item) in items.iter().enumerate().skip(skip) {
                            self.at_child(at, &index.to_string(), |this, at| {
                                this.schema(single, item, at, depth + 1, found);
                            });
                        }
                        return;
                    }
                };
                for (index, item) in items.iter().enumerate() {
                    let Some(item_schema) = tuple.get(index).or(rest) else {
                        break;
                    };
                    self.at_child(at, &index.to_string(), |this, at| {
                        this.schema(item_schema, item, at, depth + 1, found);
                    });
                }
            }
            "minItems" | "maxItems" => {
                count_bound(keyword, rule, items.len(), "items", at, found);
            }
            "uniqueItems" if rule == &Value::Bool(true) => {
                let repeated = items.iter().enumerate().find_map(|(i, item)| {
                    items[..i]
                        .iter()
                        .position(|earlier| json_equal(earlier, item))
                        .map(|first| (first, i))
                });
                if let Some((first, again)) = repeated {
                    found.push(violation(
                        at,
                        "uniqueItems",
                        format!("items {first} and {again} are equal (uniqueItems)"),
                    ));
                }
            }
            "contains" => {
                let count = items
                    .iter()
                    .filter(|item| self.passes(rule, item, at, depth))
                    .count() as u64;
                let min = schema
                    .get("minContains")
                    .and_then(Value::as_u64)
                    .unwrap_or(1);
                let max = schema.get("maxContains").and_then(Value::as_u64);
                if count < min || max.is_some_and(|max| count > max) {
                    found.push(violation(
                        at,
                        "contains",
                        format!(
                            "{count} items match `contains`, expected {}",
                            range_text(min, max)
                        ),
                    ));
                }
            }
            _ => {}
        }
    }

    /// Run `inner` with `at` extended by one pointer segment.
    fn at_child(
        &mut self,
        at: &mut String,
        segment: &str,
        inner: impl FnOnce(&mut Self, &mut String),
    ) {
        let length = at.len();
        at.push('/');
        at.push_str(&segment.replace('~', "~0").replace('/', "~1"));
        inner(self, at);
        at.truncate(length);
    }
}

fn string_keyword(keyword: &str, rule: &Value, text: &str, at: &str, found: &mut Found) {
    if let "minLength" | "maxLength" = keyword {
        count_bound(keyword, rule, text.chars().count(), "characters", at, found);
    }
}

/// A `min…`/`max…` keyword that bounds how many `things` there are (`count`): a violation
/// when `count` is under a `min…` or over a `max…` limit.
fn count_bound(
    keyword: &str,
    rule: &Value,
    count: usize,
    things: &str,
    at: &str,
    found: &mut Found,
) {
    let Some(limit) = rule.as_u64() else {
        return;
    };
    let count = count as u64;
    let (broken, word) = if keyword.starts_with("min") {
        (count < limit, "at least")
    } else {
        (count > limit, "at most")
    };
    if broken {
        found.push(violation(
            at,
            static_name(keyword),
            format!("expected {word} {limit} {things}, got {count}"),
        ));
    }
}

fn number_keyword(
    schema: &Map<String, Value>,
    keyword: &str,
    rule: &Value,
    value: &Value,
    at: &str,
    found: &mut Found,
) {
    let (Some(number), Some(limit)) = (value.as_f64(), rule.as_f64()) else {
        // draft-04: `exclusiveMaximum: true` makes `maximum` exclusive.
        return;
    };
    let exclusive = |flag: &str| schema.get(flag) == Some(&Value::Bool(true));
    let broken = match keyword {
        "minimum" if exclusive("exclusiveMinimum") => number <= limit,
        "minimum" => number < limit,
        "maximum" if exclusive("exclusiveMaximum") => number >= limit,
        "maximum" => number > limit,
        "exclusiveMinimum" => number <= limit,
        "exclusiveMaximum" => number >= limit,
        "multipleOf" => limit > 0.0 && !is_multiple(value, number, rule, limit),
        _ => return,
    };
    if broken {
        let expected = match keyword {
            "minimum" if exclusive("exclusiveMinimum") => format!("more than {rule}"),
            "minimum" => format!("at least {rule}"),
            "maximum" if exclusive("exclusiveMaximum") => format!("less than {rule}"),
            "maximum" => format!("at most {rule}"),
            "exclusiveMinimum" => format!("more than {rule}"),
            "exclusiveMaximum" => format!("less than {rule}"),
            _ => format!("a multiple of {rule}"),
        };
        found.push(violation(
            at,
            static_name(keyword),
            format!("expected {expected}, got {value}"),
        ));
    }
}

/// `multipleOf`: exact for integers, within rounding for fractions.
fn is_multiple(value: &Value, number: f64, rule: &Value, divisor: f64) -> bool {
    if let (Some(value), Some(divisor)) = (value.as_i64(), rule.as_i64())
        && divisor != 0
    {
        return value % divisor == 0;
    }
    let quotient = number / divisor;
    if !quotient.is_finite() {
        return false;
    }
    (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
}

fn known(keyword: &str) -> bool {
    const ASSERTED: &[&str] = &[
        "type",
        "enum",
        "const",
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "prefixItems",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ];
    (ASSERTED.contains(&keyword) || ANNOTATIONS.contains(&keyword)) && !UNCHECKED.contains(&keyword)
}

/// The keyword as a `'static` name (the ones that reach here are all listed).
fn static_name(keyword: &str) -> &'static str {
    [
        "minProperties",
        "maxProperties",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]
    .into_iter()
    .find(|name| *name == keyword)
    .unwrap_or("keyword")
}

fn violation(at: &str, keyword: &'static str, message: String) -> Violation {
    Violation {
        at: at.to_owned(),
        keyword,
        message,
    }
}

/// A `$ref` inside the same document: `#` or `#/json/pointer` (percent-encoded or not).
/// Anything else (another document, a network URL, an `$anchor`) is not resolved.
pub fn resolve_local<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    if !pointer.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(pointer)?;
    root.pointer(&decoded)
}

fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn type_matches(rule: &Value, value: &Value) -> bool {
    match rule {
        Value::String(name) => is_type(name, value),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .any(|name| is_type(name, value)),
        _ => true,
    }
}

fn is_type(name: &str, value: &Value) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        // 2020-12: an integer is any number without a fractional part (1.0 included).
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|n| n.fract() == 0.0)
        }
        // An unknown type name: nothing to assert.
        _ => true,
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_list(rule: &Value) -> String {
    match rule {
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        Value::String(name) => name.clone(),
        other => other.to_string(),
    }
}

fn range_text(min: u64, max: Option<u64>) -> String {
    match max {
        Some(max) => format!("{min} to {max}"),
        None => format!("at least {min}"),
    }
}

/// A value as short JSON text, for messages.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), objects regardless of order.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| json_equal(x, y)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;
