//! A page following many tasks stays small: the wire log keeps a bounded window, the tasks
//! panel draws a bounded number of rows, and routine saves are coalesced.
#![cfg(target_arch = "wasm32")]

use holdbay::wire::{MAX_LIVE_ENTRIES, WireChunk, WireEntry, WireLog};
use leptos::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn entry(method: &str) -> WireEntry {
    WireEntry {
        method: method.to_owned(),
        name: None,
        server: "http://example.test/mcp".to_owned(),
        url: "http://example.test/mcp".to_owned(),
        started_at: 1.0,
        request_body: "{}".to_owned(),
        ..Default::default()
    }
}

#[wasm_bindgen_test]
fn the_wire_log_keeps_the_latest_exchanges_and_counts_the_dropped() {
    let owner = Owner::new();
    owner.with(|| {
        let log = WireLog::new();
        let seen = std::rc::Rc::new(std::cell::Cell::new(0usize));
        let counter = seen.clone();
        log.listen(move |_, _| counter.set(counter.get() + 1));
        let extra = 5;
        let ids: Vec<u64> = (0..MAX_LIVE_ENTRIES + extra)
            .map(|_| log.begin(entry("tasks/get")))
            .collect();
        let last = ids[ids.len() - 1];
        // Listeners hear of every exchange, kept or not.
        assert_eq!(seen.get(), MAX_LIVE_ENTRIES + extra);
        assert_eq!(log.with_shown(<[WireEntry]>::len), MAX_LIVE_ENTRIES);
        assert_eq!(log.dropped(), extra);
        let first = log.with_shown(|entries| entries[0].id);
        assert_eq!(first, ids[extra], "the oldest were dropped");

        // The newest can still be updated, and listeners hear of it.
        log.update(last, |entry| {
            entry.status = Some(200);
            entry.body.push(WireChunk {
                after: 2.0,
                text: "{}".to_owned(),
            });
        });
        assert_eq!(seen.get(), MAX_LIVE_ENTRIES + extra + 1);
        assert_eq!(log.shown_entry(last).and_then(|e| e.status), Some(200));
        // An id already dropped is ignored.
        log.update(ids[0], |entry| entry.status = Some(500));
        assert_eq!(seen.get(), MAX_LIVE_ENTRIES + extra + 1);
        assert_eq!(log.entries().get_untracked().len(), MAX_LIVE_ENTRIES);
    });
}
