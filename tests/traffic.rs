//! The scene's model in the browser: this page's traffic folded live as the wire log
//! records it, and the same entries replayed (an exported log, or scrubbing) give the same
//! scene.
#![cfg(target_arch = "wasm32")]

use holdbay::traffic::{TrafficView, replay};
use holdbay::wire::{WireChunk, WireEntry, WireLog};
use holdbay_scene::TrayState;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen_test::*;

mod dom;

wasm_bindgen_test_configure!(run_in_browser);

const SERVER: &str = "http://127.0.0.1:9/mcp";

fn entry(method: &str, name: &str, started_at: f64, body: serde_json::Value) -> WireEntry {
    WireEntry {
        method: method.to_owned(),
        name: Some(name.to_owned()),
        server: SERVER.to_owned(),
        url: SERVER.to_owned(),
        started_at,
        request_body: body.to_string(),
        ..Default::default()
    }
}

/// Record one exchange as the transport does: sent, status, the SSE body in two chunks,
/// the end; the log's listeners get the events the engine decodes from it one by one.
fn record(log: &WireLog, sent: WireEntry, reply: serde_json::Value) {
    let event = format!("event: message\ndata: {reply}\n\n");
    let (head, tail) = event.split_at(20);
    let whole = WireEntry {
        status: Some(200),
        response_headers: vec![("content-type".into(), "text/event-stream".into())],
        responded_after: Some(5.0),
        body: vec![
            WireChunk {
                after: 6.0,
                text: head.to_owned(),
            },
            WireChunk {
                after: 7.0,
                text: tail.to_owned(),
            },
        ],
        finished_after: Some(8.0),
        ..sent
    };
    dom::record_exchange_in_steps(log, whole);
}

/// `book_table` called at `at`; the server asks when, paused behind latch `sealed.1`.
fn record_paused_booking(log: &WireLog, at: f64) {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "book_table", "arguments": {"party": 4}}});
    record(
        log,
        entry("tools/call", "book_table", at, call),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required",
            "requestState": "sealed.1", "inputRequests": {"when": {"method": "elicitation/create",
            "params": {"mode": "form", "message": "When?", "requestedSchema": {"type": "object", "properties": {}}}}}}}),
    );
}

/// The retry of [`record_paused_booking`] at `at`, accepted; the server completes it.
fn record_accepted_retry(log: &WireLog, at: f64) {
    let retry = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "book_table", "arguments": {"party": 4},
            "inputResponses": {"when": {"action": "accept", "content": {}}},
            "requestState": "sealed.1"}});
    record(
        log,
        entry("tools/call", "book_table", at, retry),
        json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete",
            "content": [{"type": "text", "text": "Booked"}]}}),
    );
}

#[wasm_bindgen_test]
fn live_folding_and_replay_draw_the_same_scene() {
    // TrafficView follows imports with an effect, which needs the executor mounting sets up.
    leptos::mount::mount_to(dom::fresh_host("traffic-host"), || ()).forget();
    let owner = Owner::new();
    owner.with(|| {
        let log = WireLog::new();
        let view = TrafficView::new(log);
        view.activate();
        record_paused_booking(&log, 1_000.0);
        let paused = view.with(|t| t.trays()[0].state.clone());
        assert_eq!(paused, TrayState::Paused);

        record_accepted_retry(&log, 2_000.0);
        let live = view.with(|t| t.trays().to_vec());
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].rounds.len(), 2);
        assert_eq!(live[0].state, TrayState::Completed { tool_error: false });

        let entries = log.live_entries().get_untracked();
        let replayed = replay(&entries, f64::INFINITY);
        assert_eq!(replayed.trays(), live.as_slice());

        // Scrubbing back to before the retry shows the request paused again.
        view.scrub_to(Some(1_500.0));
        assert!(view.is_replay());
        assert_eq!(view.with(|t| t.trays()[0].state.clone()), TrayState::Paused);
        assert_eq!(view.with_whole(|t| t.trays()[0].rounds.len()), 2);
        view.scrub_to(None);
        assert_eq!(view.with(|t| t.trays()[0].rounds.len()), 2);
    });
}

#[wasm_bindgen_test]
fn a_view_folds_nothing_until_the_scene_asks_then_what_came_before() {
    leptos::mount::mount_to(dom::fresh_host("traffic-late-host"), || ()).forget();
    let owner = Owner::new();
    owner.with(|| {
        let log = WireLog::new();
        let view = TrafficView::new(log);
        let at = log.loaded_at() + 10.0;
        record_paused_booking(&log, at);
        // Nothing asked for the scene: no fold ran (the first screen carries none).
        assert!(view.with(|t| t.trays().is_empty()));

        view.activate();
        assert_eq!(view.with(|t| t.trays()[0].state.clone()), TrayState::Paused);
        // From then on, live.
        record_accepted_retry(&log, at + 1_000.0);
        let trays = view.with(|t| t.trays().to_vec());
        assert_eq!(trays.len(), 1);
        assert_eq!(trays[0].state, TrayState::Completed { tool_error: false });
    });
}
