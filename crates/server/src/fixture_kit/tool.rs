//! One tool, declared once: what `tools/list` shows of it (name, title, description, input
//! and output schema) together with the handler `tools/call` runs, so a call finds its
//! handler by the tool's name alone.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, JsonObject};
use serde_json::{Value, json};

use super::call::Call;
use crate::tasks::BoxFuture;

/// What a tool handler answers.
pub type Reply = Result<CallToolResponse, ErrorData>;

/// A JSON Schema written by a function (`json!` is not const).
pub type SchemaFn = fn() -> Value;

/// The input schema of a tool that takes no arguments.
pub const NO_ARGUMENTS: SchemaFn = || json!({ "type": "object", "properties": {} });

/// The input schema of a tool that takes one optional text argument, filled in with `default`.
pub fn one_text_argument(name: &str, description: &str, default: &str) -> Value {
    json!({
        "type": "object",
        "properties": {
            name: { "type": "string", "description": description, "default": default }
        }
    })
}

/// How a tool answers: at once, or after awaiting something (a pause, the task store, a
/// notification sent on the way).
#[derive(Clone, Copy)]
pub enum Handler {
    Now(fn(&Call<'_>) -> Reply),
    Later(for<'c> fn(&'c Call<'c>) -> BoxFuture<'c, Reply>),
}

/// A tool as a fixture set declares it.
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub input_schema: SchemaFn,
    /// The shape of `structuredContent`, for the tools that promise one.
    pub output_schema: Option<SchemaFn>,
    pub handler: Handler,
}

impl Tool {
    /// The tool as `tools/list` shows it.
    pub fn listed(&self) -> rmcp::model::Tool {
        let mut tool = rmcp::model::Tool::new(
            self.name,
            self.description,
            Arc::new(object(self.input_schema)),
        );
        tool.title = Some(self.title.to_owned());
        tool.output_schema = self.output_schema.map(|schema| Arc::new(object(schema)));
        tool
    }

    /// Answer `call`, which names this tool.
    pub async fn run(&self, call: &Call<'_>) -> Reply {
        match self.handler {
            Handler::Now(handler) => handler(call),
            Handler::Later(handler) => handler(call).await,
        }
    }
}

/// The schema as a JSON object; a schema that is not one lists as `{}`.
fn object(schema: SchemaFn) -> JsonObject {
    match schema() {
        Value::Object(schema) => schema,
        _ => JsonObject::default(),
    }
}
