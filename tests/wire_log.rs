//! The wire log in headless Chromium: its columns (JSON-RPC id, outcome, round, task), the
//! notifications as rows, bodies as collapsible JSON trees, search, the copied curl text,
//! the call history with Re-run, and the recent servers of the connection bar.
#![cfg(target_arch = "wasm32")]

use holdbay::connection::{Connection, RECENT_LIMIT, recent_servers};
use holdbay::session::Session;
use holdbay::ui::history::HistoryPanel;
use holdbay::ui::wire_log::json_tree::JsonTree;
use holdbay::ui::{ConnectionBar, WireLogPanel};
use holdbay::wire::curl::{REDACTED, curl_command};
use holdbay::wire::{WireChunk, WireEntry};
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlInputElement};

mod dom;

use dom::{
    click, count, find, fresh_host, record_exchange, script_fetch, sleep_ms, text, wait_count,
    wait_eq, wait_for, wait_gone, wait_until,
};

wasm_bindgen_test_configure!(run_in_browser);

const SERVER: &str = "http://127.0.0.1:9/wire-log-test/mcp";

fn texts(host: &Element, selector: &str) -> Vec<String> {
    let all = host.query_selector_all(selector).expect("query");
    (0..all.length())
        .filter_map(|i| all.item(i))
        .map(|node| node.text_content().unwrap_or_default())
        .collect()
}

fn type_into(host: &Element, selector: &str, value: &str) {
    let input: HtmlInputElement = find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
        .unchecked_into();
    input.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("input", &init).expect("event");
    input.dispatch_event(&event).expect("dispatch");
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "holdbay", "version": "0.1.0"}})
}

/// A `tools/call` of `tool` as the app sends it; `round` as the engine numbered it.
fn call(id: u64, tool: &str, params: Value, round: Option<u32>) -> WireEntry {
    let mut params = params;
    params["name"] = json!(tool);
    params["_meta"] = meta();
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    WireEntry {
        method: "tools/call".to_owned(),
        name: Some(tool.to_owned()),
        server: SERVER.to_owned(),
        url: SERVER.to_owned(),
        started_at: 1_000.0 + id as f64,
        request_headers: vec![
            ("Content-Type".to_owned(), "application/json".to_owned()),
            ("Mcp-Method".to_owned(), "tools/call".to_owned()),
            ("Mcp-Name".to_owned(), tool.to_owned()),
            ("Authorization".to_owned(), "Bearer •••".to_owned()),
        ],
        request_body: body.to_string(),
        round,
        ..Default::default()
    }
}

/// `entry` answered with `messages` as an SSE body, one event per piece.
fn sse(entry: WireEntry, messages: &[Value]) -> WireEntry {
    WireEntry {
        status: Some(200),
        response_headers: vec![("content-type".into(), "text/event-stream".into())],
        responded_after: Some(3.0),
        body: messages
            .iter()
            .enumerate()
            .map(|(i, message)| WireChunk {
                after: 4.0 + i as f64,
                text: format!("event: message\ndata: {message}\n\n"),
            })
            .collect(),
        finished_after: Some(9.0),
        ..entry
    }
}

fn paused(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
        "requestState": "sealed.1", "inputRequests": {"when": {"method": "elicitation/create",
        "params": {"mode": "form", "message": "When?", "requestedSchema": {"type": "object",
        "properties": {"time": {"type": "string"}}}}}}}})
}

fn complete(id: u64, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "content": [{"type": "text", "text": text}]}})
}

fn progress(n: u32, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": "p1", "progress": n, "total": 3, "message": message}})
}

/// An MRTR call in two rounds, and a call that streamed progress.
fn record_session(session: &Session) {
    let log = session.wire();
    record_exchange(
        &log,
        sse(
            call(7, "book_table", json!({"arguments": {"party": 4}}), None),
            &[paused(7)],
        ),
    );
    record_exchange(
        &log,
        sse(
            call(
                8,
                "book_table",
                json!({"arguments": {"party": 4}, "requestState": "sealed.1",
                    "inputResponses": {"when": {"action": "accept", "content": {"time": "19:00"}}}}),
                Some(2),
            ),
            &[complete(8, "Booked for 4 at 19:00")],
        ),
    );
    record_exchange(
        &log,
        sse(
            call(9, "slow_report", json!({"arguments": {}}), None),
            &[
                progress(1, "reading"),
                progress(2, "counting"),
                complete(9, "report ready"),
            ],
        ),
    );
}

fn mount_panel(host: &HtmlElement) -> (Session, holdbay::ui::UiState) {
    dom::mount_with_session(
        host,
        || Session::new(Connection::direct(SERVER.to_owned())),
        || view! { <WireLogPanel /> <HistoryPanel /> },
    )
}

fn clear_storage() {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.clear();
    }
}

#[wasm_bindgen_test]
async fn rows_show_the_rpc_id_outcome_round_and_notifications() {
    clear_storage();
    let host = fresh_host("wire-columns-host");
    let (session, _) = mount_panel(&host);
    record_session(&session);
    wait_count(&host, ".wire-entry", 3).await;
    assert_eq!(texts(&host, ".wire-rpc-id"), ["#7", "#8", "#9"]);
    assert_eq!(
        texts(&host, ".wire-outcome"),
        ["input_required", "complete", "complete"]
    );
    assert_eq!(
        texts(&host, ".wire-round"),
        ["round 1", "round 2", "round 1"]
    );
    assert_eq!(
        texts(&host, ".wire-entry .wire-name"),
        ["book_table", "book_table", "slow_report"]
    );
    // The progress notifications of the third call, each a row of its own.
    let notes = texts(&host, ".wire-entry[data-rpc-id='9'] .wire-note");
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].contains("notifications/progress") && notes[0].contains("1 / 3 · reading"),
        "{notes:?}"
    );
    assert!(notes[1].contains("2 / 3 · counting"), "{notes:?}");
    assert_eq!(count(&host, ".wire-entry[data-rpc-id='7'] .wire-note"), 0);
    // Hidden on request.
    click(&host, ".wire-show-notes");
    wait_count(&host, ".wire-note", 0).await;
    click(&host, ".wire-show-notes");
    wait_count(&host, ".wire-note", 2).await;

    // Opened: the SSE body split into its events, each a JSON tree of text.
    click(&host, ".wire-entry[data-rpc-id='9'] .wire-summary");
    let details = wait_for(&host, ".wire-details").await;
    assert!(text(&details, ".wire-side:last-child h3").contains("3 SSE events"));
    assert_eq!(
        texts(&details, ".wire-message-label"),
        [
            "notifications/progress",
            "notifications/progress",
            "complete"
        ]
    );
    let last = texts(&details, ".wire-message .json-tree")
        .pop()
        .unwrap_or_default();
    assert!(last.contains("\"report ready\""), "{last}");
    // Pretty, not one line: every member on a line of its own.
    assert!(count(&details, ".wire-message .json-line") > 10);
    // The request as a tree too, and the raw body only on request.
    assert!(text(&details, ".wire-side").contains("\"slow_report\""));
    assert!(find(&details, ".wire-chunks").is_none());
    click(&details, ".wire-raw-toggle");
    wait_count(&details, ".wire-chunks li", 3).await;
}

#[wasm_bindgen_test]
async fn search_narrows_by_method_name_id_and_body_text() {
    clear_storage();
    let host = fresh_host("wire-search-host");
    let (session, _) = mount_panel(&host);
    record_session(&session);
    wait_count(&host, ".wire-entry", 3).await;
    let shown = || texts(&host, ".wire-rpc-id");

    type_into(&host, "#wire-search", "BOOK_table");
    wait_eq(
        shown,
        vec!["#7".to_owned(), "#8".to_owned()],
        "the rows of BOOK_table",
    )
    .await;
    // Text inside a body (the answer to the second round).
    type_into(&host, "#wire-search", "19:00 booked");
    wait_eq(shown, vec!["#8".to_owned()], "the row of 19:00 booked").await;
    // A JSON-RPC id.
    type_into(&host, "#wire-search", "9");
    wait_until(|| shown().contains(&"#9".to_owned()), "the row of id 9").await;
    type_into(&host, "#wire-search", "counting");
    wait_eq(shown, vec!["#9".to_owned()], "the row of counting").await;
    type_into(&host, "#wire-search", "nothing-like-this");
    wait_count(&host, ".wire-entry", 0).await;
    type_into(&host, "#wire-search", "");
    wait_count(&host, ".wire-entry", 3).await;
}

#[wasm_bindgen_test]
fn curl_text_redacts_credentials_unless_asked() {
    let mut entry = call(
        7,
        "book_table",
        json!({"arguments": {"note": "it's"}}),
        None,
    );
    let command = curl_command(&entry, "http://127.0.0.1:8080", None);
    assert!(
        command.starts_with(&format!("curl -sS -N -X POST '{SERVER}'")),
        "{command}"
    );
    assert!(command.contains("-H 'Mcp-Name: book_table'"), "{command}");
    assert!(
        command.contains(&format!("-H 'Authorization: Bearer {REDACTED}'")),
        "{command}"
    );
    // The body byte for byte, a quote in it escaped for the shell.
    assert!(command.contains(r#""note":"it'\''s""#), "{command}");
    assert!(!command.contains("•••"));

    let own = [("Authorization".to_owned(), "Bearer s3cret".to_owned())];
    let with = curl_command(&entry, "http://127.0.0.1:8080", Some(&own));
    assert!(with.contains("-H 'Authorization: Bearer s3cret'"), "{with}");

    // Through the relay the URL is the page's own.
    entry.url = "/relay?target=http%3A%2F%2F127.0.0.1%3A9%2Fmcp".to_owned();
    let relayed = curl_command(&entry, "http://127.0.0.1:8080/", None);
    assert!(
        relayed.starts_with("curl -sS -N -X POST 'http://127.0.0.1:8080/relay?target="),
        "{relayed}"
    );
}

#[wasm_bindgen_test]
async fn a_large_body_starts_collapsed_and_draws_children_only_when_opened() {
    let host = fresh_host("json-tree-host");
    let items: Vec<Value> = (0..2_000)
        .map(|i| json!({"index": i, "text": "some words in a large result"}))
        .collect();
    let value = json!({"items": items, "<b>not html</b>": "<i>text</i>"});
    leptos::mount::mount_to(host.clone(), move || view! { <JsonTree value=value /> }).forget();
    wait_for(&host, ".json-tree.large").await;
    assert_eq!(count(&host, ".json-children"), 0, "nothing drawn closed");
    click(&host, ".json-toggle");
    // One level: the two members, the array still closed.
    wait_count(&host, ".json-children", 1).await;
    assert!(
        find(&host, "b").is_none(),
        "server strings are text, not HTML"
    );
    assert!(text(&host, ".json-tree").contains("\"<b>not html</b>\""));
    click(&host, ".json-children .json-toggle");
    // A long array draws a page of its children, then more on request.
    wait_count(&host, ".json-children .json-children > .json-node", 100).await;
    assert!(text(&host, ".json-more").contains("show 100 more of 1900"));
}

#[wasm_bindgen_test]
async fn the_history_keeps_each_call_and_rerun_repeats_it() {
    clear_storage();
    script_fetch(
        r#"return { resultType: "complete", content: [{ type: "text", text: "again" }] };"#,
    );
    let host = fresh_host("history-host");
    let (session, ui) = mount_panel(&host);
    record_session(&session);
    wait_count(&host, ".history-row", 2).await;

    let calls = session.history().calls().get_untracked();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert_eq!(calls[0].tool, "slow_report");
    assert_eq!(calls[1].tool, "book_table");
    assert_eq!(calls[1].arguments, json!({"party": 4}));
    // The second round's answer settled the call it belongs to.
    assert_eq!(calls[1].outcome.as_deref(), Some("complete"));
    assert_eq!(calls[1].round, Some(2));
    let kept = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| {
            s.get_item(&format!("holdbay/history/{SERVER}"))
                .ok()
                .flatten()
        })
        .expect("kept in localStorage");
    assert!(
        kept.contains("\"party\":4") && !kept.contains("Bearer"),
        "{kept}"
    );
    assert_eq!(
        texts(&host, ".history-row .history-tool"),
        ["slow_report", "book_table"]
    );
    assert!(text(&host, ".history-row[data-tool='book_table']").contains("complete (round 2)"));

    click(&host, ".history-row[data-tool='book_table'] .history-rerun");
    // The history records the call as it starts; the scripted fetch logs the request only after
    // reading its body, which Firefox finishes a task later than Chromium: wait for both.
    let seen_any = || js_sys::eval("window.__seen.length > 0").is_ok_and(|v| v.is_truthy());
    wait_until(
        || session.history().calls().get_untracked().len() == 3 && seen_any(),
        "the rerun in the history and sent",
    )
    .await;
    let seen = js_sys::Reflect::get(&web_sys::window().expect("window"), &"__seen".into())
        .expect("__seen");
    let seen: Vec<Value> = serde_wasm_bindgen::from_value(seen).expect("requests");
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["body"]["params"]["name"], json!("book_table"));
    assert_eq!(seen[0]["body"]["params"]["arguments"], json!({"party": 4}));
    // The form shows the arguments, and the tool is the one shown.
    assert_eq!(
        ui.draft("book_table").arguments.get_untracked(),
        Some(json!({"party": 4}))
    );
    assert_eq!(
        ui.selected_tool().get_untracked().as_deref(),
        Some("book_table")
    );
    let calls = session.history().calls().get_untracked();
    assert_eq!(calls[0].tool, "book_table");
    assert_eq!(calls[0].arguments, json!({"party": 4}));

    click(&host, ".history-clear");
    wait_count(&host, ".history-row", 0).await;
    assert!(session.history().calls().get_untracked().is_empty());
    let gone = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| {
            s.get_item(&format!("holdbay/history/{SERVER}"))
                .ok()
                .flatten()
        });
    assert!(gone.is_none());
}

/// The history starts following at its first read (the dock comes after the first screen):
/// the calls this page made before then are taken in, once, and later ones are followed.
#[wasm_bindgen_test]
async fn calls_made_before_the_history_is_first_read_are_kept() {
    clear_storage();
    let host = fresh_host("history-late-host");
    let (session, _) = dom::mount_with_session(
        &host,
        || Session::new(Connection::direct(SERVER.to_owned())),
        || view! { <WireLogPanel /> },
    );
    record_session(&session);
    wait_count(&host, ".wire-entry", 3).await;

    let calls = session.history().calls();
    let tools = |calls: &[holdbay::history::CallRecord]| {
        calls.iter().map(|c| c.tool.clone()).collect::<Vec<_>>()
    };
    assert_eq!(tools(&calls.get_untracked()), ["slow_report", "book_table"]);
    assert_eq!(
        calls.get_untracked()[1].outcome.as_deref(),
        Some("complete")
    );
    // A second read takes nothing in twice; a call after it is followed.
    assert_eq!(session.history().calls().get_untracked().len(), 2);
    record_exchange(
        &session.wire(),
        sse(
            call(10, "echo", json!({"arguments": {}}), None),
            &[complete(10, "hi")],
        ),
    );
    assert_eq!(
        tools(&session.history().calls().get_untracked()),
        ["echo", "slow_report", "book_table"]
    );
}

#[wasm_bindgen_test]
async fn recent_servers_are_kept_newest_first_without_headers_and_can_be_removed() {
    clear_storage();
    for n in 0..(RECENT_LIMIT + 2) {
        let mut connection = Connection::direct(format!("http://127.0.0.1:{}/mcp", 9000 + n));
        connection.via_relay = n % 2 == 1;
        connection.headers = vec![("Authorization".into(), "Bearer s3cret".into())];
        connection.persist().expect("persisted");
    }
    let recent = recent_servers();
    assert_eq!(recent.len(), RECENT_LIMIT, "bounded");
    assert_eq!(
        recent[0].server,
        format!("http://127.0.0.1:{}/mcp", 9000 + RECENT_LIMIT + 1)
    );
    assert!(recent[0].via_relay);
    let stored = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item("holdbay/recent-servers").ok().flatten())
        .expect("kept");
    assert!(
        !stored.contains("s3cret") && !stored.contains("Authorization"),
        "{stored}"
    );

    let host = fresh_host("recent-host");
    let connected = std::sync::Arc::new(std::sync::Mutex::new(None::<Connection>));
    let sink = connected.clone();
    dom::mount_with_session(
        &host,
        || Session::new(Connection::direct(SERVER.to_owned())),
        move || {
            let on_connect =
                Callback::new(move |c: Connection| *sink.lock().expect("lock") = Some(c));
            view! { <ConnectionBar on_connect=on_connect /> }
        },
    );
    wait_count(&host, "#recent-servers option", RECENT_LIMIT as u32).await;
    assert_eq!(
        find(&host, "#server-url")
            .and_then(|e| e.get_attribute("list"))
            .as_deref(),
        Some("recent-servers")
    );
    click(&host, ".toggle-recent");
    wait_count(&host, "#recent-menu .recent-server", RECENT_LIMIT as u32).await;
    let first = texts(&host, ".recent-connect").remove(0);
    assert_eq!(first, recent[0].server);
    // Removing one forgets it.
    click(&host, ".recent-server:first-child .recent-forget");
    wait_count(&host, ".recent-server", RECENT_LIMIT as u32 - 1).await;
    assert!(recent_servers().iter().all(|known| known.server != first));
    // Choosing one connects with its route.
    click(&host, ".recent-server:first-child .recent-connect");
    wait_until(
        || connected.lock().expect("lock").is_some(),
        "the chosen server connected",
    )
    .await;
    let chosen = connected.lock().expect("lock").clone().expect("connected");
    assert_eq!(chosen.server, recent[1].server);
    assert_eq!(chosen.via_relay, recent[1].via_relay);
    assert!(chosen.headers.is_empty(), "headers were not remembered");
}

#[wasm_bindgen_test]
async fn a_busy_log_is_redrawn_calmly_and_catches_up() {
    use holdbay::ui::wire_log::{CALM_REDRAW_MS, REDRAW_BURST};
    clear_storage();
    let host = fresh_host("wire-calm-host");
    let (session, _) = mount_panel(&host);
    let log = session.wire();
    // After a quiet spell the first exchange shows at once. (About time: the spell is waited.)
    sleep_ms((CALM_REDRAW_MS * REDRAW_BURST) as i32 + 50).await;
    record_exchange(&log, call(1, "book_table", json!({}), None));
    wait_for(&host, ".wire-entry[data-rpc-id='1']").await;

    // Forty more, one every 15 ms (about as many frames): drawn as a burst, then calmly (a
    // slow machine draws fewer times, never more), and in the end all of them.
    let mut counts = Vec::new();
    for id in 2..=41 {
        record_exchange(&log, call(id, "book_table", json!({}), None));
        // About time: the exchanges come at this pace.
        sleep_ms(15).await;
        counts.push(count(&host, ".wire-entry"));
    }
    counts.dedup();
    let window_ms = 40.0 * 15.0;
    let most = REDRAW_BURST + (window_ms / CALM_REDRAW_MS).ceil() + 1.0;
    assert!(
        counts.len() as f64 <= most,
        "redrawn {} times: {counts:?}",
        counts.len()
    );
    wait_count(&host, ".wire-entry", 41).await;
}

#[wasm_bindgen_test]
async fn a_flooded_log_draws_its_newest_rows_once_a_second_and_says_so() {
    use holdbay::ui::wire_log::{FLOODED_ROWS_DRAWN, ROWS_DRAWN};
    clear_storage();
    let host = fresh_host("wire-flood-host");
    let (session, _) = mount_panel(&host);
    let log = session.wire();
    // Hundreds of exchanges a second (a thousand tasks polled at their interval) for two
    // seconds and more: the log says it is busy and draws only its newest rows.
    let mut id = 0;
    let mut flooded_rows = None;
    for _ in 0..60 {
        for _ in 0..12 {
            id += 1;
            record_exchange(&log, call(id, "book_table", json!({}), None));
        }
        // About time: the exchanges come at this pace.
        sleep_ms(40).await;
        if find(&host, ".wire-flood").is_some() {
            flooded_rows = Some(count(&host, ".wire-entry"));
        }
    }
    let rows = flooded_rows.expect("the log said it was flooded");
    assert!(
        rows as usize <= FLOODED_ROWS_DRAWN,
        "{rows} rows drawn while flooded"
    );
    assert!(text(&host, ".wire-flood").contains("exchanges a second"));
    // Quiet again: the flood is over and the log draws its usual window.
    wait_gone(&host, ".wire-flood").await;
    wait_count(&host, ".wire-entry", ROWS_DRAWN as u32).await;
}
