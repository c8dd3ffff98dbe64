//! `echo`: one request, one complete result.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::json;

use crate::demo::call::Call;
use crate::demo::catalog::ToolSpec;

pub const SPEC: ToolSpec = ToolSpec {
    name: "echo",
    title: "Echo",
    description: "Send a message and get the same text back in one round trip: the simplest \
                  complete result.",
    schema: || {
        json!({
            "type": "object",
            "properties": { "message": { "type": "string", "description": "The text to send back." } },
            "required": ["message"]
        })
    },
};

pub fn call(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let message = call
        .argument("message")
        .and_then(|value| value.as_str())
        .ok_or_else(|| ErrorData::invalid_params("message must be a string", None))?;
    Ok(super::text(message).into())
}
