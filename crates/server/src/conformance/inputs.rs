//! The input requests the fixtures ask for, and how they read an answer without
//! `requestState` (the suite's "ephemeral" MRTR flows send none).

use rmcp::ErrorData;
use rmcp::model::{InputRequest, InputResponses, JsonObject};
use serde_json::{Value, json};

use crate::fixture_kit::rounds::form;

/// A form asking for one string field, the shape every fixture question uses.
pub fn ask_text(message: &str, field: &str) -> Result<InputRequest, ErrorData> {
    form(
        message,
        json!({
            "type": "object",
            "properties": { field: { "type": "string" } },
            "required": [field]
        }),
    )
}

/// A form asking for one boolean field.
pub fn ask_yes_no(message: &str, field: &str) -> Result<InputRequest, ErrorData> {
    form(
        message,
        json!({
            "type": "object",
            "properties": { field: { "type": "boolean" } },
            "required": [field]
        }),
    )
}

// The suite's MRTR scenarios ask for sampling and roots exactly as the demo's
// retired-features scenario does.
pub use crate::fixture_kit::rounds::{roots as ask_roots, sampling as ask_sampling};

/// The response to `key` when it is a JSON object (an `ElicitResult`,
/// `CreateMessageResult` or `ListRootsResult`). Anything else counts as unanswered, so
/// the fixture asks again instead of failing.
pub fn object_response<'a>(
    responses: Option<&'a InputResponses>,
    key: &str,
) -> Option<&'a JsonObject> {
    responses?.get(key)?.as_object()
}

/// `content.<field>` of an accepted elicitation, as text.
pub fn content_text<'a>(response: &'a JsonObject, field: &str) -> Option<&'a str> {
    response.get("content")?.get(field)?.as_str()
}

/// `content.<field>` of an elicitation answer given as a raw JSON value.
pub fn content_field<'a>(response: &'a Value, field: &str) -> Option<&'a Value> {
    response.get("content")?.get(field)
}
