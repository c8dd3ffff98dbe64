//! Keeping the wire log across reloads, in headless Chromium's IndexedDB: exchanges kept by
//! one page come back to the next decoded again, the store stays bounded, Clear empties it,
//! an exchange still open when the page went away comes back marked interrupted, and one
//! that ended before the keep was attached is kept too.
//!
//! The next page reads right after this one wrote: IndexedDB starts a read only once every
//! read/write transaction created before it on the same store has finished, so the read
//! sees the writes without waiting for them.
#![cfg(target_arch = "wasm32")]

use holdbay::wire::keep::{INTERRUPTED, KEPT_EXCHANGES, WireKeep};
use holdbay::wire::{WireEntry, WireLog};
use holdbay_engine::{EndEvent, ExchangeEvent};
use leptos::prelude::*;
use wasm_bindgen_test::*;

mod dom;

use dom::{answered_json, begin_exchange, live_entry, record_exchange};

wasm_bindgen_test_configure!(run_in_browser);

const SERVER: &str = "http://127.0.0.1:9/mcp";

/// A database of its own for each test (and each run: the browser profile may be reused).
fn database(test: &str) -> String {
    format!("holdbay-test-{test}-{}", js_sys::Date::now())
}

/// A `tools/call` of `echo` saying `text`, sent `started_at`.
fn call(n: u64, text: &str, started_at: f64) -> WireEntry {
    WireEntry {
        method: "tools/call".to_owned(),
        name: Some("echo".to_owned()),
        server: SERVER.to_owned(),
        url: SERVER.to_owned(),
        started_at,
        request_headers: vec![("Mcp-Method".to_owned(), "tools/call".to_owned())],
        request_body: format!(
            r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{text}"}}}}}}"#
        ),
        ..Default::default()
    }
}

/// `call` answered with its text, 20 ms later.
fn answered_call(n: u64, text: &str, started_at: f64) -> WireEntry {
    let reply = format!(
        r#"{{"jsonrpc":"2.0","id":{n},"result":{{"resultType":"complete","content":[{{"type":"text","text":"{text}"}}]}}}}"#
    );
    answered_json(call(n, text, started_at), 20.0, &reply)
}

/// A page's log (owned by `owner`), kept in `database`: what was kept before comes back
/// into it. Returns the log, its keeper, and how many exchanges came back.
async fn page(owner: &Owner, database: &str) -> (WireLog, WireKeep, usize) {
    let (log, keep) = owner.with(|| (WireLog::new(), WireKeep::new(database)));
    let restored = keep.attach(log).await.expect("IndexedDB works here");
    (log, keep, restored)
}

#[wasm_bindgen_test]
async fn kept_exchanges_come_back_decoded_in_the_next_page() {
    let owner = Owner::new();
    let name = database("round-trip");
    let (log, keep, restored) = page(&owner, &name).await;
    assert_eq!(restored, 0, "a new database keeps nothing");
    let t0 = js_sys::Date::now() - 5_000.0;
    let first = record_exchange(&log, answered_call(1, "one", t0));
    let second = record_exchange(&log, answered_call(2, "two", t0 + 1_000.0));
    keep.write_now();
    assert_eq!(keep.kept_count(), 2);

    // The next page gets them back, decoded again: the same exchanges, events included.
    let (next, _, restored) = page(&owner, &name).await;
    assert_eq!(restored, 2);
    let back = next.with_live(<[WireEntry]>::to_vec);
    assert_eq!(back.len(), 2);
    for (kept, id) in back.iter().zip([first, second]) {
        let original = live_entry(&log, id);
        assert!(!kept.events.is_empty(), "the restored exchange was decoded");
        assert!(
            matches!(
                kept.events.first().map(|t| &t.event),
                Some(ExchangeEvent::Sent(_))
            ),
            "{:?}",
            kept.events
        );
        assert_eq!(kept, &original, "it comes back as it was recorded");
    }
}

#[wasm_bindgen_test]
async fn exchanges_that_ended_before_the_keep_was_attached_are_kept_too() {
    // The app attaches its keep once the first screen is drawn: discovery and the tool list
    // have ended by then.
    let owner = Owner::new();
    let name = database("late-attach");
    let (log, keep) = owner.with(|| (WireLog::new(), WireKeep::new(&name)));
    let t0 = js_sys::Date::now() - 5_000.0;
    let early = record_exchange(&log, answered_call(1, "before", t0));
    let restored = keep.attach(log).await.expect("IndexedDB works here");
    assert_eq!(restored, 0);
    let late = record_exchange(&log, answered_call(2, "after", t0 + 1_000.0));
    keep.write_now();
    assert_eq!(keep.kept_count(), 2);

    let (next, _, restored) = page(&owner, &name).await;
    assert_eq!(restored, 2);
    let back: Vec<u64> = next.with_live(|entries| entries.iter().map(|e| e.id).collect());
    assert_eq!(back, [early, late]);
}

#[wasm_bindgen_test]
async fn the_store_keeps_only_the_newest_exchanges() {
    let owner = Owner::new();
    let name = database("bounded");
    let (log, keep, _) = page(&owner, &name).await;
    let extra = 5;
    let t0 = js_sys::Date::now() - 60_000.0;
    let ids: Vec<u64> = (0..KEPT_EXCHANGES + extra)
        .map(|n| {
            let n = n as u64;
            record_exchange(&log, answered_call(n, "x", t0 + n as f64))
        })
        .collect();
    keep.write_now();
    assert_eq!(keep.kept_count(), KEPT_EXCHANGES);

    let (next, _, restored) = page(&owner, &name).await;
    assert_eq!(restored, KEPT_EXCHANGES);
    let back: Vec<u64> = next.with_live(|entries| entries.iter().map(|e| e.id).collect());
    assert_eq!(back, ids[extra..], "the oldest were deleted");
}

#[wasm_bindgen_test]
async fn clear_empties_the_store() {
    let owner = Owner::new();
    let name = database("clear");
    let (log, keep, _) = page(&owner, &name).await;
    let t0 = js_sys::Date::now() - 5_000.0;
    record_exchange(&log, answered_call(1, "one", t0));
    record_exchange(&log, answered_call(2, "two", t0 + 10.0));
    keep.write_now();
    assert_eq!(keep.kept_count(), 2);
    keep.clear();
    assert_eq!(keep.kept_count(), 0);

    let (_, _, restored) = page(&owner, &name).await;
    assert_eq!(restored, 0, "nothing comes back after Clear");
}

#[wasm_bindgen_test]
async fn an_exchange_open_when_the_page_goes_away_comes_back_interrupted() {
    let owner = Owner::new();
    let name = database("interrupted");
    let (log, keep, _) = page(&owner, &name).await;
    let open = begin_exchange(&log, &call(1, "slow", js_sys::Date::now() - 1_000.0));
    assert_eq!(
        keep.kept_count(),
        0,
        "an open exchange is not kept while it runs"
    );

    // The page goes away (a reload): what is still open is kept as it is.
    let window = web_sys::window().expect("window");
    let hide = web_sys::Event::new("pagehide").expect("event");
    window.dispatch_event(&hide).expect("dispatch");
    assert_eq!(keep.kept_count(), 1);

    let (next, _, restored) = page(&owner, &name).await;
    assert_eq!(restored, 1);
    let back = next.with_live(<[WireEntry]>::to_vec);
    let kept = &back[0];
    assert_eq!(kept.id, open);
    assert!(kept.is_finished(), "it is over, one way or another");
    assert_eq!(kept.error.as_deref(), Some(INTERRUPTED));
    // Decoded again, it ends with the interruption.
    let ended = kept.events.last().map(|t| &t.event);
    assert!(
        matches!(
            ended,
            Some(ExchangeEvent::Ended(EndEvent { error: Some(error), stopped: false }))
                if error == INTERRUPTED
        ),
        "{ended:?}"
    );
}
