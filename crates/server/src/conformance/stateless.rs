//! The diagnostic tools of the `server-stateless` scenario: capability rejection, an
//! input request on the response stream, and logging only on request.

use rmcp::ErrorData;
use rmcp::model::ClientCapabilities;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, InputRequiredResult};
use serde_json::json;

use super::inputs::ask_text;
use crate::fixture_kit::rounds::one;
use crate::fixture_kit::{Call, Handler, NO_ARGUMENTS, Reply, Tool};

pub const TOOLS: &[Tool] = &[
    Tool {
        name: "test_missing_capability",
        title: "Conformance: missing capability",
        description: "Needs the sampling client capability; without it the call fails with -32021.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(missing_capability),
    },
    Tool {
        name: "test_streaming_elicitation",
        title: "Conformance: input on the response stream",
        description: "Returns an input_required result with one elicitation (never a server-to-client request).",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(|_| {
            ask_text("Provide a value", "value").map(|request| {
                CallToolResponse::InputRequired(InputRequiredResult::from_input_requests(one(
                    "streaming_elicitation",
                    request,
                )))
            })
        }),
    },
    Tool {
        name: "test_logging_tool",
        title: "Conformance: logging on request",
        description: "Sends notifications/message only when the request's _meta sets a logLevel.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(logging(call))),
    },
];

#[expect(deprecated, reason = "the suite's probe capability is sampling")]
fn missing_capability(call: &Call<'_>) -> Reply {
    let declared = call
        .context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.sampling.is_some());
    if !declared {
        return Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_sampling().build(),
        ));
    }
    Ok(text("The sampling capability was declared.").into())
}

// Logging is deprecated in rmcp (SEP-2577); the suite checks that a server stays quiet
// unless the request asks for a level.
#[expect(
    deprecated,
    reason = "the conformance suite still tests per-request log levels"
)]
async fn logging(call: &Call<'_>) -> Reply {
    if let Some(level) = call.context.meta.log_level() {
        let message = rmcp::model::LoggingMessageNotificationParam::new(
            level,
            json!("logLevel was requested"),
        )
        .with_logger("holdbay-conformance");
        // A closed stream only means nobody is listening; the result still stands.
        let _ = call.context.peer.notify_logging_message(message).await;
    }
    Ok(text("Logging tool completed").into())
}

fn text(text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}
