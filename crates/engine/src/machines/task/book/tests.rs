//! The book driven as the app drives it, with the time as an argument.

use rmcp::model::{DetailedTask, ErrorCode, ErrorData, GetTaskResult};
use serde_json::{Value, json};

use super::*;
use crate::builders::client::Client;
use crate::machines::listen::ListenEvent;
use crate::machines::task::{MAX_POLL_MS, MAX_POLLS_IN_FLIGHT};
use crate::readers::response::ResponseError;
use crate::vocabulary::listen_params::ListenFilter;

fn created(task_id: &str, poll_interval_ms: u64) -> CreateTaskResult {
    serde_json::from_value(json!({"resultType": "task", "taskId": task_id,
        "status": "working", "createdAt": "2026-11-29T10:00:00Z",
        "lastUpdatedAt": "2026-11-29T10:00:00Z", "ttlMs": 600000,
        "pollIntervalMs": poll_interval_ms}))
    .expect("CreateTaskResult")
}

fn snapshot(task_id: &str, status: &str, extra: Value) -> DetailedTask {
    let mut value = json!({"resultType": "complete", "taskId": task_id, "status": status,
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:05Z",
        "ttlMs": 600000});
    if let (Some(target), Some(extra)) = (value.as_object_mut(), extra.as_object()) {
        target.extend(extra.clone());
    }
    serde_json::from_value::<GetTaskResult>(value)
        .expect("GetTaskResult")
        .task
}

fn book_with(ids: &[&str], poll_interval_ms: u64) -> TaskBook {
    let mut book = TaskBook::new();
    for id in ids {
        assert!(book.adopt(&created(id, poll_interval_ms), "run_pipeline", 0));
    }
    book.take_changes();
    book.take_durability();
    book
}

fn polled(transmit: Option<TaskTransmit>) -> String {
    match transmit {
        Some(TaskTransmit::Poll { task_id, .. }) => task_id,
        other => panic!("expected a poll, got {other:?}"),
    }
}

#[test]
fn polls_go_out_when_due_and_not_while_one_is_in_flight() {
    let mut client = Client::default();
    let mut book = book_with(&["t1"], 1000);
    assert!(
        book.poll_transmit(999, &mut client, 6).is_none(),
        "not due yet"
    );
    assert_eq!(book.poll_timeout(0), Some(1000));
    assert_eq!(polled(book.poll_transmit(1000, &mut client, 6)), "t1");
    assert!(
        book.poll_transmit(5000, &mut client, 6).is_none(),
        "in flight"
    );
    assert_eq!(book.poll_timeout(5000), None, "the reply wakes the caller");
    book.handle_poll_snapshot("t1", &snapshot("t1", "working", json!({})), None, 1200);
    assert_eq!(book.poll_timeout(1200), Some(2000));
    let seen = book.task("t1").and_then(TrackedTask::last_snapshot);
    assert_eq!(
        seen,
        Some(SnapshotSeen {
            at_ms: 1200,
            pushed: false
        })
    );
    assert_eq!(book.take_durability(), Some(SaveNeeded { urgent: false }));
}

#[test]
fn the_callers_pace_and_the_in_flight_cap_limit_the_polls() {
    let mut client = Client::default();
    let ids: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut book = book_with(&refs, 1000);
    assert!(
        book.poll_transmit(5000, &mut client, 0).is_none(),
        "held back"
    );
    assert_eq!(book.poll_timeout(5000), Some(1000), "due, held by the pace");
    let mut sent = 0;
    while book.poll_transmit(5000, &mut client, 100).is_some() {
        sent += 1;
    }
    assert_eq!(sent, MAX_POLLS_IN_FLIGHT);
    assert!((book.steady_per_second() - 20.0).abs() < 1e-9);
}

#[test]
fn a_completed_task_keeps_its_result_typed_and_is_saved_at_once() {
    let mut client = Client::default();
    let mut book = book_with(&["t1"], 1000);
    polled(book.poll_transmit(1000, &mut client, 6));
    let done = snapshot(
        "t1",
        "completed",
        json!({"result": {"content": [{"type": "text", "text": "done"}], "isError": false}}),
    );
    book.handle_poll_snapshot("t1", &done, None, 1100);
    let tracker = book.task("t1").map(TrackedTask::tracker).expect("t1");
    assert!(tracker.is_terminal());
    assert_eq!(tracker.result.as_ref().map(|r| r.content.len()), Some(1));
    assert_eq!(book.take_durability(), Some(SaveNeeded { urgent: true }));
    let changes = book.take_changes();
    assert!(changes.tasks.contains("t1") && changes.wake);
    assert_eq!(book.poll_timeout(1100), None, "nothing left to poll");
}

#[test]
fn a_failed_task_keeps_its_json_rpc_error_and_an_unreadable_one_is_a_finding() {
    let mut book = book_with(&["t1", "t2"], 1000);
    let failed = snapshot(
        "t1",
        "failed",
        json!({"error": {"code": -32603, "message": "boom"}}),
    );
    book.handle_poll_snapshot("t1", &failed, None, 1100);
    let error = book.task("t1").and_then(|t| t.tracker().error.clone());
    assert_eq!(
        error.map(|e| e.message.into_owned()),
        Some("boom".to_owned())
    );
    let odd = snapshot(
        "t2",
        "failed",
        json!({"error": {"message": ["not", "text"]}}),
    );
    book.handle_poll_snapshot("t2", &odd, None, 1100);
    let tracker = book.task("t2").map(TrackedTask::tracker).expect("t2");
    assert!(tracker.error.is_none() && tracker.unreadable_outcome.is_some());
    assert_eq!(book.take_changes().findings.len(), 1);
}

#[test]
fn answers_go_out_together_once_each_request_has_one() {
    let mut client = Client::default();
    let mut book = book_with(&["t1"], 1000);
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
    let ask = json!({"method": "elicitation/create", "params": {"mode": "form",
        "message": "Approve?", "requestedSchema": schema}});
    let asking = snapshot(
        "t1",
        "input_required",
        json!({"inputRequests": {"a": ask.clone(), "b": ask}}),
    );
    book.handle_poll_snapshot("t1", &asking, None, 1000);
    assert_eq!(book.asking(), ["t1"]);
    assert!(book.take_changes().asking);
    let yes = || InputAnswer::Accept(json!({"ok": true}).as_object().cloned());
    book.choose("t1", "a", yes());
    assert!(!book.send_answers("t1"), "b has no answer yet");
    book.choose("t1", "nope", yes());
    assert!(
        book.task("t1").and_then(TrackedTask::note).is_some(),
        "an unknown key says so"
    );
    book.choose("t1", "b", yes());
    assert!(book.send_answers("t1"));
    assert_eq!(book.poll_timeout(1000), Some(1000), "a request waits");
    let Some(TaskTransmit::Update { task_id, request }) = book.poll_transmit(1000, &mut client, 0)
    else {
        panic!("the update goes first, whatever the pace");
    };
    assert_eq!(task_id, "t1");
    assert_eq!(request.params().input_responses.len(), 2);
    assert!(book.asking().is_empty());
    assert_eq!(book.take_durability(), Some(SaveNeeded { urgent: true }));
    book.handle_sent(TransmitKind::Update, "t1", Err("offline".into()));
    let note = book
        .task("t1")
        .and_then(TrackedTask::note)
        .map(str::to_owned);
    assert_eq!(note.as_deref(), Some("tasks/update failed: offline"));
}

#[test]
fn cancel_is_a_request_sent_once_and_never_for_an_ended_task() {
    let mut client = Client::default();
    let mut book = book_with(&["t1"], 1000);
    book.cancel("t1");
    assert_eq!(
        book.task("t1").and_then(TrackedTask::note),
        Some("Cancel requested…")
    );
    let Some(TaskTransmit::Cancel { kind, .. }) = book.poll_transmit(0, &mut client, 0) else {
        panic!("a tasks/cancel to send");
    };
    assert_eq!(kind, TransmitKind::Cancel);
    assert!(
        book.task("t1")
            .is_some_and(|t| t.tracker().cancel_requested)
    );
    book.handle_poll_snapshot("t1", &snapshot("t1", "cancelled", json!({})), None, 500);
    book.cancel("t1");
    assert!(book.poll_transmit(500, &mut client, 0).is_none());
    assert!(book.forget("t1"), "an ended task may be forgotten");
    assert!(book.take_changes().ids);
}

#[test]
fn a_live_task_is_not_forgotten_and_adopting_it_again_changes_nothing() {
    let mut book = book_with(&["t1"], 1000);
    assert!(!book.forget("t1"));
    assert!(!book.adopt(&created("t1", 1000), "run_pipeline", 10));
    assert_eq!(book.ids(), ["t1"]);
}

#[test]
fn a_task_the_server_no_longer_knows_ends_and_a_transport_failure_backs_off() {
    let mut client = Client::default();
    let mut book = book_with(&["t1", "t2"], 1000);
    polled(book.poll_transmit(1000, &mut client, 6));
    polled(book.poll_transmit(1000, &mut client, 6));
    let unknown = ResponseError::Rpc {
        status: 200,
        code: ErrorCode::INVALID_PARAMS.0,
        message: "no such task".into(),
        error: Box::new(ErrorData::invalid_params("no such task", None)),
    };
    let problem = |unreachable| PollProblem {
        unreachable,
        detail: "x".into(),
    };
    book.handle_poll_failure("t1", Some(&unknown), problem(false), 1100);
    book.handle_poll_failure("t2", None, problem(true), 1100);
    let t1 = book.task("t1").expect("t1");
    assert!(t1.tracker().ended.is_some() && t1.poll_problem().is_none());
    let t2 = book.task("t2").expect("t2");
    assert!(t2.poll_problem().is_some_and(|p| p.unreachable));
    assert_eq!(book.poll_timeout(1100), Some(1100 + 2000), "backed off");
}

#[test]
fn a_listen_stream_covers_the_live_tasks_and_polling_takes_over_when_it_ends() {
    let mut client = Client::default();
    let mut book = book_with(&["t1", "t2"], 1000);
    assert!(
        book.poll_listen(0, &mut client).is_none(),
        "not known to be offered"
    );
    book.set_push_offered(Some(true));
    let request = book.poll_listen(0, &mut client).expect("a stream to open");
    assert_eq!(
        request.params().notifications.task_ids.as_deref(),
        Some(&["t1".to_owned(), "t2".to_owned()][..])
    );
    assert!(
        book.poll_listen(0, &mut client).is_none(),
        "one stream at a time"
    );
    book.handle_listen(
        ListenEvent::Acknowledged {
            filter: ListenFilter::tasks(["t1".to_owned()]),
        },
        100,
    );
    assert!(book.is_pushing() && book.take_changes().pushing);
    assert!(book.task("t1").is_some_and(|t| t.tracker().pushed));
    assert!(
        book.task("t2").is_some_and(|t| !t.tracker().pushed),
        "not granted"
    );
    assert_eq!(book.poll_timeout(100), Some(1000), "t2 is still polled");
    let pushed = snapshot("t1", "working", json!({"statusMessage": "pushed"}));
    book.handle_listen(
        ListenEvent::TaskSnapshot {
            task: pushed,
            message: json!({}),
        },
        200,
    );
    let seen = book.task("t1").and_then(TrackedTask::last_snapshot);
    assert_eq!(
        seen,
        Some(SnapshotSeen {
            at_ms: 200,
            pushed: true
        })
    );
    assert_eq!(
        book.task("t1").map(|t| t.tracker().next_poll_at()),
        Some(Some(100 + MAX_POLL_MS))
    );
    // The stream drops: polling at the server's interval at once; a broken stream reopens
    // after a wait.
    book.handle_listen(ListenEvent::Dropped, 300);
    book.listen_ended(300);
    assert!(!book.is_pushing());
    assert!(book.task("t1").is_some_and(|t| !t.tracker().pushed));
    assert_eq!(
        book.task("t1").map(|t| t.tracker().next_poll_at()),
        Some(Some(300))
    );
    assert!(book.poll_listen(300, &mut client).is_none(), "backing off");
}

#[test]
fn a_new_live_task_closes_the_stream_on_purpose_and_it_reopens_at_once() {
    let mut client = Client::default();
    let mut book = book_with(&["t1"], 1000);
    book.set_push_offered(Some(true));
    book.poll_listen(0, &mut client).expect("a stream");
    assert!(!book.poll_listen_close());
    book.adopt(&created("t2", 1000), "run_pipeline", 50);
    assert_eq!(book.poll_timeout(50), Some(50), "the stream must close");
    assert!(book.poll_listen_close());
    assert!(!book.poll_listen_close(), "told once");
    book.listen_ended(60);
    let request = book.poll_listen(60, &mut client).expect("reopened at once");
    assert_eq!(
        request
            .params()
            .notifications
            .task_ids
            .as_ref()
            .map(Vec::len),
        Some(2)
    );
}

#[test]
fn a_refused_listen_waits_for_another_server() {
    let mut client = Client::default();
    let mut book = book_with(&["t1"], 1000);
    book.set_push_offered(Some(true));
    book.poll_listen(0, &mut client).expect("a stream");
    book.listen_ended(10);
    // Broken: it comes back after the backoff.
    assert!(book.poll_timeout(10).is_some_and(|at| at <= 1000));
    let stored = book.tasks().to_vec();
    book.replace(stored.clone(), false);
    assert!(book.take_changes().all);
    book.replace(stored, true);
    assert!(
        book.poll_listen(10, &mut client).is_some(),
        "a new server: listening again"
    );
}

#[test]
fn stored_tasks_read_back_equal() {
    let mut book = book_with(&["t1"], 1000);
    let done = snapshot(
        "t1",
        "completed",
        json!({"result": {"content": [{"type": "text", "text": "done"}]}}),
    );
    book.handle_poll_snapshot("t1", &done, None, 10);
    let json = serde_json::to_string(book.tasks()).expect("stored");
    let back: Vec<TrackedTask> = serde_json::from_str(&json).expect("read back");
    assert_eq!(back, book.tasks());
    // A stored error that no longer reads as one is dropped, not the whole board.
    let mut stored: Value = serde_json::from_str(&json).expect("json");
    stored[0]["tracker"]["error"] = json!({"message": 1});
    let back: Vec<TrackedTask> = serde_json::from_value(stored).expect("still read");
    assert!(back[0].tracker().error.is_none());
}
