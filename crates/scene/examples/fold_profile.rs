//! The scene's fold on its own, for a profiler: one tools/call round and one tasks/get poll,
//! decoded by the engine's readers once, then folded into a fresh `Traffic` many times.
//!
//! Shows that the fold parses nothing (docs/benchmarks.md):
//!
//! ```sh
//! cargo build --release -p holdbay-scene --example fold_profile
//! valgrind --tool=callgrind --toggle-collect='fold_profile::fold' \
//!   --callgrind-out-file=/tmp/fold.out target/release/examples/fold_profile
//! callgrind_annotate --inclusive=yes /tmp/fold.out | grep -E 'serde_json::(de|value::de)|sse'
//! ```

use std::hint::black_box;

use holdbay_engine::{Client, ExchangeEvent, RequestOptions};
use holdbay_scene::Traffic;
use serde_json::json;

// The wire the engine's bench reads too.
#[path = "../../engine/benches/common/mod.rs"]
mod common;
use common::{exchange_events, paused_round_stream, working_task_answer};

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
    let poll = client.get_task("t1");
    vec![
        exchange_events(
            call.sent_event(),
            call.reader(200, Some("text/event-stream")),
            &paused_round_stream(call.id()),
        ),
        exchange_events(
            poll.sent_event(),
            poll.reader(200, Some("application/json")),
            &working_task_answer(poll.id()),
        ),
    ]
}
