//! The suite's content fixtures (`tools-call-*`, `json-schema-2020-12`): each tool
//! returns one shape of `CallToolResult`.

use rmcp::ErrorData;
use rmcp::model::{
    AudioContent, CallToolResponse, CallToolResult, ContentBlock, ProgressNotificationParam,
    ResourceContents,
};
use serde_json::json;

use super::NO_ARGUMENTS;
use super::media::{PNG_1X1, WAV_SILENCE};
use crate::demo::Call;
use crate::demo::catalog::ToolSpec;

pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "test_simple_text",
        title: "Conformance: simple text",
        description: "Returns one text block.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_image_content",
        title: "Conformance: image",
        description: "Returns one PNG image block.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_audio_content",
        title: "Conformance: audio",
        description: "Returns one WAV audio block.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_embedded_resource",
        title: "Conformance: embedded resource",
        description: "Returns one embedded text resource.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_multiple_content_types",
        title: "Conformance: mixed content",
        description: "Returns text, an image and an embedded resource together.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_error_handling",
        title: "Conformance: tool error",
        description: "Always returns a tool execution error (isError), not a protocol error.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_tool_with_progress",
        title: "Conformance: progress",
        description: "Sends three progress notifications (0, 50, 100) when given a progressToken.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "json_schema_2020_12_tool",
        title: "Conformance: JSON Schema 2020-12",
        description: "Tool with JSON Schema 2020-12 features",
        schema: json_schema_2020_12,
    },
];

fn json_schema_2020_12() -> serde_json::Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "address",
                "type": "object",
                "properties": { "street": { "type": "string" }, "city": { "type": "string" } }
            }
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" }
        },
        "allOf": [{ "anyOf": [{ "required": ["name"] }, { "required": ["address"] }] }],
        "if": { "required": ["address"] },
        "then": { "properties": { "address": { "required": ["street"] } } },
        "else": { "required": ["name"] },
        "additionalProperties": false
    })
}

pub async fn call(call: &Call<'_>) -> Option<Result<CallToolResponse, ErrorData>> {
    let result = match call.tool() {
        "test_simple_text" => text("This is a simple text response for testing."),
        "test_image_content" => success(vec![ContentBlock::image(PNG_1X1, "image/png")]),
        "test_audio_content" => success(vec![ContentBlock::Audio(AudioContent::new(
            WAV_SILENCE,
            "audio/wav",
        ))]),
        "test_embedded_resource" => success(vec![embedded_text(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )]),
        "test_multiple_content_types" => success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG_1X1, "image/png"),
            embedded_text(
                "test://mixed-content-resource",
                "application/json",
                r#"{"test":"data","value":123}"#,
            ),
        ]),
        "test_error_handling" => Ok(CallToolResult::error(vec![ContentBlock::text(
            "This tool intentionally returns an error for testing",
        )])),
        "test_tool_with_progress" => with_progress(call).await,
        "json_schema_2020_12_tool" => {
            let name = call.string_argument("name", "world");
            text(&format!("Hello, {name}!"))
        }
        _ => return None,
    };
    Some(result.map(CallToolResponse::from))
}

fn success(content: Vec<ContentBlock>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::success(content))
}

fn text(text: &str) -> Result<CallToolResult, ErrorData> {
    success(vec![ContentBlock::text(text)])
}

fn embedded_text(uri: &str, mime_type: &str, text: &str) -> ContentBlock {
    ContentBlock::resource(ResourceContents::TextResourceContents {
        uri: uri.into(),
        mime_type: Some(mime_type.into()),
        text: text.into(),
        meta: None,
    })
}

async fn with_progress(call: &Call<'_>) -> Result<CallToolResult, ErrorData> {
    let token = call.context.meta.get_progress_token();
    for (progress, message) in [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Done")] {
        if let Some(token) = &token {
            let update = ProgressNotificationParam::new(token.clone(), progress)
                .with_total(100.0)
                .with_message(message);
            // A closed stream only means nobody is watching; the result still stands.
            let _ = call.context.peer.notify_progress(update).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    text("Progress test completed")
}
