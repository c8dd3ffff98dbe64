//! The teaching scene in headless Chromium: fed recorded JSON-RPC exchanges through the
//! wire log (as the transport records them), it draws the DOM contract of issue 6.
#![cfg(target_arch = "wasm32")]

use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::Scene;
use holdbay::wire::{WireEntry, WireLog};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

mod dom;
mod scene_auth;

use dom::{
    answered_json, begin_exchange, find, finish_exchange, fresh_host, mount_with_session, text,
    wait_eq, wait_for, wait_for_text, wait_gone, with_meta,
};

wasm_bindgen_test_configure!(run_in_browser);

const LATCH: &str = "rs1.AAABoiegAmJ7-sealed-by-the-server.Yt6k_ECY";

fn request(id: u64, method: &str, params: &str) -> String {
    let params = with_meta(params);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#)
}

/// Record one exchange as the transport does: sent, then (unless `open`) answered.
fn exchange(
    wire: WireLog,
    method: &str,
    name: Option<&str>,
    body: String,
    reply: Option<&str>,
) -> u64 {
    let sent = WireEntry {
        method: method.into(),
        name: name.map(Into::into),
        server: "http://127.0.0.1:8080/mcp".into(),
        url: "http://127.0.0.1:8080/mcp".into(),
        started_at: js_sys::Date::now(),
        request_body: body,
        ..Default::default()
    };
    let id = begin_exchange(&wire, &sent);
    if let Some(reply) = reply {
        answer(wire, id, reply);
    }
    id
}

/// The answer to exchange `id` arrives, whole, 212 ms after it was sent.
fn answer(wire: WireLog, id: u64, reply: &str) {
    finish_exchange(&wire, id, |sent| answered_json(sent, 212.0, reply));
}

fn mount_scene(id: &str) -> (HtmlElement, WireLog) {
    let host = fresh_host(id);
    let (session, _) = mount_with_session(
        &host,
        || Session::new(Connection::default()),
        || view! { <Scene /> },
    );
    (host, session.wire())
}

/// A bubbling keydown, as a key press delivers it.
fn key_event(key: &str) -> web_sys::KeyboardEvent {
    // web-sys here lacks KeyboardEventInit; build it as a page script would.
    let make = js_sys::Function::new_with_args(
        "key",
        "return new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })",
    );
    make.call1(&wasm_bindgen::JsValue::NULL, &key.into())
        .expect("a keyboard event")
        .unchecked_into()
}

/// A bubbling click, as a pointer delivers it (SVG elements have no `click()`).
fn click(element: &Element) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("click", &init).expect("event");
    element.dispatch_event(&event).expect("dispatch");
}

fn attr(element: &Element, name: &str) -> String {
    element.get_attribute(name).unwrap_or_default()
}

fn get(host: &Element, selector: &str) -> Element {
    find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page: {}", host.inner_html()))
}

const BOOK_ARGS: &str = r#"{"name":"book_table","arguments":{"restaurant":"Chez Holdbay"}}"#;

/// A `book_table` call with JSON-RPC id `rpc_id`, sent and not yet answered.
fn send_book_table(wire: WireLog, rpc_id: u64) -> u64 {
    exchange(
        wire,
        "tools/call",
        Some("book_table"),
        request(rpc_id, "tools/call", BOOK_ARGS),
        None,
    )
}

/// Wait for exchange `id`'s piece on the conveyor, and check it is on its way out.
async fn wait_for_outgoing_flight(host: &Element, id: u64) -> Element {
    let flight = wait_for(host, &format!("g.flight[data-exchange=\"{id}\"]")).await;
    assert_eq!(attr(&flight, "data-phase"), "out");
    flight
}

fn input_required() -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required",
        "inputRequests":{{"party":{{"method":"elicitation/create","params":{{"mode":"form",
        "message":"How many people, and when?","requestedSchema":{{"type":"object","properties":
        {{"size":{{"type":"string"}}}}}}}}}}}},"requestState":"{LATCH}"}}}}"#
    )
}

#[wasm_bindgen_test]
async fn an_mrtr_round_pauses_a_tray_with_its_latch_then_empties_it() {
    let (host, wire) = mount_scene("scene-mrtr");
    let first = send_book_table(wire, 1);
    let flight = wait_for_outgoing_flight(&host, first).await;
    assert_eq!(attr(&flight, "data-method"), "tools/call");
    answer(wire, first, &input_required());
    wait_for(
        &host,
        &format!("g.flight[data-exchange=\"{first}\"]:not([data-phase=\"out\"])"),
    )
    .await;
    // Wire order: the answer is still travelling back on the conveyor, so the tray shows
    // its round on the wire (no tag, no latch yet) until the piece arrives.
    let tray = get(&host, "g.tray");
    assert_eq!(attr(&tray, "data-state"), "in_flight");
    assert!(
        find(&tray, "g.latch").is_none(),
        "the latch comes with the answer"
    );

    let tray = wait_for(&host, "g.tray[data-state=\"paused\"]").await;
    assert_eq!(attr(&tray, "data-occupied"), "true");
    assert_eq!(attr(&tray, "data-rounds"), "1");
    assert!(find(&tray, "g.round[data-round=\"1\"]").is_some());
    let bound = get(&tray, ".round-bound");
    assert_eq!(attr(&bound, "data-reached"), "false");
    assert!(attr(&bound, "data-max").parse::<u32>().is_ok_and(|m| m > 1));
    let tag = get(&tray, "g.tag[data-key=\"party\"]");
    assert_eq!(attr(&tag, "data-kind"), "elicitation/create");
    assert_eq!(attr(&tag, "data-mode"), "form");
    assert_eq!(attr(&tag, "tabindex"), "0");
    let latch = get(&tray, "g.latch[data-round=\"1\"]");
    assert_eq!(attr(&latch, "data-latch"), LATCH);
    assert_eq!(attr(&latch, "data-changed"), "false");
    assert!(!attr(&latch, "aria-label").is_empty());
    let timing = text(
        &host,
        &format!("g.flight[data-exchange=\"{first}\"] text.flight-timing"),
    );
    assert!(timing.ends_with(" ms"), "{timing}");
    assert!(text(&host, "#scene-narration").contains("book_table"));

    // Inspect the latch: role, explanation and its real JSON.
    click(&latch);
    wait_for_text(&host, "#inspect .inspect-role", "Latch").await;
    assert!(text(&host, "#inspect .inspect-explanation").contains("requestState"));
    assert!(text(&host, "#inspect pre.inspect-json").contains(LATCH));
    assert!(
        find(&host, "g.latch.selected").is_some(),
        "the selected part is highlighted"
    );

    // The retry carries the latch unchanged; the result empties the tray.
    let retry = format!(
        r#"{{"name":"book_table","arguments":{{"restaurant":"Chez Holdbay"}},
        "inputResponses":{{"party":{{"action":"accept","content":{{"size":"6"}}}}}},"requestState":"{LATCH}"}}"#
    );
    let second = exchange(
        wire,
        "tools/call",
        Some("book_table"),
        request(2, "tools/call", &retry),
        None,
    );
    answer(
        wire,
        second,
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"Booked"}]}}"#,
    );
    let tray = wait_for(&host, "g.tray[data-state=\"done\"]").await;
    assert_eq!(attr(&tray, "data-occupied"), "false");
    assert_eq!(attr(&tray, "data-rounds"), "2");
    assert!(
        find(&tray, "g.tag").is_none(),
        "a closed tray is drawn empty"
    );
    assert_eq!(
        attr(&get(&tray, "g.latch[data-round=\"1\"]"), "data-changed"),
        "false"
    );
    assert_eq!(attr(&get(&host, "#scene"), "data-replay"), "false");
    let narration = get(&host, "#scene-narration");
    assert_eq!(attr(&narration, "aria-live"), "polite");
    assert!(narration.child_element_count() <= 6);

    // Escape clears the selection.
    let escape = key_event("Escape");
    get(&host, "g.tray")
        .dispatch_event(&escape)
        .expect("dispatch");
    wait_gone(&host, "#inspect .inspect-role").await;
}

#[wasm_bindgen_test]
async fn a_changed_latch_is_marked() {
    let (host, wire) = mount_scene("scene-tamper");
    let first = send_book_table(wire, 1);
    answer(wire, first, &input_required());
    let tampered = r#"{"name":"book_table","arguments":{"restaurant":"Chez Holdbay"},
        "inputResponses":{"party":{"action":"accept","content":{"size":"6"}}},"requestState":"tampered"}"#;
    exchange(
        wire,
        "tools/call",
        Some("book_table"),
        request(2, "tools/call", tampered),
        Some(
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"requestState failed its integrity check"}}"#,
        ),
    );
    wait_for(&host, "g.tray[data-state=\"error\"]").await;
    let latch = get(&host, "g.latch[data-round=\"1\"]");
    assert_eq!(attr(&latch, "data-changed"), "true");
    assert!(latch.class_list().contains("changed"));
}

#[wasm_bindgen_test]
async fn tasks_fill_the_magazine_with_lamps_pulses_and_cancel_asks() {
    let (host, wire) = mount_scene("scene-tasks");
    let created = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"task-7f3a",
        "status":"working","statusMessage":"Step 1 of 4: build","createdAt":"2026-07-28T10:00:00Z",
        "lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":3600000,"pollIntervalMs":1000}}"#;
    exchange(
        wire,
        "tools/call",
        Some("run_pipeline"),
        request(
            1,
            "tools/call",
            r#"{"name":"run_pipeline","arguments":{"target":"production"}}"#,
        ),
        Some(created),
    );
    let cartridge = wait_for(&host, "g.cartridge[data-task-id=\"task-7f3a\"]").await;
    assert_eq!(attr(&cartridge, "data-status"), "working");
    assert_eq!(attr(&cartridge, "data-sealed"), "false");
    assert_eq!(attr(&cartridge, "data-restored"), "false");
    assert_eq!(attr(&get(&cartridge, ".lamp"), "data-status"), "working");
    wait_for(&host, "g.tray[data-state=\"detached\"]").await;
    assert!(attr(&cartridge, "aria-label").contains("Step 1 of 4: build"));

    // A poll in flight shows a pulse; its answer raises a tag.
    let poll = exchange(
        wire,
        "tasks/get",
        Some("task-7f3a"),
        request(2, "tasks/get", r#"{"taskId":"task-7f3a"}"#),
        None,
    );
    wait_for(&host, ".pulse[data-task-id=\"task-7f3a\"]").await;
    answer(
        wire,
        poll,
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"task-7f3a",
        "status":"input_required","statusMessage":"Waiting at the approval gate",
        "createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:02Z","ttlMs":3600000,
        "inputRequests":{"approve_prod":{"method":"elicitation/create","params":{"mode":"form",
        "message":"Deploy to production?","requestedSchema":{"type":"object","properties":{}}}}}}}"#,
    );
    // The poll ended.
    wait_gone(&host, ".pulse").await;
    let cartridge = wait_for(&host, "g.cartridge[data-status=\"input_required\"]").await;
    assert!(find(&cartridge, "g.tag[data-key=\"approve_prod\"]").is_some());

    // Cancel is an ask, then its real outcome.
    let cancel = exchange(
        wire,
        "tasks/cancel",
        Some("task-7f3a"),
        request(3, "tasks/cancel", r#"{"taskId":"task-7f3a"}"#),
        None,
    );
    wait_for(&host, "g.cancel-ask[data-acknowledged=\"pending\"]").await;
    answer(
        wire,
        cancel,
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete"}}"#,
    );
    exchange(
        wire,
        "tasks/get",
        Some("task-7f3a"),
        request(4, "tasks/get", r#"{"taskId":"task-7f3a"}"#),
        Some(
            r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","taskId":"task-7f3a",
            "status":"cancelled","createdAt":"2026-07-28T10:00:00Z",
            "lastUpdatedAt":"2026-07-28T10:00:03Z","ttlMs":3600000}}"#,
        ),
    );
    let cartridge = wait_for(&host, "g.cartridge[data-status=\"cancelled\"]").await;
    assert_eq!(attr(&cartridge, "data-sealed"), "true");
    let ask = get(&cartridge, "g.cancel-ask");
    assert_eq!(attr(&ask, "data-acknowledged"), "true");
    assert_eq!(attr(&ask, "data-outcome"), "cancelled");

    // Inspect the cartridge: its real JSON.
    click(&cartridge);
    wait_for_text(&host, "#inspect pre.inspect-json", "\"cancelled\"").await;
}

/// `count` tasks made by `bulk_import`, `t-0` … in slot order.
fn many_tasks(wire: WireLog, count: u64) {
    for n in 0..count {
        let created = format!(
            r#"{{"jsonrpc":"2.0","id":{n},"result":{{"resultType":"task","taskId":"t-{n}",
            "status":"working","createdAt":"2026-07-28T10:00:00Z",
            "lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":null}}}}"#
        );
        exchange(
            wire,
            "tools/call",
            Some("bulk_import"),
            request(n, "tools/call", r#"{"name":"bulk_import","arguments":{}}"#),
            Some(&created),
        );
    }
}

/// Wait until the inspector shows task `task`.
async fn wait_inspecting(host: &Element, task: &str) {
    wait_for_text(host, "#inspect .inspect-role", &format!("task {task})")).await;
}

/// A bubbling click at a point of the viewport.
fn click_at(element: &Element, x: f64, y: f64) {
    let make = js_sys::Function::new_with_args(
        "x, y",
        "return new MouseEvent('click', { clientX: x, clientY: y, bubbles: true })",
    );
    let event: web_sys::Event = make
        .call2(&wasm_bindgen::JsValue::NULL, &x.into(), &y.into())
        .expect("a mouse event")
        .unchecked_into();
    element.dispatch_event(&event).expect("dispatch");
}

#[wasm_bindgen_test]
async fn a_thousand_tasks_make_one_tab_stop_with_roving_focus() {
    let (host, wire) = mount_scene("scene-many");
    many_tasks(wire, 120);
    wait_eq(
        || find(&host, ".magazine .count").and_then(|c| c.text_content()),
        Some("120".to_owned()),
        "the magazine counting every task",
    )
    .await;
    let magazine = get(&host, "svg.magazine-svg.compact");
    // Drawn as a handful of paths, not a node per task: the lamps of each status are one.
    let lamps = host
        .query_selector_all("svg.magazine-svg.compact path.lamp")
        .expect("query");
    assert_eq!(lamps.length(), 1, "{}", magazine.outer_html());
    let working = get(&magazine, "path.lamp[data-status=\"working\"]");
    assert_eq!(
        attr(&working, "d").matches('M').count(),
        120,
        "one lamp per task"
    );
    assert_eq!(text(&host, ".magazine .count"), "120");
    // Lamps alone would make colour the only cue: the statuses are counted in words too.
    assert_eq!(text(&host, ".magazine-summary"), "… 120 working");
    // One tab stop: the cursor on the roving cartridge, which says what it is.
    let stops = host
        .query_selector_all(".magazine [tabindex=\"0\"]")
        .expect("query");
    assert_eq!(stops.length(), 1, "the magazine is one tab stop");
    let cursor = get(&host, "g.cartridge[tabindex=\"0\"]");
    assert_eq!(attr(&cursor, "data-task-id"), "t-0");
    assert!(attr(&cursor, "aria-label").contains("Task t-0 (bulk_import)"));
    cursor
        .unchecked_ref::<HtmlElement>()
        .focus()
        .expect("focus");
    wait_inspecting(&host, "t-0").await;
    cursor
        .dispatch_event(&key_event("ArrowRight"))
        .expect("dispatch");
    wait_inspecting(&host, "t-1").await;
    let cursor = get(&host, "g.cartridge[tabindex=\"0\"]");
    assert_eq!(attr(&cursor, "data-task-id"), "t-1");
    let focused = dom::document().active_element().expect("focus");
    assert_eq!(attr(&focused, "data-task-id"), "t-1");
    assert!(text(&host, ".magazine [aria-live]").contains("Task t-1"));
    cursor
        .dispatch_event(&key_event("ArrowDown"))
        .expect("dispatch");
    wait_inspecting(&host, "t-31").await;
    cursor.dispatch_event(&key_event("End")).expect("dispatch");
    wait_inspecting(&host, "t-119").await;

    // A click picks the cell under the pointer: row 2, column 4 is slot 64.
    let rect = magazine.get_bounding_client_rect();
    let scale = rect.width() / 454.0;
    let (x, y) = (2.0 + 4.0 * 15.0 + 6.0, 2.0 + 2.0 * 15.0 + 6.0);
    click_at(&magazine, rect.left() + x * scale, rect.top() + y * scale);
    wait_inspecting(&host, "t-64").await;
    assert_eq!(
        attr(&get(&host, "g.cartridge[tabindex=\"0\"]"), "data-task-id"),
        "t-64"
    );
}

#[wasm_bindgen_test]
async fn many_polls_share_the_poll_lane_and_each_still_pulses() {
    let (host, wire) = mount_scene("scene-poll-lane");
    many_tasks(wire, 40);
    // Seven polls out at once: more than a person can follow one by one. The first is
    // answered (unchanged): it lingers on the belt, and the lane says how long it took.
    let polls: Vec<u64> = (0..7_u64)
        .map(|n| {
            exchange(
                wire,
                "tasks/get",
                Some(&format!("t-{n}")),
                request(100 + n, "tasks/get", &format!(r#"{{"taskId":"t-{n}"}}"#)),
                None,
            )
        })
        .collect();
    answer(
        wire,
        polls[0],
        r#"{"jsonrpc":"2.0","id":100,"result":{"resultType":"complete","taskId":"t-0",
        "status":"working","createdAt":"2026-07-28T10:00:00Z",
        "lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":null}}"#,
    );
    let lane = wait_for(&host, "g.poll-lane[data-in-flight=\"6\"]").await;
    wait_for_text(&host, "g.poll-lane", "1 answered in 1 s").await;
    assert!(text(&host, "g.poll-lane").contains("× 6 in flight"));
    assert!(
        text(&host, "g.poll-lane").contains("1 answered in 1 s · the last took 212 ms"),
        "{}",
        text(&host, "g.poll-lane")
    );
    assert!(
        find(&host, "g.flight[data-method=\"tasks/get\"]").is_none(),
        "polls do not travel one by one: {}",
        host.inner_html()
    );
    let rings = get(&host, "path.pulses");
    assert_eq!(
        attr(&rings, "data-count"),
        "6",
        "each poll rings its cartridge"
    );
    assert_eq!(attr(&rings, "d").matches('M').count(), 6);
    // Inspecting the lane shows the newest answered poll.
    click(&lane);
    // Numbered by its JSON-RPC id (100), as the wire log numbers it.
    wait_for_text(&host, "#inspect .inspect-role", "Exchange #100").await;
}

#[wasm_bindgen_test]
async fn after_a_reload_the_earlier_page_s_pieces_are_history_not_travelling() {
    let host = fresh_host("scene-after-reload");
    let (session, _) = mount_with_session(
        &host,
        || Session::new(Connection::default()),
        || view! { <Scene /> },
    );
    let wire = session.wire();
    // The page before the reload sent a call a moment before this page loaded; its answer
    // (a pause for input) came 212 ms after it was sent, so it would still be travelling
    // back on the conveyor for most of a second.
    let sent = WireEntry {
        id: 7,
        method: "tools/call".into(),
        name: Some("book_table".into()),
        server: "http://127.0.0.1:8080/mcp".into(),
        url: "http://127.0.0.1:8080/mcp".into(),
        started_at: wire.loaded_at() - 50.0,
        request_body: request(1, "tools/call", BOOK_ARGS),
        ..Default::default()
    };
    let mut kept = answered_json(sent, 212.0, &input_required());
    holdbay::wire::decode_recorded(&mut kept);
    assert_eq!(wire.restore(vec![kept]), 1);
    // That page is gone: its paused call was given up at the reload, drawn at once, and
    // nothing of it moves on the conveyor.
    wait_for(&host, "g.tray[data-state=\"abandoned\"]").await;
    assert!(
        find(&host, "g.flight[data-exchange=\"7\"]").is_none(),
        "no piece of the earlier page on the conveyor: {}",
        host.inner_html()
    );
    assert!(text(&host, "#scene-narration").contains("reloaded"));

    // This page's own exchanges still travel.
    let now = send_book_table(wire, 2);
    wait_for_outgoing_flight(&host, now).await;
}

/// An SSE event carrying `message`, as a legacy server writes it on a call's stream.
fn sse_event(message: &str) -> String {
    format!("event: message\ndata: {message}\n\n")
}

/// The response parts of a legacy call's stream so far: its events, `after_ms` each one
/// after the other; `ended`: the stream closed after the last.
fn call_stream(entry: WireEntry, events: &[&str], ended: bool) -> WireEntry {
    let body: Vec<holdbay::wire::WireChunk> = events
        .iter()
        .enumerate()
        .map(|(n, event)| holdbay::wire::WireChunk {
            after: 50.0 + n as f64 * 100.0,
            text: sse_event(event),
        })
        .collect();
    WireEntry {
        status: Some(200),
        response_headers: vec![("content-type".into(), "text/event-stream".into())],
        responded_after: Some(20.0),
        finished_after: ended.then_some(60.0 + events.len() as f64 * 100.0),
        body,
        ..entry
    }
}

#[wasm_bindgen_test]
async fn a_legacy_session_holds_its_line_and_the_server_s_request_travels_to_the_client() {
    let (host, wire) = mount_scene("scene-legacy");
    exchange(
        wire,
        "initialize",
        None,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"holdbay","version":"0"}}}"#.into(),
        Some(r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"legacy demo","version":"0"}}}"#),
    );
    let line = wait_for(&host, "g.held-session.open").await;
    assert!(text(&line, "text").contains("held by the server"));

    let call = exchange(
        wire,
        "tools/call",
        Some("book_table"),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book_table","arguments":{"restaurant":"Chez Holdbay"}}}"#.into(),
        None,
    );
    let asks = r#"{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"mode":"form","message":"How many guests?","requestedSchema":{"type":"object","properties":{"size":{"type":"integer"}}}}}"#;
    finish_exchange(&wire, call, |sent| call_stream(sent, &[asks], false));
    // The server's request travels from the server and waits at the client; the call's
    // tray is held by the server with the request hanging on it, and carries no latch.
    let piece = wait_for(&host, "g.server-ask[data-answered=\"false\"]").await;
    assert!(attr(&piece, "aria-label").contains("elicitation/create"));
    let tray = wait_for(&host, "g.tray[data-state=\"held\"]").await;
    assert_eq!(attr(&tray, "data-in-session"), "true");
    assert!(find(&tray, "g.tag[data-key=\"0\"]").is_some());
    assert!(find(&tray, "g.latch").is_none());
    assert!(
        find(&tray, ".round-bound").is_none(),
        "a legacy call makes no rounds"
    );
    assert!(text(&tray, ".kept-by-server").contains("server keeps it"));

    // The client's answer: a POST of its own, carrying the request's id; the server
    // accepts it with 202 and no body.
    let posted = exchange(
        wire,
        "elicitation/create (answer)",
        None,
        r#"{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{"size":4}}}"#.into(),
        None,
    );
    finish_exchange(&wire, posted, |sent| WireEntry {
        status: Some(202),
        responded_after: Some(15.0),
        finished_after: Some(15.0),
        ..sent
    });
    wait_for(&host, "g.server-ask[data-answered=\"true\"]").await;
    wait_for(&host, "g.tray[data-state=\"in_flight\"]").await;
    let result =
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Booked for 4"}]}}"#;
    finish_exchange(&wire, call, |sent| call_stream(sent, &[asks, result], true));
    let tray = wait_for(&host, "g.tray[data-state=\"done\"]").await;
    assert_eq!(attr(&tray, "data-rounds"), "1");

    // Inspecting the server's request shows it and the answer, matched by id.
    click(&get(&host, "g.server-ask"));
    wait_for_text(&host, "#inspect .inspect-role", "from the server").await;
    let json = text(&host, "#inspect pre.inspect-json");
    assert!(json.contains("How many guests?"), "{json}");
    assert!(json.contains("\"action\": \"accept\""), "{json}");
    click(&get(&host, "g.held-session"));
    wait_for_text(&host, "#inspect .inspect-role", "The session").await;
    assert!(text(&host, "g.held-session").contains("1 from the server"));
}
