//! The suite's content fixtures (`tools-call-*`, `json-schema-2020-12`): each tool
//! returns one shape of `CallToolResult`.

use rmcp::model::{AudioContent, ContentBlock, ResourceContents};
use rmcp::model::{CallToolResult, ProgressNotificationParam};
use serde_json::json;

use super::media::{PNG_1X1, WAV_SILENCE};
use crate::fixture_kit::{Call, Handler, NO_ARGUMENTS, Reply, Tool};

pub const TOOLS: &[Tool] = &[
    Tool {
        name: "test_simple_text",
        title: "Conformance: simple text",
        description: "Returns one text block.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(|_| text("This is a simple text response for testing.")),
    },
    Tool {
        name: "test_image_content",
        title: "Conformance: image",
        description: "Returns one PNG image block.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(|_| success(vec![ContentBlock::image(PNG_1X1, "image/png")])),
    },
    Tool {
        name: "test_audio_content",
        title: "Conformance: audio",
        description: "Returns one WAV audio block.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(|_| {
            success(vec![ContentBlock::Audio(AudioContent::new(
                WAV_SILENCE,
                "audio/wav",
            ))])
        }),
    },
    Tool {
        name: "test_embedded_resource",
        title: "Conformance: embedded resource",
        description: "Returns one embedded text resource.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(|_| {
            success(vec![embedded_text(
                "test://embedded-resource",
                "text/plain",
                "This is an embedded resource content.",
            )])
        }),
    },
    Tool {
        name: "test_multiple_content_types",
        title: "Conformance: mixed content",
        description: "Returns text, an image and an embedded resource together.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(|_| {
            success(vec![
                ContentBlock::text("Multiple content types test:"),
                ContentBlock::image(PNG_1X1, "image/png"),
                embedded_text(
                    "test://mixed-content-resource",
                    "application/json",
                    r#"{"test":"data","value":123}"#,
                ),
            ])
        }),
    },
    Tool {
        name: "test_error_handling",
        title: "Conformance: tool error",
        description: "Always returns a tool execution error (isError), not a protocol error.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(|_| {
            Ok(CallToolResult::error(vec![ContentBlock::text(
                "This tool intentionally returns an error for testing",
            )])
            .into())
        }),
    },
    Tool {
        name: "test_tool_with_progress",
        title: "Conformance: progress",
        description: "Sends three progress notifications (0, 50, 100) when given a progressToken.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(with_progress(call))),
    },
    Tool {
        name: "json_schema_2020_12_tool",
        title: "Conformance: JSON Schema 2020-12",
        description: "Tool with JSON Schema 2020-12 features",
        input_schema: json_schema_2020_12,
        output_schema: None,
        handler: Handler::Now(|call| {
            text(&format!(
                "Hello, {}!",
                call.string_argument("name", "world")
            ))
        }),
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

fn success(content: Vec<ContentBlock>) -> Reply {
    Ok(CallToolResult::success(content).into())
}

fn text(text: &str) -> Reply {
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

async fn with_progress(call: &Call<'_>) -> Reply {
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
