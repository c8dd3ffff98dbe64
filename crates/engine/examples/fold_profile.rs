//! The scene's fold on its own, for a profiler: one tools/call round and one tasks/get poll,
//! decoded by the engine's readers once, then folded into a fresh `Traffic` many times.
//!
//! Shows that the fold parses nothing (docs/benchmarks.md):
//!
//! ```sh
//! cargo build --release -p holdbay-engine --example fold_profile
//! valgrind --tool=callgrind --toggle-collect='fold_profile::fold' \
//!   --callgrind-out-file=/tmp/fold.out target/release/examples/fold_profile
//! callgrind_annotate --inclusive=yes /tmp/fold.out | grep -E 'serde_json::(de|value::de)|sse'
//! ```

use std::hint::black_box;

use holdbay_engine::{Client, ExchangeEvent, McpMethod, OutgoingRequest, RequestOptions, Traffic};
use serde_json::json;

fn main() {
    let events = exchanges();
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000);
    for _ in 0..rounds {
        black_box(fold(black_box(&events)));
    }
}

/// The fold, kept out of line so a profiler can collect exactly it.
#[inline(never)]
fn fold(exchanges: &[Vec<ExchangeEvent>]) -> Traffic {
    let mut traffic = Traffic::new(10);
    for (id, events) in exchanges.iter().enumerate() {
        for (n, event) in events.iter().enumerate() {
            traffic.apply(id as u64, n as f64, event);
        }
    }
    traffic
}

/// The events of a tools/call round (a paused MRTR answer on an event stream, after a
/// progress notification) and of a tasks/get poll, as the readers decode them.
fn exchanges() -> Vec<Vec<ExchangeEvent>> {
    let mut client = Client::default();
    let call = client
        .call_tool(
            "book_table",
            json!({"party": 2}).as_object().cloned(),
            &RequestOptions::default(),
        )
        .unwrap_or_else(|error| panic!("{error}"));
    let paused = json!({"jsonrpc": "2.0", "id": call.id(), "result": {
        "resultType": "input_required", "requestState": "sealed-abc",
        "inputRequests": {"when": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "When?", "requestedSchema": {"type": "object",
            "properties": {"time": {"type": "string"}}}}}}}});
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": 1, "progress": 0.5}});
    let stream = format!("data: {progress}\n\ndata: {paused}\n\n");
    let poll = client.get_task("t1");
    let snapshot = json!({"jsonrpc": "2.0", "id": poll.id(), "result": {
        "resultType": "complete", "taskId": "t1", "status": "working",
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:04Z",
        "ttlMs": 60000, "pollIntervalMs": 2000}});
    vec![
        read(&call, "text/event-stream", &stream),
        read(&poll, "application/json", &snapshot.to_string()),
    ]
}

fn read<M: McpMethod>(
    request: &OutgoingRequest<M>,
    content_type: &str,
    body: &str,
) -> Vec<ExchangeEvent> {
    let mut reader = request.reader(200, Some(content_type));
    reader.push_chunk(body.as_bytes());
    let mut events = vec![request.sent_event()];
    events.extend(reader.finish_decoded().events);
    events.push(ExchangeEvent::ended(false, None));
    events
}
