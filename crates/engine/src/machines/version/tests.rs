use serde_json::{Value, json};

use super::*;
use crate::builders::client::{Client, ClientConfig, RequestOptions};
use crate::vocabulary::events::ExchangeEvent;
use crate::vocabulary::method::{CallTool, Discover};

/// The answer the conformance suite's `request-metadata` mock gives every client's first
/// request: 400 and -32022, naming the very version it refused as supported.
fn mock_rejection(id: &Value, requested: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {
        "code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2026-07-28"], "requested": requested}}})
    .to_string()
}

/// What 2025-11-25 servers (the TypeScript SDK v1, e.g. server-everything 2026.8.31) answer
/// a request that did not start with `initialize` (recorded in peers.md).
const SERVER_NOT_INITIALIZED: &str = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#;

const DISCOVER_RESULT: &str = r#"{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete","ttlMs":0,"cacheScope":"private"}"#;

/// Read `body` as the answer to `request`, the way the app does.
fn answer<M: McpMethod>(
    request: &OutgoingRequest<M>,
    status: u16,
    content_type: &str,
    body: &str,
) -> (Vec<ExchangeEvent>, Result<(), ResponseError>) {
    let mut reader = request.reader(status, Some(content_type));
    reader.push_chunk(body.as_bytes());
    let decoded = reader.finish_decoded();
    (decoded.events, decoded.result.map(|_| ()))
}

fn failure<M: McpMethod>(request: &OutgoingRequest<M>, status: u16, body: &str) -> ResponseError {
    answer(request, status, "application/json", body)
        .1
        .expect_err("the answer is an error")
}

fn body_of<M: McpMethod>(request: &OutgoingRequest<M>) -> Value {
    serde_json::from_str(request.body()).expect("valid JSON")
}

fn version_header<M: McpMethod>(request: &OutgoingRequest<M>) -> Option<&str> {
    request
        .headers()
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("mcp-protocol-version"))
        .map(|(_, value)| value.as_str())
}

fn meta_version<M: McpMethod>(request: &OutgoingRequest<M>) -> Value {
    body_of(request)["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].clone()
}

fn client_speaking(versions: &[&str]) -> Client {
    Client::new(ClientConfig {
        versions: versions.iter().map(|v| (*v).to_owned()).collect(),
        ..ClientConfig::default()
    })
}

fn retry_of<M: McpMethod>(negotiated: Option<Negotiated<M>>) -> (OutgoingRequest<M>, Vec<Finding>) {
    let negotiated = negotiated.expect("a -32022 is negotiated");
    match negotiated.next {
        Negotiation::Retry(retry) => (*retry, negotiated.findings),
        Negotiation::Stop(mismatch) => panic!("expected a retry, got a stop: {mismatch}"),
    }
}

fn stop_of<M: McpMethod>(negotiated: Option<Negotiated<M>>) -> VersionMismatch {
    match negotiated.expect("a -32022 is negotiated").next {
        Negotiation::Stop(mismatch) => mismatch,
        Negotiation::Retry(retry) => panic!("expected a stop, got a retry: {}", retry.body()),
    }
}

#[test]
fn the_conformance_mock_gets_one_retry_with_a_new_id_and_the_version_everywhere() {
    let mut client = Client::default();
    let first = client.discover();
    let error = failure(&first, 400, &mock_rejection(&json!(1), "2026-07-28"));
    let (retry, findings) = retry_of(client.negotiate(&first, &error));

    assert_ne!(retry.id(), first.id(), "the retry is a new request");
    assert!(retry.is_version_retry() && !first.is_version_retry());
    assert_eq!(version_header(&retry), Some("2026-07-28"));
    assert_eq!(meta_version(&retry), "2026-07-28");
    assert_eq!(body_of(&retry)["method"], "server/discover");
    // The server refused a version its own list names: worth saying, not worth stopping.
    assert_eq!(
        findings.iter().map(|f| f.rule).collect::<Vec<_>>(),
        [Rule::VersionRejectedThoughListed]
    );
    // The retry's answer reads as any discover does.
    let reply = json!({"jsonrpc": "2.0", "id": body_of(&retry)["id"], "result":
        serde_json::from_str::<Value>(DISCOVER_RESULT).expect("json")});
    assert!(
        answer(&retry, 200, "application/json", &reply.to_string())
            .1
            .is_ok()
    );
}

#[test]
fn the_retry_takes_the_newest_version_both_sides_speak_and_keeps_it() {
    let mut client = client_speaking(&["2027-03-01", "2026-07-28", "2026-01-15"]);
    let first = client.discover();
    assert_eq!(version_header(&first), Some("2027-03-01"), "newest first");
    assert_eq!(meta_version(&first), "2027-03-01");
    let rejection = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": ["2025-11-25", "2026-01-15", "2026-07-28"], "requested": "2027-03-01"}}});
    let error = failure(&first, 400, &rejection.to_string());
    let (retry, findings) = retry_of(client.negotiate(&first, &error));
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(version_header(&retry), Some("2026-07-28"));
    assert_eq!(meta_version(&retry), "2026-07-28");
    assert_eq!(client.protocol_version(), "2026-07-28");

    // Later requests use the negotiated version, in the header and in `_meta`.
    let later = client.list_tools(None);
    assert_eq!(version_header(&later), Some("2026-07-28"));
    assert_eq!(meta_version(&later), "2026-07-28");
    assert!(!later.is_version_retry());

    // Another server starts from the newest again.
    client.reset_version();
    assert_eq!(version_header(&client.discover()), Some("2027-03-01"));
}

#[test]
fn a_second_rejection_ends_it() {
    let mut client = Client::default();
    let first = client.discover();
    let error = failure(&first, 400, &mock_rejection(&json!(1), "2026-07-28"));
    let (retry, _) = retry_of(client.negotiate(&first, &error));
    let again = failure(
        &retry,
        400,
        &mock_rejection(&body_of(&retry)["id"], "2026-07-28"),
    );
    let mismatch = stop_of(client.negotiate(&retry, &again));
    assert_eq!(
        mismatch,
        VersionMismatch::RejectedAgain {
            sent: "2026-07-28".into(),
            supported: vec!["2026-07-28".into()],
        }
    );
    assert!(
        mismatch.to_string().contains("does not retry twice"),
        "{mismatch}"
    );
}

#[test]
fn no_common_version_lists_what_the_server_supports() {
    let mut client = Client::default();
    let first = client.discover();
    let rejection = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": ["2027-01-26", "2027-06-30"], "requested": "2026-07-28"}}});
    let error = failure(&first, 400, &rejection.to_string());
    let mismatch = stop_of(client.negotiate(&first, &error));
    assert_eq!(
        mismatch,
        VersionMismatch::NoCommonVersion {
            supported: vec!["2027-01-26".into(), "2027-06-30".into()],
            ours: vec!["2026-07-28".into()],
        }
    );
    assert_eq!(
        mismatch.to_string(),
        "the server and Holdbay have no protocol version in common: the server supports \
         2027-01-26, 2027-06-30, Holdbay speaks 2026-07-28"
    );
    // Nothing was changed: the next request still carries the client's newest version.
    assert_eq!(client.protocol_version(), "2026-07-28");
}

#[test]
fn other_errors_are_not_negotiated() {
    let mut client = Client::default();
    let first = client.discover();
    for (status, code) in [(400, -32020), (400, -32021), (200, -32602), (400, -32000)] {
        let body = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "no"}});
        let error = failure(&first, status, &body.to_string());
        assert!(
            client.negotiate(&first, &error).is_none(),
            "{status} {code}"
        );
    }
    let error = failure(&first, 500, "");
    assert!(client.negotiate(&first, &error).is_none());
}

#[test]
fn a_retried_tool_call_keeps_its_arguments_and_routing_headers() {
    let mut client = Client::default();
    let arguments = json!({"region": "eu"}).as_object().cloned();
    let first = client
        .call_tool("deploy", arguments, &RequestOptions::default())
        .expect("call");
    let error = failure(&first, 400, &mock_rejection(&json!(1), "2026-07-28"));
    let (retry, _) = retry_of::<CallTool>(client.negotiate(&first, &error));
    assert_eq!(
        body_of(&retry)["params"]["arguments"],
        json!({"region": "eu"})
    );
    assert_eq!(body_of(&retry)["params"]["name"], "deploy");
    assert!(
        retry
            .headers()
            .iter()
            .any(|(name, value)| name == "Mcp-Name" && value == "deploy")
    );
}

#[test]
fn a_rejection_breaking_the_transport_rules_is_a_finding_of_its_exchange() {
    let mut client = Client::default();
    let first = client.discover();
    // The shape the demo server used to give a legacy `initialize`: HTTP 200, in-band -32022.
    let (events, result) = answer(
        &first,
        200,
        "application/json",
        &mock_rejection(&json!(1), "2026-07-28"),
    );
    assert!(result.is_err());
    let rules: Vec<Rule> = events
        .iter()
        .filter_map(|event| match event {
            ExchangeEvent::Finding(finding) => Some(finding.rule),
            _ => None,
        })
        .collect();
    assert_eq!(rules, [Rule::UnsupportedVersionStatus]);

    // No `data`: a finding, and with no version to retry with the negotiation stops.
    let bare = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version"}}"#;
    let (events, result) = answer(&first, 400, "application/json", bare);
    assert!(events.iter().any(|event| matches!(event,
        ExchangeEvent::Finding(finding) if finding.rule == Rule::UnsupportedVersionData)));
    let error = result.expect_err("an error");
    let mismatch = stop_of::<Discover>(client.negotiate(&first, &error));
    assert_eq!(
        mismatch.to_string(),
        "the server and Holdbay have no protocol version in common: the server supports \
         nothing it named, Holdbay speaks 2026-07-28"
    );
}

#[test]
fn a_2025_11_25_server_is_told_apart_and_its_message_is_not_repeated() {
    let request = Client::default().discover();
    let error = failure(&request, 400, SERVER_NOT_INITIALIZED);
    let legacy = legacy_server(&error).expect("legacy");
    assert_eq!(legacy, VersionMismatch::Legacy { status: 400 });
    let said = legacy.to_string();
    assert!(
        said.contains("older MCP revision (2025-11-25 or earlier)"),
        "{said}"
    );
    assert!(said.contains("Holdbay speaks 2026-07-28"), "{said}");
    assert!(!said.contains("not initialized"), "{said}");
    // Legacy code -32000 is not a modern error, so it is not negotiated either.
    assert!(Client::default().negotiate(&request, &error).is_none());
}

#[test]
fn legacy_is_a_400_404_or_405_without_a_modern_error_body() {
    let request = Client::default().discover();
    let rpc = |code: i32| {
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "x"}}).to_string()
    };
    let legacy = |status: u16, content_type: &str, body: &str| {
        let error = answer(&request, status, content_type, body)
            .1
            .expect_err("error");
        legacy_server(&error)
    };
    // Older transports: empty or foreign bodies on 400, 404, 405.
    assert!(legacy(404, "text/plain", "Not Found").is_some());
    assert!(legacy(405, "text/plain", "").is_some());
    assert!(legacy(400, "text/html", "<h1>Bad Request</h1>").is_some());
    assert!(legacy(400, "application/json", "").is_some());
    assert!(legacy(400, "application/json", &rpc(-32600)).is_some());
    assert!(legacy(404, "application/json", &rpc(-32000)).is_some());
    // Modern errors: the server speaks 2026-07-28 and said what is wrong.
    assert!(legacy(400, "application/json", &rpc(-32020)).is_none());
    assert!(legacy(400, "application/json", &rpc(-32021)).is_none());
    assert!(
        legacy(
            400,
            "application/json",
            &mock_rejection(&json!(1), "2026-07-28")
        )
        .is_none()
    );
    assert!(legacy(404, "application/json", &rpc(-32601)).is_none());
    // Failures that say nothing about the revision.
    assert!(legacy(500, "text/plain", "boom").is_none());
    assert!(legacy(401, "text/plain", "").is_none());
    assert!(legacy(403, "application/json", &rpc(-32600)).is_none());
    assert!(legacy(200, "application/json", &rpc(-32000)).is_none());
    assert!(legacy(200, "application/json", "{").is_none());
}

#[test]
fn newest_common_prefers_the_clients_order() {
    let ours = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        newest_common(&ours(&["b", "a"]), &ours(&["a", "b"])),
        Some("b".to_owned())
    );
    assert_eq!(newest_common(&ours(&["b"]), &ours(&["a"])), None);
    assert_eq!(newest_common(&ours(&["b"]), &[]), None);
}
