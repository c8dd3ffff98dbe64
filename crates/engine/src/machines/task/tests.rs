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

/// The user ticks "ok" on the approval form.
fn approve() -> InputAnswer {
    InputAnswer::Accept(json!({"ok": true}).as_object().cloned())
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
    assert!(!tracker.is_asking());
    let key = "t1:9f86d081884c7d65"; // fastmcp-tasks rewrites keys like this
    let events = tracker.handle_snapshot(&snapshot("input_required", approval(key)), None);
    assert!(tracker.is_asking());
    assert!(events.contains(&TaskEvent::InputRequested {
        keys: vec![key.to_owned()]
    }));
    assert_eq!(tracker.outstanding(), vec![key.to_owned()]);
    assert_eq!(
        tracker.answer("approve", approve()),
        Err(TaskError::UnknownKey {
            key: "approve".into()
        })
    );
    tracker.answer(key, approve()).expect("outstanding");
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
        tracker.answer(key, approve()),
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
    assert_eq!(
        tracker.status,
        TaskStatus::Working,
        "the wire status is not taken"
    );
    // The row ends with the reason, and polling stops.
    assert_eq!(
        events[1],
        TaskEvent::Ended(ClientEnding::Mismatched {
            reported: "t2".into()
        })
    );
    assert!(tracker.is_terminal() && tracker.next_poll_at().is_none());
    assert_eq!(tracker.status_name(), "mismatched");
    assert!(
        tracker
            .ended
            .as_ref()
            .is_some_and(|e| e.explanation().contains("\"t2\""))
    );
    // Another mismatch adds a finding, not a second ending.
    let again = tracker.handle_snapshot(&other, None);
    assert_eq!(again.len(), 1);
}

fn invalid_params(message: &str) -> crate::ResponseError {
    crate::ResponseError::rpc(
        200,
        rmcp::model::ErrorData::invalid_params(message.to_owned(), None),
    )
}

#[test]
fn a_task_the_server_forgot_past_its_ttl_ends_as_expired() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), Some(5_000)), 0);
    let events = tracker.poll_refused(&invalid_params("unknown taskId"), 6_000);
    assert_eq!(events, vec![TaskEvent::Ended(ClientEnding::Expired)]);
    assert!(tracker.is_terminal() && tracker.next_poll_at().is_none());
    assert_eq!(tracker.status_name(), "expired");
    assert!(
        !tracker.is_expired(7_000),
        "ended, so no longer 'past its TTL'"
    );
    // Kept across a reload.
    let stored = serde_json::to_string(&tracker).expect("serializes");
    let restored: TaskTracker = serde_json::from_str(&stored).expect("deserializes");
    assert_eq!(restored.ended, Some(ClientEnding::Expired));
}

#[test]
fn a_task_the_server_forgot_before_its_ttl_ends_as_unknown() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), Some(60_000)), 0);
    let events = tracker.poll_refused(&invalid_params("no such task"), 6_000);
    assert!(matches!(
        &events[..],
        [TaskEvent::Ended(ClientEnding::Unknown { message })] if message == "no such task"
    ));
    assert_eq!(tracker.status_name(), "unknown");
}

#[test]
fn a_pushed_task_is_still_polled_when_its_ttl_runs_out() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), Some(5_000)), 0);
    tracker.set_pushed(true, 100);
    assert_eq!(tracker.next_poll_at(), Some(5_000), "not a minute later");
    let mut client = Client::default();
    let _ = tracker.poll(&mut client, 5_000);
    assert_eq!(tracker.next_poll_at(), Some(5_000 + MAX_POLL_MS));
    // Without a TTL, a pushed task waits the full safety-net interval.
    let mut forever = TaskTracker::from_created(&created(Some(1000), None), 0);
    forever.set_pushed(true, 100);
    assert_eq!(forever.next_poll_at(), Some(100 + MAX_POLL_MS));
}

#[test]
fn other_poll_errors_back_off_and_poll_again() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), Some(5_000)), 0);
    let internal = crate::ResponseError::rpc(
        200,
        rmcp::model::ErrorData::internal_error("busy".to_owned(), None),
    );
    assert!(tracker.poll_refused(&internal, 6_000).is_empty());
    assert_eq!(tracker.consecutive_failures, 1);
    assert!(!tracker.is_terminal());
    assert!(tracker.next_poll_at().is_some_and(|at| at > 6_000));
}

#[test]
fn the_tracker_survives_a_reload() {
    let mut tracker = TaskTracker::from_created(&created(Some(2000), Some(60_000)), 5);
    tracker.handle_snapshot(&snapshot("input_required", approval("k")), None);
    tracker
        .answer("k", InputAnswer::Decline)
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

/// A `tasks/get` result asking for two keys, written in an order that is not key order: a
/// region to pick and an approval.
fn region_and_approval() -> Value {
    json!({"resultType": "complete", "taskId": "t1", "status": "input_required",
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:05Z",
        "ttlMs": 60000, "inputRequests": {
        "region": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "Which region?", "requestedSchema": {"type": "object",
            "properties": {"region": {"type": "string", "enum": ["eu", "us"]}}}}},
        "approve": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "Approve?", "requestedSchema": {"type": "object",
            "properties": {"ok": {"type": "boolean"}}}}}}})
}

/// A tracker that took in `region_and_approval` as a `tasks/get` result.
fn asking_region_and_approval() -> TaskTracker {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    let raw = region_and_approval();
    let snapshot: GetTaskResult = serde_json::from_value(raw.clone()).expect("GetTaskResult");
    tracker.handle_snapshot(&snapshot.task, Some(raw));
    tracker
}

fn eu() -> InputAnswer {
    InputAnswer::Accept(json!({"region": "eu"}).as_object().cloned())
}

#[test]
fn one_update_carries_an_answer_for_every_outstanding_key() {
    let mut client = Client::default();
    let mut tracker = asking_region_and_approval();
    tracker.answer("region", eu()).expect("outstanding");
    assert!(
        tracker.update(&mut client).is_none(),
        "approve has no answer yet"
    );
    tracker.answer("approve", approve()).expect("outstanding");
    let update = tracker.update(&mut client).expect("every key answered");
    let body: Value = serde_json::from_str(update.body()).expect("JSON");
    assert_eq!(
        body["params"]["inputResponses"],
        json!({"region": {"action": "accept", "content": {"region": "eu"}},
            "approve": {"action": "accept", "content": {"ok": true}}})
    );
    assert!(tracker.outstanding().is_empty());
    assert!(
        !tracker.is_asking(),
        "every key answered: nothing asks any more"
    );
    assert!(
        tracker.update(&mut client).is_none(),
        "never answered twice"
    );
}

#[test]
fn awaiting_counts_the_keys_without_a_staged_answer() {
    let mut tracker = asking_region_and_approval();
    assert_eq!(tracker.awaiting(), 2);
    tracker.answer("approve", approve()).expect("outstanding");
    assert_eq!(tracker.awaiting(), 1);
}

#[test]
fn a_staged_answer_is_shown_and_can_be_taken_back_before_sending() {
    let mut client = Client::default();
    let mut tracker = asking_region_and_approval();
    tracker.answer("region", eu()).expect("outstanding");
    assert_eq!(tracker.staged("region"), Some(&eu()));
    assert_eq!(tracker.unstage("region"), Some(eu()));
    assert_eq!(tracker.staged("region"), None);
    tracker.answer("approve", approve()).expect("outstanding");
    assert!(tracker.update(&mut client).is_none());
    assert_eq!(tracker.awaiting(), 1);
}

#[test]
fn a_staged_answer_may_be_replaced_until_it_is_sent() {
    let mut tracker = asking_region_and_approval();
    tracker.answer("approve", approve()).expect("outstanding");
    tracker
        .answer("approve", InputAnswer::Decline)
        .expect("still unsent");
    assert_eq!(tracker.staged("approve"), Some(&InputAnswer::Decline));
}

#[test]
fn outstanding_asks_keep_the_servers_order_and_the_staged_keys() {
    let mut tracker = asking_region_and_approval();
    tracker.answer("region", eu()).expect("outstanding");
    let asks = tracker.outstanding_asks();
    let keys: Vec<&str> = asks.iter().map(|ask| ask.key.as_str()).collect();
    assert_eq!(keys, ["region", "approve"]);
    assert!(matches!(
        &asks[1].kind,
        InputRequestKind::Form { message, .. } if message == "Approve?"
    ));
    assert_eq!(asks[0].json["params"]["message"], "Which region?");
}

#[test]
fn new_keys_are_announced_in_the_servers_order() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    let raw = region_and_approval();
    let snapshot: GetTaskResult = serde_json::from_value(raw.clone()).expect("GetTaskResult");
    let events = tracker.handle_snapshot(&snapshot.task, Some(raw));
    assert!(events.contains(&TaskEvent::InputRequested {
        keys: vec!["region".into(), "approve".into()]
    }));
}

#[test]
fn a_pushed_snapshot_gives_the_servers_order_too() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), None), 0);
    let mut params = region_and_approval();
    if let Some(params) = params.as_object_mut() {
        params.remove("resultType");
    }
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/tasks",
        "params": params.clone()});
    let snapshot: GetTaskResult = serde_json::from_value(params).expect("a task");
    tracker.handle_snapshot(&snapshot.task, Some(notification));
    assert_eq!(tracker.outstanding(), ["region", "approve"]);
}

#[test]
fn an_answer_staged_for_a_key_no_longer_asked_is_dropped() {
    let mut client = Client::default();
    let mut tracker = asking_region_and_approval();
    tracker.answer("region", eu()).expect("outstanding");
    // The server moved on: only a fresh approval is outstanding now.
    tracker.handle_snapshot(&snapshot("input_required", approval("approve-2")), None);
    assert_eq!(tracker.staged("region"), None);
    tracker.answer("approve-2", approve()).expect("outstanding");
    let update = tracker.update(&mut client).expect("every key answered");
    let body: Value = serde_json::from_str(update.body()).expect("JSON");
    assert_eq!(
        body["params"]["inputResponses"],
        json!({"approve-2": {"action": "accept", "content": {"ok": true}}})
    );
}

#[test]
fn an_answer_that_does_not_fit_the_kind_is_not_staged() {
    let mut tracker = asking_region_and_approval();
    assert_eq!(
        tracker.answer("approve", InputAnswer::Accept(None)),
        Err(TaskError::Answer(AnswerError::MissingFormContent))
    );
    assert_eq!(tracker.staged("approve"), None);
}

#[test]
fn a_tracker_saved_before_staging_still_loads() {
    // As the previous release stored it: answers as wire JSON, no order, nothing staged.
    let stored = json!({"taskId": "t1", "status": "input_required", "statusMessage": null,
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:05Z",
        "ttlMs": 60000, "pollIntervalMs": 1000, "createdLocallyAtMs": 5,
        "nextPollAtMs": 2005, "consecutiveFailures": 0,
        "inputRequests": approval("k")["inputRequests"].clone(),
        "pendingAnswers": {}, "answered": [], "shown": ["k"], "result": null, "error": null,
        "cancelRequested": false, "pushed": false, "settled": false});
    let tracker: TaskTracker = serde_json::from_value(stored).expect("still loads");
    assert_eq!(tracker.outstanding(), ["k"]);
    assert_eq!(tracker.awaiting(), 1);
}

#[test]
fn a_snapshot_over_a_bound_ends_the_task_as_refused_and_cancels_it_once() {
    let mut tracker = TaskTracker::from_created(&created(Some(1000), Some(60_000)), 0);
    let mut client = Client::default();
    assert!(
        tracker.cancel_refused(&mut client).is_none(),
        "a task followed normally is not cancelled for the user"
    );
    let flood = crate::ResponseError::TooManyInputRequests {
        count: 10_000,
        limit: 64,
    };
    let events = tracker.poll_refused(&flood, 6_000);
    assert!(matches!(
        &events[..],
        [TaskEvent::Ended(ClientEnding::Refused { reason })] if reason.contains("10,000 inputs")
    ));
    assert!(tracker.is_terminal() && tracker.next_poll_at().is_none());
    assert_eq!(tracker.status_name(), "refused");
    let cancel = tracker
        .cancel_refused(&mut client)
        .expect("asks the server to stop it");
    let body: Value = serde_json::from_str(&cancel.body).expect("JSON body");
    assert_eq!(
        body.pointer("/params/taskId").and_then(Value::as_str),
        Some("t1")
    );
    assert!(tracker.cancel_refused(&mut client).is_none(), "only once");
    // A second refusal of an ended task does not end it again.
    assert!(tracker.poll_refused(&flood, 7_000).is_empty());
}
