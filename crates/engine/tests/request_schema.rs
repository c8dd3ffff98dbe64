//! Every request the engine builds must validate against the official 2026-07-28 JSON Schema.

use std::sync::OnceLock;

use holdbay_engine::{Client, McpMethod, OutgoingRequest};
use serde_json::{Value, json};

const SCHEMA: &str = include_str!("fixtures/mcp-2026-07-28.schema.json");

fn schema() -> &'static Value {
    static SCHEMA_VALUE: OnceLock<Value> = OnceLock::new();
    SCHEMA_VALUE.get_or_init(|| serde_json::from_str(SCHEMA).expect("the fixture is JSON"))
}

/// Validate `instance` against `$defs/<definition>`, with the whole file as the root document.
fn violations(definition: &str, instance: &Value) -> Vec<String> {
    let mut root = schema().clone();
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

#[test]
fn discover_request_validates_against_the_official_schema() {
    let request = Client::default().discover();
    assert_eq!(
        violations("DiscoverRequest", &body(&request)),
        Vec::<String>::new()
    );
}

#[test]
fn list_tools_requests_validate_against_the_official_schema() {
    let mut client = Client::default();
    for cursor in [None, Some(String::new()), Some("page-2".to_owned())] {
        let request = client.list_tools(cursor);
        assert_eq!(
            violations("ListToolsRequest", &body(&request)),
            Vec::<String>::new()
        );
    }
}

#[test]
fn the_schema_check_rejects_a_request_without_the_protocol_version() {
    // Guards the guard: a body the spec calls malformed must fail here.
    let mut broken = body(&Client::default().discover());
    let meta = broken["params"]["_meta"]
        .as_object_mut()
        .expect("_meta is an object");
    meta.remove("io.modelcontextprotocol/protocolVersion");
    assert!(!violations("DiscoverRequest", &broken).is_empty());
}
