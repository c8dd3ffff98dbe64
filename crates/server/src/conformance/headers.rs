//! The SEP-2243 custom-header fixture: a tool argument mirrored into an `Mcp-Param-Value`
//! header. rmcp checks the header against the body before the tool runs.

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

use crate::fixture_kit::{Call, Handler, Reply, Tool};

pub const TOOLS: &[Tool] = &[Tool {
    name: "test_custom_header",
    title: "Conformance: custom header",
    description: "Echoes `value`, which the client must also send as the Mcp-Param-Value header.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": { "value": { "type": "string", "x-mcp-header": "Value" } },
            "required": ["value"]
        })
    },
    output_schema: None,
    handler: Handler::Now(echo_value),
}];

fn echo_value(call: &Call<'_>) -> Reply {
    match call.argument("value").and_then(Value::as_str) {
        Some(value) => Ok(CallToolResult::success(vec![ContentBlock::text(value)]).into()),
        None => Err(ErrorData::invalid_params("value must be a string", None)),
    }
}
