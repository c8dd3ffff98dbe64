//! One field of a form read from a JSON Schema: what it is called, what kind of input it
//! takes, its bounds, and the checks of a value for it (through [`crate::readers::schema_check`]).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::format::{TextFormat, format_problem};
use crate::readers::schema_check::{self, Checked, PatternMatcher};

/// One input of the form: a property of an object, or the item shape of an array.
#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    /// The property name (`"Item"` for array items).
    pub name: String,
    /// `title`, else the property name.
    pub label: String,
    /// `description`, shown as help text.
    pub help: Option<String>,
    pub required: bool,
    /// The schema allows `null` besides the kind's values.
    pub nullable: bool,
    pub default: Option<Value>,
    pub kind: FieldKind,
    /// The field's schema, a `null` branch of a union taken out: what a non-null value is
    /// checked against.
    pub(super) schema: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    Text {
        format: TextFormat,
        min_length: Option<u64>,
        max_length: Option<u64>,
        /// `pattern` (ECMA-262), checked through the caller's [`PatternMatcher`].
        pattern: Option<String>,
    },
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
        exclusive_minimum: Option<f64>,
        exclusive_maximum: Option<f64>,
        multiple_of: Option<f64>,
    },
    Boolean,
    /// One of fixed values (`enum`, titled `oneOf`/`anyOf` of `const`, `enumNames`).
    Choice(Vec<FieldChoice>),
    /// Several of fixed values: an array whose items are an enum.
    MultiChoice {
        options: Vec<FieldChoice>,
        min_items: Option<u64>,
        max_items: Option<u64>,
    },
    List {
        item: Arc<FormField>,
        min_items: Option<u64>,
        max_items: Option<u64>,
    },
    Object(Vec<Arc<FormField>>),
}

/// One fixed value a field may take, with its label.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChoice {
    pub value: Value,
    pub label: String,
}

impl FieldChoice {
    /// The key of this choice in a form (an option's value): strings as they are, other
    /// constants as JSON text.
    pub fn key(&self) -> String {
        Self::key_of(&self.value)
    }

    /// The key of a fixed value (see [`FieldChoice::key`]).
    pub fn key_of(value: &Value) -> String {
        match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        }
    }
}

impl FormField {
    /// `null` is one of the field's fixed values (an `enum` or `const` list with `null`).
    pub fn null_is_a_choice(&self) -> bool {
        matches!(&self.kind, FieldKind::Choice(options) if options.iter().any(|o| o.value.is_null()))
    }

    /// Why `value` does not fit this field (its type, bounds, `multipleOf`, `pattern`,
    /// `enum`, the `format` of its input, the properties or items it holds), or `Ok`.
    /// `null` is checked against the whole field (allowed where it is nullable).
    pub fn check(&self, value: &Value, patterns: &dyn PatternMatcher) -> Result<(), String> {
        if value.is_null() && !self.null_is_a_choice() {
            return if self.nullable {
                Ok(())
            } else {
                Err("the schema does not allow null here".to_owned())
            };
        }
        if let (FieldKind::Text { format, .. }, Value::String(text)) = (&self.kind, value)
            && let Some(problem) = format_problem(*format, text)
        {
            return Err(problem);
        }
        first_problem(&schema_check::check_with(&self.schema, value, patterns))
    }

    /// Why `count` items break this list's `minItems`/`maxItems`, if they do.
    pub fn count_problem(&self, count: usize) -> Option<String> {
        let bounds: Map<String, Value> = ["minItems", "maxItems"]
            .into_iter()
            .filter_map(|key| Some((key.to_owned(), self.schema.get(key)?.clone())))
            .collect();
        if bounds.is_empty() {
            return None;
        }
        let items = Value::Array(vec![Value::Null; count]);
        first_problem(&schema_check::check(&Value::Object(bounds), &items)).err()
    }
}

/// The first violation of a check, for people (`at` kept when it is inside the value).
pub(super) fn first_problem(checked: &Checked) -> Result<(), String> {
    match checked.violations.first() {
        None => Ok(()),
        Some(violation) if violation.at.is_empty() => Err(violation.message.clone()),
        Some(violation) => Err(violation.to_string()),
    }
}
