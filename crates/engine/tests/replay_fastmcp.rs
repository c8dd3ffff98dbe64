//! Recorded exchanges with a real third-party server (FastMCP 4.1.4 + fastmcp-tasks 4.1.4,
//! see tests/peers/), replayed through the engine: it must build byte-identical requests and
//! read every answer.

mod common;

use common::{Transcript, assert_sent_as_recorded, replay};
use holdbay_engine::model::{TaskStatus, Tool};
use holdbay_engine::{
    Bounds, Client, InputAnswer, LogicalRequest, Outcome, RequestOptions, ResponseError, Step,
    TaskEvent, TaskTracker,
};
use serde_json::{Value, json};

fn load(name: &str) -> Transcript {
    Transcript::load(&format!("fastmcp/{name}.json"))
}

fn tasks() -> RequestOptions {
    RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    }
}

fn recorded_arguments(
    transcript: &Transcript,
    index: usize,
) -> Option<serde_json::Map<String, Value>> {
    transcript.exchange(index).request.body["params"]["arguments"]
        .as_object()
        .cloned()
}

#[test]
fn discover_names_the_peer() {
    let t = load("discover");
    let mut client = Client::default();
    let request = client.discover();
    assert_sent_as_recorded(&request, t.exchange(0));
    let Outcome::Complete(result) = replay(&request, t.exchange(0)).expect("discover").result
    else {
        panic!("discover is complete");
    };
    assert_eq!(
        result.server_info().map(|i| i.name).as_deref(),
        Some("holdbay-fastmcp-peer")
    );
    let extensions = result
        .capabilities
        .extensions
        .expect("extensions advertised");
    assert!(extensions.contains_key("io.modelcontextprotocol/tasks"));
}

#[test]
fn tools_list_keeps_every_valid_tool() {
    let t = load("tools_list");
    let mut client = Client::default();
    let request = client.list_tools(None);
    assert_sent_as_recorded(&request, t.exchange(0));
    let Outcome::Complete(page) = replay(&request, t.exchange(0)).expect("tools/list").result
    else {
        panic!("tools/list is complete");
    };
    let (kept, findings) = client.learn_tools(page.tools);
    let names: Vec<String> = kept
        .iter()
        .map(|tool: &Tool| tool.name.to_string())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_plain_call_completes_in_one_round() {
    let t = load("echo_call");
    let mut client = Client::default();
    let request = client
        .call_tool("echo", recorded_arguments(&t, 0), &tasks())
        .expect("call");
    assert_sent_as_recorded(&request, t.exchange(0));
    let mut call = LogicalRequest::start(&request, Bounds::default(), 0);
    let Step::Complete(result) = call.handle(replay(&request, t.exchange(0)).expect("reply"))
    else {
        panic!("echo completes");
    };
    assert_eq!(result.is_error, Some(false));
}

/// Round 1 asks, round 2 answers with the server's sealed requestState echoed exactly.
fn mrtr_round_trip(name: &str, answer: InputAnswer) -> String {
    let t = load(name);
    let mut client = Client::default();
    let first = client
        .call_tool("confirm_action", recorded_arguments(&t, 0), &tasks())
        .expect("call");
    assert_sent_as_recorded(&first, t.exchange(0));
    let mut call = LogicalRequest::start(&first, Bounds::default(), 0);
    let step = call.handle(replay(&first, t.exchange(0)).expect("round 1"));
    assert!(matches!(step, Step::NeedsInput));
    assert_eq!(call.pending_inputs(), vec!["confirm".to_owned()]);
    call.answer("confirm", answer).expect("asked for");
    let retry = call.retry(&mut client, 10).expect("round 2");
    // Byte-identical to what the real server accepted: new id, same params, exact state.
    assert_sent_as_recorded(&retry, t.exchange(1));
    let Step::Complete(result) = call.handle(replay(&retry, t.exchange(1)).expect("round 2 reply"))
    else {
        panic!("the retry completes");
    };
    assert_eq!(call.rounds().len(), 2);
    serde_json::to_value(&result.content).expect("content")[0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn mrtr_accept_echoes_the_sealed_request_state() {
    let text = mrtr_round_trip(
        "mrtr_accept",
        InputAnswer::Accept(json!({"confirm": true}).as_object().cloned()),
    );
    assert!(text.contains("confirm=True"), "{text}");
}

#[test]
fn mrtr_decline_is_sent_back_as_a_retry() {
    let text = mrtr_round_trip("mrtr_decline", InputAnswer::Decline);
    assert!(text.contains("decline"), "{text}");
}

#[test]
fn task_lifecycle_polls_answers_with_rewritten_keys_and_completes() {
    let t = load("task_lifecycle");
    let mut client = Client::default();
    let call = client
        .call_tool("deploy", recorded_arguments(&t, 0), &tasks())
        .expect("call");
    assert_sent_as_recorded(&call, t.exchange(0));
    let Outcome::Task(created) = replay(&call, t.exchange(0)).expect("task").result else {
        panic!("deploy becomes a task");
    };
    let mut tracker = TaskTracker::from_created(&created, 0);
    assert_eq!(tracker.poll_interval(), 5000);
    let mut now = 0;
    let mut completed = None;
    for index in 1..t.exchanges.len() {
        let recorded = t.exchange(index);
        match recorded.request.body["method"].as_str() {
            Some("tasks/get") => {
                now = tracker.next_poll_at().expect("still polling");
                let poll = tracker.poll(&mut client, now);
                assert_sent_as_recorded(&poll, recorded);
                let Outcome::Complete(snapshot) = replay(&poll, recorded).expect("snapshot").result
                else {
                    panic!("tasks/get is complete");
                };
                for event in tracker.handle_snapshot(&snapshot.task, None) {
                    match event {
                        TaskEvent::InputRequested { keys } => {
                            // fastmcp-tasks rewrites keys: answer exactly what it sent.
                            assert_eq!(keys.len(), 1);
                            assert!(keys[0].starts_with(tracker.task_id()), "{keys:?}");
                            tracker
                                .answer(
                                    &keys[0],
                                    InputAnswer::Accept(
                                        json!({"approved": true}).as_object().cloned(),
                                    ),
                                )
                                .expect("outstanding");
                        }
                        TaskEvent::Completed { result } => completed = Some(result),
                        _ => {}
                    }
                }
            }
            Some("tasks/update") => {
                let update = tracker.update(&mut client).expect("answers to send");
                assert_sent_as_recorded(&update, recorded);
                assert!(matches!(
                    replay(&update, recorded).expect("ack").result,
                    Outcome::Complete(_)
                ));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(tracker.status(), TaskStatus::Completed);
    assert_eq!(tracker.next_poll_at(), None);
    let result = completed.expect("the result arrived");
    assert_eq!(result["isError"], false);
    assert!(now > 0);
}

#[test]
fn task_cancel_is_acknowledged_and_the_next_poll_reports_the_outcome() {
    let t = load("task_cancel");
    let mut client = Client::default();
    let call = client
        .call_tool("sleepy", recorded_arguments(&t, 0), &tasks())
        .expect("call");
    let Outcome::Task(created) = replay(&call, t.exchange(0)).expect("task").result else {
        panic!("sleepy becomes a task");
    };
    let mut tracker = TaskTracker::from_created(&created, 0);
    let poll = tracker.poll(&mut client, 5000);
    assert_sent_as_recorded(&poll, t.exchange(1));
    let cancel = tracker.cancel(&mut client);
    assert_sent_as_recorded(&cancel, t.exchange(2));
    assert!(matches!(
        replay(&cancel, t.exchange(2)).expect("ack").result,
        Outcome::Complete(_)
    ));
    let poll = tracker.poll(&mut client, 10_000);
    let Outcome::Complete(snapshot) = replay(&poll, t.exchange(3)).expect("snapshot").result else {
        panic!("tasks/get is complete");
    };
    let events = tracker.handle_snapshot(&snapshot.task, None);
    assert!(events.contains(&TaskEvent::Cancelled));
    assert!(tracker.is_terminal());
}

#[test]
fn server_errors_are_read_as_errors() {
    let t = load("errors");
    let mut client = Client::default();
    // An unknown tool: this server answers with an isError result (not -32602).
    let unknown = client
        .call_tool("no_such_tool", recorded_arguments(&t, 0), &tasks())
        .expect("call");
    assert_sent_as_recorded(&unknown, t.exchange(0));
    let Outcome::Complete(result) = replay(&unknown, t.exchange(0)).expect("reply").result else {
        panic!("complete");
    };
    assert_eq!(result.is_error, Some(true));
    // Missing Mcp-Name (the engine never omits it; the recording did on purpose).
    let echo = client
        .call_tool("echo", recorded_arguments(&t, 1), &tasks())
        .expect("call");
    let error = replay(&echo, t.exchange(1)).expect_err("-32020");
    assert!(
        matches!(
            error,
            ResponseError::Rpc {
                code: -32020,
                status: 400,
                ..
            }
        ),
        "{error}"
    );
    // An unsupported version.
    let list = client.list_tools(None);
    let error = replay(&list, t.exchange(2)).expect_err("-32022");
    assert_eq!(error.rpc_code(), Some(-32022));
}
