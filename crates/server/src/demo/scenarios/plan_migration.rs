//! `plan_migration`: one task asking for two inputs at once (`window` and `rollback`),
//! which the client can answer together in one `tasks/update`.
//!
//! The runtime keeps the task `input_required` until every outstanding key is answered,
//! and a partial `tasks/update` removes only the answered key from the snapshot, so the
//! job itself runs its decision step once, with both answers in hand.

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, InputRequests};
use serde_json::{Value, json};

use crate::fixture_kit::rounds::{Answer, form, parse_answer};
use crate::fixture_kit::{Call, Handler, Tool};
use crate::tasks::{BoxFuture, CreateOptions, StepInput, StepOutcome, TaskJob};

pub const TOOL: Tool = Tool {
    name: "plan_migration",
    title: "Plan a database migration",
    description: "Two input requests of one task, answered together: the migration plan runs \
                  as a task, and after a short first step it asks in one input_required \
                  snapshot for a maintenance window (window) and a tested rollback plan \
                  (rollback). The client answers both with one tasks/update; answering only \
                  one leaves the task waiting for the other. Needs a client that accepts tasks.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": {
                "duration_seconds": { "type": "number", "minimum": 1, "maximum": 600, "default": 3, "description": "How long planning takes before the questions." }
            }
        })
    },
    output_schema: None,
    handler: Handler::Later(|call| Box::pin(run(call))),
};

pub const KIND: &str = "plan_migration";
/// The input-request keys, both asked in the same snapshot.
pub const WINDOW: &str = "window";
pub const ROLLBACK: &str = "rollback";
/// The form field of each key's answer.
const WINDOW_FIELD: &str = "window";
const ROLLBACK_FIELD: &str = "tested";
/// The maintenance windows offered: (value, title).
const WINDOWS: [(&str, &str); 3] = [
    ("tonight", "Tonight, 22:00–23:00 UTC"),
    ("saturday", "Saturday, 02:00–04:00 UTC"),
    ("sunday", "Sunday, 02:00–04:00 UTC"),
];
const DEFAULT_WINDOW: &str = "saturday";
const DEFAULT_DURATION: f64 = 3.0;
const DURATION_RANGE: std::ops::RangeInclusive<f64> = 1.0..=600.0;
/// Step 0 plans; step 1 asks, then decides once both answers are in.
const DECIDE_STEP: u32 = 1;

async fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    // Its questions need a task to park on, so there is no synchronous fallback.
    call.require_tasks()?;
    call.number_argument("duration_seconds", DEFAULT_DURATION, DURATION_RANGE)?;
    call.start_task(
        KIND,
        CreateOptions {
            poll_interval_ms: 1000,
            status_message: Some("Comparing the current schema with the target".to_owned()),
        },
    )
    .await
}

pub struct Job;

impl TaskJob for Job {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            if input.step < DECIDE_STEP {
                let duration =
                    input.number_argument("duration_seconds", DEFAULT_DURATION, DURATION_RANGE);
                super::pause(duration).await;
                return StepOutcome::Continue {
                    memory: Value::Null,
                    status_message: Some(
                        "Migration plan ready: 3 tables to alter, about 20 minutes of locks"
                            .to_owned(),
                    ),
                };
            }
            let window = input.answers.get(WINDOW).map(parse_answer);
            let rollback = input.answers.get(ROLLBACK).map(parse_answer);
            match (window, rollback) {
                (Some(window), Some(rollback)) => {
                    StepOutcome::Complete(decide(window.as_ref(), rollback.as_ref()))
                }
                // Only what is still unanswered is asked. The runtime reruns this step only
                // once nothing is outstanding, so in practice this asks both keys, once.
                (window, rollback) => ask(window.is_none(), rollback.is_none()),
            }
        })
    }
}

/// The result once both keys are answered (`None`: an answer that was not an
/// `ElicitResult`).
fn decide(window: Option<&Answer>, rollback: Option<&Answer>) -> rmcp::model::CallToolResult {
    let mut reasons = Vec::new();
    let chosen = match window {
        Some(Answer::Accept(content)) => {
            let value = content.get(WINDOW_FIELD).and_then(Value::as_str);
            let offered = WINDOWS.iter().find(|(choice, _)| Some(*choice) == value);
            if offered.is_none() {
                reasons.push("the window answer was not one of the offered windows");
            }
            offered
        }
        Some(Answer::Decline) => {
            reasons.push("the maintenance window was declined");
            None
        }
        Some(Answer::Cancel) => {
            reasons.push("the maintenance window was cancelled");
            None
        }
        None => {
            reasons.push("the window answer was not understood");
            None
        }
    };
    let tested = match rollback {
        Some(Answer::Accept(content)) => {
            let tested = content.get(ROLLBACK_FIELD) == Some(&Value::Bool(true));
            if !tested {
                reasons.push("there is no tested rollback plan");
            }
            Some(tested)
        }
        Some(Answer::Decline) => {
            reasons.push("the rollback confirmation was declined");
            None
        }
        Some(Answer::Cancel) => {
            reasons.push("the rollback confirmation was cancelled");
            None
        }
        None => {
            reasons.push("the rollback answer was not understood");
            None
        }
    };
    match chosen {
        Some((value, title)) if reasons.is_empty() => super::structured(
            format!("Migration scheduled for {title}, with a tested rollback plan."),
            json!({ "scheduled": true, "window": value, "windowTitle": title, "rollbackPlan": true }),
        ),
        _ => super::structured(
            format!("Migration not scheduled: {}.", reasons.join("; ")),
            json!({
                "scheduled": false,
                "window": chosen.map(|(value, _)| *value),
                "rollbackPlan": tested,
                "reasons": reasons,
            }),
        ),
    }
}

/// One snapshot with every key still wanted.
fn ask(window: bool, rollback: bool) -> StepOutcome {
    let mut requests = InputRequests::new();
    if window {
        let choices: Vec<Value> = WINDOWS
            .iter()
            .map(|(value, title)| json!({ "const": value, "title": title }))
            .collect();
        match form(
            "Choose a maintenance window for the migration (3 tables locked for about 20 minutes).",
            json!({
                "type": "object",
                "properties": {
                    WINDOW_FIELD: { "type": "string", "title": "Maintenance window", "oneOf": choices, "default": DEFAULT_WINDOW }
                },
                "required": [WINDOW_FIELD]
            }),
        ) {
            Ok(request) => {
                requests.insert(WINDOW.to_owned(), request);
            }
            Err(error) => return StepOutcome::Fail(error),
        }
    }
    if rollback {
        match form(
            "Before the migration is scheduled: is there a tested rollback plan?",
            json!({
                "type": "object",
                "properties": {
                    ROLLBACK_FIELD: { "type": "boolean", "title": "I have a tested rollback plan", "default": false }
                },
                "required": [ROLLBACK_FIELD]
            }),
        ) {
            Ok(request) => {
                requests.insert(ROLLBACK.to_owned(), request);
            }
            Err(error) => return StepOutcome::Fail(error),
        }
    }
    StepOutcome::Ask {
        requests,
        // Said once for the whole snapshot: a partial tasks/update does not change it, so it
        // names no key; the outstanding ones are in inputRequests.
        status_message: Some(
            "Migration plan ready: waiting for answers before scheduling".to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(content: Value) -> Answer {
        Answer::Accept(content.as_object().cloned().unwrap_or_default())
    }

    fn structured(result: &rmcp::model::CallToolResult) -> Value {
        result.structured_content.clone().unwrap_or_default()
    }

    #[test]
    fn both_accepted_schedules_in_the_chosen_window() {
        let result = decide(
            Some(&accept(json!({"window": "sunday"}))),
            Some(&accept(json!({"tested": true}))),
        );
        assert_eq!(
            structured(&result),
            json!({"scheduled": true, "window": "sunday", "windowTitle": "Sunday, 02:00–04:00 UTC", "rollbackPlan": true})
        );
    }

    #[test]
    fn every_refusal_is_named() {
        let result = decide(
            Some(&Answer::Cancel),
            Some(&accept(json!({"tested": false}))),
        );
        assert_eq!(
            structured(&result)["reasons"],
            json!([
                "the maintenance window was cancelled",
                "there is no tested rollback plan"
            ])
        );
        assert_eq!(structured(&result)["scheduled"], false);

        let result = decide(
            Some(&accept(json!({"window": "someday"}))),
            Some(&Answer::Decline),
        );
        assert_eq!(
            structured(&result)["reasons"],
            json!([
                "the window answer was not one of the offered windows",
                "the rollback confirmation was declined"
            ])
        );

        let result = decide(Some(&accept(json!({"window": "tonight"}))), None);
        assert_eq!(structured(&result)["window"], "tonight");
        assert_eq!(structured(&result)["scheduled"], false);
    }

    #[test]
    fn asks_only_what_is_missing() {
        let keys = |outcome: StepOutcome| match outcome {
            StepOutcome::Ask { requests, .. } => requests.keys().cloned().collect::<Vec<_>>(),
            other => panic!("expected a question, got {other:?}"),
        };
        assert_eq!(keys(ask(true, true)), ["rollback", "window"]);
        assert_eq!(keys(ask(false, true)), ["rollback"]);
        assert_eq!(keys(ask(true, false)), ["window"]);
    }
}
