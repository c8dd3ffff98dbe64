//! `echo`: one request, one complete result.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::json;

use crate::fixture_kit::{Call, Handler, Tool};

pub const TOOL: Tool = Tool {
    name: "echo",
    title: "Echo",
    description: "Send a message and get the same text back in one round trip: the simplest \
                  complete result.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": { "message": { "type": "string", "description": "The text to send back." } },
            "required": ["message"]
        })
    },
    output_schema: None,
    handler: Handler::Now(run),
};

fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let message = call
        .argument("message")
        .and_then(|value| value.as_str())
        .ok_or_else(|| ErrorData::invalid_params("message must be a string", None))?;
    Ok(super::text(message).into())
}
