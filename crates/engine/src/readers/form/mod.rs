//! A JSON Schema read as a form, from either source a client meets: a tool's `inputSchema`
//! (any JSON object schema) or an elicitation's typed `requestedSchema` (rmcp's
//! [`ElicitationSchema`]). [`FormSchema`] lists the fields; every check of a value, for one
//! field or the whole form, goes through [`crate::readers::schema_check`], so the form refuses what
//! the engine's checker refuses (`pattern` through the caller's [`PatternMatcher`]).

mod field;
mod format;
mod read;

use std::sync::Arc;

use rmcp::model::{ElicitationSchema, JsonObject};
use serde_json::Value;

pub use field::{FieldChoice, FieldKind, FormField};
pub use format::TextFormat;

use crate::readers::schema_check::{self, PatternMatcher};

/// The fields of an object schema, and the schema itself for checking a whole value.
#[derive(Debug, Clone, PartialEq)]
pub struct FormSchema {
    /// The top-level properties, in the schema's order.
    pub fields: Vec<Arc<FormField>>,
    schema: Value,
}

impl FormSchema {
    /// The form for a JSON object schema (a tool's `inputSchema`, or a `requestedSchema` as
    /// sent), or why a form cannot show it (the caller offers raw JSON then).
    pub fn from_json(schema: &JsonObject) -> Result<Self, String> {
        Ok(Self {
            fields: read::parse_root(schema)?,
            schema: Value::Object(schema.clone()),
        })
    }

    /// The form for a typed elicitation schema, its properties in the server's order.
    pub fn from_elicitation(schema: &ElicitationSchema) -> Result<Self, String> {
        match serde_json::to_value(schema) {
            Ok(Value::Object(object)) => Self::from_json(&object),
            Ok(_) => Err("the requested schema is not an object".to_owned()),
            Err(error) => Err(format!("the requested schema cannot be written: {error}")),
        }
    }

    /// The names of the required top-level fields.
    pub fn required(&self) -> impl Iterator<Item = &str> {
        self.fields
            .iter()
            .filter(|field| field.required)
            .map(|field| field.name.as_str())
    }

    /// Why `value` does not fit the whole schema (the first problem, with where it is), or
    /// `Ok`: what a form's fields check one by one, plus what spans fields (`required`,
    /// `additionalProperties`, `dependentRequired`, …).
    pub fn check(&self, value: &Value, patterns: &dyn PatternMatcher) -> Result<(), String> {
        field::first_problem(&schema_check::check_with(&self.schema, value, patterns))
    }
}

#[cfg(test)]
mod tests;
