//! Every request the engine builds must validate against the official JSON Schemas: the
//! 2026-07-28 core schema, and the tasks extension's schema for `tasks/*`.

use std::sync::OnceLock;

use holdbay_engine::model::{GetPromptRequestParams, ReadResourceRequestParams};
use holdbay_engine::{
    Bounds, Client, GetPrompt, InputAnswer, ListPrompts, ListResources, ListenFilter,
    LogicalRequest, McpMethod, OutgoingRequest, ReadResource, RequestOptions,
};
use serde_json::{Value, json};

const CORE: &str = include_str!("fixtures/mcp-2026-07-28.schema.json");
const TASKS: &str = include_str!("fixtures/mcp-ext-tasks.schema.json");

fn parsed(text: &'static str, cell: &'static OnceLock<Value>) -> &'static Value {
    cell.get_or_init(|| serde_json::from_str(text).expect("the fixture is JSON"))
}

fn core() -> &'static Value {
    static CELL: OnceLock<Value> = OnceLock::new();
    parsed(CORE, &CELL)
}

fn tasks() -> &'static Value {
    static CELL: OnceLock<Value> = OnceLock::new();
    parsed(TASKS, &CELL)
}

/// Validate `instance` against `$defs/<definition>`, with the whole file as the root document.
fn violations(schema: &Value, definition: &str, instance: &Value) -> Vec<String> {
    let mut root = schema.clone();
    root["$ref"] = json!(format!("#/$defs/{definition}"));
    let validator = jsonschema::validator_for(&root).expect("the official schema compiles");
    validator
        .iter_errors(instance)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect()
}

fn body<M: McpMethod>(request: &OutgoingRequest<M>) -> Value {
    serde_json::from_str(request.body()).expect("the engine builds JSON")
}

fn assert_valid<M: McpMethod>(schema: &Value, definition: &str, request: &OutgoingRequest<M>) {
    assert_eq!(
        violations(schema, definition, &body(request)),
        Vec::<String>::new(),
        "{definition}"
    );
}

#[test]
fn discover_request_validates_against_the_official_schema() {
    assert_valid(core(), "DiscoverRequest", &Client::default().discover());
}

#[test]
fn list_tools_requests_validate_against_the_official_schema() {
    let mut client = Client::default();
    for cursor in [None, Some(String::new()), Some("page-2".to_owned())] {
        assert_valid(core(), "ListToolsRequest", &client.list_tools(cursor));
    }
}

#[test]
fn every_list_page_request_validates_against_the_official_schema() {
    let mut client = Client::default();
    for cursor in [None, Some(String::new()), Some("page-2".to_owned())] {
        let prompts = client.list_page::<ListPrompts>(cursor.clone());
        assert_valid(core(), "ListPromptsRequest", &prompts);
        let resources = client.list_page::<ListResources>(cursor.clone());
        assert_valid(core(), "ListResourcesRequest", &resources);
        let templates = client.list_resource_templates(cursor);
        assert_valid(core(), "ListResourceTemplatesRequest", &templates);
    }
}

#[test]
fn tool_calls_and_their_retries_validate() {
    let mut client = Client::default();
    let args = json!({"repo": "octo/hello", "count": 3});
    for accept_task in [false, true] {
        let options = RequestOptions {
            accept_task,
            ..RequestOptions::default()
        };
        let first = client
            .call_tool("create_issue", args.as_object().cloned(), &options)
            .expect("call");
        assert_valid(core(), "CallToolRequest", &first);
        // Round 2, through the engine's MRTR path.
        let mut call = LogicalRequest::start(&first, Bounds::default(), 0);
        let wire = json!({"jsonrpc": "2.0", "id": body(&first)["id"], "result": {
            "resultType": "input_required", "requestState": "opaque\"state",
            "inputRequests": {"details": {"method": "elicitation/create", "params": {
                "message": "More?", "requestedSchema": {"type": "object", "properties": {
                    "severity": {"type": "string", "enum": ["low", "high"]}}}}}}}});
        let mut reader = first.reader(200, Some("application/json"));
        reader.push_chunk(wire.to_string().as_bytes());
        call.handle(reader.finish_outcome().expect("input_required"));
        let content = json!({"severity": "high"}).as_object().cloned();
        call.answer("details", InputAnswer::Accept(content))
            .expect("asked");
        assert_valid(
            core(),
            "CallToolRequest",
            &call.retry(&mut client, 1).expect("retry"),
        );
    }
}

#[test]
fn prompt_and_resource_requests_validate() {
    let mut client = Client::default();
    let prompt = client.request::<GetPrompt>(
        serde_json::from_value::<GetPromptRequestParams>(
            json!({"name": "review", "arguments": {"lang": "rust"}}),
        )
        .expect("params"),
        &RequestOptions::default(),
    );
    assert_valid(core(), "GetPromptRequest", &prompt);
    let read = client.request::<ReadResource>(
        ReadResourceRequestParams::new("file:///notes.txt"),
        &RequestOptions::default(),
    );
    assert_valid(core(), "ReadResourceRequest", &read);
}

#[test]
fn listen_requests_validate() {
    let mut client = Client::default();
    let filter = ListenFilter {
        tools_list_changed: Some(true),
        ..ListenFilter::tasks(["t1".to_owned()])
    };
    assert_valid(core(), "SubscriptionsListenRequest", &client.listen(filter));
}

#[test]
fn task_requests_validate_against_the_tasks_schema() {
    let mut client = Client::default();
    assert_valid(tasks(), "GetTaskRequest", &client.get_task("task-1"));
    assert_valid(tasks(), "CancelTaskRequest", &client.cancel_task("task-1"));
    let answers = serde_json::from_value(json!({"k": {"action": "decline"}})).expect("responses");
    assert_valid(
        tasks(),
        "UpdateTaskRequest",
        &client.update_task("task-1", answers),
    );
}

#[test]
fn the_schema_check_rejects_a_request_without_the_protocol_version() {
    // Guards the guard: a body the spec calls malformed must fail here.
    let mut broken = body(&Client::default().discover());
    let meta = broken["params"]["_meta"]
        .as_object_mut()
        .expect("_meta is an object");
    meta.remove("io.modelcontextprotocol/protocolVersion");
    assert!(!violations(core(), "DiscoverRequest", &broken).is_empty());
}
