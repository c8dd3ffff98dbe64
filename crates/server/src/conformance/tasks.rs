//! The Tasks-extension fixtures (SEP-2663): which tools run as tasks, and how a call
//! becomes one. The work itself is in [`super::jobs`], run by the server's task runtime.
//!
//! Task-supporting tools create a task only when the request declares the extension
//! and run synchronously otherwise; task-required tools reject such a request with
//! -32021 instead (they have no synchronous fallback).

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::{Value, json};

use super::inputs::ask_text;
use super::jobs;
use crate::fixture_kit::rounds::{Answer, Rounds, one};
use crate::fixture_kit::{Call, Handler, NO_ARGUMENTS, Reply, Tool};
use crate::tasks::CreateOptions;

pub const TOOLS: &[Tool] = &[
    Tool {
        name: "greet",
        title: "Conformance tasks: greet",
        description: "Synchronous only: returns Hello, {name}!",
        input_schema: || {
            json!({
                "type": "object",
                "properties": { "name": { "type": "string" } },
                "required": ["name"]
            })
        },
        output_schema: None,
        handler: Handler::Now(|call| {
            Ok(text(&format!(
                "Hello, {}!",
                call.string_argument("name", "friend")
            ))
            .into())
        }),
    },
    Tool {
        name: "slow_compute",
        title: "Conformance tasks: slow compute",
        description: "Sleeps `seconds`, then returns. Runs as a task when the client accepts tasks; cancellable.",
        input_schema: || {
            json!({
                "type": "object",
                "properties": {
                    "seconds": { "type": "number", "minimum": 0, "maximum": jobs::MAX_COMPUTE_SECONDS },
                    "label": { "type": "string" }
                }
            })
        },
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(slow_compute(call))),
    },
    Tool {
        name: "failing_job",
        title: "Conformance tasks: tool error",
        description: "Task required. Ends completed with an isError result after about a second.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(task_required(call, jobs::FAILING))),
    },
    Tool {
        name: "protocol_error_job",
        title: "Conformance tasks: protocol error",
        description: "Fails with a JSON-RPC error: as a task it ends failed with that error.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(protocol_error(call))),
    },
    Tool {
        name: "confirm_delete",
        title: "Conformance tasks: one input",
        description: "Task required. Parks in input_required on one confirmation, answered with tasks/update.",
        input_schema: || {
            json!({
                "type": "object",
                "properties": { "filename": { "type": "string" } }
            })
        },
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(task_required(call, jobs::CONFIRM_DELETE))),
    },
    Tool {
        name: "multi_input",
        title: "Conformance tasks: two inputs",
        description: "Task required. Parks on two questions at once; each can be answered separately.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(task_required(call, jobs::MULTI_INPUT))),
    },
    Tool {
        name: "test_tool_with_task",
        title: "Conformance tasks: MRTR, then a task",
        description: "Task required. Round 1 asks for user_name (MRTR); round 2 starts a task that greets.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Later(|call| Box::pin(mrtr_then_task(call))),
    },
];

async fn slow_compute(call: &Call<'_>) -> Reply {
    let seconds = call.number_argument("seconds", 1.0, 0.0..=jobs::MAX_COMPUTE_SECONDS)?;
    if call.accepts_tasks() {
        return start(call, jobs::SLOW_COMPUTE, call.arguments()).await;
    }
    tokio::time::sleep(std::time::Duration::from_secs_f64(seconds)).await;
    Ok(jobs::computed(call.string_argument("label", "compute"), seconds).into())
}

async fn protocol_error(call: &Call<'_>) -> Reply {
    if call.accepts_tasks() {
        return start(call, jobs::PROTOCOL_ERROR, call.arguments()).await;
    }
    tokio::time::sleep(jobs::PROTOCOL_ERROR_DELAY).await;
    Err(jobs::protocol_failure())
}

/// A task of `kind` on the call's own arguments; -32021 without the tasks extension.
async fn task_required(call: &Call<'_>, kind: &str) -> Reply {
    call.require_tasks()?;
    start(call, kind, call.arguments()).await
}

/// SEP-2663 composition: gather input with MRTR first, create the task only once the
/// answer is in, so the task's result can use it.
async fn mrtr_then_task(call: &Call<'_>) -> Reply {
    call.require_tasks()?;
    let rounds = Rounds::open(call)?;
    let name = match rounds.answer("user_name") {
        Some(Answer::Accept(content)) => content
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("friend")
            .to_owned(),
        _ => {
            let question = ask_text("What is your name?", "name")?;
            return rounds.ask(one("user_name", question), Value::Null);
        }
    };
    // The job reads only its stored arguments, so the gathered answer goes in with them.
    let mut arguments = call.arguments();
    arguments.insert(jobs::GATHERED_NAME.to_owned(), Value::String(name));
    start(call, jobs::GREET_LATER, arguments).await
}

/// Commit the task, then hand back its handle.
async fn start(call: &Call<'_>, kind: &str, arguments: JsonObject) -> Reply {
    let options = CreateOptions {
        poll_interval_ms: jobs::POLL_INTERVAL_MS,
        status_message: None,
    };
    call.start_task_with(kind, arguments, options).await
}

fn text(text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}
