//! `book_table`: MRTR with one form elicitation, and a retry that books once. The first
//! round mints a booking id and seals it into the `requestState`; the final retry (the
//! filled form with that state) books under that id ([`crate::stores::bookings`]), so
//! replaying it returns the existing booking and says the retry was a duplicate.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::rounds::{Answer, Rounds, form, one};
use crate::fixture_kit::{Call, Handler, Tool, one_text_argument};
use crate::stores::bookings::{Booked, Booking};
use crate::tasks::now_ms;

pub const TOOL: Tool = Tool {
    name: "book_table",
    title: "Book a table",
    description: "Pause for input: the server answers input_required with a form asking for \
                  the party size and a time, and a sealed requestState. The client retries the \
                  same call with the answers and the unchanged state, and gets a confirmation.",
    input_schema: || one_text_argument("restaurant", "Where to book.", "Chez Holdbay"),
    output_schema: None,
    handler: Handler::Later(|call| Box::pin(run(call))),
};

const KEY: &str = "party";
/// Where the sealed memo keeps the booking id.
const BOOKING: &str = "booking";

async fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    call.require_form_elicitation()?;
    let rounds = Rounds::open(call)?;
    let restaurant = call.string_argument("restaurant", "Chez Holdbay");
    let memo = memo_with_booking_id(rounds.memo())?;
    match rounds.answer(KEY) {
        Some(Answer::Accept(content)) => {
            let size = content.get("size").and_then(Value::as_str);
            let time = content.get("time").and_then(Value::as_str);
            match (size, time) {
                (Some(size @ ("4" | "6")), Some(time @ ("18:00" | "19:30" | "21:00"))) => {
                    let booking_id = memo[BOOKING].as_str().unwrap_or_default().to_owned();
                    let booking = Booking {
                        confirmation: confirmation(&booking_id),
                        booking_id,
                        owner: call.principal.name().to_owned(),
                        restaurant: restaurant.to_owned(),
                        party_size: size.parse().unwrap_or(0),
                        time: time.to_owned(),
                    };
                    book(call, booking).await
                }
                _ => ask(
                    &rounds,
                    "That answer did not fit the form. For how many people, and when?",
                    memo,
                ),
            }
        }
        Some(Answer::Decline | Answer::Cancel) => {
            Ok(super::text(format!("No table booked at {restaurant}.")).into())
        }
        None => ask(
            &rounds,
            &format!("Booking at {restaurant}: for how many people, and when?"),
            memo,
        ),
    }
}

/// The memo of the round so far, with a booking id: the one sealed in an earlier round,
/// or a new one (128 random bits) in the first.
fn memo_with_booking_id(memo: &Value) -> Result<Value, ErrorData> {
    if memo[BOOKING].as_str().is_some_and(|id| !id.is_empty()) {
        return Ok(memo.clone());
    }
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|error| ErrorData::internal_error(format!("no randomness: {error}"), None))?;
    Ok(json!({ BOOKING: hex::encode(bytes) }))
}

/// What the guest is told: `HB-` and the booking id's first eight hex digits.
fn confirmation(booking_id: &str) -> String {
    let short: String = booking_id.chars().take(8).collect();
    format!("HB-{}", short.to_ascii_uppercase())
}

/// Book once; a replay finds the booking made before and says so.
async fn book(call: &Call<'_>, booking: Booking) -> Result<CallToolResponse, ErrorData> {
    let bookings = call.shared.bookings.clone();
    let booked = tokio::task::spawn_blocking(move || bookings.book(&booking, now_ms()))
        .await
        .map_err(|error| ErrorData::internal_error(format!("bookings: {error}"), None))?
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
    let (text, booking, duplicate) = match booked {
        Booked::New(booking) => (
            format!(
                "Booked a table for {} at {}, {} (confirmation {}).",
                booking.party_size, booking.restaurant, booking.time, booking.confirmation
            ),
            booking,
            false,
        ),
        Booked::Duplicate(booking) => (
            format!(
                "Already booked: a table for {} at {}, {} (confirmation {}); this retry was a \
                 duplicate, nothing new was booked.",
                booking.party_size, booking.restaurant, booking.time, booking.confirmation
            ),
            booking,
            true,
        ),
    };
    Ok(super::structured(
        text,
        json!({
            "restaurant": booking.restaurant,
            "partySize": booking.party_size,
            "time": booking.time,
            "confirmation": booking.confirmation,
            "duplicate": duplicate,
        }),
    )
    .into())
}

fn ask(rounds: &Rounds<'_>, message: &str, memo: Value) -> Result<CallToolResponse, ErrorData> {
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
    rounds.ask(one(KEY, request), memo)
}
