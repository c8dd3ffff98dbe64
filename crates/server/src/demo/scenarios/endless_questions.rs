//! `endless_questions`: a misbehaving server that never stops asking.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::rounds::{Rounds, form, one};
use crate::fixture_kit::{Call, Handler, NO_ARGUMENTS, Tool};

pub const TOOL: Tool = Tool {
    name: "endless_questions",
    title: "Endless questions",
    description: "Misbehaves on purpose: every retry asks a slightly different question and \
                  never completes. A correct client stops at its own round bound instead of \
                  looping forever.",
    input_schema: NO_ARGUMENTS,
    output_schema: None,
    handler: Handler::Now(run),
};

fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    call.require_form_elicitation()?;
    let rounds = Rounds::open(call)?;
    let round = rounds.round();
    let sure = "really ".repeat(usize::try_from(round.saturating_sub(1)).unwrap_or(0).min(8));
    let request = form(
        format!("Question {round}: are you {sure}sure?"),
        json!({
            "type": "object",
            "properties": { "sure": { "type": "boolean", "title": "Sure" } },
            "required": ["sure"]
        }),
    )?;
    rounds.ask(one(&format!("question_{round}"), request), Value::Null)
}
