//! The input requests a round or a task snapshot asks, as the UI shows them: typed by kind,
//! in the order the server wrote them.

use rmcp::model::InputRequests;
use serde_json::Value;

use crate::events::{InputAsk, InputRequestKind};

/// The `inputRequests` object inside a message as received: a result (`tasks/get`, an MRTR
/// round), a notification (`notifications/tasks`), or a whole JSON-RPC response.
pub(crate) fn raw_input_requests(message: &Value) -> Option<&Value> {
    message
        .get("inputRequests")
        .or_else(|| message.pointer("/params/inputRequests"))
        .or_else(|| message.pointer("/result/inputRequests"))
}

/// The keys of `requests` in the server's order: as they stand in `raw` (its `inputRequests`
/// object; serde_json keeps the wire order), then any `raw` lacks, in key order.
pub(crate) fn server_order(requests: &InputRequests, raw: Option<&Value>) -> Vec<String> {
    let mut order: Vec<String> = raw
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|raw| raw.keys())
        .filter(|key| requests.contains_key(*key))
        .cloned()
        .collect();
    let missing: Vec<String> = requests
        .keys()
        .filter(|key| !order.contains(key))
        .cloned()
        .collect();
    order.extend(missing);
    order
}

/// The ask under `key`: its kind, and its JSON as the server sent it when `raw` has it
/// (else as rmcp writes the typed request back, which keeps the schema's property order).
pub(crate) fn ask(requests: &InputRequests, key: &str, raw: Option<&Value>) -> Option<InputAsk> {
    let request = requests.get(key)?;
    let json = raw
        .and_then(|raw| raw.get(key))
        .cloned()
        .or_else(|| serde_json::to_value(request).ok())
        .unwrap_or_default();
    Some(InputAsk {
        key: key.to_owned(),
        kind: InputRequestKind::of(request),
        json,
    })
}
