use serde_json::json;

use super::*;
use crate::builders::client::Client;
use crate::vocabulary::events::{AnswerKind, ExchangeEvent, NotificationKind};
use rmcp::model::DiscoverResult;

fn open(filter: ListenFilter) -> (Subscription, RequestId) {
    let mut client = Client::default();
    let request = client.listen(filter);
    let id = request.id().clone();
    (
        Subscription::open(&request, 200, Some("text/event-stream")),
        id,
    )
}

fn event(message: Value) -> Vec<u8> {
    format!("event: message\ndata: {message}\n\n").into_bytes()
}

fn ack(id: &RequestId, filter: Value) -> Vec<u8> {
    event(
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
        "params": {"notifications": filter, "_meta": {META_SUBSCRIPTION_ID: id.clone().into_json_value()}}}),
    )
}

fn task_note(id: &RequestId, task_id: &str, status: &str) -> Vec<u8> {
    event(
        json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": {
        "taskId": task_id, "status": status, "createdAt": "2026-11-29T10:00:00Z",
        "lastUpdatedAt": "2026-11-29T10:00:01Z", "ttlMs": null,
        "_meta": {META_SUBSCRIPTION_ID: id.clone().into_json_value()}}}),
    )
}

#[test]
fn acknowledgement_comes_first_then_task_snapshots_flow() {
    let (mut sub, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    let events = sub.handle_chunk(&ack(&id, json!({"taskIds": ["t1"]})));
    assert_eq!(
        events,
        vec![ListenEvent::Acknowledged {
            filter: ListenFilter::tasks(["t1".to_owned()])
        }]
    );
    let events = sub.handle_chunk(&task_note(&id, "t1", "working"));
    assert!(
        matches!(&events[0], ListenEvent::TaskSnapshot { task, .. } if task.task.task_id == "t1")
    );
}

#[test]
fn a_notification_before_the_acknowledgement_is_a_finding() {
    let (mut sub, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    let events = sub.handle_chunk(&task_note(&id, "t1", "working"));
    assert!(
        matches!(&events[0], ListenEvent::Finding(f) if f.rule == Rule::ListenNotAcknowledgedFirst)
    );
}

#[test]
fn a_narrowed_filter_is_noted_and_honoured() {
    let (mut sub, id) = open(ListenFilter {
        tools_list_changed: Some(true),
        task_ids: Some(vec!["t1".into()]),
        ..ListenFilter::default()
    });
    let events = sub.handle_chunk(&ack(&id, json!({"toolsListChanged": true})));
    assert!(matches!(&events[0], ListenEvent::Finding(f) if f.rule == Rule::ListenFilterNarrowed));
    // Task updates were not agreed to: a pushed one is unrequested.
    let events = sub.handle_chunk(&task_note(&id, "t1", "working"));
    assert!(
        matches!(&events[0], ListenEvent::Finding(f) if f.rule == Rule::ListenUnrequestedNotification)
    );
}

#[test]
fn messages_for_another_subscription_are_not_acted_on() {
    let (mut sub, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    sub.handle_chunk(&ack(&id, json!({"taskIds": ["t1"]})));
    let other = RequestId::Number(999);
    let events = sub.handle_chunk(&task_note(&other, "t1", "completed"));
    assert!(
        matches!(&events[0], ListenEvent::Finding(f) if f.rule == Rule::ListenWrongSubscriptionId)
    );
    assert_eq!(events.len(), 1);
}

#[test]
fn the_graceful_result_ends_the_stream_and_a_bare_close_is_a_drop() {
    let (mut sub, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    sub.handle_chunk(&ack(&id, json!({"taskIds": ["t1"]})));
    let end = event(
        json!({"jsonrpc": "2.0", "id": id.clone().into_json_value(), "result": {
        "resultType": "complete", "_meta": {META_SUBSCRIPTION_ID: id.clone().into_json_value()}}}),
    );
    assert_eq!(sub.handle_chunk(&end), vec![ListenEvent::Ended]);
    assert!(sub.handle_end().is_empty());

    let (mut dropped, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    dropped.handle_chunk(&ack(&id, json!({"taskIds": ["t1"]})));
    assert_eq!(dropped.handle_end(), vec![ListenEvent::Dropped]);
}

#[test]
fn a_json_error_instead_of_a_stream_fails_the_listen() {
    let mut client = Client::default();
    let request = client.listen(ListenFilter::tasks(["t1".to_owned()]));
    let mut sub = Subscription::open(&request, 400, Some("application/json"));
    let body = json!({"jsonrpc": "2.0", "id": request.id().clone().into_json_value(),
        "error": {"code": -32021, "message": "tasks extension required"}});
    sub.handle_chunk(body.to_string().as_bytes());
    let events = sub.handle_end();
    assert!(matches!(
        &events[0],
        ListenEvent::Failed(ResponseError::Rpc { code: -32021, .. })
    ));
}

#[test]
fn list_changed_is_delivered_when_subscribed() {
    let (mut sub, id) = open(ListenFilter {
        tools_list_changed: Some(true),
        ..ListenFilter::default()
    });
    sub.handle_chunk(&ack(&id, json!({"toolsListChanged": true})));
    let note = event(
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
        "params": {"_meta": {META_SUBSCRIPTION_ID: id.clone().into_json_value()}}}),
    );
    assert_eq!(sub.handle_chunk(&note), vec![ListenEvent::ToolsListChanged]);
}

#[test]
fn task_push_needs_the_tasks_extension_advertised() {
    let discovered = |capabilities: Value| -> DiscoverResult {
        serde_json::from_value(json!({"resultType": "complete",
            "supportedVersions": ["2026-07-28"], "capabilities": capabilities,
            "ttlMs": 0, "cacheScope": "private"}))
        .expect("a discover result")
    };
    assert!(ListenFilter::server_offers_task_push(&discovered(
        json!({"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
    )));
    assert!(!ListenFilter::server_offers_task_push(&discovered(
        json!({"tools": {}})
    )));
    assert!(!ListenFilter::server_offers_task_push(&discovered(
        json!({"extensions": {"io.example/other": {}}})
    )));
}

#[test]
fn a_missing_listen_method_is_a_refusal_but_a_drop_is_not() {
    let refusal = |status: u16, body: &str| {
        let mut client = Client::default();
        let request = client.listen(ListenFilter::tasks(["t1".to_owned()]));
        let mut subscription = Subscription::open(&request, status, Some("application/json"));
        let mut events = subscription.handle_chunk(body.as_bytes());
        events.extend(subscription.handle_end());
        events.iter().any(ListenEvent::is_refusal)
    };
    let id = 1; // the first request id of a fresh client
    let not_found =
        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"no"}}}}"#);
    assert!(refusal(200, &not_found));
    assert!(refusal(404, ""));
    let busy =
        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"busy"}}}}"#);
    assert!(
        !refusal(200, &busy),
        "an internal error may pass: try again later"
    );
    assert!(!ListenEvent::Dropped.is_refusal());
}

fn event_names(events: &[ExchangeEvent]) -> Vec<&'static str> {
    events
        .iter()
        .map(|event| match event {
            ExchangeEvent::Sent(_) => "sent",
            ExchangeEvent::Responded { .. } => "responded",
            ExchangeEvent::Notification(_) => "notification",
            ExchangeEvent::ServerRequest(_) => "server request",
            ExchangeEvent::Answered(_) => "answered",
            ExchangeEvent::Finding(_) => "finding",
            ExchangeEvent::Ended(_) => "ended",
        })
        .collect()
}

#[test]
fn every_notification_on_the_stream_is_an_event_with_its_findings() {
    let (mut sub, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    sub.handle_chunk(&ack(&id, json!({"taskIds": ["t1"]})));
    sub.handle_chunk(&task_note(&id, "t1", "working"));
    sub.handle_chunk(&task_note(&RequestId::Number(999), "t1", "completed"));
    let events = sub.take_events();
    assert_eq!(
        event_names(&events),
        [
            "responded",
            "notification",
            "notification",
            "notification",
            "finding"
        ]
    );
    assert!(matches!(
        &events[1],
        ExchangeEvent::Notification(note)
            if note.kind == NotificationKind::ListenAcknowledged(ListenFilter::tasks(["t1".to_owned()]))
    ));
    assert!(matches!(
        &events[2],
        ExchangeEvent::Notification(note) if matches!(&note.kind, NotificationKind::Task(task)
            if task.task.status == rmcp::model::TaskStatus::Working)
    ));
    assert!(
        matches!(&events[4], ExchangeEvent::Finding(f) if f.rule == Rule::ListenWrongSubscriptionId)
    );
    assert!(sub.take_events().is_empty(), "taken once");
}

#[test]
fn the_graceful_end_is_a_complete_answer_and_a_drop_is_none() {
    let (mut sub, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    sub.handle_chunk(&ack(&id, json!({"taskIds": ["t1"]})));
    sub.handle_chunk(&event(
        json!({"jsonrpc": "2.0", "id": id.clone().into_json_value(), "result": {"resultType": "complete"}}),
    ));
    sub.handle_end();
    let events = sub.take_events();
    assert!(matches!(
        events.last(),
        Some(ExchangeEvent::Answered(answer)) if answer.kind == AnswerKind::Complete { tool_error: false }
    ));
    let (mut dropped, id) = open(ListenFilter::tasks(["t1".to_owned()]));
    dropped.handle_chunk(&ack(&id, json!({"taskIds": ["t1"]})));
    dropped.handle_end();
    assert!(
        !dropped
            .take_events()
            .iter()
            .any(|event| matches!(event, ExchangeEvent::Answered(_)))
    );
}

#[test]
fn a_json_error_instead_of_a_stream_is_an_error_answer() {
    let mut client = Client::default();
    let request = client.listen(ListenFilter::tasks(["t1".to_owned()]));
    let mut sub = Subscription::open(&request, 400, Some("application/json"));
    let body = json!({"jsonrpc": "2.0", "id": request.id().clone().into_json_value(),
        "error": {"code": -32021, "message": "tasks extension required"}});
    sub.handle_chunk(body.to_string().as_bytes());
    sub.handle_end();
    let events = sub.take_events();
    assert_eq!(event_names(&events), ["responded", "answered"]);
    assert!(matches!(
        &events[1],
        ExchangeEvent::Answered(answer) if matches!(answer.kind, AnswerKind::Error { code: -32021, .. })
    ));
}
