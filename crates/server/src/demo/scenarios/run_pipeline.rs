//! `run_pipeline`: a task with step progress and an approval gate answered through
//! `tasks/update`.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::rounds::{Answer, form, one, parse_answer};
use crate::fixture_kit::{Call, Handler, Tool};
use crate::tasks::{BoxFuture, CreateOptions, StepInput, StepOutcome, TaskJob};

pub const TOOL: Tool = Tool {
    name: "run_pipeline",
    title: "Run a build pipeline",
    description: "Detach a task: the server answers with a task handle at once and the work \
                  goes on by itself. Poll it to watch the steps; at the approve_prod gate the \
                  task asks for input, which the client answers with tasks/update. Needs a \
                  client that accepts tasks.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": {
                "duration_seconds": { "type": "number", "minimum": 1, "maximum": 600, "default": 20, "description": "How long the whole pipeline takes." },
                "target": { "type": "string", "enum": ["staging", "production"], "default": "production", "description": "Production deploys stop at an approval gate." }
            }
        })
    },
    output_schema: None,
    handler: Handler::Later(|call| Box::pin(run(call))),
};

pub const KIND: &str = "run_pipeline";
const GATE: &str = "approve_prod";
/// What the pipeline does after each step, by target: a staging run never mentions
/// production. The step after the last label completes the task.
const PRODUCTION: [&str; 6] = [
    "compiling",
    "running tests",
    "deploying to staging",
    "waiting for approval to deploy to production",
    "deploying to production",
    "smoke testing",
];
const STAGING: [&str; 4] = [
    "compiling",
    "running tests",
    "deploying to staging",
    "smoke testing",
];
/// The production step that waits at the gate before deploying.
const GATE_STEP: u32 = 4;

fn stages(production: bool) -> &'static [&'static str] {
    if production { &PRODUCTION } else { &STAGING }
}

async fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    // Its approval gate needs a task to park on, so there is no synchronous fallback.
    call.require_tasks()?;
    call.number_argument("duration_seconds", 20.0, 1.0..=600.0)?;
    let target = call.string_argument("target", "production");
    if !["staging", "production"].contains(&target) {
        return Err(ErrorData::invalid_params(
            "target must be staging or production",
            None,
        ));
    }
    call.start_task(
        KIND,
        CreateOptions {
            poll_interval_ms: 1000,
            status_message: Some(
                "Queued behind 2 other builds (the demo pretends a build queue)".to_owned(),
            ),
        },
    )
    .await
}

pub struct Job;

impl TaskJob for Job {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            let duration = input.number_argument("duration_seconds", 20.0, 1.0..=600.0);
            let production =
                input.arguments.get("target").and_then(Value::as_str) != Some("staging");
            let stages = stages(production);
            let total = u32::try_from(stages.len()).unwrap_or(u32::MAX);
            let each = duration / f64::from(total + 1);
            let step = input.step;
            if step == GATE_STEP && production {
                match input.answers.get(GATE).and_then(parse_answer) {
                    None => return ask_gate(),
                    Some(Answer::Accept(content))
                        if content.get("approve") == Some(&Value::Bool(true)) => {}
                    Some(_) => {
                        return StepOutcome::Complete(super::structured(
                            "Pipeline stopped at the gate: production deploy not approved. Staging is live.",
                            json!({ "deployed": ["staging"], "approved": false, "steps": total }),
                        ));
                    }
                }
            }
            super::pause(each).await;
            match stages.get(usize::try_from(step).unwrap_or(usize::MAX)) {
                Some(label) => StepOutcome::Continue {
                    memory: Value::Null,
                    status_message: Some(format!("Step {} of {total}: {label}", step + 1)),
                },
                None => {
                    let deployed = if production {
                        json!(["staging", "production"])
                    } else {
                        json!(["staging"])
                    };
                    StepOutcome::Complete(super::structured(
                        format!("Pipeline finished in {duration} s: all {total} steps passed."),
                        json!({ "deployed": deployed, "approved": production, "steps": total, "durationSeconds": duration }),
                    ))
                }
            }
        })
    }
}

fn ask_gate() -> StepOutcome {
    match form(
        "Staging is green. Approve the deploy to production?",
        json!({
            "type": "object",
            "properties": { "approve": { "type": "boolean", "title": "Approve the production deploy", "default": false } },
            "required": ["approve"]
        }),
    ) {
        Ok(request) => StepOutcome::Ask {
            requests: one(GATE, request),
            status_message: Some("Waiting at the approval gate (approve_prod)".to_owned()),
        },
        Err(error) => StepOutcome::Fail(error),
    }
}
