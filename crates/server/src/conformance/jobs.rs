//! The work of the Tasks fixtures, as jobs of the server's durable task runtime.
//!
//! The runtime honours `tasks/cancel` between steps, so long work is cut into short
//! steps: a cancelled `slow_compute` settles to `cancelled` within one step.

use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, InputRequest, InputRequests};
use serde_json::Value;

use super::inputs::{ask_text, ask_yes_no, content_field};
use crate::tasks::{BoxFuture, JobRegistry, StepInput, StepOutcome, TaskJob};

pub const SLOW_COMPUTE: &str = "conformance/slow_compute";
pub const FAILING: &str = "conformance/failing_job";
pub const PROTOCOL_ERROR: &str = "conformance/protocol_error_job";
pub const CONFIRM_DELETE: &str = "conformance/confirm_delete";
pub const MULTI_INPUT: &str = "conformance/multi_input";
pub const GREET_LATER: &str = "conformance/greet_later";

/// The argument `test_tool_with_task` adds for the name it gathered by MRTR.
pub const GATHERED_NAME: &str = "gatheredName";
pub const POLL_INTERVAL_MS: u64 = 500;
pub const MAX_COMPUTE_SECONDS: f64 = 600.0;
pub const PROTOCOL_ERROR_DELAY: Duration = Duration::from_millis(200);
/// Longest sleep of one `slow_compute` step: the worst delay before a cancel lands.
const COMPUTE_SLICE_SECONDS: f64 = 0.5;

pub fn register(jobs: &mut JobRegistry) {
    jobs.register(SLOW_COMPUTE, SlowCompute);
    jobs.register(FAILING, Failing);
    jobs.register(PROTOCOL_ERROR, ProtocolError);
    jobs.register(CONFIRM_DELETE, ConfirmDelete);
    jobs.register(MULTI_INPUT, MultiInput);
    jobs.register(GREET_LATER, GreetLater);
}

pub fn computed(label: &str, seconds: f64) -> CallToolResult {
    text(&format!("slow_compute({label}) done after {seconds}s"))
}

pub fn protocol_failure() -> ErrorData {
    ErrorData::internal_error(
        "protocol_error_job: intentional protocol-level failure",
        None,
    )
}

fn text(text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn string_argument<'a>(input: &StepInput<'a>, name: &str, default: &'a str) -> &'a str {
    input
        .arguments
        .get(name)
        .and_then(Value::as_str)
        .unwrap_or(default)
}

struct SlowCompute;

impl TaskJob for SlowCompute {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            let seconds = input.number_argument("seconds", 1.0, 0.0..=MAX_COMPUTE_SECONDS);
            let label = string_argument(&input, "label", "compute");
            let elapsed = f64::from(input.step) * COMPUTE_SLICE_SECONDS;
            let remaining = seconds - elapsed;
            if remaining <= 0.0 {
                return StepOutcome::Complete(computed(label, seconds));
            }
            let slice = remaining.min(COMPUTE_SLICE_SECONDS);
            tokio::time::sleep(Duration::from_secs_f64(slice)).await;
            StepOutcome::Continue {
                memory: Value::Null,
                status_message: Some(format!("{label}: {:.1} of {seconds} s", elapsed + slice)),
            }
        })
    }
}

/// A tool that ran and reported failure: `completed` with an `isError` result.
struct Failing;

impl TaskJob for Failing {
    fn step<'a>(&'a self, _input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            StepOutcome::Complete(CallToolResult::error(vec![ContentBlock::text(
                "failing_job: intentional tool execution error",
            )]))
        })
    }
}

/// Work that broke at the protocol level: `failed` with the JSON-RPC error.
struct ProtocolError;

impl TaskJob for ProtocolError {
    fn step<'a>(&'a self, _input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            tokio::time::sleep(PROTOCOL_ERROR_DELAY).await;
            StepOutcome::Fail(protocol_failure())
        })
    }
}

struct ConfirmDelete;

impl TaskJob for ConfirmDelete {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            let filename = string_argument(&input, "filename", "file.txt");
            let Some(answer) = input.answers.get("confirm") else {
                return ask(
                    [(
                        "confirm",
                        ask_yes_no(&format!("Delete {filename}?"), "confirm"),
                    )],
                    "Waiting for confirmation",
                );
            };
            let confirmed = content_field(answer, "confirm").and_then(Value::as_bool) == Some(true);
            StepOutcome::Complete(text(&format!(
                "confirm_delete({filename}): confirmed = {confirmed}"
            )))
        })
    }
}

/// Two questions at once: the runtime keeps the task in `input_required` until both are
/// answered, then reruns this step with both answers.
struct MultiInput;

impl TaskJob for MultiInput {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            let value = |key: &str| {
                input.answers.get(key).map(|answer| {
                    content_field(answer, "value")
                        .and_then(Value::as_str)
                        .unwrap_or("(none)")
                        .to_owned()
                })
            };
            match (value("input-a"), value("input-b")) {
                (Some(a), Some(b)) => {
                    StepOutcome::Complete(text(&format!("multi_input: a = {a}, b = {b}")))
                }
                _ => ask(
                    [
                        ("input-a", ask_text("Provide value A", "value")),
                        ("input-b", ask_text("Provide value B", "value")),
                    ],
                    "Waiting for values A and B",
                ),
            }
        })
    }
}

/// The task `test_tool_with_task` escalates to once MRTR gathered the name.
struct GreetLater;

impl TaskJob for GreetLater {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let name = string_argument(&input, GATHERED_NAME, "friend");
            StepOutcome::Complete(text(&format!("Hello, {name}! (from a task)")))
        })
    }
}

/// Park the task on these questions.
fn ask<const N: usize>(
    questions: [(&str, Result<InputRequest, ErrorData>); N],
    status_message: &str,
) -> StepOutcome {
    let mut requests = InputRequests::new();
    for (key, question) in questions {
        match question {
            Ok(request) => {
                requests.insert(key.to_owned(), request);
            }
            Err(error) => return StepOutcome::Fail(error),
        }
    }
    StepOutcome::Ask {
        requests,
        status_message: Some(status_message.to_owned()),
    }
}
