//! The tasks board and panel in headless Chromium: restored from stored state, stored state
//! that survives a round trip, and a snapshot's several input requests answered together.
#![cfg(target_arch = "wasm32")]

use holdbay::connection::{Connection, relay_key};
use holdbay::session::Session;
use holdbay::storage;
use holdbay::tasks::{TaskBoard, TrackedTask, now_ms};
use holdbay::ui::{TasksAsking, TasksPanel};
use holdbay_engine::TaskTracker;
use holdbay_engine::model::CreateTaskResult;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlButtonElement, HtmlElement, HtmlInputElement};

mod dom;

use dom::{fresh_host, mount_with_session, script_fetch, wait_for, wait_gone, wait_until};

wasm_bindgen_test_configure!(run_in_browser);

/// Nothing listens on port 9 here: polls fail fast, as for a server that is down.
const DOWN_SERVER: &str = "http://127.0.0.1:9/mcp";

fn text(element: &Element, selector: &str) -> String {
    element
        .query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_else(|| panic!("{selector} is not there"))
}

fn created(task_id: &str, status: &str, ttl_ms: Option<u64>) -> CreateTaskResult {
    serde_json::from_value(
        json!({"resultType": "task", "taskId": task_id, "status": status,
        "statusMessage": format!("{task_id} says hello"),
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:00Z",
        "ttlMs": ttl_ms, "pollIntervalMs": 2000}),
    )
    .expect("a CreateTaskResult")
}

/// A tracker as a page would have stored it, `created_ago_ms` before now.
fn stored_task(tool: &str, task_id: &str, status: &str, created_ago_ms: u64) -> TrackedTask {
    let created_at = now_ms() - created_ago_ms;
    let tracker = TaskTracker::from_created(&created(task_id, status, Some(600_000)), created_at);
    TrackedTask::new(tool, tracker)
}

/// The tasks panel of the page's session for `server`, with the place above the call where
/// tasks that ask are answered: its stored tasks restored, and followed (polled) from then on.
fn mount_panel(host: HtmlElement, server: &'static str) {
    mount_with_session(
        &host,
        move || Session::start(Connection::direct(server.to_owned()), None),
        || view! { <TasksAsking /> <TasksPanel /> },
    );
}

#[wasm_bindgen_test]
async fn the_panel_shows_the_stored_tasks_and_a_server_that_is_down() {
    let key = storage::key("tasks", DOWN_SERVER);
    let stored = vec![
        stored_task("run_pipeline", "pipeline-0001-abcdef", "working", 65_000),
        stored_task("bulk_import", "import-0002", "input_required", 5_000),
    ];
    storage::save(&key, &stored).expect("saved");

    let host = fresh_host("tasks-stored");
    mount_panel(host.clone(), DOWN_SERVER);
    let first = wait_for(&host, r#"li.task-row[data-task-id="pipeline-0001-abcdef"]"#).await;
    let rows = host.query_selector_all("li.task-row").expect("rows");
    assert_eq!(rows.length(), 2, "both stored tasks are listed");
    let order: Vec<String> = (0..rows.length())
        .filter_map(|i| rows.item(i))
        .filter_map(|row| {
            row.unchecked_into::<Element>()
                .get_attribute("data-task-id")
        })
        .collect();
    assert_eq!(
        order,
        ["import-0002", "pipeline-0001-abcdef"],
        "newest first"
    );
    assert_eq!(
        first.get_attribute("data-status").as_deref(),
        Some("working")
    );
    assert_eq!(text(&first, ".task-status"), "working");
    assert_eq!(text(&first, ".task-tool"), "run_pipeline");
    assert_eq!(
        text(&first, ".task-message"),
        "pipeline-0001-abcdef says hello"
    );
    let id = first.query_selector(".task-id").ok().flatten().expect("id");
    assert_eq!(
        id.get_attribute("title").as_deref(),
        Some("pipeline-0001-abcdef")
    );
    assert_eq!(id.text_content().as_deref(), Some("pipeline…"));
    // TTL 10 min from a creation 65 s ago: 8 min 55 s left (allow a tick).
    let ttl = text(&first, ".task-ttl");
    assert!(
        ttl == "expires in 8 min 55 s" || ttl == "expires in 8 min 54 s",
        "TTL countdown: {ttl}"
    );
    assert!(text(&first, ".task-age").starts_with("age 1 min 0"));
    assert_eq!(
        text(&first, ".task-poll"),
        "polled every 2 s, as the server asks"
    );
    // The server is down: no snapshot has arrived since the task was made.
    assert_eq!(
        text(&first, ".task-last-snapshot"),
        "no snapshot since it was created"
    );
    assert!(
        first
            .query_selector(".task-cancel")
            .ok()
            .flatten()
            .is_some()
    );
    assert!(
        first
            .query_selector(".task-forget")
            .ok()
            .flatten()
            .is_none()
    );

    let second = wait_for(&host, r#"li.task-row[data-task-id="import-0002"]"#).await;
    assert_eq!(
        second.get_attribute("data-status").as_deref(),
        Some("input_required")
    );

    // The restored tasks are polled at once; nothing answers, so the engine backs off.
    let unreachable = wait_for(&first, ".task-unreachable").await;
    let shown = unreachable.text_content().unwrap_or_default();
    assert!(
        shown.starts_with("unreachable — retrying in "),
        "unreachable line: {shown}"
    );
    storage::remove(&key);
    storage::remove(&relay_key(DOWN_SERVER));
}

#[wasm_bindgen_test]
fn adopted_tasks_are_stored_and_restore_equal() {
    let server = "http://127.0.0.1:9/round-trip";
    let key = storage::key("tasks", server);
    storage::remove(&key);
    let owner = Owner::new();
    owner.with(|| {
        let board = TaskBoard::new();
        board.load(server);
        assert!(board.tasks().get_untracked().is_empty());
        board.adopt(&created("t-1", "working", Some(60_000)), "run_pipeline");
        board.adopt(&created("t-2", "completed", None), "quick_sum");
        // Adopting the same task again changes nothing.
        board.adopt(&created("t-1", "working", Some(60_000)), "run_pipeline");

        let shown = board.tasks().get_untracked();
        assert_eq!(shown.len(), 2);
        let saved: Vec<TrackedTask> = storage::load(&key).expect("the board was saved");
        assert_eq!(saved, shown);

        let restored = TaskBoard::new();
        restored.load(server);
        assert_eq!(restored.tasks().get_untracked(), shown);
        assert_eq!(restored.tasks().get_untracked()[0].tool(), "run_pipeline");

        // Forgetting only drops tasks that have ended (t-2 still has to fetch its result).
        restored.forget("t-1");
        restored.forget("t-2");
        assert_eq!(restored.tasks().get_untracked().len(), 2);
    });
    storage::remove(&key);
}

/// The server of the gathered-answers test; every other URL fails as a server that is down.
const PLAN_SERVER: &str = "http://tasks.test/mcp";

/// A server whose task asks two inputs in one snapshot (`window`, `rollback`), neither
/// ready without the user, until a `tasks/update` came; it then says the task works on.
const TWO_INPUTS: &str = r#"
    if (!url.startsWith("http://tasks.test/")) throw new TypeError("Failed to fetch");
    const updated = window.__seen.some((seen) => seen.body.method === "tasks/update");
    const task = { taskId: "plan-0001", createdAt: "2026-11-29T10:00:00Z",
        lastUpdatedAt: "2026-11-29T10:00:01Z", ttlMs: 600000, pollIntervalMs: 1000 };
    if (body.method === "tasks/get" && !updated) return { resultType: "complete", ...task,
        status: "input_required", statusMessage: "Two questions before scheduling",
        inputRequests: {
            window: { method: "elicitation/create", params: { mode: "form",
                message: "Choose a maintenance window.", requestedSchema: { type: "object",
                properties: { window: { type: "string", title: "Window",
                    oneOf: [{ const: "tonight", title: "Tonight" },
                            { const: "saturday", title: "Saturday" }] } },
                required: ["window"] } } },
            rollback: { method: "elicitation/create", params: { mode: "form",
                message: "Describe the tested rollback plan.", requestedSchema: {
                type: "object", properties: { plan: { type: "string", title: "Plan" } },
                required: ["plan"] } } } } };
    if (body.method === "tasks/get") return { resultType: "complete", ...task,
        status: "working" };
    if (body.method === "tasks/update") return { resultType: "complete" };
    return { error: { code: -32601, message: "not offered here" } };"#;

fn fire(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

fn submit_button(host: &Element) -> HtmlButtonElement {
    host.query_selector("form.task-inputs.gathered button.submit-answers")
        .ok()
        .flatten()
        .expect("the Submit button")
        .unchecked_into()
}

fn updates_sent() -> Vec<serde_json::Value> {
    let seen = js_sys::eval(
        "JSON.stringify(window.__seen.filter((s) => s.body.method === 'tasks/update'))",
    )
    .ok()
    .and_then(|v| v.as_string())
    .unwrap_or_default();
    serde_json::from_str(&seen).unwrap_or_default()
}

#[wasm_bindgen_test]
async fn two_inputs_of_one_snapshot_are_answered_together_in_one_update() {
    let key = storage::key("tasks", PLAN_SERVER);
    storage::save(
        &key,
        &vec![stored_task("plan_migration", "plan-0001", "working", 1_000)],
    )
    .expect("saved");
    script_fetch(TWO_INPUTS);
    let host = fresh_host("tasks-gathered");
    mount_panel(host.clone(), PLAN_SERVER);

    // The restored task is polled; its snapshot asks two inputs: one form, two cards, above
    // the call (its row only points there).
    let form = wait_for(
        &host,
        "#task-asking .task-asking[data-task-id=\"plan-0001\"] form.task-inputs.gathered",
    )
    .await;
    let row = wait_for(&host, r#"li.task-row[data-task-id="plan-0001"]"#).await;
    assert!(
        row.query_selector(".input-request")
            .ok()
            .flatten()
            .is_none(),
        "no form in the row"
    );
    assert!(
        row.query_selector(".task-asks-above button")
            .ok()
            .flatten()
            .is_some(),
        "the row points to it"
    );
    let forms = host
        .query_selector_all("form.task-inputs.gathered")
        .expect("query");
    assert_eq!(forms.length(), 1, "one form for the snapshot");
    let cards = form.query_selector_all(".input-request").expect("query");
    assert_eq!(cards.length(), 2, "{}", form.inner_html());
    let buttons = host
        .query_selector_all("button.submit-answers")
        .expect("query");
    assert_eq!(buttons.length(), 1, "one Submit for both");
    assert!(
        form.query_selector("button.accept")
            .ok()
            .flatten()
            .is_none(),
        "no card answers on its own"
    );

    // Submit waits until both cards are ready.
    assert!(submit_button(&host).disabled(), "neither card is ready");
    let window: web_sys::HtmlSelectElement = form
        .query_selector(".input-request[data-key='window'] select[name=window]")
        .ok()
        .flatten()
        .expect("the window field")
        .unchecked_into();
    let window_not_ready = ".input-request[data-key='window'] .form-status";
    assert!(
        form.query_selector(window_not_ready)
            .ok()
            .flatten()
            .is_some(),
        "the window card says it is not ready"
    );
    window.set_value("saturday");
    fire(&window, "change");
    wait_gone(&form, window_not_ready).await;
    assert!(
        submit_button(&host).disabled(),
        "the rollback card is not ready"
    );
    let plan: HtmlInputElement = form
        .query_selector(".input-request[data-key='rollback'] input[name=plan]")
        .ok()
        .flatten()
        .expect("the plan field")
        .unchecked_into();
    plan.set_value("restore the snapshot");
    fire(&plan, "input");
    fire(&plan, "blur");
    wait_until(
        || !submit_button(&host).disabled(),
        "Submit enabled once both cards are ready",
    )
    .await;
    assert!(updates_sent().is_empty(), "nothing is sent before Submit");

    // One tasks/update carries both answers.
    submit_button(&host).click();
    wait_until(|| !updates_sent().is_empty(), "a tasks/update sent").await;
    // Answered, the questions go: whatever Submit sent has gone by then.
    wait_gone(&host, "form.task-inputs.gathered").await;
    let updates = updates_sent();
    assert_eq!(updates.len(), 1, "{updates:?}");
    let responses = &updates[0]["body"]["params"]["inputResponses"];
    let mut keys: Vec<&String> = responses
        .as_object()
        .map(|answers| answers.keys().collect())
        .unwrap_or_default();
    keys.sort();
    assert_eq!(keys, ["rollback", "window"], "{responses}");
    assert_eq!(
        responses["window"],
        json!({"action": "accept", "content": {"window": "saturday"}})
    );
    assert_eq!(
        responses["rollback"],
        json!({"action": "accept", "content": {"plan": "restore the snapshot"}})
    );
    assert_eq!(updates[0]["body"]["params"]["taskId"], json!("plan-0001"));
    storage::remove(&key);
    storage::remove(&relay_key(PLAN_SERVER));
}
