//! The timeline in headless Chromium: a session's recorded exchanges as a sequence diagram,
//! selecting parts, scrubbing the scene back in time, following live, an imported log and
//! the rendered window of a long session.
#![cfg(target_arch = "wasm32")]

use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::{Timeline, UiState};
use holdbay::wire::{WireChunk, WireEntry};
use holdbay_scene::{Part, TrayState};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlInputElement};

mod dom;

use dom::{
    begin_exchange, find, fresh_host, mount_with_session, record_exchange, text, wait_eq, wait_for,
    wait_for_text, wait_gone, wait_some, wait_until, with_meta,
};

wasm_bindgen_test_configure!(run_in_browser);

const SERVER: &str = "http://127.0.0.1:8080/mcp";
const TASK: &str = "0c5e9a8f-61d2-4c1e-9b7a-3f1d2e4a5b6c";
const T0: f64 = 1_785_000_000_000.0;

fn all(host: &Element, selector: &str) -> Vec<Element> {
    let list = host.query_selector_all(selector).expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .collect()
}

fn get<T: JsCast>(host: &Element, selector: &str) -> T {
    find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page: {}", host.inner_html()))
        .unchecked_into()
}

fn fire(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

fn scrub(host: &Element, index: usize) {
    let input: HtmlInputElement = get(host, "#timeline-scrub");
    input.set_value(&index.to_string());
    fire(&input, "input");
}

/// One whole exchange as the transport records it: sent, status line, body, end.
fn exchange_entry(
    at: f64,
    method: &str,
    name: &str,
    id: u32,
    params: &str,
    response: &str,
) -> WireEntry {
    let params = with_meta(&format!("{{{params}}}"));
    let request_body =
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#);
    let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{response}}}"#);
    WireEntry {
        method: method.to_owned(),
        name: Some(name.to_owned()),
        server: SERVER.to_owned(),
        url: SERVER.to_owned(),
        started_at: at,
        request_headers: vec![
            ("Content-Type".into(), "application/json".into()),
            ("MCP-Protocol-Version".into(), "2026-07-28".into()),
            ("Mcp-Method".into(), method.to_owned()),
            ("Mcp-Name".into(), name.to_owned()),
        ],
        request_body,
        status: Some(200),
        response_headers: vec![("content-type".into(), "application/json".into())],
        responded_after: Some(40.0),
        body: vec![WireChunk {
            after: 45.0,
            text: body,
        }],
        finished_after: Some(46.0),
        ..Default::default()
    }
}

/// Record one whole exchange the way the transport does: sent, status line, body, end, with
/// the events the engine decodes from them.
fn record(
    session: &Session,
    at: f64,
    method: &str,
    name: &str,
    id: u32,
    params: &str,
    response: &str,
) {
    record_exchange(
        &session.wire(),
        exchange_entry(at, method, name, id, params, response),
    );
}

/// Three `deploy` calls, each answered with a task of its own: the tasks' ids.
fn three_deploy_tasks(session: &Session) -> [&'static str; 3] {
    let tasks = ["task-a", "task-b", "task-c"];
    for (n, task) in (0_u32..).zip(tasks) {
        record(
            session,
            T0 + f64::from(n) * 100.0,
            "tools/call",
            "deploy",
            10 + n,
            r#""name":"deploy","arguments":{"env":"staging"}"#,
            &queued_snapshot(task, "task"),
        );
    }
    tasks
}

fn task_snapshot(status: &str, message: &str) -> String {
    format!(
        r#"{{"resultType":"complete","taskId":"{TASK}","status":"{status}","statusMessage":"{message}","createdAt":"2026-08-01T10:30:00Z","lastUpdatedAt":"2026-08-01T10:30:00Z","ttlMs":3600000,"pollIntervalMs":1000}}"#
    )
}

/// A demo-server session: book_table pauses for a confirmation and completes on the retry;
/// deploy becomes a task, is polled (unchanged) four times and completes.
fn demo_session(session: &Session) {
    record(
        session,
        T0,
        "tools/call",
        "book_table",
        2,
        r#""name":"book_table","arguments":{"party_size":4,"time":"19:30"}"#,
        r#"{"resultType":"input_required","inputRequests":{"confirm_booking":{"method":"elicitation/create","params":{"mode":"form","message":"Book a table for 4 at 19:30?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean","title":"Confirm"}},"required":["confirm"]}}}},"requestState":"v1.eyJ0b29sIjoiYm9va190YWJsZSJ9.c2ln"}"#,
    );
    record(
        session,
        T0 + 2_000.0,
        "tools/call",
        "book_table",
        3,
        r#""name":"book_table","arguments":{"party_size":4,"time":"19:30"},"inputResponses":{"confirm_booking":{"action":"accept","content":{"confirm":true}}},"requestState":"v1.eyJ0b29sIjoiYm9va190YWJsZSJ9.c2ln""#,
        r#"{"resultType":"complete","content":[{"type":"text","text":"Table for 4 booked at 19:30."}],"isError":false}"#,
    );
    record(
        session,
        T0 + 4_000.0,
        "tools/call",
        "deploy",
        4,
        r#""name":"deploy","arguments":{"env":"staging"}"#,
        &format!(
            r#"{{"resultType":"task","taskId":"{TASK}","status":"working","statusMessage":"Queued","createdAt":"2026-08-01T10:30:00Z","lastUpdatedAt":"2026-08-01T10:30:00Z","ttlMs":3600000,"pollIntervalMs":1000}}"#
        ),
    );
    for poll in 0..4u32 {
        record(
            session,
            T0 + 5_000.0 + f64::from(poll) * 1_000.0,
            "tasks/get",
            TASK,
            5 + poll,
            &format!(r#""taskId":"{TASK}""#),
            &task_snapshot("working", "Queued"),
        );
    }
    record(
        session,
        T0 + 9_000.0,
        "tasks/get",
        TASK,
        9,
        &format!(r#""taskId":"{TASK}""#),
        &task_snapshot("completed", "Deployed"),
    );
}

/// Mount a timeline in a fresh session (with the page's UI state, which holds the
/// inspected part).
fn mount(host: &HtmlElement) -> (Session, UiState) {
    mount_with_session(
        host,
        || Session::new(Connection::direct(SERVER.to_owned())),
        || view! { <Timeline /> },
    )
}

/// Wait until the attribute `name` of the first `selector` is `value`.
async fn wait_attr(host: &Element, selector: &str, name: &str, value: &str) {
    wait_eq(
        || find(host, selector).and_then(|e| e.get_attribute(name)),
        Some(value.to_owned()),
        &format!("{selector} {name}"),
    )
    .await;
}

/// The `data-seq` of the last row drawn.
fn last_seq(host: &Element) -> Option<String> {
    all(host, ".timeline-event")
        .last()
        .and_then(|row| row.get_attribute("data-seq"))
}

/// The texts of the rows drawn that contain `needle`, once there are `n` of them and the
/// first says `says`.
async fn rows_with(host: &Element, needle: &str, says: &str) -> Vec<String> {
    wait_some(
        || {
            let rows: Vec<String> = all(host, ".timeline-event")
                .iter()
                .filter_map(|r| r.text_content())
                .filter(|text| text.contains(needle))
                .collect();
            rows.iter().any(|row| row.contains(says)).then_some(rows)
        },
        &format!("a row saying {says}"),
        || host.inner_html(),
    )
    .await
}

/// `count` echo calls, each answered, 100 ms apart.
fn record_echo_calls(session: &Session, count: u32) {
    for n in 0..count {
        record(
            session,
            T0 + f64::from(n) * 100.0,
            "tools/call",
            "echo",
            n + 2,
            &format!(r#""name":"echo","arguments":{{"text":"{n}"}}"#),
            r#"{"resultType":"complete","content":[{"type":"text","text":"ok"}]}"#,
        );
    }
}

/// Task `task` working and queued, as a result of `result_type` (`task` or `complete`).
fn queued_snapshot(task: &str, result_type: &str) -> String {
    format!(
        r#"{{"resultType":"{result_type}","taskId":"{task}","status":"working","statusMessage":"Queued","createdAt":"2026-08-01T10:30:00Z","lastUpdatedAt":"2026-08-01T10:30:00Z","ttlMs":3600000,"pollIntervalMs":1000}}"#
    )
}

#[wasm_bindgen_test]
async fn rows_lanes_and_selection_follow_the_recorded_session() {
    let host = fresh_host("timeline-rows");
    let (session, ui) = mount(&host);
    wait_for(&host, ".timeline-empty").await;
    demo_session(&session);
    wait_until(
        || all(&host, ".timeline-event").len() >= 8,
        "the session's rows",
    )
    .await;

    let lanes = all(&host, ".lane-head");
    let names: Vec<String> = lanes.iter().filter_map(|l| l.text_content()).collect();
    assert_eq!(names, ["User", "Client", "Server"]);

    let rows = all(&host, ".timeline-event");
    assert!(
        rows.len() >= 8,
        "{} rows: {}",
        rows.len(),
        host.inner_html()
    );
    let first = &rows[0];
    assert_eq!(first.get_attribute("data-seq").as_deref(), Some("0"));
    assert_eq!(first.get_attribute("data-from").as_deref(), Some("client"));
    assert_eq!(first.get_attribute("data-to").as_deref(), Some("server"));
    assert!(
        first
            .text_content()
            .unwrap_or_default()
            .contains("tools/call book_table"),
        "{:?}",
        first.text_content()
    );
    assert!(first.text_content().unwrap_or_default().contains("+0.0 s"));
    // The paused request's question goes to the user, and the answer comes back from them.
    assert!(find(&host, ".timeline-event[data-from=client][data-to=user]").is_some());
    assert!(find(&host, ".timeline-event[data-from=user][data-to=client]").is_some());
    assert!(find(&host, ".timeline-event[data-from=server][data-to=client]").is_some());
    // The unchanged polls fold into one row, which keeps the seq of its last event.
    let folded: Vec<&Element> = rows
        .iter()
        .filter(|r| {
            r.text_content()
                .unwrap_or_default()
                .contains("tasks/get ×4")
        })
        .collect();
    assert_eq!(folded.len(), 1, "{}", host.inner_html());
    assert!(
        folded[0]
            .text_content()
            .unwrap_or_default()
            .contains("→ working")
    );
    let fourth_answer = session.traffic().with_whole(|t| {
        t.events()
            .iter()
            .filter(|e| e.label == "working")
            .nth(3)
            .map(|e| e.seq.to_string())
    });
    assert_eq!(folded[0].get_attribute("data-seq"), fourth_answer);
    assert_eq!(
        folded[0].get_attribute("data-from").as_deref(),
        Some("server")
    );
    let total = session.traffic().with_whole(|t| t.events().len());
    let last_seq = session
        .traffic()
        .with_whole(|t| t.events().last().map(|e| e.seq));
    let last_row = rows.last().expect("a last row");
    assert_eq!(
        last_row.get_attribute("data-seq"),
        last_seq.map(|s| s.to_string())
    );
    assert!(text(&host, ".timeline-count").contains(&format!("{total} events")));

    // Rows are buttons; clicking one selects its part and highlights it.
    assert_eq!(first.tag_name(), "BUTTON");
    first.unchecked_ref::<HtmlElement>().click();
    wait_for(&host, ".timeline-event.selected[data-seq='0']").await;
    let tray = session.traffic().with_whole(|t| t.trays()[0].id);
    assert_eq!(ui.inspected().get_untracked(), Some(Part::Tray(tray)));
    // Every row about that request is highlighted with it, and no other row.
    let about_tray = session.traffic().with_whole(|t| {
        t.events()
            .iter()
            .filter(|e| e.part == Part::Tray(tray))
            .count()
    });
    assert_eq!(all(&host, ".timeline-event.selected").len(), about_tray);
    assert!(about_tray < rows.len());
    let deploy = get::<Element>(&host, ".timeline-event[data-seq='6']");
    assert!(!deploy.class_list().contains("selected"));
    deploy.unchecked_ref::<HtmlElement>().click();
    wait_until(
        || deploy.class_list().contains("selected"),
        "the deploy row selected",
    )
    .await;
    assert!(
        !get::<Element>(&host, ".timeline-event[data-seq='0']")
            .class_list()
            .contains("selected")
    );
}

#[wasm_bindgen_test]
async fn scrubbing_shows_the_earlier_state_and_follow_live_returns() {
    let host = fresh_host("timeline-scrub");
    let (session, _) = mount(&host);
    demo_session(&session);
    let traffic = session.traffic();
    wait_until(|| traffic.with(|t| t.trays().len()) == 2, "both trays").await;
    // The scrubber spans the whole session before it is moved.
    let last = traffic.with_whole(|t| t.events().len()) - 1;
    wait_attr(&host, "#timeline-scrub", "max", &last.to_string()).await;
    assert!(find(&host, ".timeline-event.current").is_none());

    // Back to the first event: only book_table has gone out.
    scrub(&host, 0);
    wait_for(&host, ".timeline-event.current").await;
    assert!(traffic.position().get_untracked().is_some());
    assert_eq!(traffic.with(|t| t.trays().len()), 1);
    assert_eq!(
        traffic.with(|t| t.trays()[0].state.clone()),
        TrayState::InFlight
    );
    assert!(traffic.with(|t| t.cartridges().is_empty()));
    let current = all(&host, ".timeline-event.current");
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].get_attribute("data-seq").as_deref(), Some("0"));

    // The event where the server's question reached the client: the tray is paused.
    let paused_at = traffic
        .with_whole(|t| {
            t.events()
                .iter()
                .position(|e| e.label.starts_with("input_required"))
        })
        .expect("an input_required event");
    scrub(&host, paused_at);
    wait_eq(
        || traffic.with(|t| t.trays()[0].state.clone()),
        TrayState::Paused,
        "the tray paused",
    )
    .await;
    assert_eq!(traffic.with(|t| t.trays()[0].rounds.len()), 1);

    // Follow live: the whole session again, no event marked.
    get::<HtmlElement>(&host, "#timeline-live").click();
    wait_gone(&host, ".timeline-event.current").await;
    assert!(traffic.position().get_untracked().is_none());
    assert_eq!(traffic.with(|t| t.trays().len()), 2);
    assert_eq!(traffic.with(|t| t.trays()[0].rounds.len()), 2);
    let scrubber: HtmlInputElement = get(&host, "#timeline-scrub");
    let total = traffic.with_whole(|t| t.events().len());
    assert_eq!(scrubber.value(), (total - 1).to_string());

    // New traffic while scrubbed extends the timeline but leaves the scene where it is.
    scrub(&host, 0);
    wait_for(&host, ".timeline-event.current[data-seq='0']").await;
    record(
        &session,
        T0 + 12_000.0,
        "tools/call",
        "echo",
        20,
        r#""name":"echo","arguments":{"text":"hi"}"#,
        r#"{"resultType":"complete","content":[{"type":"text","text":"hi"}]}"#,
    );
    wait_until(
        || traffic.with_whole(|t| t.events().len()) > total,
        "the timeline extended",
    )
    .await;
    assert_eq!(traffic.with(|t| t.trays().len()), 1);
    assert_eq!(
        get::<HtmlInputElement>(&host, "#timeline-scrub").value(),
        "0"
    );
}

#[wasm_bindgen_test]
async fn play_steps_through_the_events() {
    let host = fresh_host("timeline-play");
    let (session, _) = mount(&host);
    demo_session(&session);
    wait_for(&host, ".timeline-event").await;
    get::<HtmlElement>(&host, "#timeline-play").click();
    wait_attr(&host, "#timeline-play", "aria-pressed", "true").await;
    let first = session
        .traffic()
        .position()
        .get_untracked()
        .expect("playing scrubs");
    wait_until(
        || {
            session
                .traffic()
                .position()
                .get_untracked()
                .expect("still scrubbed")
                > first
        },
        "playback moving on",
    )
    .await;
    get::<HtmlElement>(&host, "#timeline-play").click();
    wait_attr(&host, "#timeline-play", "aria-pressed", "false").await;
}

#[wasm_bindgen_test]
async fn an_imported_log_is_shown_and_labelled() {
    let recorded = fresh_host("timeline-recorded");
    let (source, _) = mount(&recorded);
    demo_session(&source);
    let file = source.wire().export_json(T0 + 20_000.0);

    let host = fresh_host("timeline-imported");
    let (session, _) = mount(&host);
    wait_for(&host, ".timeline-empty").await;
    assert!(find(&host, ".timeline-imported").is_none());
    session
        .wire()
        .import_json(file)
        .await
        .expect("the export imports");
    wait_for_text(&host, ".timeline-imported", "Imported log").await;
    assert_eq!(text(&host, ".timeline-imported"), "Imported log");
    assert_eq!(
        get::<Element>(&host, "#timeline")
            .get_attribute("data-imported")
            .as_deref(),
        Some("true")
    );
    assert!(all(&host, ".timeline-event").len() >= 8);
    // Scrubbing replays the imported session.
    scrub(&host, 0);
    wait_until(
        || session.traffic().with(|t| t.trays().len()) == 1,
        "the replay at its first event",
    )
    .await;
    session.wire().show_live();
    wait_gone(&host, ".timeline-imported").await;
    wait_gone(&host, ".timeline-event").await;
}

#[wasm_bindgen_test]
async fn a_long_session_renders_a_window_and_pages_back() {
    let host = fresh_host("timeline-long");
    let (session, _) = mount(&host);
    record_echo_calls(&session, 400);
    wait_eq(|| last_seq(&host), Some("799".to_owned()), "the newest row").await;
    let rows = all(&host, ".timeline-event");
    assert_eq!(rows.len(), holdbay::ui::timeline::WINDOW);
    assert!(text(&host, ".timeline-more").contains("500 earlier events"));
    assert_eq!(
        rows[rows.len() - 1].get_attribute("data-seq").as_deref(),
        Some("799")
    );

    get::<HtmlElement>(&host, ".timeline-earlier").click();
    wait_eq(|| last_seq(&host), Some("499".to_owned()), "a page back").await;
    assert!(find(&host, ".timeline-later").is_some());

    // Scrubbing to the very first event brings its row into the window.
    scrub(&host, 0);
    wait_for(&host, ".timeline-event.current[data-seq='0']").await;

    get::<HtmlElement>(&host, "#timeline-live").click();
    wait_eq(|| last_seq(&host), Some("799".to_owned()), "the newest row").await;
}

#[wasm_bindgen_test]
async fn interleaved_routine_polls_of_many_tasks_fold_into_one_row() {
    let host = fresh_host("timeline-many-pollers");
    let (session, _) = mount(&host);
    wait_for(&host, ".timeline-empty").await;
    let tasks = three_deploy_tasks(&session);
    // Three rounds of polls, the tasks taking turns, nothing changing.
    for round in 0..3_u32 {
        for (n, task) in (0_u32..).zip(tasks) {
            let id = 20 + round * 3 + n;
            record(
                &session,
                T0 + 1_000.0 + f64::from(id) * 100.0,
                "tasks/get",
                task,
                id,
                &format!(r#""taskId":"{task}""#),
                &queued_snapshot(task, "complete"),
            );
        }
    }
    let folded = rows_with(&host, "tasks/get ×", "tasks/get ×9 for 3 tasks").await;
    assert_eq!(folded.len(), 1, "{folded:?}: {}", host.inner_html());
    let rows = all(&host, ".timeline-event");
    let last = rows
        .last()
        .and_then(|r| r.text_content())
        .unwrap_or_default();
    assert_eq!(last, folded[0], "the folded row is the newest");
}

#[wasm_bindgen_test]
async fn polls_of_many_tasks_still_out_stay_in_their_folded_row() {
    let host = fresh_host("timeline-polls-out");
    let (session, _) = mount(&host);
    wait_for(&host, ".timeline-empty").await;
    let tasks = three_deploy_tasks(&session);
    let poll = |id: u32, task: &str| {
        exchange_entry(
            T0 + 1_000.0 + f64::from(id) * 100.0,
            "tasks/get",
            task,
            id,
            &format!(r#""taskId":"{task}""#),
            &queued_snapshot(task, "complete"),
        )
    };
    for round in 0..2_u32 {
        for (n, task) in (0_u32..).zip(tasks) {
            record_exchange(&session.wire(), poll(20 + round * 3 + n, task));
        }
    }
    // Two more sent, not answered yet: a busy poller always has some out.
    begin_exchange(&session.wire(), &poll(40, "task-a"));
    begin_exchange(&session.wire(), &poll(41, "task-b"));
    let polls = rows_with(&host, "tasks/get", "tasks/get ×6 for 3 tasks").await;
    assert_eq!(polls.len(), 1, "{polls:?}");
}

#[wasm_bindgen_test]
async fn polls_long_after_their_exchanges_were_let_go_still_fold_into_one_row() {
    use holdbay_scene::MAX_FINISHED_FLIGHTS;
    let host = fresh_host("timeline-old-polls");
    let (session, _) = mount(&host);
    wait_for(&host, ".timeline-empty").await;
    record(
        &session,
        T0,
        "tools/call",
        "deploy",
        10,
        r#""name":"deploy","arguments":{"env":"staging"}"#,
        &queued_snapshot("task-a", "task"),
    );
    // More unchanged polls than the scene keeps exchanges of: the oldest ones' exchanges
    // are gone from the model, yet each of their steps still reads as routine polling.
    let polls = u32::try_from(MAX_FINISHED_FLIGHTS).unwrap_or(400) + 100;
    for n in 0..polls {
        let id = 20 + n;
        record(
            &session,
            T0 + 1_000.0 + f64::from(n) * 10.0,
            "tasks/get",
            "task-a",
            id,
            r#""taskId":"task-a""#,
            &queued_snapshot("task-a", "complete"),
        );
    }
    let folded = rows_with(&host, "tasks/get", &format!("tasks/get ×{polls}")).await;
    assert_eq!(folded.len(), 1, "{folded:?}");
}

#[wasm_bindgen_test]
async fn following_live_scrolls_to_a_new_row_but_not_for_a_row_growing_in_place() {
    let host = fresh_host("timeline-follow");
    let (session, _) = mount(&host);
    wait_for(&host, ".timeline-empty").await;
    let scroller: HtmlElement = get(&host, ".timeline-scroll");
    // No style sheet in this test page: give the list a height it overflows.
    scroller
        .set_attribute("style", "height: 120px; overflow: auto")
        .ok();
    let snapshot = |result_type: &str| queued_snapshot(TASK, result_type);
    let at_bottom = |scroller: &HtmlElement| {
        scroller.scroll_top() + scroller.client_height() >= scroller.scroll_height() - 1
    };
    record_echo_calls(&session, 20);
    record(
        &session,
        T0 + 2_500.0,
        "tools/call",
        "deploy",
        30,
        r#""name":"deploy","arguments":{"env":"staging"}"#,
        &snapshot("task"),
    );
    // Two polls with nothing new: one folded row ("tasks/get ×2").
    for (n, id) in (0_u32..).zip([31, 32]) {
        record(
            &session,
            T0 + 3_000.0 + f64::from(n) * 1_000.0,
            "tasks/get",
            TASK,
            id,
            &format!(r#""taskId":"{TASK}""#),
            &snapshot("complete"),
        );
    }
    // Following live shows the newest row.
    rows_with(&host, "tasks/get", "tasks/get ×2").await;
    wait_until(
        || scroller.scroll_height() > scroller.client_height() && at_bottom(&scroller),
        "the list overflowing, scrolled to the newest row",
    )
    .await;

    // The reader scrolls up; a routine poll folds into the newest row: the list stays put.
    scroller.set_scroll_top(0);
    record(
        &session,
        T0 + 5_000.0,
        "tasks/get",
        TASK,
        33,
        &format!(r#""taskId":"{TASK}""#),
        &snapshot("complete"),
    );
    // The poll folded into the newest row.
    wait_until(
        || {
            all(&host, ".timeline-event")
                .last()
                .and_then(|r| r.text_content())
                .is_some_and(|newest| newest.contains("tasks/get ×3"))
        },
        "the poll folded into the newest row",
    )
    .await;
    assert_eq!(
        scroller.scroll_top(),
        0,
        "a row growing in place moves nothing"
    );

    // A new row brings the list back to the newest.
    record(
        &session,
        T0 + 6_000.0,
        "tools/call",
        "echo",
        34,
        r#""name":"echo","arguments":{"text":"last"}"#,
        r#"{"resultType":"complete","content":[{"type":"text","text":"ok"}]}"#,
    );
    wait_until(|| at_bottom(&scroller), "the new row scrolled into view").await;
}
