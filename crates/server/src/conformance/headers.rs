//! The SEP-2243 custom-header fixture: a tool argument mirrored into an `Mcp-Param-Value`
//! header. rmcp checks the header against the body before the tool runs.

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde_json::{Value, json};

use crate::demo::Call;
use crate::demo::catalog::ToolSpec;

pub const TOOLS: &[ToolSpec] = &[ToolSpec {
    name: "test_custom_header",
    title: "Conformance: custom header",
    description: "Echoes `value`, which the client must also send as the Mcp-Param-Value header.",
    schema: || {
        json!({
            "type": "object",
            "properties": { "value": { "type": "string", "x-mcp-header": "Value" } },
            "required": ["value"]
        })
    },
}];

pub fn call(call: &Call<'_>) -> Option<Result<CallToolResponse, ErrorData>> {
    if call.tool() != "test_custom_header" {
        return None;
    }
    Some(match call.argument("value").and_then(Value::as_str) {
        Some(value) => Ok(CallToolResult::success(vec![ContentBlock::text(value)]).into()),
        None => Err(ErrorData::invalid_params("value must be a string", None)),
    })
}
