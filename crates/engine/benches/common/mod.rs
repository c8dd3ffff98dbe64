//! The requests and answers the benches time, shared by the engine's bench and the scene's
//! (`crates/scene/benches/fold.rs`), so their figures are of the same exchanges.
#![allow(dead_code)]

use holdbay_engine::model::RequestId;
use holdbay_engine::{
    CallTool, Client, ExchangeEvent, McpMethod, OutgoingRequest, RequestOptions, ResponseReader,
};
use serde_json::{Value, json};

pub fn id_json(id: &RequestId) -> Value {
    serde_json::to_value(id).expect("a request id is JSON")
}

pub fn call(client: &mut Client) -> OutgoingRequest<CallTool> {
    let arguments = json!({"city": "Lisbon", "days": 5, "units": "metric"});
    client
        .call_tool(
            "get_forecast",
            arguments.as_object().cloned(),
            &RequestOptions::default(),
        )
        .expect("no mirrored headers")
}

/// A ~2 KB (7 days) `tools/call` result as a weather server would send it: a text block for the model
/// and the same data as `structuredContent`.
pub fn forecast_result() -> Value {
    let days: Vec<Value> = (0..7)
        .map(|d| {
            json!({"date": format!("2026-12-{:02}", d + 1), "summary": "Sunny intervals, light breeze",
                "minC": 9.5 + f64::from(d), "maxC": 16.25 + f64::from(d), "rainMm": 0.4 * f64::from(d),
                "windKph": 12 + d})
        })
        .collect();
    let text: String = days
        .iter()
        .map(|d| {
            format!(
                "{}: {}, {}–{} °C, rain {} mm, wind {} km/h.\n",
                d["date"], d["summary"], d["minC"], d["maxC"], d["rainMm"], d["windKph"]
            )
        })
        .collect();
    json!({
        "resultType": "complete",
        "content": [
            {"type": "text", "text": format!("Seven-day forecast for Lisbon (metric):\n{text}")},
            {"type": "text", "text": "Data: Instituto Português do Mar e da Atmosfera. Updated 2026-11-29T09:00:00Z."}
        ],
        "structuredContent": {"city": "Lisbon", "country": "PT", "units": "metric",
            "lat": 38.7223, "lon": -9.1393, "days": days},
        "isError": false,
        "_meta": {"io.example/trace": "4bf92f3577b34da6a3ce929d0e0e4736"}
    })
}

/// The whole `tools/call` response of [`forecast_result`], to request `id`.
pub fn forecast_answer(id: &RequestId) -> String {
    json!({"jsonrpc": "2.0", "id": id_json(id), "result": forecast_result()}).to_string()
}

/// A `tasks/get` response to request `id`: task 786512e2, waiting for a form's approval.
pub fn approval_task_answer(id: &RequestId) -> String {
    json!({"jsonrpc": "2.0", "id": id_json(id), "result": {
        "resultType": "complete", "taskId": "786512e2", "status": "input_required",
        "statusMessage": "Waiting for approval", "createdAt": "2026-11-29T10:00:00Z",
        "lastUpdatedAt": "2026-11-29T10:00:04Z", "ttlMs": 3_600_000, "pollIntervalMs": 2000,
        "inputRequests": {"786512e2:approve-plan": {"method": "elicitation/create", "params": {
            "mode": "form", "message": "Deploy?", "requestedSchema": {"type": "object",
            "properties": {"approve": {"type": "boolean"}}, "required": ["approve"]}}}}}})
    .to_string()
}

/// A `tools/call` round to request `id` paused for input (a form, and a latch), as an event
/// stream after a progress notification.
pub fn paused_round_stream(id: &RequestId) -> String {
    let paused = json!({"jsonrpc": "2.0", "id": id_json(id), "result": {
        "resultType": "input_required", "requestState": "sealed-abc",
        "inputRequests": {"when": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "When?", "requestedSchema": {"type": "object",
            "properties": {"time": {"type": "string"}}}}}}}});
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": 1, "progress": 0.5}});
    format!("data: {progress}\n\ndata: {paused}\n\n")
}

/// A `tasks/get` response to request `id`: task t1, working.
pub fn working_task_answer(id: &RequestId) -> String {
    json!({"jsonrpc": "2.0", "id": id_json(id), "result": {
        "resultType": "complete", "taskId": "t1", "status": "working",
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:04Z",
        "ttlMs": 60000, "pollIntervalMs": 2000}})
    .to_string()
}

/// An exchange's events as the app gets them: `Sent`, the reader's, `Ended`.
pub fn exchange_events<M: McpMethod>(
    sent: ExchangeEvent,
    mut reader: ResponseReader<M>,
    body: &str,
) -> Vec<ExchangeEvent> {
    reader.push_chunk(body.as_bytes());
    let mut events = vec![sent];
    events.extend(reader.finish_decoded().events);
    events.push(ExchangeEvent::ended(false, None));
    events
}
