//! `bulk_import`: a cancellable task with partial progress. Cancellation is honoured
//! between batches, so a cancel that arrives during the last batch loses the race.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::{Call, Handler, Tool};
use crate::tasks::{BoxFuture, CreateOptions, StepInput, StepOutcome, TaskJob};

pub const TOOL: Tool = Tool {
    name: "bulk_import",
    title: "Bulk import",
    description: "Cancel is a polite ask: the import runs as a task in batches and checks for \
                  cancellation only between batches. Cancel early and it ends cancelled; cancel \
                  during the last batch and it still ends completed. Needs a client that \
                  accepts tasks.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": {
                "records": { "type": "integer", "minimum": 1, "maximum": 1000000, "default": 500, "description": "How many records to import." },
                "duration_seconds": { "type": "number", "minimum": 1, "maximum": 600, "default": 10, "description": "How long the import takes." }
            }
        })
    },
    output_schema: None,
    handler: Handler::Later(|call| Box::pin(run(call))),
};

pub const KIND: &str = "bulk_import";
const BATCHES: u32 = 10;

async fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    call.require_tasks()?;
    call.number_argument("records", 500.0, 1.0..=1_000_000.0)?;
    call.number_argument("duration_seconds", 10.0, 1.0..=600.0)?;
    call.start_task(
        KIND,
        CreateOptions {
            poll_interval_ms: 500,
            status_message: Some(format!(
                "Imported 0 of {} records",
                records(call.argument("records"))
            )),
        },
    )
    .await
}

fn records(value: Option<&Value>) -> u64 {
    value
        .and_then(Value::as_f64)
        .map(|records| records.clamp(1.0, 1_000_000.0) as u64)
        .unwrap_or(500)
}

pub struct Job;

impl TaskJob for Job {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            let total = records(input.arguments.get("records"));
            let duration = input.number_argument("duration_seconds", 10.0, 1.0..=600.0);
            super::pause(duration / f64::from(BATCHES)).await;
            let batch = input.step + 1;
            let imported = total * u64::from(batch) / u64::from(BATCHES);
            if batch < BATCHES {
                StepOutcome::Continue {
                    memory: json!({ "imported": imported }),
                    status_message: Some(format!(
                        "Imported {imported} of {total} records (batch {batch} of {BATCHES})"
                    )),
                }
            } else {
                StepOutcome::Complete(super::structured(
                    format!("Imported all {total} records in {BATCHES} batches."),
                    json!({ "imported": total, "batches": BATCHES }),
                ))
            }
        })
    }
}
