//! A 2025-11-25 task, end to end through the engine with what server-everything 2026.8.31
//! sends (`simulate-research-query` with `ambiguous: true`, recorded by hand with curl):
//! the task-augmented call, `tasks/get` without an outcome, `tasks/result` carrying the
//! task's elicitation on its stream, the answer in a POST of its own, the result.

use rmcp::model::{Task, TaskStatus};
use serde_json::{Value, json};

use crate::builders::answer::InputAnswer;
use crate::builders::client::{Client, RequestOptions};
use crate::builders::outgoing::OutgoingRequest;
use crate::machines::task::{Fetched, TaskBook, TaskTransmit};
use crate::readers::response::Outcome;
use crate::vocabulary::era::Era;
use crate::vocabulary::events::{ExchangeEvent, ServerRequestEvent};
use crate::vocabulary::method::McpMethod;

const TASK: &str = "af34c65144620a2a948d012f3a0edd3c";

fn legacy_client() -> Client {
    let mut client = Client::default();
    client.use_era(Era::Legacy);
    client
}

fn legacy_task(status: &str) -> Value {
    json!({"taskId": TASK, "status": status, "ttl": 300000,
        "createdAt": "2026-12-07T22:07:35.358Z", "lastUpdatedAt": "2026-12-07T22:07:37.361Z",
        "pollInterval": 1000, "statusMessage": "Gathering sources..."})
}

/// `result` as the answer to `request`, read as the app reads it; the stream's events too.
fn read<M: McpMethod>(
    request: &OutgoingRequest<M>,
    before: &[Value],
    result: Value,
) -> (Vec<ExchangeEvent>, Outcome<M::Output>, Value) {
    let id = serde_json::to_value(request.id()).expect("id");
    let mut body = String::new();
    for message in before {
        body.push_str(&format!("event: message\ndata: {message}\n\n"));
    }
    body.push_str(&format!(
        "event: message\ndata: {}\n\n",
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    ));
    let mut reader = request.reader(200, Some("text/event-stream"));
    reader.push_chunk(body.as_bytes());
    let events = reader.take_events();
    let reply = reader.finish_outcome().expect("a reply");
    (events, reply.result, reply.raw_result)
}

fn elicitation(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "elicitation/create", "params": {
        "message": "The research query \"rust\" could have multiple interpretations.",
        "requestedSchema": {"type": "object", "properties": {"interpretation": {
            "type": "string", "title": "Clarification",
            "oneOf": [{"const": "technical", "title": "Technical"},
                      {"const": "historical", "title": "Historical"}]}},
            "required": ["interpretation"]},
        "_meta": {"io.modelcontextprotocol/related-task": {"taskId": TASK}}}})
}

/// The book with the task the legacy call created, and the client that made it.
fn adopted() -> (TaskBook, Client) {
    let mut client = legacy_client();
    client.learn_task_tools(&["simulate-research-query".to_owned()]);
    let options = RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    };
    let call = client
        .call_tool(
            "simulate-research-query",
            Some(
                json!({"topic": "rust", "ambiguous": true})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ),
            &options,
        )
        .expect("a call");
    let body: Value = serde_json::from_str(call.body()).expect("JSON");
    assert_eq!(
        body["params"]["task"],
        json!({}),
        "2025-11-25 asks for a task in params"
    );
    assert!(
        body["params"].get("_meta").is_none(),
        "no 2026-07-28 extension declared"
    );
    assert!(call.asks_legacy_task());
    let (_, outcome, _) = read(&call, &[], json!({"task": legacy_task("working")}));
    let Outcome::Task(created) = outcome else {
        panic!("a task, got {outcome:?}");
    };
    assert_eq!(created.task.ttl_ms, Some(300000));
    assert_eq!(created.task.poll_interval_ms, Some(1000));
    let mut book = TaskBook::new();
    assert!(book.adopt_in(&created, "simulate-research-query", call.era(), 0));
    assert!(book.tasks()[0].tracker().is_legacy());
    (book, client)
}

#[test]
fn a_legacy_call_without_a_task_asked_for_is_read_as_a_result_even_with_a_task_field() {
    let mut client = legacy_client();
    client.learn_task_tools(&["simulate-research-query".to_owned()]);
    // Accepting a task asks for one only of a tool that runs as one (server-everything
    // refuses `params.task` on echo).
    let accepting = RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    };
    let call = client.call_tool("echo", None, &accepting).expect("a call");
    assert!(!call.body().contains("\"task\""));
    assert!(!call.asks_legacy_task());
    let (_, outcome, _) = read(
        &call,
        &[],
        json!({"content": [], "task": legacy_task("working")}),
    );
    assert!(matches!(outcome, Outcome::Complete(_)), "{outcome:?}");
}

#[test]
fn a_legacy_task_is_polled_then_its_question_fetched_answered_and_its_result_taken() {
    let (mut book, mut client) = adopted();
    // Polled at its interval with 2025-11-25's tasks/get, whose answer has no outcome.
    let Some(TaskTransmit::LegacyPoll { task_id, request }) =
        book.poll_transmit(1000, &mut client, 6)
    else {
        panic!("a legacy poll");
    };
    let (_, outcome, raw) = read(&request, &[], legacy_task("input_required"));
    let Outcome::Complete(snapshot) = outcome else {
        panic!("a state");
    };
    book.handle_status_poll(&task_id, &snapshot, Some(raw), 1010);
    assert_eq!(
        book.tasks()[0].tracker().status(),
        TaskStatus::InputRequired
    );
    // input_required: tasks/result goes out at once, and its stream carries the question.
    let Some(TaskTransmit::Fetch { request, .. }) = book.poll_transmit(1010, &mut client, 6) else {
        panic!("a fetch");
    };
    assert!(request.body().contains("\"tasks/result\""));
    assert!(
        !matches!(
            book.poll_transmit(1011, &mut client, 0),
            Some(TaskTransmit::Fetch { .. })
        ),
        "one tasks/result at a time"
    );
    let final_result =
        json!({"content": [{"type": "text", "text": "# Research Report: rust (technical)"}]});
    let (events, outcome, raw) = read(&request, &[elicitation(1)], final_result);
    let asked: Vec<ServerRequestEvent> = events
        .into_iter()
        .filter_map(|event| match event {
            ExchangeEvent::ServerRequest(asked) => Some(*asked),
            _ => None,
        })
        .collect();
    assert_eq!(asked.len(), 1);
    for asked in asked {
        book.handle_fetch_ask(TASK, asked);
    }
    assert_eq!(book.asking(), [TASK]);
    let asks = book.tasks()[0].tracker().outstanding_asks();
    assert_eq!(
        asks.len(),
        1,
        "the elicitation, shown like a 2026-07-28 task's ask"
    );
    // Answered as a JSON-RPC response to the server's request, not as tasks/update.
    book.choose(
        TASK,
        "1",
        InputAnswer::Accept(json!({"interpretation": "technical"}).as_object().cloned()),
    );
    assert!(book.send_answers(TASK));
    let Some(TaskTransmit::Answers { messages, .. }) = book.poll_transmit(1020, &mut client, 6)
    else {
        panic!("the answers");
    };
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].json["id"], 1);
    assert_eq!(messages[0].json["result"]["action"], "accept");
    assert_eq!(
        messages[0].json["result"]["content"]["interpretation"],
        "technical"
    );
    assert!(book.asking().is_empty());
    // The stream's answer is the task's result: it ends the task, with no tasks/get needed.
    let Outcome::Complete(result) = outcome else {
        panic!("a result");
    };
    book.handle_fetched(TASK, Fetched::Result(result, &raw), 5000);
    let tracker = book.tasks()[0].tracker();
    assert_eq!(tracker.status(), TaskStatus::Completed);
    assert!(tracker.is_terminal());
    assert!(tracker.result().is_some());
    assert_eq!(
        book.poll_timeout(5000),
        None,
        "nothing more to poll or fetch"
    );
}

#[test]
fn a_broken_fetch_is_tried_again_later_and_a_stored_legacy_task_resumes_as_one() {
    let (mut book, mut client) = adopted();
    let completed: Task =
        crate::vocabulary::decode::legacy_task::legacy_task(&legacy_task("completed"))
            .expect("a task");
    book.handle_status_poll(TASK, &completed, None, 10);
    assert!(book.tasks()[0].tracker().status().is_terminal());
    assert!(
        !book.tasks()[0].tracker().is_terminal(),
        "its outcome is still to fetch"
    );
    assert!(matches!(
        book.poll_transmit(10, &mut client, 0),
        Some(TaskTransmit::Fetch { .. })
    ));
    book.handle_fetched(TASK, Fetched::Unanswered, 20);
    assert!(
        book.poll_transmit(1019, &mut client, 0).is_none(),
        "not at once again"
    );
    assert!(matches!(
        book.poll_transmit(1020, &mut client, 0),
        Some(TaskTransmit::Fetch { .. })
    ));
    book.handle_fetched(TASK, Fetched::Unanswered, 1030);
    // Stored and loaded (a reload): still a legacy task, and its fetch is due again.
    let stored = serde_json::to_string(book.tasks()).expect("stored");
    let mut reloaded = TaskBook::new();
    reloaded.replace(serde_json::from_str(&stored).expect("loaded"), true);
    assert!(reloaded.tasks()[0].tracker().is_legacy());
    assert!(matches!(
        reloaded.poll_transmit(30, &mut client, 0),
        Some(TaskTransmit::Fetch { .. })
    ));
}

#[test]
fn a_legacy_cancel_is_2025_11_25_s_and_its_answer_is_the_task_s_state() {
    let (mut book, mut client) = adopted();
    book.cancel(TASK);
    let Some(TaskTransmit::LegacyCancel { request, .. }) = book.poll_transmit(0, &mut client, 0)
    else {
        panic!("a legacy cancel");
    };
    let (_, outcome, _) = read(&request, &[], legacy_task("cancelled"));
    let Outcome::Complete(task) = outcome else {
        panic!("the task's state");
    };
    assert_eq!(task.status, TaskStatus::Cancelled);
}

#[test]
fn a_pushed_status_moves_the_task_and_another_task_s_is_ignored() {
    use crate::vocabulary::events::{NotificationEvent, NotificationKind};
    let (mut book, _) = adopted();
    // As server-everything sends it on the session's GET stream.
    let note = NotificationEvent::decode(json!({"jsonrpc": "2.0",
        "method": "notifications/tasks/status", "params": legacy_task("input_required")}));
    let NotificationKind::LegacyTaskStatus(task) = note.kind else {
        panic!("read as 2025-11-25's status notification: {:?}", note.kind);
    };
    book.handle_pushed_status(&task, None, 5);
    let tracked = &book.tasks()[0];
    assert_eq!(tracked.tracker().status(), TaskStatus::InputRequired);
    assert!(tracked.last_snapshot().is_some_and(|seen| seen.pushed));
    let mut other = (*task).clone();
    other.task_id = "someone-else".into();
    other.status = TaskStatus::Completed;
    book.handle_pushed_status(&other, None, 6);
    assert_eq!(
        book.tasks()[0].tracker().status(),
        TaskStatus::InputRequired
    );
}
