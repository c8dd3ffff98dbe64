//! `slow_report`: an ordinary request that streams `notifications/progress` over SSE
//! before its result. Closing the stream cancels the work.

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, ProgressNotificationParam};
use serde_json::json;

use crate::fixture_kit::{Call, Handler, Tool};

pub const TOOL: Tool = Tool {
    name: "slow_report",
    title: "Slow report",
    description: "A normal request that takes a while: with a progressToken, the server streams \
                  notifications/progress over SSE before the result. Closing the stream (Stop) \
                  cancels the work on the server.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": {
                "seconds": { "type": "number", "minimum": 0, "maximum": 120, "default": 6, "description": "How long the report takes." }
            }
        })
    },
    output_schema: None,
    handler: Handler::Later(|call| Box::pin(run(call))),
};

const SECTIONS: [&str; 6] = [
    "Collecting data",
    "Cleaning rows",
    "Computing totals",
    "Drawing charts",
    "Writing summary",
    "Formatting",
];

async fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let seconds = call.number_argument("seconds", 6.0, 0.0..=120.0)?;
    let token = call.context.meta.get_progress_token();
    let total = SECTIONS.len();
    let each = seconds / total as f64;
    for (done, section) in SECTIONS.iter().enumerate() {
        if let Some(token) = &token {
            let progress = ProgressNotificationParam::new(token.clone(), done as f64)
                .with_total(total as f64)
                // `progress` counts the sections done; the message names the one under way.
                .with_message(*section);
            // A failed send means the client closed the stream: stop working.
            if call.context.peer.notify_progress(progress).await.is_err() {
                return Err(stopped(done, total));
            }
        }
        tokio::select! {
            () = call.context.ct.cancelled() => return Err(stopped(done, total)),
            () = super::pause(each) => {}
        }
    }
    Ok(super::structured(
        format!("Report ready: {total} sections in {seconds} s."),
        json!({ "sections": total, "seconds": seconds }),
    )
    .into())
}

fn stopped(done: usize, total: usize) -> ErrorData {
    // Nobody reads the error any more; the log line shows operators that the work stopped.
    eprintln!(
        "slow_report: the client closed the stream; stopped after {done} of {total} sections"
    );
    ErrorData::internal_error("the client closed the stream; the report was stopped", None)
}
