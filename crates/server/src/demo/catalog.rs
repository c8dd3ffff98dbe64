//! The tool list the demo server advertises.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::Value;

use super::scenarios::{
    book_table, bulk_import, connect_account, deploy, echo, endless_questions, flaky_job,
    format_note, plan_migration, quick_sum, run_pipeline, slow_report, summarize_folder,
};

/// A tool's advertised definition.
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The input schema (a function because `json!` is not const).
    pub schema: fn() -> Value,
}

impl ToolSpec {
    pub fn tool(&self) -> Tool {
        let schema: JsonObject = match (self.schema)() {
            Value::Object(schema) => schema,
            _ => JsonObject::default(),
        };
        let mut tool = Tool::new(self.name, self.description, Arc::new(schema));
        tool.title = Some(self.title.to_owned());
        tool.output_schema = OUTPUT_SCHEMAS
            .iter()
            .find(|(name, _)| *name == self.name)
            .and_then(|(_, schema)| match schema() {
                Value::Object(schema) => Some(Arc::new(schema)),
                _ => None,
            });
        tool
    }
}

/// A schema written by a function (`json!` is not const).
type SchemaFn = fn() -> Value;

/// The scenarios whose results follow an `outputSchema`, by tool name.
const OUTPUT_SCHEMAS: &[(&str, SchemaFn)] = &[(format_note::SPEC.name, format_note::output_schema)];

/// Every scenario, in the order a learner meets them.
pub const SCENARIOS: &[&ToolSpec] = &[
    &book_table::SPEC,
    &deploy::SPEC,
    &endless_questions::SPEC,
    &connect_account::SPEC,
    &run_pipeline::SPEC,
    &plan_migration::SPEC,
    &quick_sum::SPEC,
    &bulk_import::SPEC,
    &flaky_job::SPEC,
    &slow_report::SPEC,
    &summarize_folder::SPEC,
    &echo::SPEC,
    &format_note::SPEC,
];

pub fn tools() -> Vec<Tool> {
    SCENARIOS.iter().map(|spec| spec.tool()).collect()
}
