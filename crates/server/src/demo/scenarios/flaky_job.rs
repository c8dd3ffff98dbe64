//! `flaky_job`: a task that ends `failed` with a JSON-RPC error.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::{Call, Handler, Tool};
use crate::tasks::{BoxFuture, CreateOptions, StepInput, StepOutcome, TaskJob};

pub const TOOL: Tool = Tool {
    name: "flaky_job",
    title: "Flaky job",
    description: "A job that always fails, on purpose: as a task it ends failed and carries the \
                  JSON-RPC error (a failed task is a protocol error, unlike an isError result). \
                  Without tasks the same error comes back directly.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": {
                "seconds": { "type": "number", "minimum": 0, "maximum": 60, "default": 3, "description": "How long before it fails." }
            }
        })
    },
    output_schema: None,
    handler: Handler::Later(|call| Box::pin(run(call))),
};

pub const KIND: &str = "flaky_job";

async fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let seconds = call.number_argument("seconds", 3.0, 0.0..=60.0)?;
    if !call.accepts_tasks() {
        super::pause(seconds).await;
        return Err(failure());
    }
    call.start_task(
        KIND,
        CreateOptions {
            poll_interval_ms: 1000,
            status_message: Some("Attempt 1 of 2: calling the upstream service".to_owned()),
        },
    )
    .await
}

fn failure() -> ErrorData {
    ErrorData::internal_error(
        "flaky_job failed: the upstream service went away (this job always fails, on purpose)",
        Some(json!({ "attempts": 2, "retryable": false })),
    )
}

pub struct Job;

impl TaskJob for Job {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            let seconds = input.number_argument("seconds", 3.0, 0.0..=60.0);
            super::pause(seconds / 2.0).await;
            if input.step == 0 {
                StepOutcome::Continue {
                    memory: Value::Null,
                    status_message: Some(
                        "Attempt 2 of 2: retrying the upstream service".to_owned(),
                    ),
                }
            } else {
                StepOutcome::Fail(failure())
            }
        })
    }
}
