//! The example exchanges of the 2026-07-28 wire reference (§12), replayed through the engine.
//! The examples come from another client ("ExampleWebClient", its own ids), so requests are
//! compared without the id; everything else must match.

mod common;

use common::{Exchange, Transcript, assert_headers_as_recorded, replay};
use holdbay_engine::model::{ClientCapabilities, Implementation, RequestId, TaskStatus};
use holdbay_engine::{
    Bounds, Client, ClientConfig, InputAnswer, ListenEvent, ListenFilter, LogicalRequest,
    McpMethod, Outcome, OutgoingRequest, RequestOptions, Step, Subscription, TaskEvent,
    TaskTracker,
};
use serde_json::{Value, json};

fn load(name: &str) -> Transcript {
    Transcript::load(&format!("wire-reference/{name}.json"))
}

/// A client that introduces itself and declares capabilities as the examples' client does.
fn example_client(capabilities: Value) -> Client {
    Client::new(ClientConfig {
        client_info: Implementation::new("ExampleWebClient", "0.1.0"),
        capabilities: serde_json::from_value::<ClientCapabilities>(capabilities).expect("caps"),
        ..ClientConfig::default()
    })
}

fn without_id(mut body: Value) -> Value {
    if let Some(object) = body.as_object_mut() {
        object.remove("id");
    }
    body
}

/// Same body but for the id; the MCP headers the example shows, exactly.
fn assert_same_request<M: McpMethod>(ours: &OutgoingRequest<M>, recorded: &Exchange) {
    let body: Value = serde_json::from_str(ours.body()).expect("JSON");
    assert_eq!(without_id(body), without_id(recorded.request.body.clone()));
    // Host, Origin and Authorization are the browser's and the auth layer's, not the engine's.
    assert_headers_as_recorded(ours, recorded, &["host", "origin", "authorization"]);
}

/// The examples' responses carry the examples' ids; answer under our request's id.
fn with_our_id<M: McpMethod>(ours: &OutgoingRequest<M>, recorded: &Exchange) -> Exchange {
    let theirs = recorded.request.body["id"].to_string();
    let mine = serde_json::to_string(&ours.id().clone().into_json_value()).expect("id");
    Exchange {
        request: common::RecordedRequest {
            headers: recorded.request.headers.clone(),
            body: recorded.request.body.clone(),
        },
        response: common::RecordedResponse {
            status: recorded.response.status,
            content_type: recorded.response.content_type.clone(),
            body: recorded
                .response
                .body
                .replace(&format!("\"id\":{theirs}"), &format!("\"id\":{mine}")),
        },
    }
}

#[test]
fn discover_example() {
    let t = load("discover");
    let mut client = example_client(json!({"elicitation": {"form": {}, "url": {}}}));
    let request = client.discover();
    assert_same_request(&request, t.exchange(0));
    let Outcome::Complete(result) = replay(&request, t.exchange(0)).expect("discover").result
    else {
        panic!("complete");
    };
    assert_eq!(
        result.server_info().map(|i| i.name).as_deref(),
        Some("ExampleServer")
    );
    assert_eq!(result.ttl_ms, 3_600_000);
}

#[test]
fn mrtr_form_example() {
    let t = load("mrtr_form");
    let mut client = example_client(json!({"elicitation": {"form": {}, "url": {}}}));
    let arguments = t.exchange(0).request.body["params"]["arguments"]
        .as_object()
        .cloned();
    let first = client
        .call_tool("create_issue", arguments, &RequestOptions::default())
        .expect("call");
    assert_same_request(&first, t.exchange(0));
    let mut call = LogicalRequest::start(&first, Bounds::default(), 0);
    let step = call.handle(replay(&first, &with_our_id(&first, t.exchange(0))).expect("round 1"));
    assert!(matches!(step, Step::NeedsInput));
    // The user fills in what the example sent; the engine writes the same ElicitResult.
    let content =
        t.exchange(1).request.body["params"]["inputResponses"]["issue_details"]["content"]
            .as_object()
            .cloned();
    call.answer("issue_details", InputAnswer::Accept(content))
        .expect("asked");
    let retry = call.retry(&mut client, 1).expect("round 2");
    assert_same_request(&retry, t.exchange(1));
    let step = call.handle(replay(&retry, &with_our_id(&retry, t.exchange(1))).expect("round 2"));
    let Step::Complete(result) = step else {
        panic!("complete")
    };
    assert_eq!(result.structured_content, Some(json!({"issue": 42})));
}

#[test]
fn task_lifecycle_example() {
    let t = load("task_lifecycle");
    let caps =
        json!({"elicitation": {"form": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    let mut client = example_client(caps);
    let arguments = t.exchange(0).request.body["params"]["arguments"]
        .as_object()
        .cloned();
    let options = RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    };
    let call = client
        .call_tool("deploy", arguments, &options)
        .expect("call");
    assert_same_request(&call, t.exchange(0));
    let Outcome::Task(created) = replay(&call, &with_our_id(&call, t.exchange(0)))
        .expect("task")
        .result
    else {
        panic!("task");
    };
    let mut tracker = TaskTracker::from_created(&created, 0);
    let mut result = None;
    for index in 1..t.exchanges.len() {
        let recorded = t.exchange(index);
        if recorded.request.body["method"] == "tasks/update" {
            let update = tracker.update(&mut client).expect("answers");
            assert_same_request(&update, recorded);
            continue;
        }
        let now = tracker.next_poll_at().expect("polling");
        let poll = tracker.poll(&mut client, now);
        assert_same_request(&poll, recorded);
        let Outcome::Complete(snapshot) = replay(&poll, &with_our_id(&poll, recorded))
            .expect("get")
            .result
        else {
            panic!("complete");
        };
        for event in tracker.handle_snapshot(&snapshot.task, None) {
            match event {
                TaskEvent::InputRequested { keys } => {
                    assert_eq!(keys, vec!["approve_prod_1".to_owned()]);
                    tracker
                        .answer(
                            "approve_prod_1",
                            InputAnswer::Accept(json!({"approved": true}).as_object().cloned()),
                        )
                        .expect("outstanding");
                }
                TaskEvent::Completed { result: r } => result = Some(r),
                _ => {}
            }
        }
    }
    assert_eq!(tracker.status(), TaskStatus::Completed);
    assert!(result.is_some());
}

#[test]
fn cancel_example() {
    let t = load("task_cancel");
    let caps =
        json!({"elicitation": {"form": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    let mut client = example_client(caps);
    let task_id = t.exchange(0).request.body["params"]["taskId"]
        .as_str()
        .expect("id")
        .to_owned();
    let cancel = client.cancel_task(&task_id);
    assert_same_request(&cancel, t.exchange(0));
    assert!(matches!(
        replay(&cancel, &with_our_id(&cancel, t.exchange(0)))
            .expect("ack")
            .result,
        Outcome::Complete(_)
    ));
    let get = client.get_task(&task_id);
    let Outcome::Complete(snapshot) = replay(&get, &with_our_id(&get, t.exchange(1)))
        .expect("get")
        .result
    else {
        panic!("complete");
    };
    assert_eq!(snapshot.task.status(), TaskStatus::Cancelled);
}

#[test]
fn sse_response_with_progress_example() {
    let t = load("http_framing");
    let recorded = t.exchange(0);
    let token: holdbay_engine::model::ProgressToken =
        serde_json::from_value(recorded.request.body["params"]["_meta"]["progressToken"].clone())
            .expect("token");
    let mut client = example_client(json!({"elicitation": {"form": {}, "url": {}}}));
    let options = RequestOptions {
        progress_token: Some(token.clone()),
        ..RequestOptions::default()
    };
    let arguments = recorded.request.body["params"]["arguments"]
        .as_object()
        .cloned();
    let call = client
        .call_tool("execute_sql", arguments, &options)
        .expect("call");
    let decoded = common::replay_decoded(&call, &with_our_id(&call, recorded));
    let updates: Vec<_> = decoded
        .events
        .iter()
        .filter_map(|event| event.progress_for(&token))
        .collect();
    assert_eq!(updates.len(), 1);
    assert_eq!(updates[0].progress, 50.0);
    let reply = decoded.result.expect("SSE reply");
    assert!(matches!(reply.result, Outcome::Complete(_)));
}

#[test]
fn listen_stream_example() {
    let t = load("http_framing");
    let recorded = t.exchange(1);
    let filter: ListenFilter =
        serde_json::from_value(recorded.request.body["params"]["notifications"].clone())
            .expect("filter");
    let id = RequestId::String("listen-1".into());
    let mut subscription = Subscription::open_parts(
        id,
        filter.clone(),
        recorded.response.status,
        recorded.response.content_type.as_deref(),
        Default::default(),
    );
    let mut events = Vec::new();
    for chunk in recorded.response.body.as_bytes().chunks(37) {
        events.extend(subscription.handle_chunk(chunk));
    }
    events.extend(subscription.handle_end());
    assert_eq!(events.first(), Some(&ListenEvent::Acknowledged { filter }));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ListenEvent::Finding(_) | ListenEvent::Failed(_))),
        "{events:#?}"
    );
    assert!(events.len() > 1, "{events:#?}");
}
