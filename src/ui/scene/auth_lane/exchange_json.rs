//! What the inspector shows of an authorization exchange (or of the challenge): the request
//! and the answer as the wire log holds them, secrets already redacted there.

use serde_json::{Value, json};

use crate::wire::WireEntry;

/// A body as JSON when it is JSON (metadata, registration, token answers), else its text (a
/// form-encoded token request); `null` when empty.
fn body_value(text: &str) -> Value {
    if text.is_empty() {
        return Value::Null;
    }
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// Headers as an object; a name that came more than once keeps every value, joined.
fn headers(list: &[(String, String)]) -> Value {
    let mut shown = serde_json::Map::new();
    for (name, value) in list {
        match shown.get_mut(name) {
            Some(Value::String(first)) => {
                first.push_str(", ");
                first.push_str(value);
            }
            _ => {
                shown.insert(name.clone(), Value::String(value.clone()));
            }
        }
    }
    Value::Object(shown)
}

/// The exchange as JSON: `request` (URL, headers, body) and `response` (status, headers,
/// body), with the log's note of withheld headers and of an error.
pub fn exchange_json(entry: &WireEntry) -> Value {
    let mut request = json!({
        "url": entry.url,
        "headers": headers(&entry.request_headers),
        "body": body_value(&entry.request_body),
    });
    if !entry.withheld_headers.is_empty() {
        request["withheldHeaders"] = json!(entry.withheld_headers);
    }
    let response = entry.status.map(|status| {
        json!({
            "status": status,
            "headers": headers(&entry.response_headers),
            "body": body_value(&entry.body_text()),
        })
    });
    let mut shown = json!({ "request": request, "response": response });
    if let Some(error) = &entry.error {
        shown["error"] = Value::String(error.clone());
    }
    shown
}
