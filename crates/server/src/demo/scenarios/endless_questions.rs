//! `endless_questions`: a misbehaving server that never stops asking.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::demo::call::Call;
use crate::demo::catalog::ToolSpec;
use crate::demo::rounds::{Rounds, form, one};

pub const SPEC: ToolSpec = ToolSpec {
    name: "endless_questions",
    title: "Endless questions",
    description: "Misbehaves on purpose: every retry asks a slightly different question and \
                  never completes. A correct client stops at its own round bound instead of \
                  looping forever.",
    schema: || json!({ "type": "object", "properties": {} }),
};

pub fn call(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
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
