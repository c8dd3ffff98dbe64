use serde_json::json;

use super::*;
use crate::vocabulary::events::ExchangeEvent;
use crate::vocabulary::findings::Rule;
use crate::{Client, ClientConfig, Discover, OutgoingRequest};

/// The 2026-07-28 wire reference's §12.1 discover result (JSON response).
const DISCOVER_JSON: &str = r#"{
  "jsonrpc": "2.0",
  "id": 1,
  "result": {
    "resultType": "complete",
    "supportedVersions": ["2026-07-28", "2025-11-25"],
    "capabilities": {
      "tools": { "listChanged": true },
      "resources": { "subscribe": true, "listChanged": true },
      "prompts": {},
      "completions": {},
      "extensions": { "io.modelcontextprotocol/tasks": {} }
    },
    "instructions": "Weather and deployment tools.",
    "ttlMs": 3600000,
    "cacheScope": "public",
    "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "ExampleServer", "version": "1.4.0" } }
  }
}"#;

fn discover() -> OutgoingRequest<Discover> {
    Client::default().discover()
}

fn read(
    status: u16,
    content_type: &str,
    body: &[u8],
) -> Result<Reply<rmcp::model::DiscoverResult>, ResponseError> {
    let request = discover();
    let mut reader = request.reader(status, Some(content_type));
    reader.push_chunk(body);
    reader.finish()
}

#[test]
fn json_discover_result_decodes_into_rmcp_types() {
    let reply = read(200, "application/json", DISCOVER_JSON.as_bytes()).expect("valid discover");
    let info = reply.result.server_info().expect("serverInfo in _meta");
    assert_eq!(info.name, "ExampleServer");
    assert_eq!(info.version, "1.4.0");
    assert_eq!(reply.result.supported_versions.len(), 2);
    assert_eq!(reply.result.ttl_ms, 3_600_000);
    assert!(reply.findings.is_empty());
}

#[test]
fn sse_discover_result_decodes_after_notifications_and_keepalives() {
    let compact: serde_json::Value = serde_json::from_str(DISCOVER_JSON).expect("fixture is JSON");
    let body = format!(
        ": keepalive\n\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"hi\"}}}}\n\nevent: message\ndata: {compact}\n\n"
    );
    let request = discover();
    let mut reader = request.reader(200, Some("text/event-stream; charset=utf-8"));
    for chunk in body.as_bytes().chunks(7) {
        reader.push_chunk(chunk);
    }
    let decoded = reader.finish_decoded();
    let notes: Vec<_> = decoded
        .events
        .iter()
        .filter(|event| matches!(event, ExchangeEvent::Notification(_)))
        .collect();
    assert_eq!(notes.len(), 1);
    let reply = decoded.into_complete().1.expect("valid SSE discover");
    assert_eq!(
        reply.result.server_info().map(|i| i.name).as_deref(),
        Some("ExampleServer")
    );
}

#[test]
fn missing_result_type_is_complete_and_noted() {
    let body = json!({"jsonrpc":"2.0","id":1,"result":{
        "supportedVersions":["2026-07-28"],"capabilities":{}}});
    let reply = read(200, "application/json", body.to_string().as_bytes()).expect("older server");
    let rules: Vec<_> = reply.findings.iter().map(|f| f.rule).collect();
    assert_eq!(
        rules,
        vec![Rule::ResultTypeMissing, Rule::CacheHintsMissing]
    );
    assert_eq!(reply.result.ttl_ms, 0);
    assert_eq!(reply.result.cache_scope, rmcp::model::CacheScope::Private);
}

#[test]
fn http_404_without_body_names_the_status() {
    let error = read(404, "text/html", b"<h1>Not Found</h1>").expect_err("404");
    assert_eq!(error.http_status(), Some(404));
    assert_eq!(
        error.to_string(),
        "the server answered HTTP 404 Not Found: <h1>Not Found</h1>"
    );
    let error = read(404, "", b"").expect_err("404");
    assert_eq!(error.to_string(), "the server answered HTTP 404 Not Found");
}

#[test]
fn json_rpc_error_is_reported_with_code_and_status() {
    let body = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2025-11-25"],"requested":"2026-07-28"}}}"#;
    let error = read(400, "application/json", body).expect_err("-32022");
    match &error {
        ResponseError::Rpc { code, status, .. } => assert_eq!((*code, *status), (-32022, 400)),
        other => panic!("expected an Rpc error, got {other:?}"),
    }
    assert_eq!(
        error.to_string(),
        "the server returned error -32022: Unsupported protocol version (HTTP 400 Bad Request)"
    );
}

#[test]
fn error_without_id_is_still_an_rpc_error() {
    let body = br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
    assert!(matches!(
        read(400, "application/json", body),
        Err(ResponseError::Rpc { code: -32700, .. })
    ));
}

#[test]
fn a_response_with_another_id_is_rejected() {
    let body = DISCOVER_JSON.replacen("\"id\": 1", "\"id\": 99", 1);
    let error = read(200, "application/json", body.as_bytes()).expect_err("wrong id");
    assert_eq!(
        error,
        ResponseError::WrongId {
            expected: "1".into(),
            got: "99".into()
        }
    );
}

#[test]
fn a_string_id_does_not_match_a_numeric_one() {
    let body = DISCOVER_JSON.replacen("\"id\": 1", "\"id\": \"1\"", 1);
    assert!(matches!(
        read(200, "application/json", body.as_bytes()),
        Err(ResponseError::WrongId { .. })
    ));
}

#[test]
fn a_body_over_the_limit_is_an_error() {
    let config = ClientConfig {
        limits: Limits {
            max_body_bytes: 64,
            ..Limits::default()
        },
        ..ClientConfig::default()
    };
    let request = Client::new(config).discover();
    let mut reader = request.reader(200, Some("application/json"));
    for chunk in DISCOVER_JSON.as_bytes().chunks(10) {
        reader.push_chunk(chunk);
    }
    assert_eq!(
        reader.finish().expect_err("too large"),
        ResponseError::BodyTooLarge { limit: 64 }
    );
}

#[test]
fn success_with_an_unknown_media_type_is_an_error() {
    let error = read(200, "text/html", b"<html></html>").expect_err("html");
    assert!(matches!(error, ResponseError::UnexpectedContentType { .. }));
}

#[test]
fn truncated_json_is_malformed() {
    let error = read(200, "application/json", &DISCOVER_JSON.as_bytes()[..40]).expect_err("cut");
    assert!(matches!(error, ResponseError::MalformedJson { .. }));
}

#[test]
fn an_event_stream_without_the_response_is_an_error() {
    let body = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n";
    assert_eq!(
        read(200, "text/event-stream", body).expect_err("no response"),
        ResponseError::NoResponse {
            expected: "1".into()
        }
    );
}

#[test]
fn input_required_is_not_valid_for_discover() {
    let body = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",
        "inputRequests":{},"requestState":"x"}});
    assert_eq!(
        read(200, "application/json", body.to_string().as_bytes()).expect_err("mrtr on discover"),
        ResponseError::UnexpectedResultType {
            method: "server/discover",
            result_type: "input_required".into(),
            rule: Rule::InputRequiredNotAllowed,
        }
    );
}

#[test]
fn a_result_of_the_wrong_shape_names_the_method() {
    let body = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,
        "cacheScope":"public","capabilities":{}}});
    let error =
        read(200, "application/json", body.to_string().as_bytes()).expect_err("no versions");
    assert!(
        error
            .to_string()
            .starts_with("the server/discover result does not match the schema"),
        "{error}"
    );
}

#[test]
fn unauthorized_surfaces_the_challenge() {
    let request = discover();
    let mut reader = request.reader(401, None);
    reader.set_www_authenticate(Some(
        r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read""#,
    ));
    let error = reader.finish().expect_err("401");
    let ResponseError::Unauthorized {
        status, challenge, ..
    } = &error
    else {
        panic!("expected Unauthorized, got {error:?}");
    };
    assert_eq!(*status, 401);
    assert!(challenge.contains("resource_metadata="));
    assert!(
        error.to_string().contains("HTTP 401 Unauthorized"),
        "{error}"
    );
}

/// The failure of a `server/discover` answered `status` with this `WWW-Authenticate`.
fn refused_with(status: u16, challenge: &str) -> ResponseError {
    let mut reader = discover().reader(status, None);
    reader.set_www_authenticate(Some(challenge));
    reader.finish().expect_err("refused")
}

#[test]
fn a_bearer_401_asks_for_a_sign_in_from_its_challenge() {
    let needed = refused_with(
        401,
        r#"Bearer error="invalid_token", resource_metadata="http://127.0.0.1:7420/.well-known/oauth-protected-resource/mcp", scope="mcp:tools""#,
    )
    .sign_in_needed()
    .expect("a sign-in");
    assert_eq!(needed.status, 401);
    assert!(!needed.step_up);
    assert_eq!(needed.challenge.scope.as_deref(), Some("mcp:tools"));
    assert_eq!(
        needed.challenge.resource_metadata.as_deref(),
        Some("http://127.0.0.1:7420/.well-known/oauth-protected-resource/mcp")
    );
}

#[test]
fn a_403_for_insufficient_scope_is_a_step_up_and_other_refusals_are_not_sign_ins() {
    let step_up = refused_with(
        403,
        r#"Bearer error="insufficient_scope", scope="mcp:tools mcp:admin""#,
    )
    .sign_in_needed()
    .expect("a step-up");
    assert!(step_up.step_up);
    assert_eq!(
        step_up.challenge.scope.as_deref(),
        Some("mcp:tools mcp:admin")
    );
    // A valid token that is simply refused, another scheme, or no Bearer challenge at all.
    for (status, challenge) in [
        (403, r#"Bearer error="invalid_token""#),
        (401, r#"Basic realm="proxy""#),
        (401, "garbage ,,, ="),
    ] {
        let error = refused_with(status, challenge);
        assert_eq!(error.sign_in_needed(), None, "{status} {challenge}");
    }
    // Not a refusal at all.
    assert_eq!(read(500, "", b"").expect_err("500").sign_in_needed(), None);
}

#[test]
fn forbidden_without_a_challenge_is_a_status_error() {
    assert_eq!(
        read(403, "", b"").expect_err("403").http_status(),
        Some(403)
    );
}

#[test]
fn server_errors_name_the_status() {
    let error = read(503, "text/plain", b"overloaded").expect_err("503");
    assert_eq!(
        error.to_string(),
        "the server answered HTTP 503 Service Unavailable: overloaded"
    );
}

#[test]
fn unknown_method_404_carries_the_json_rpc_error() {
    let body = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
    let error = read(404, "application/json", body).expect_err("404");
    assert_eq!(
        (error.rpc_code(), error.http_status()),
        (Some(-32601), Some(404))
    );
}

#[test]
fn task_results_need_the_extension_on_that_request() {
    use crate::builders::client::RequestOptions;
    let task = json!({"resultType": "task", "taskId": "t", "status": "working",
        "createdAt": "2026-11-29T00:00:00Z", "lastUpdatedAt": "2026-11-29T00:00:00Z", "ttlMs": null});
    let mut client = Client::default();
    let undeclared = client
        .call_tool("t", None, &RequestOptions::default())
        .expect("call");
    let mut reader = undeclared.reader(200, Some("application/json"));
    reader.push_chunk(
        json!({"jsonrpc": "2.0", "id": 1, "result": task})
            .to_string()
            .as_bytes(),
    );
    let error = reader.finish_outcome().expect_err("undeclared");
    assert_eq!(
        error.finding().map(|f| f.rule),
        Some(Rule::TaskWithoutExtension)
    );
    // A task answer to discover is invalid whatever was declared.
    let error = read(
        200,
        "application/json",
        json!({"jsonrpc": "2.0", "id": 1, "result": task})
            .to_string()
            .as_bytes(),
    )
    .expect_err("discover");
    assert_eq!(
        error.finding().map(|f| f.rule),
        Some(Rule::TaskOnWrongMethod)
    );
}

#[test]
fn an_unknown_result_type_is_invalid_with_a_finding() {
    let body = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"streaming","supportedVersions":[],
        "capabilities":{},"ttlMs":0,"cacheScope":"public"}});
    let error = read(200, "application/json", body.to_string().as_bytes()).expect_err("unknown");
    assert_eq!(
        error.finding().map(|f| f.rule),
        Some(Rule::UnknownResultType)
    );
}

#[test]
fn request_state_on_a_complete_result_is_a_finding() {
    let body = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":[],
        "capabilities":{},"ttlMs":0,"cacheScope":"public","requestState":"leftover"}});
    let reply = read(200, "application/json", body.to_string().as_bytes()).expect("tolerated");
    assert_eq!(reply.findings[0].rule, Rule::RequestStateOnNonMrtrResult);
}

#[test]
fn a_tasks_get_labelled_task_is_read_by_status() {
    let mut client = Client::default();
    let get = client.get_task("t");
    let mut reader = get.reader(200, Some("application/json"));
    reader.push_chunk(
        json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t",
        "status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}})
        .to_string()
        .as_bytes(),
    );
    let reply = reader.finish().expect("tolerated");
    assert_eq!(reply.result.task.task.task_id, "t");
    assert_eq!(reply.findings.len(), 1);
}

#[test]
fn an_empty_input_required_is_invalid() {
    use crate::builders::client::RequestOptions;
    let mut client = Client::default();
    let call = client
        .call_tool("t", None, &RequestOptions::default())
        .expect("call");
    let mut reader = call.reader(200, Some("application/json"));
    reader.push_chunk(br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#);
    let error = reader.finish_outcome().expect_err("empty");
    assert_eq!(
        error.finding().map(|f| f.rule),
        Some(Rule::InputRequiredEmpty)
    );
}

#[test]
fn notifications_are_events_as_soon_as_their_event_completes() {
    let request = discover();
    let mut reader = request.reader(200, Some("text/event-stream"));
    assert_eq!(
        reader.take_events(),
        vec![ExchangeEvent::Responded {
            status: 200,
            event_stream: true
        }]
    );
    reader.push_chunk(
        b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",",
    );
    assert!(
        reader.take_events().is_empty(),
        "an event counts once it is complete"
    );
    reader.push_chunk(b"\"params\":{\"progressToken\":1,\"progress\":1}}\n\n");
    let events = reader.take_events();
    let token = rmcp::model::ProgressToken(rmcp::model::NumberOrString::Number(1));
    assert_eq!(events.len(), 1);
    assert_eq!(
        events[0].progress_for(&token).map(|p| p.progress),
        Some(1.0)
    );
    let mut json = discover().reader(200, Some("application/json"));
    assert_eq!(json.take_events().len(), 1, "only Responded");
}

#[test]
fn a_number_beyond_f64_reads_as_null_with_a_finding_not_as_invalid_json() {
    let body = DISCOVER_JSON.replace(
        r#""cacheScope": "public","#,
        r#""cacheScope": "public", "n": [1e400, -2E+999, 1.5, "1e400 \" 9e999"],"#,
    );
    for (content_type, bytes) in [
        ("application/json", body.clone()),
        (
            "text/event-stream",
            format!("data: {}\n\n", body.replace('\n', "").replace("  ", "")),
        ),
    ] {
        let reply = read(200, content_type, bytes.as_bytes()).expect("valid JSON, out of range");
        let n = &reply.raw_result["n"];
        assert_eq!(
            n,
            &json!([null, null, 1.5, "1e400 \" 9e999"]),
            "{content_type}"
        );
        let finding = reply
            .findings
            .iter()
            .find(|f| f.rule == Rule::NumberOutOfRange)
            .expect("a finding says so");
        assert!(
            finding.explanation.contains("1e400, -2E+999"),
            "{}",
            finding.explanation
        );
    }
}

#[test]
fn json_nested_beyond_the_recursion_limit_is_malformed_not_a_crash() {
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"x":{}{}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let error = read(200, "application/json", deep.as_bytes()).expect_err("too deep");
    assert!(error.to_string().contains("recursion limit"), "{error}");
}

#[test]
fn a_huge_error_message_is_cut_in_the_text_and_whole_in_the_error() {
    let message = "é".repeat(50_000);
    let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1,
        "error": {"code": -32000, "message": message}}))
    .expect("JSON");
    let error = read(200, "application/json", &body).expect_err("an error");
    let ResponseError::Rpc {
        message: shown,
        error: whole,
        ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert!(shown.ends_with("… (48000 more characters; the whole message is in the wire log)"));
    assert_eq!(whole.message.chars().count(), 50_000);
    assert!(error.to_string().chars().count() < 2_200);
}

/// A `tools/call` declaring the tasks extension, answered with `result`.
fn call_answered_with(
    result: serde_json::Value,
) -> Result<Reply<Outcome<rmcp::model::CallToolResult>>, ResponseError> {
    use crate::builders::client::RequestOptions;
    let mut client = Client::default();
    let options = RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    };
    let call = client.call_tool("t", None, &options).expect("call");
    let mut reader = call.reader(200, Some("application/json"));
    reader.push_chunk(
        json!({"jsonrpc": "2.0", "id": 1, "result": result})
            .to_string()
            .as_bytes(),
    );
    reader.finish_outcome()
}

fn task_result(task_id: &str, poll_interval: serde_json::Value) -> serde_json::Value {
    json!({"resultType": "task", "taskId": task_id, "status": "working",
        "createdAt": "2026-11-29T00:00:00Z", "lastUpdatedAt": "2026-11-29T00:00:00Z",
        "ttlMs": null, "pollIntervalMs": poll_interval})
}

#[test]
fn a_task_with_a_long_id_is_refused_and_names_the_task_to_cancel() {
    let long = "t".repeat(100 * 1024);
    let error = call_answered_with(task_result(&long, json!(500))).expect_err("too long");
    assert!(matches!(
        &error,
        ResponseError::TaskRefused {
            problem: TaskProblem::IdTooLong {
                bytes: 102_400,
                limit: 1024
            },
            ..
        }
    ));
    assert_eq!(error.refused_task_id(), Some(long.as_str()));
    assert_eq!(error.finding().map(|f| f.rule), Some(Rule::IdTooLong));
    assert!(
        error
            .to_string()
            .contains("whose taskId is 102,400 bytes: over the bound of 1,024 bytes"),
        "{error}"
    );
}

#[test]
fn a_task_with_malformed_fields_is_refused_whole_and_still_names_its_id() {
    for poll in [json!(-1), json!(1e308), json!("soon")] {
        let error = call_answered_with(task_result("t-1", poll.clone())).expect_err("malformed");
        assert!(
            matches!(
                &error,
                ResponseError::TaskRefused {
                    problem: TaskProblem::Malformed { .. },
                    ..
                }
            ),
            "pollIntervalMs {poll}: {error:?}"
        );
        assert_eq!(error.refused_task_id(), Some("t-1"));
        assert!(error.to_string().contains("task \"t-1\""), "{error}");
    }
}

#[test]
fn too_many_input_requests_are_refused_before_any_is_decoded() {
    let requests: serde_json::Map<String, serde_json::Value> = (0..10_000)
        .map(|n| (format!("q{n}"), json!({"method": "elicitation/create"})))
        .collect();
    let error = call_answered_with(json!({"resultType": "input_required",
        "inputRequests": requests, "requestState": "s"}))
    .expect_err("too many");
    assert_eq!(
        error,
        ResponseError::TooManyInputRequests {
            count: 10_000,
            limit: 64
        }
    );
    assert!(error.is_over_bound());
    assert_eq!(
        error.to_string(),
        "the server asked for 10,000 inputs at once: over the bound of 64 \
         (Limits::max_input_requests), so the answer was refused and no input was shown"
    );
}

#[test]
fn json_labelled_as_an_event_stream_is_a_content_type_mismatch() {
    let error = read(200, "text/event-stream", DISCOVER_JSON.as_bytes()).expect_err("mislabelled");
    assert!(
        matches!(
            &error,
            ResponseError::ContentTypeMismatch { actual: "JSON", .. }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.finding().map(|f| f.rule),
        Some(Rule::ContentTypeMismatch)
    );
    assert!(
        error
            .to_string()
            .contains("the Content-Type contradicts the body"),
        "{error}"
    );
}

#[test]
fn an_event_stream_labelled_as_json_is_a_content_type_mismatch() {
    let body = format!("data: {}\n\n", DISCOVER_JSON.replace('\n', ""));
    let error = read(200, "application/json", body.as_bytes()).expect_err("mislabelled");
    assert!(
        matches!(
            &error,
            ResponseError::ContentTypeMismatch {
                actual: "an event stream",
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn an_empty_event_stream_is_still_one_without_a_response() {
    let error = read(200, "text/event-stream", b": keepalive\n\n").expect_err("no response");
    assert!(
        !matches!(error, ResponseError::ContentTypeMismatch { .. }),
        "{error:?}"
    );
}

#[test]
fn notifications_past_the_bound_are_counted_not_kept_with_one_finding() {
    let config = ClientConfig {
        limits: Limits {
            max_notifications_kept: 3,
            ..Limits::default()
        },
        ..ClientConfig::default()
    };
    let request = Client::new(config).discover();
    let mut reader = request.reader(200, Some("text/event-stream"));
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"n"}}"#;
    let mut body = format!("data: {note}\n\n").repeat(10);
    body.push_str(&format!("data: {}\n\n", DISCOVER_JSON.replace('\n', "")));
    reader.push_chunk(body.as_bytes());
    let decoded = reader.finish_decoded();
    decoded.result.expect("the response still arrives");
    let events = decoded.events;
    let kept: Vec<bool> = events
        .iter()
        .filter_map(|event| match event {
            ExchangeEvent::Notification(note) => Some(note.kept),
            _ => None,
        })
        .collect();
    assert_eq!(
        kept,
        [
            true, true, true, false, false, false, false, false, false, false
        ]
    );
    let floods = events
        .iter()
        .filter(|event| matches!(event, ExchangeEvent::Finding(f) if f.rule == Rule::TooManyNotifications))
        .count();
    assert_eq!(floods, 1);
}
