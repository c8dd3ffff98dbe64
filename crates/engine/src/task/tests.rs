use rmcp::model::GetTaskResult;
use serde_json::{Value, json};

use super::*;

fn created(poll_interval_ms: Option<u64>, ttl_ms: Option<u64>) -> CreateTaskResult {
    serde_json::from_value(
        json!({"resultType": "task", "taskId": "t1", "status": "working",
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:00Z",
        "ttlMs": ttl_ms, "pollIntervalMs": poll_interval_ms}),
    )
    .expect("CreateTaskResult")
}

fn snapshot(status: &str, extra: Value) -> DetailedTask {
    let mut value = json!({"resultType": "complete", "taskId": "t1", "status": status,
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:05Z",
        "ttlMs": 60000});
    if let (Some(target), Some(extra)) = (value.as_object_mut(), extra.as_object()) {
        target.extend(extra.clone());
    }
    serde_json::from_value::<GetTaskResult>(value)
        .expect("GetTaskResult")
        .task
}

fn approval(key: &str) -> Value {
    json!({"inputRequests": {key: {"method": "elicitation/create", "params": {
        "mode": "form", "message": "Approve?", "requestedSchema": {"type": "object",
        "properties": {"ok": {"type": "boolean"}}}}}}})
}

#[test]
fn polls_follow_poll_interval_clamped() {
    let tracker = TaskTracker::from_created(&created(Some(5000), None), 1000);
    assert_eq!(tracker.next_poll_at(), Some(6000));
    assert!(!tracker.is_poll_due(5999) && tracker.is_poll_due(6000));
    assert_eq!(
        TaskTracker::from_created(&created(Some(1), None), 0).poll_interval(),
        MIN_POLL_MS
    );
    assert_eq!(
        TaskTracker::from_created(&created(Some(u64::MAX), None), 0).poll_interval(),
        MAX_POLL_MS
    );
    assert_eq!(
        TaskTracker::from_created(&created(None, None), 0).poll_interval(),
        DEFAULT_POLL_MS
    );
}

#[test]
fn transport_failures_back_off_and_a_snapshot_resets_it() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    tracker.poll_failed(10_000);
    assert_eq!(tracker.next_poll_at(), Some(12_000));
    tracker.poll_failed(12_000);
    assert_eq!(tracker.next_poll_at(), Some(16_000));
    for _ in 0..20 {
        tracker.poll_failed(16_000);
    }
    assert_eq!(tracker.next_poll_at(), Some(16_000 + MAX_POLL_MS));
    tracker.handle_snapshot(&snapshot("working", json!({})), None);
    assert_eq!(tracker.consecutive_failures, 0);
}

#[test]
fn input_requests_are_keyed_as_the_server_sent_them_and_answered_once() {
    let mut client = Client::default();
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    let key = "t1:9f86d081884c7d65"; // fastmcp-tasks rewrites keys like this
    let events = tracker.handle_snapshot(&snapshot("input_required", approval(key)), None);
    assert!(events.contains(&TaskEvent::InputRequested {
        keys: vec![key.to_owned()]
    }));
    assert_eq!(tracker.outstanding(), vec![key.to_owned()]);
    assert_eq!(
        tracker.answer("approve", json!({"action": "accept"})),
        Err(TaskError::UnknownKey {
            key: "approve".into()
        })
    );
    tracker
        .answer(key, json!({"action": "accept", "content": {"ok": true}}))
        .expect("outstanding");
    let update = tracker.update(&mut client).expect("an update to send");
    let body: Value = serde_json::from_str(update.body()).expect("JSON");
    assert_eq!(body["method"], "tasks/update");
    assert_eq!(body["params"]["taskId"], "t1");
    assert_eq!(body["params"]["inputResponses"][key]["content"]["ok"], true);
    // The same key in the next (eventually consistent) snapshot is neither shown nor answerable.
    let again = tracker.handle_snapshot(&snapshot("input_required", approval(key)), None);
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, TaskEvent::InputRequested { .. }))
    );
    assert_eq!(
        tracker.answer(key, json!({"action": "accept"})),
        Err(TaskError::AlreadyAnswered { key: key.into() })
    );
    assert!(tracker.update(&mut client).is_none());
}

#[test]
fn terminal_task_never_changes_status() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    let done = tracker.handle_snapshot(
        &snapshot(
            "completed",
            json!({"result": {"content": [], "resultType": "complete"}}),
        ),
        None,
    );
    assert!(
        done.iter()
            .any(|e| matches!(e, TaskEvent::Completed { .. }))
    );
    assert_eq!(tracker.next_poll_at(), None, "no polling after the end");
    let later = tracker.handle_snapshot(
        &snapshot("working", json!({})),
        Some(json!({"status": "working"})),
    );
    assert_eq!(tracker.status, TaskStatus::Completed);
    let TaskEvent::Finding(finding) = &later[0] else {
        panic!("expected a finding")
    };
    assert_eq!(finding.rule, Rule::TerminalTaskChanged);
}

#[test]
fn failed_carries_the_error_and_cancelled_nothing() {
    let mut failed = TaskTracker::from_created(&created(None, None), 0);
    let events = failed.handle_snapshot(
        &snapshot(
            "failed",
            json!({"error": {"code": -32603, "message": "boom"}}),
        ),
        None,
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, TaskEvent::Failed { error } if error["message"] == "boom"))
    );
    let mut cancelled = TaskTracker::from_created(&created(None, None), 0);
    let events = cancelled.handle_snapshot(&snapshot("cancelled", json!({})), None);
    assert!(events.contains(&TaskEvent::Cancelled));
}

#[test]
fn cancel_is_a_request_and_the_server_decides_the_outcome() {
    let mut client = Client::default();
    let mut tracker = TaskTracker::from_created(&created(None, None), 0);
    let cancel = tracker.cancel(&mut client);
    assert_eq!(cancel.method(), "tasks/cancel");
    assert!(tracker.cancel_requested && !tracker.is_terminal());
    // The race was lost: the task completed anyway.
    tracker.handle_snapshot(
        &snapshot("completed", json!({"result": {"content": []}})),
        None,
    );
    assert_eq!(tracker.status, TaskStatus::Completed);
}

#[test]
fn ttl_expiry_is_tracked_from_creation() {
    let tracker = TaskTracker::from_created(&created(None, Some(60_000)), 1_000);
    assert!(!tracker.is_expired(60_999));
    assert!(tracker.is_expired(61_000));
    assert!(!TaskTracker::from_created(&created(None, None), 0).is_expired(u64::MAX));
}

#[test]
fn a_snapshot_for_another_task_is_a_finding() {
    let mut tracker = TaskTracker::from_created(&created(None, None), 0);
    let mut other = snapshot("completed", json!({"result": {"content": []}}));
    other.task.task_id = "t2".into();
    let events = tracker.handle_snapshot(&other, None);
    assert!(matches!(&events[0], TaskEvent::Finding(f) if f.rule == Rule::TaskMismatch));
    assert_eq!(tracker.status, TaskStatus::Working);
}

#[test]
fn the_tracker_survives_a_reload() {
    let mut tracker = TaskTracker::from_created(&created(Some(2000), Some(60_000)), 5);
    tracker.handle_snapshot(&snapshot("input_required", approval("k")), None);
    tracker
        .answer("k", json!({"action": "decline"}))
        .expect("outstanding");
    let stored = serde_json::to_string(&tracker).expect("serializes");
    let restored: TaskTracker = serde_json::from_str(&stored).expect("deserializes");
    assert_eq!(restored, tracker);
}

#[test]
fn a_listen_stream_slows_polling_and_a_drop_restores_it() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    tracker.set_pushed(true, 100);
    assert_eq!(tracker.next_poll_at(), Some(100 + MAX_POLL_MS));
    tracker.set_pushed(false, 5000);
    assert!(tracker.is_poll_due(5000), "the fallback polls at once");
    assert_eq!(tracker.poll_interval(), 1000);
}

#[test]
fn a_task_created_already_completed_is_fetched_once() {
    let mut done = created(Some(1000), None);
    done.task.status = TaskStatus::Completed;
    let mut tracker = TaskTracker::from_created(&done, 0);
    assert!(!tracker.is_terminal(), "its result is not known yet");
    assert_eq!(tracker.next_poll_at(), Some(1000));
    let events = tracker.handle_snapshot(
        &snapshot(
            "completed",
            json!({"result": {"content": [], "resultType": "complete"}}),
        ),
        None,
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, TaskEvent::Completed { .. }))
    );
    assert!(tracker.is_terminal() && tracker.result.is_some());
    assert_eq!(tracker.next_poll_at(), None);
}

#[test]
fn a_snapshot_for_another_task_does_not_reset_the_backoff() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    tracker.poll_failed(0);
    let mut other = snapshot("working", json!({}));
    other.task.task_id = "t2".into();
    tracker.handle_snapshot(&other, None);
    assert_eq!(tracker.consecutive_failures, 1);
}
