//! `quick_sum`: an immediate result; shows when a task would be the wrong tool.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::{Call, Handler, Tool};

pub const TOOL: Tool = Tool {
    name: "quick_sum",
    title: "Quick sum",
    description: "Add up a list of numbers. The answer is ready at once, so the server replies \
                  with a plain complete result even when the client accepts tasks: a task \
                  would only add polling.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": {
                "numbers": {
                    "type": "array",
                    "items": { "type": "number" },
                    "description": "The numbers to add.",
                    "default": [1, 2, 3]
                }
            }
        })
    },
    output_schema: None,
    handler: Handler::Now(run),
};

fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let numbers: Vec<f64> = match call.argument("numbers") {
        None | Some(Value::Null) => vec![1.0, 2.0, 3.0],
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_f64()
                    .ok_or_else(|| ErrorData::invalid_params("numbers must all be numbers", None))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(ErrorData::invalid_params("numbers must be an array", None)),
    };
    let sum: f64 = numbers.iter().sum();
    Ok(super::structured(
        format!("The sum of {} numbers is {sum}.", numbers.len()),
        json!({ "sum": sum, "count": numbers.len() }),
    )
    .into())
}
