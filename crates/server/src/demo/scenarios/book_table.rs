//! `book_table`: MRTR with one form elicitation.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::demo::call::Call;
use crate::demo::catalog::ToolSpec;
use crate::demo::rounds::{Answer, Rounds, form, one};

pub const SPEC: ToolSpec = ToolSpec {
    name: "book_table",
    title: "Book a table",
    description: "Pause for input: the server answers input_required with a form asking for \
                  the party size and a time, and a sealed requestState. The client retries the \
                  same call with the answers and the unchanged state, and gets a confirmation.",
    schema: || {
        json!({
            "type": "object",
            "properties": {
                "restaurant": { "type": "string", "description": "Where to book.", "default": "Chez Holdbay" }
            }
        })
    },
};

const KEY: &str = "party";

pub fn call(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    call.require_form_elicitation()?;
    let rounds = Rounds::open(call)?;
    let restaurant = call.string_argument("restaurant", "Chez Holdbay");
    match rounds.answer(KEY) {
        Some(Answer::Accept(content)) => {
            let size = content.get("size").and_then(Value::as_str);
            let time = content.get("time").and_then(Value::as_str);
            match (size, time) {
                (Some(size @ ("4" | "6")), Some(time @ ("18:00" | "19:30" | "21:00"))) => {
                    Ok(super::structured(
                        format!("Booked a table for {size} at {restaurant}, {time}."),
                        json!({ "restaurant": restaurant, "partySize": size.parse::<u8>().unwrap_or(0), "time": time, "confirmation": format!("HB-{size}{}", time.replace(':', "")) }),
                    )
                    .into())
                }
                _ => ask(&rounds, "That answer did not fit the form. For how many people, and when?"),
            }
        }
        Some(Answer::Decline | Answer::Cancel) => {
            Ok(super::text(format!("No table booked at {restaurant}.")).into())
        }
        None => ask(
            &rounds,
            &format!("Booking at {restaurant}: for how many people, and when?"),
        ),
    }
}

fn ask(rounds: &Rounds<'_>, message: &str) -> Result<CallToolResponse, ErrorData> {
    let request = form(
        message,
        json!({
            "type": "object",
            "properties": {
                "size": {
                    "type": "string",
                    "title": "Party size",
                    "oneOf": [
                        { "const": "4", "title": "4 people" },
                        { "const": "6", "title": "6 people" }
                    ]
                },
                "time": {
                    "type": "string",
                    "title": "Time",
                    "enum": ["18:00", "19:30", "21:00"],
                    "default": "19:30"
                }
            },
            "required": ["size", "time"]
        }),
    )?;
    rounds.ask(one(KEY, request), Value::Null)
}
