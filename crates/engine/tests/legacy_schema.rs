//! Every message the client writes in the legacy era validates against the official
//! 2025-11-25 JSON Schema: the handshake, requests in a session, and answers to the server's
//! own requests.

use holdbay_engine::model::{JsonObject, RequestId};
use holdbay_engine::{
    Client, Era, InputAnswer, InputRequestKind, McpMethod, OutgoingRequest, RequestOptions,
    ServerRequestEvent,
};
use serde_json::{Value, json};

const SCHEMA: &str = include_str!("fixtures/mcp-2025-11-25.schema.json");

fn violations(definition: &str, instance: &Value) -> Vec<String> {
    let mut root: Value = serde_json::from_str(SCHEMA).expect("the fixture is JSON");
    root["$ref"] = json!(format!("#/$defs/{definition}"));
    let validator = jsonschema::validator_for(&root).expect("the official schema compiles");
    validator
        .iter_errors(instance)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect()
}

fn assert_valid(definition: &str, instance: &Value) {
    assert_eq!(
        violations(definition, instance),
        Vec::<String>::new(),
        "{definition}: {instance}"
    );
}

fn body<M: McpMethod>(request: &OutgoingRequest<M>) -> Value {
    serde_json::from_str(request.body()).expect("the engine builds JSON")
}

fn legacy() -> Client {
    let mut client = Client::default();
    client.use_era(Era::Legacy);
    client
}

/// A request from the server, as received.
fn asked(id: i64, method: &str, params: Value) -> ServerRequestEvent {
    ServerRequestEvent {
        id: RequestId::Number(id),
        method: method.to_owned(),
        json: json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
    }
}

#[test]
fn the_handshake_validates() {
    let mut client = legacy();
    assert_valid("InitializeRequest", &body(&client.initialize()));
    assert_valid("InitializedNotification", &client.initialized().json);
}

#[test]
fn requests_in_a_session_validate_without_the_modern_envelope() {
    let mut client = legacy();
    assert_valid("ListToolsRequest", &body(&client.list_tools(None)));
    assert_valid(
        "ListToolsRequest",
        &body(&client.list_tools(Some("page-2".into()))),
    );
    let options = RequestOptions {
        progress_token: Some(client.progress_token()),
        ..RequestOptions::default()
    };
    let arguments: Option<JsonObject> = json!({"message": "hi"}).as_object().cloned();
    let call = client
        .call_tool("echo", arguments, &options)
        .expect("a call");
    let sent = body(&call);
    assert_valid("CallToolRequest", &sent);
    assert_eq!(
        sent["params"]["_meta"],
        json!({"progressToken": "holdbay-progress-1"})
    );
    let stop = client
        .cancelled(call.id(), "the user pressed Stop")
        .expect("a legacy session");
    assert_valid("CancelledNotification", &stop.json);
}

#[test]
fn answers_to_the_servers_requests_validate() {
    let client = legacy();
    let form = asked(
        1,
        "elicitation/create",
        json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}),
    );
    assert!(matches!(form.ask().kind, InputRequestKind::Form { .. }));
    let content = json!({"name": "Ada"}).as_object().cloned();
    for answer in [
        InputAnswer::Accept(content),
        InputAnswer::Decline,
        InputAnswer::Cancel,
    ] {
        let message = client
            .answer_server_request(&form, &answer)
            .expect("an answer");
        assert_valid("JSONRPCResultResponse", &message.json);
        assert_valid("ElicitResult", &message.json["result"]);
    }
    let url = asked(
        2,
        "elicitation/create",
        json!({"mode": "url", "message": "Sign in", "url": "https://example.com",
            "elicitationId": "e1"}),
    );
    let consent = client
        .answer_server_request(&url, &InputAnswer::Accept(None))
        .expect("consent");
    assert_valid("ElicitResult", &consent.json["result"]);
    let sampling = client
        .answer_server_request(
            &asked(
                3,
                "sampling/createMessage",
                json!({"messages": [], "maxTokens": 5}),
            ),
            &InputAnswer::Refuse,
        )
        .expect("a refusal");
    assert_valid("JSONRPCErrorResponse", &sampling.json);
    let ping = client.answer_ping(&asked(4, "ping", Value::Null));
    assert_valid("JSONRPCResultResponse", &ping.json);
    assert_valid("EmptyResult", &ping.json["result"]);
}

#[test]
fn the_task_requests_of_2025_11_25_validate() {
    let mut client = legacy();
    let options = RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    };
    client.learn_task_tools(&["simulate-research-query".to_owned()]);
    let arguments: Option<JsonObject> = json!({"topic": "rust"}).as_object().cloned();
    let call = client
        .call_tool("simulate-research-query", arguments, &options)
        .expect("a call");
    let sent = body(&call);
    assert_valid("CallToolRequest", &sent);
    assert_valid("TaskMetadata", &sent["params"]["task"]);
    assert_eq!(
        call.sent_event(),
        holdbay_engine::ExchangeEvent::Sent(Box::new(holdbay_engine::SentRequest::decode(
            "tools/call",
            call.body(),
            None
        ))),
        "the wire log shows the task asked for"
    );
    assert_valid("GetTaskRequest", &body(&client.get_legacy_task("t1")));
    assert_valid("GetTaskPayloadRequest", &body(&client.task_result("t1")));
    assert_valid("CancelTaskRequest", &body(&client.cancel_legacy_task("t1")));
}
