use rmcp::model::{NumberOrString, ProgressToken, RequestId, TaskStatus};
use serde_json::{Value, json};

use crate::builders::client::{Client, RequestOptions};
use crate::machines::replay::*;
use crate::vocabulary::events::*;
use crate::vocabulary::findings::Rule;
use crate::vocabulary::method_id::MethodId;

fn call(client: &mut Client, accept_task: bool) -> crate::OutgoingRequest<crate::CallTool> {
    client
        .call_tool(
            "book_table",
            json!({"party": 2}).as_object().cloned(),
            &RequestOptions {
                accept_task,
                ..RequestOptions::default()
            },
        )
        .expect("no mirrored headers")
}

fn sent(event: ExchangeEvent) -> SentRequest {
    match event {
        ExchangeEvent::Sent(sent) => *sent,
        other => panic!("not Sent: {other:?}"),
    }
}

fn answer(events: &[ExchangeEvent]) -> &AnswerEvent {
    events
        .iter()
        .find_map(|event| match event {
            ExchangeEvent::Answered(answer) => Some(answer.as_ref()),
            _ => None,
        })
        .expect("an Answered event")
}

fn read_json<M: crate::McpMethod>(
    request: &crate::OutgoingRequest<M>,
    result: Value,
) -> Vec<ExchangeEvent> {
    let id = serde_json::to_value(request.id()).expect("id");
    let mut reader = request.reader(200, Some("application/json"));
    reader.push_chunk(
        json!({"jsonrpc": "2.0", "id": id, "result": result})
            .to_string()
            .as_bytes(),
    );
    reader.finish_decoded().events
}

#[test]
fn a_sent_event_equals_the_decoded_recording_of_its_body() {
    let mut client = Client::default();
    let requests = [
        call(&mut client, false).sent_event(),
        call(&mut client, true).sent_event(),
        client.get_task("t1").sent_event(),
        client
            .update_task(
                "t1",
                [("k".to_owned(), json!({"action": "decline"}))].into(),
            )
            .sent_event(),
        client.cancel_task("t1").sent_event(),
        client
            .listen(crate::ListenFilter::tasks(["t1".to_owned()]))
            .sent_event(),
        client.discover().sent_event(),
    ];
    for event in requests {
        let live = sent(event);
        let body = serde_json::to_string(&live.request).expect("JSON");
        let recorded = SentRequest::decode(&live.method_name, &body, None);
        assert_eq!(recorded, live, "{}", live.method_name);
    }
}

#[test]
fn a_sent_tool_call_names_its_tool_and_its_workpiece() {
    let mut client = Client::default();
    let live = sent(call(&mut client, true).sent_event());
    assert_eq!(live.method, Some(MethodId::CallTool));
    assert_eq!(live.name.as_deref(), Some("book_table"));
    assert!(live.declares_tasks);
    assert_eq!(
        live.detail,
        SentDetail::Round {
            workpiece: json!({"party": 2}),
            request_state: None,
            answers: None,
            round: Some(1),
        }
    );
    assert!(!sent(call(&mut client, false).sent_event()).declares_tasks);
}

#[test]
fn a_recorded_body_that_is_not_json_is_kept_as_text() {
    let recorded = SentRequest::decode("tools/call", "\u{0}garbage", Some("echo"));
    assert_eq!(recorded.id, None);
    assert_eq!(recorded.request, Value::String("\u{0}garbage".into()));
    assert_eq!(recorded.name.as_deref(), Some("echo"));
    let unknown = SentRequest::decode("made/up", r#"{"jsonrpc":"2.0","id":3}"#, None);
    assert_eq!((unknown.method, unknown.detail), (None, SentDetail::Other));
}

#[test]
fn a_legacy_sessions_own_messages_are_told_apart() {
    let legacy = |label: &str, body: &str| SentRequest::decode(label, body, None).detail;
    // The client's answer to the server's request 7 (a result, or the error a refusal is).
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{}}}"#;
    let asked = RequestId::Number(7);
    assert_eq!(
        legacy("elicitation/create (answer)", answer),
        SentDetail::ServerAnswer {
            asked: asked.clone()
        }
    );
    let refused = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}"#;
    assert_eq!(
        legacy("sampling/createMessage (answer)", refused),
        SentDetail::ServerAnswer { asked }
    );
    assert_eq!(
        legacy(crate::BodilessRequest::SESSION_STREAM, ""),
        SentDetail::SessionStream
    );
    assert_eq!(
        legacy(crate::BodilessRequest::SESSION_END, ""),
        SentDetail::SessionEnd
    );
    // A request of a method this client does not know is not an answer.
    let unknown = r#"{"jsonrpc":"2.0","id":7,"method":"made/up","result":{}}"#;
    assert_eq!(legacy("made/up", unknown), SentDetail::Other);
    assert_eq!(
        legacy(crate::BodilessRequest::RESUMED_STREAM, ""),
        SentDetail::Other
    );
}

#[test]
fn notifications_are_typed_by_their_method() {
    let progress = NotificationEvent::decode(json!({"jsonrpc": "2.0",
        "method": "notifications/progress", "params": {"progressToken": "p", "progress": 2}}));
    let token = ProgressToken(NumberOrString::String("p".into()));
    assert!(
        matches!(progress.kind, NotificationKind::Progress(ref p) if p.progress_token == token)
    );
    let task = NotificationEvent::decode(json!({"jsonrpc": "2.0", "method": "notifications/tasks",
        "params": {"taskId": "t", "status": "cancelled", "createdAt": "x", "lastUpdatedAt": "x",
        "ttlMs": null}}));
    assert!(
        matches!(task.kind, NotificationKind::Task(ref t) if t.task.status == TaskStatus::Cancelled)
    );
    let broken = NotificationEvent::decode(
        json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": {"taskId": 5}}),
    );
    assert_eq!(
        broken.kind,
        NotificationKind::Other {
            method: "notifications/tasks".into()
        }
    );
    assert_eq!(broken.method(), "notifications/tasks");
}

#[test]
fn a_task_notification_on_a_request_stream_is_kept_as_received() {
    // notifications/tasks is a listen-stream notification; on a request's own stream it is
    // not read as task state (so no request's reader needs the snapshot decoders).
    let mut client = Client::default();
    let request = call(&mut client, true);
    let id = serde_json::to_value(request.id()).expect("id");
    let task = json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": {
        "taskId": "t", "status": "working", "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null}});
    let response = json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "content": [{"type": "text", "text": "done"}]}});
    let mut reader = request.reader(200, Some("text/event-stream"));
    reader.push_chunk(format!("data: {task}\n\ndata: {response}\n\n").as_bytes());
    let events = reader.finish_decoded().events;
    let notes: Vec<&NotificationEvent> = events
        .iter()
        .filter_map(|event| match event {
            ExchangeEvent::Notification(note) => Some(note.as_ref()),
            _ => None,
        })
        .collect();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].json, task);
    assert_eq!(
        notes[0].kind,
        NotificationKind::Other {
            method: "notifications/tasks".into()
        }
    );
    assert!(matches!(answer(&events).kind, AnswerKind::Complete { .. }));
}

#[test]
fn only_the_requests_own_progress_is_found() {
    let token = ProgressToken(NumberOrString::String("p1".into()));
    let note = |token: &str| {
        ExchangeEvent::Notification(Box::new(NotificationEvent::decode(
            json!({"jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": token, "progress": 50.5, "message": "half"}}),
        )))
    };
    assert_eq!(
        note("p1").progress_for(&token).map(|p| p.progress),
        Some(50.5)
    );
    assert!(note("other").progress_for(&token).is_none());
}

#[test]
fn an_input_required_answer_lists_its_asks_in_the_servers_order() {
    let mut client = Client::default();
    let request = call(&mut client, false);
    let events = read_json(
        &request,
        json!({"resultType": "input_required", "requestState": "s1", "inputRequests": {
            "zeta": {"method": "elicitation/create", "params": {"mode": "url",
                "message": "Sign in", "url": "https://example.com/login"}},
            "alpha": {"method": "elicitation/create", "params": {"mode": "form",
                "message": "When?", "requestedSchema": {"type": "object",
                "properties": {"b": {"type": "string"}, "a": {"type": "boolean"}}}}},
            "roots": {"method": "roots/list"}}}),
    );
    let AnswerKind::InputRequired {
        asks,
        request_state,
    } = &answer(&events).kind
    else {
        panic!("{events:?}")
    };
    assert_eq!(request_state.as_deref(), Some("s1"));
    let keys: Vec<&str> = asks.iter().map(|ask| ask.key.as_str()).collect();
    assert_eq!(keys, ["zeta", "alpha", "roots"]);
    assert_eq!(asks[0].kind.mode_name(), Some("url"));
    let InputRequestKind::Form { schema, .. } = &asks[1].kind else {
        panic!("{:?}", asks[1])
    };
    let order: Vec<&String> = schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .collect();
    assert_eq!(order, ["b", "a"], "the schema is the server's JSON");
    assert_eq!(asks[2].kind, InputRequestKind::Roots);
    assert_eq!(asks[2].json, json!({"method": "roots/list"}));
}

#[test]
fn a_tool_error_is_a_complete_answer_that_says_so() {
    let mut client = Client::default();
    let events = read_json(
        &call(&mut client, false),
        json!({"resultType": "complete", "content": [], "isError": true}),
    );
    assert_eq!(
        answer(&events).kind,
        AnswerKind::Complete { tool_error: true }
    );
}

#[test]
fn a_tasks_get_answer_is_a_typed_snapshot() {
    let mut client = Client::default();
    let events = read_json(
        &client.get_task("t1"),
        json!({"resultType": "complete", "taskId": "t1", "status": "failed",
            "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null,
            "error": {"code": -32603, "message": "boom"}}),
    );
    let AnswerKind::TaskSnapshot(task) = &answer(&events).kind else {
        panic!("{events:?}")
    };
    assert_eq!(task.task.status, TaskStatus::Failed);
}

#[test]
fn invalid_answers_are_invalid_with_their_finding() {
    let mut client = Client::default();
    for (result, rule) in [
        (
            json!({"resultType": "streaming", "content": []}),
            Rule::UnknownResultType,
        ),
        (
            json!({"resultType": "input_required", "inputRequests": {"k": {"method": "telepathy/read"}}}),
            Rule::MalformedResult,
        ),
        (
            json!({"resultType": "task", "taskId": "t", "status": "working"}),
            Rule::TaskWithoutExtension,
        ),
    ] {
        let events = read_json(&call(&mut client, false), result.clone());
        assert!(
            matches!(answer(&events).kind, AnswerKind::Invalid { .. }),
            "{result}: {events:?}"
        );
        assert!(
            events
                .iter()
                .any(|event| matches!(event, ExchangeEvent::Finding(f) if f.rule == rule)),
            "{result}: {events:?}"
        );
    }
}

#[test]
fn garbage_is_an_invalid_answer_without_a_message() {
    let request = Client::default().discover();
    let mut reader = request.reader(200, Some("application/json"));
    reader.push_chunk(b"{not json");
    let decoded = reader.finish_decoded();
    let answer = answer(&decoded.events);
    assert!(matches!(answer.kind, AnswerKind::Invalid { .. }));
    assert_eq!(answer.json, Value::Null);
    assert!(decoded.result.is_err());
}

#[test]
fn an_rpc_error_is_an_error_answer_with_the_message() {
    let request = Client::default().discover();
    let mut reader = request.reader(404, Some("application/json"));
    reader.push_chunk(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
    );
    let events = reader.finish_decoded().events;
    assert_eq!(
        answer(&events).kind,
        AnswerKind::Error {
            code: -32601,
            message: "Method not found".into()
        }
    );
    assert!(answer(&events).outcome_json().is_some());
}

/// A `tasks/get` for `t1` recorded whole: answered 200 at 4 ms, its body in `chunks`, ended at
/// 7 ms.
fn task_get_recording<'a>(
    request_body: &'a str,
    content_type: &'a str,
    chunks: &'a [(f64, &'a [u8])],
) -> RecordedExchange<'a> {
    RecordedExchange {
        method: "tasks/get",
        name: Some("t1"),
        request_body,
        status: Some(200),
        content_type: Some(content_type),
        responded_after: Some(4.0),
        chunks,
        finished_after: Some(7.0),
        error: None,
        stopped: false,
        round: None,
    }
}

#[test]
fn a_recorded_exchange_ends_with_ended_after_its_answer() {
    let mut client = Client::default();
    let request = client.get_task("t1");
    let body = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}}"#;
    let chunks: [(f64, &[u8]); 2] = [(5.0, &body[..20]), (6.0, &body[20..])];
    let events = decode_recorded(&task_get_recording(
        request.body(),
        "application/json",
        &chunks,
    ));
    let shape: Vec<(f64, &'static str)> = events
        .iter()
        .map(|timed| {
            let name = match &timed.event {
                ExchangeEvent::Sent(_) => "sent",
                ExchangeEvent::Responded { .. } => "responded",
                ExchangeEvent::Notification(_) => "notification",
                ExchangeEvent::ServerRequest(_) => "server request",
                ExchangeEvent::Answered(_) => "answered",
                ExchangeEvent::Finding(_) => "finding",
                ExchangeEvent::Ended(_) => "ended",
            };
            (timed.after_ms, name)
        })
        .collect();
    assert_eq!(
        shape,
        [
            (0.0, "sent"),
            (4.0, "responded"),
            (7.0, "answered"),
            (7.0, "ended")
        ]
    );
}

#[test]
fn a_recording_read_by_its_own_method_reader_gives_the_general_decode() {
    let mut client = Client::default();
    let request = client.get_task("t1");
    let body = br#"data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}

data: {"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}}

"#;
    let chunks: [(f64, &[u8]); 2] = [(5.0, &body[..40]), (6.0, &body[40..])];
    let recorded = task_get_recording(request.body(), "text/event-stream", &chunks);
    let whole = decode_recorded(&recorded);
    assert!(
        whole.len() >= 5,
        "sent, responded, notification, answer, ended"
    );
    assert_eq!(decode_recorded_as::<crate::GetTask>(&recorded), Some(whole));
    assert_eq!(decode_recorded_as::<crate::ListTools>(&recorded), None);
}

#[test]
fn a_stopped_recording_is_not_read_to_an_answer() {
    let events = decode_recorded(&RecordedExchange {
        method: "tools/call",
        name: Some("slow"),
        request_body: r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}"#,
        status: Some(200),
        content_type: Some("text/event-stream"),
        responded_after: Some(1.0),
        chunks: &[],
        finished_after: Some(2.0),
        error: Some("the request to http://x was aborted"),
        stopped: true,
        round: None,
    });
    assert!(
        !events
            .iter()
            .any(|timed| matches!(timed.event, ExchangeEvent::Answered(_)))
    );
    assert!(matches!(
        events.last().map(|timed| &timed.event),
        Some(ExchangeEvent::Ended(EndEvent { stopped: true, .. }))
    ));
}

#[test]
fn an_unknown_method_is_read_with_neutral_rules() {
    let events = decode_recorded(&RecordedExchange {
        method: "made/up",
        name: None,
        request_body: r#"{"jsonrpc":"2.0","id":9,"method":"made/up"}"#,
        status: Some(200),
        content_type: Some("application/json"),
        responded_after: None,
        chunks: &[(1.0, br#"{"jsonrpc":"2.0","id":9,"result":{"anything":1}}"#)],
        finished_after: Some(2.0),
        error: None,
        stopped: false,
        round: None,
    });
    let events: Vec<ExchangeEvent> = events.into_iter().map(|timed| timed.event).collect();
    assert_eq!(
        answer(&events).kind,
        AnswerKind::Complete { tool_error: false }
    );
    assert!(events.iter().any(
        |event| matches!(event, ExchangeEvent::Finding(f) if f.rule == Rule::ResultTypeMissing)
    ));
}

#[test]
fn each_round_of_a_logical_request_carries_its_number_live_and_recorded() {
    let mut client = Client::default();
    let first = call(&mut client, false);
    let mut logical = crate::LogicalRequest::start(&first, crate::Bounds::default(), 0);
    assert_eq!(sent(first.sent_event()).round(), Some(1));
    let id = serde_json::to_value(first.id()).expect("id");
    let mut reader = first.reader(200, Some("application/json"));
    reader.push_chunk(
        json!({"jsonrpc": "2.0", "id": id, "result": {
            "resultType": "input_required", "requestState": "s1",
            "inputRequests": {"confirm": {"method": "elicitation/create", "params": {
                "mode": "form", "message": "Sure?", "requestedSchema": {"type": "object",
                "properties": {}}}}}}})
        .to_string()
        .as_bytes(),
    );
    let reply = reader.finish_outcome().expect("a reply");
    logical.handle(reply);
    logical
        .answer(
            "confirm",
            crate::InputAnswer::Accept(json!({}).as_object().cloned()),
        )
        .expect("asked");
    let second = logical.retry(&mut client, 1).expect("a second round");
    let live = sent(second.sent_event());
    assert_eq!(second.round(), Some(2));
    assert_eq!(live.round(), Some(2));
    assert_eq!(live.id, Some(second.id().clone()));
    // The wire does not carry the number: a recording gets it back from the log, else
    // the retry's number is unknown (never guessed as 1).
    let body = serde_json::to_string(&live.request).expect("JSON");
    let recorded = SentRequest::decode_round(&live.method_name, &body, None, Some(2));
    assert_eq!(recorded, live);
    assert_eq!(
        SentRequest::decode(&live.method_name, &body, None).round(),
        None
    );
}

#[test]
fn answers_are_labelled_by_result_type_or_error_code() {
    let mut client = Client::default();
    let request = call(&mut client, false);
    let complete = read_json(&request, json!({"content": []}));
    assert_eq!(answer(&complete).kind.result_type(), Some("complete"));
    assert_eq!(answer(&complete).kind.label(), "complete");
    let tool_error = read_json(&request, json!({"content": [], "isError": true}));
    assert_eq!(answer(&tool_error).kind.label(), "complete · isError");
    assert!(answer(&tool_error).kind.is_failure());
    let paused = read_json(
        &request,
        json!({"resultType": "input_required", "requestState": "s"}),
    );
    assert_eq!(answer(&paused).kind.label(), "input_required");
    let error = AnswerKind::Error {
        code: -32602,
        message: "bad".into(),
    };
    assert_eq!(error.label(), "error -32602");
    assert_eq!(error.result_type(), None);
}
