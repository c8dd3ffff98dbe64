//! The tasks board and panel in headless Chromium: restored from stored state, and stored
//! state that survives a round trip.
#![cfg(target_arch = "wasm32")]

use holdbay::connection::Connection;
use holdbay::storage;
use holdbay::tasks::{TaskBoard, TrackedTask, now_ms};
use holdbay::ui::{Session, TasksPanel};
use holdbay_engine::TaskTracker;
use holdbay_engine::model::CreateTaskResult;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

mod dom;

use dom::{fresh_host, wait_for};

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

fn mount_panel(host: HtmlElement, server: &'static str) {
    leptos::mount::mount_to(host, move || {
        provide_context(Session::new(Connection::direct(server.to_owned())));
        view! { <TasksPanel /> }
    })
    .forget();
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
    let first = wait_for(&host, r#"li.task[data-task-id="pipeline-0001-abcdef"]"#).await;
    let rows = host.query_selector_all("li.task").expect("rows");
    assert_eq!(rows.length(), 2, "both stored tasks are listed");
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
    // TTL 10 min from a creation 65 s ago: 8m 55s left (allow a tick).
    let ttl = text(&first, ".task-ttl");
    assert!(
        ttl == "expires in 8m 55s" || ttl == "expires in 8m 54s",
        "TTL countdown: {ttl}"
    );
    assert!(text(&first, ".task-age").starts_with("age 1m 0"));
    assert_eq!(text(&first, ".task-poll"), "poll every 2s");
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

    let second = wait_for(&host, r#"li.task[data-task-id="import-0002"]"#).await;
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
        assert_eq!(restored.tasks().get_untracked()[0].tool, "run_pipeline");

        // Forgetting only drops tasks that have ended (t-2 still has to fetch its result).
        restored.forget("t-1");
        restored.forget("t-2");
        assert_eq!(restored.tasks().get_untracked().len(), 2);
    });
    storage::remove(&key);
}
