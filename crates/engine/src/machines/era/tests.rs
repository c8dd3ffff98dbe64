//! A dual-era client against recorded legacy answers: the fallback, the session, the
//! server's own requests answered, and the session's end.

use serde_json::{Value, json};

use super::*;
use crate::builders::answer::InputAnswer;
use crate::builders::client::RequestOptions;
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::sse::Resume;
use crate::vocabulary::era::HEADER_SESSION_ID;
use crate::vocabulary::events::{ExchangeEvent, InputRequestKind, ServerRequestEvent};
use crate::vocabulary::method::McpMethod;

/// What `@modelcontextprotocol/server-everything` (TypeScript SDK 1.x, 2025-11-25 only)
/// answers to a 2026-07-28 request.
const NOT_INITIALIZED: &str = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#;

fn failure<M: McpMethod>(request: &OutgoingRequest<M>, status: u16, body: &str) -> ResponseError {
    let mut reader = request.reader(status, Some("application/json"));
    reader.push_chunk(body.as_bytes());
    match reader.finish() {
        Ok(_) => panic!("not a failure: {body}"),
        Err(error) => error,
    }
}

pub(crate) fn sse(messages: &[Value]) -> String {
    messages
        .iter()
        .map(|message| format!("event: message\ndata: {message}\n\n"))
        .collect()
}

pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

fn body<M: McpMethod>(request: &OutgoingRequest<M>) -> Value {
    serde_json::from_str(request.body()).expect("JSON")
}

/// A client that fell back and opened session `s-1` at 2025-11-25.
pub(crate) fn in_session() -> Client {
    let mut client = Client::default();
    let discover = client.discover();
    let error = failure(&discover, 400, NOT_INITIALIZED);
    client.detect_era(EraChoice::Auto, Binding::Http, &error);
    let initialize = client.initialize();
    let answer = json!({"jsonrpc": "2.0", "id": initialize.id(), "result": {
        "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
        "serverInfo": {"name": "everything", "version": "2.0.0"}}});
    let mut reader = initialize.reader(200, Some("text/event-stream"));
    reader.push_chunk(sse(&[answer]).as_bytes());
    let reply = reader.finish().expect("an initialize result");
    client
        .open_session(reply, Some("s-1"))
        .expect("a legacy session");
    client
}

#[test]
fn a_400_without_a_modern_error_falls_back_to_initialize_when_the_user_lets_it() {
    let mut client = Client::default();
    let discover = client.discover();
    let error = failure(&discover, 400, NOT_INITIALIZED);
    let decision = client.detect_era(EraChoice::Auto, Binding::Http, &error);
    let Some(EraDecision::FallBack { why }) = decision else {
        panic!("no fallback: {decision:?}");
    };
    assert!(why.contains("HTTP 400"), "{why}");
    assert!(why.contains("2025-11-25 session with initialize"), "{why}");
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.protocol_version(), "2025-11-25");

    let mut modern_only = Client::default();
    let error = failure(&modern_only.discover(), 400, NOT_INITIALIZED);
    assert_eq!(
        modern_only.detect_era(EraChoice::Only(Era::Modern), Binding::Http, &error),
        Some(EraDecision::Stop(VersionMismatch::Legacy { status: 400 }))
    );
    assert_eq!(modern_only.era(), Era::Modern, "the user's choice stands");
}

#[test]
fn asking_for_the_legacy_era_skips_the_modern_request() {
    let mut client = Client::default();
    assert_eq!(client.choose_era(EraChoice::Auto), None);
    assert_eq!(client.choose_era(EraChoice::Only(Era::Modern)), None);
    assert_eq!(client.era(), Era::Modern);
    let Some(EraDecision::FallBack { why }) = client.choose_era(EraChoice::Only(Era::Legacy))
    else {
        panic!("no legacy session");
    };
    assert!(why.contains("without trying 2026-07-28"), "{why}");
    assert_eq!(client.era(), Era::Legacy);
}

#[test]
fn a_modern_error_or_a_server_failure_says_nothing_about_the_era() {
    let mut client = Client::default();
    let discover = client.discover();
    let version = json!({"jsonrpc": "2.0", "id": discover.id(), "error": {"code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}}});
    let error = failure(&discover, 400, &version.to_string());
    assert_eq!(
        client.detect_era(EraChoice::Auto, Binding::Http, &error),
        None
    );
    let error = failure(&discover, 500, "oops");
    assert_eq!(
        client.detect_era(EraChoice::Auto, Binding::Http, &error),
        None
    );
    assert_eq!(client.era(), Era::Modern);
}

#[test]
fn on_stdio_any_error_that_is_not_modern_means_legacy_and_so_does_silence() {
    let mut client = Client::default();
    let discover = client.discover();
    let unknown = json!({"jsonrpc": "2.0", "id": discover.id(),
        "error": {"code": -32601, "message": "Method not found"}});
    let mut reader = discover.reader(200, Some("text/event-stream"));
    reader.push_chunk(sse(&[unknown]).as_bytes());
    let Err(error) = reader.finish() else {
        panic!("not an error");
    };
    assert!(matches!(
        client.detect_era(EraChoice::Auto, Binding::Stdio, &error),
        Some(EraDecision::FallBack { .. })
    ));

    let mut silent = Client::default();
    let Some(EraDecision::FallBack { why }) = silent.detect_era_after_silence(EraChoice::Auto)
    else {
        panic!("no fallback");
    };
    assert!(why.contains("did not answer"), "{why}");
    assert_eq!(
        silent.detect_era_after_silence(EraChoice::Auto),
        None,
        "already legacy"
    );
}

#[test]
fn initialize_offers_the_newest_legacy_version_and_no_modern_envelope() {
    let mut client = Client::default();
    client.use_era(Era::Legacy);
    let initialize = client.initialize();
    let sent = body(&initialize);
    assert_eq!(sent["method"], "initialize");
    assert_eq!(sent["params"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        sent["params"]["capabilities"],
        json!({"elicitation": {"form": {}, "url": {}}})
    );
    assert_eq!(sent["params"]["clientInfo"]["name"], "holdbay");
    assert!(sent["params"].get("_meta").is_none(), "{sent}");
    let headers = initialize.headers();
    assert_eq!(
        header(headers, "Accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(header(headers, "MCP-Protocol-Version"), None);
    assert_eq!(header(headers, "Mcp-Method"), None);
    assert_eq!(header(headers, HEADER_SESSION_ID), None);
}

#[test]
fn a_session_carries_its_id_and_version_and_its_answers_are_read_by_legacy_rules() {
    let mut client = in_session();
    assert_eq!(client.session_id(), Some("s-1"));
    let list = client.list_tools(None);
    let headers = list.headers();
    assert_eq!(header(headers, HEADER_SESSION_ID), Some("s-1"));
    assert_eq!(header(headers, "MCP-Protocol-Version"), Some("2025-11-25"));
    assert_eq!(header(headers, "Mcp-Method"), None);
    assert_eq!(list.protocol_version(), "2025-11-25");
    assert!(body(&list)["params"].get("_meta").is_none());

    let answer = json!({"jsonrpc": "2.0", "id": list.id(), "result": {"tools": [
        {"name": "echo", "inputSchema": {"type": "object"}}]}});
    let mut reader = list.reader(200, Some("application/json"));
    reader.push_chunk(answer.to_string().as_bytes());
    let reply = reader.finish().expect("tools");
    assert_eq!(reply.result.tools.len(), 1);
    assert_eq!(
        reply.findings,
        vec![],
        "no resultType or cache hints in 2025-11-25"
    );

    let initialized = client.initialized();
    assert_eq!(
        initialized.json,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    assert_eq!(header(&initialized.headers, HEADER_SESSION_ID), Some("s-1"));
}

#[test]
fn a_server_request_on_a_call_stream_is_an_event_and_its_answer_a_response_message() {
    let mut client = in_session();
    let call = client.call_tool("ask", None, &RequestOptions::default());
    let call = call.expect("a call");
    let elicit = json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create", "params": {
        "message": "Name?", "requestedSchema": {"type": "object",
            "properties": {"name": {"type": "string"}}}}});
    let sampling = json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage",
        "params": {"messages": [], "maxTokens": 5}});
    let result = json!({"jsonrpc": "2.0", "id": call.id(), "result": {
        "content": [{"type": "text", "text": "hi Ada"}]}});
    let mut reader = call.reader(200, Some("text/event-stream"));
    reader.push_chunk(sse(&[elicit, sampling]).as_bytes());
    let asked: Vec<ServerRequestEvent> = reader
        .take_events()
        .into_iter()
        .filter_map(|event| match event {
            ExchangeEvent::ServerRequest(asked) => Some(*asked),
            ExchangeEvent::Finding(finding) => panic!("no finding in legacy: {finding}"),
            _ => None,
        })
        .collect();
    assert_eq!(asked.len(), 2);
    assert!(matches!(asked[0].ask().kind, InputRequestKind::Form { .. }));

    let content = json!({"name": "Ada"}).as_object().cloned();
    let answer = client
        .answer_server_request(&asked[0], &InputAnswer::Accept(content))
        .expect("an answer");
    assert_eq!(
        answer.json,
        json!({"jsonrpc": "2.0", "id": 0,
            "result": {"action": "accept", "content": {"name": "Ada"}}})
    );
    assert_eq!(header(&answer.headers, HEADER_SESSION_ID), Some("s-1"));
    let refused = client
        .answer_server_request(&asked[1], &InputAnswer::Refuse)
        .expect("a refusal");
    assert_eq!(refused.json["id"], 1);
    assert_eq!(refused.json["error"]["code"], -32601);

    reader.push_chunk(sse(&[result]).as_bytes());
    let reply = reader.finish().expect("the result");
    assert_eq!(reply.findings, vec![]);
}

#[test]
fn in_the_modern_era_a_server_request_is_a_finding() {
    let mut client = Client::default();
    let call = client
        .call_tool("ask", None, &RequestOptions::default())
        .expect("a call");
    let ping = json!({"jsonrpc": "2.0", "id": 9, "method": "ping"});
    let mut reader = call.reader(200, Some("text/event-stream"));
    reader.push_chunk(sse(&[ping]).as_bytes());
    let events = reader.take_events();
    assert!(
        matches!(&events[1], ExchangeEvent::ServerRequest(asked) if asked.is_ping()),
        "{events:?}"
    );
    assert!(
        matches!(&events[2], ExchangeEvent::Finding(f) if f.rule == Rule::ServerRequestInModernEra)
    );
}

#[test]
fn the_initialize_answer_must_name_a_legacy_version_holdbay_speaks() {
    for (version, modern) in [("2026-07-28", true), ("2024-11-05", false)] {
        let mut client = Client::default();
        client.use_era(Era::Legacy);
        let initialize = client.initialize();
        let answer = json!({"jsonrpc": "2.0", "id": initialize.id(), "result": {
            "protocolVersion": version, "capabilities": {},
            "serverInfo": {"name": "s", "version": "1"}}});
        let mut reader = initialize.reader(200, Some("application/json"));
        reader.push_chunk(answer.to_string().as_bytes());
        let refused = client
            .open_session(reader.finish().expect("a result"), Some("x"))
            .expect_err("refused");
        assert_eq!(
            matches!(refused, SessionRefused::ModernVersion { .. }),
            modern,
            "{refused}"
        );
        assert_eq!(client.session_id(), None);
    }
    let mut older = Client::default();
    older.use_era(Era::Legacy);
    let initialize = older.initialize();
    let answer = json!({"jsonrpc": "2.0", "id": initialize.id(), "result": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}}});
    let mut reader = initialize.reader(200, Some("application/json"));
    reader.push_chunk(answer.to_string().as_bytes());
    let opened = older
        .open_session(reader.finish().expect("a result"), Some("bad id\n"))
        .expect("2025-06-18 is spoken");
    assert_eq!(opened.session_id, None, "an id that cannot be sent back");
    let discovery = opened.as_discovery();
    assert_eq!(discovery.supported_versions[0].as_str(), "2025-06-18");
    assert_eq!(
        discovery.server_info().map(|info| info.name),
        Some("s".into())
    );
    assert_eq!(discovery.ttl_ms, 0, "never cached");
    assert_eq!(older.protocol_version(), "2025-06-18");
}

#[test]
fn a_404_ends_the_session_once_and_the_stream_resumes_after_its_last_event() {
    let mut client = in_session();
    let resume = Resume {
        last_event_id: Some("ev-7".into()),
        retry_ms: Some(500),
    };
    let get = client.open_stream(Some(&resume));
    assert_eq!(header(&get.headers, "Accept"), Some("text/event-stream"));
    assert_eq!(header(&get.headers, "Last-Event-ID"), Some("ev-7"));
    assert_eq!(header(&get.headers, HEADER_SESSION_ID), Some("s-1"));

    let list = client.list_tools(None);
    let error = failure(
        &list,
        404,
        r#"{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}"#,
    );
    let finding = client.session_lost(&error).expect("the session ended");
    assert_eq!(finding.rule, Rule::LegacySessionEnded);
    assert!(finding.explanation.contains("s-1"), "{finding}");
    assert_eq!(client.session_id(), None);
    assert_eq!(client.session_lost(&error), None, "said once");

    let mut refused = in_session();
    let list = refused.list_tools(None);
    let no_session = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}"#;
    let error = failure(&list, 400, no_session);
    let finding = refused
        .session_lost(&error)
        .expect("a 400 naming the session");
    assert_eq!(finding.rule, Rule::LegacySessionWrongStatus);
    assert_eq!(
        finding.severity,
        crate::vocabulary::findings::Severity::Must
    );
    assert!(finding.explanation.contains("404"), "{finding}");
    let mut other = in_session();
    let list = other.list_tools(None);
    let error = failure(&list, 400, NOT_INITIALIZED);
    assert_eq!(
        other.session_lost(&error),
        None,
        "a 400 about something else"
    );
    assert_eq!(other.session_id(), Some("s-1"));

    let mut ending = in_session();
    let delete = ending.end_session().expect("a session to end");
    assert_eq!(header(&delete.headers, HEADER_SESSION_ID), Some("s-1"));
    assert_eq!(ending.end_session(), None);
}

#[test]
fn a_stopped_legacy_request_is_cancelled_by_notification_and_a_modern_one_by_closing_its_stream() {
    let mut client = in_session();
    let call = client
        .call_tool("slow", Default::default(), &RequestOptions::default())
        .expect("a call");
    let cancelled = client
        .cancelled(call.id(), "the user pressed Stop")
        .expect("a legacy session says so");
    assert_eq!(
        cancelled.json,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
               "params": {"requestId": body(&call)["id"], "reason": "the user pressed Stop"}})
    );
    assert_eq!(header(&cancelled.headers, HEADER_SESSION_ID), Some("s-1"));
    assert_eq!(cancelled.label, "notifications/cancelled");

    let mut modern = Client::default();
    let call = modern
        .call_tool("slow", Default::default(), &RequestOptions::default())
        .expect("a call");
    assert_eq!(modern.cancelled(call.id(), "stop"), None);
}

#[test]
fn a_request_refused_for_a_lost_session_goes_again_in_the_new_one() {
    let mut client = in_session();
    let list = client.list_tools(None);
    let error = failure(
        &list,
        404,
        r#"{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}"#,
    );
    client.session_lost(&error).expect("the session ended");
    let initialize = client.initialize();
    let answer = json!({"jsonrpc": "2.0", "id": initialize.id(), "result": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "serverInfo": {"name": "everything", "version": "2.0.0"}}});
    let mut reader = initialize.reader(200, Some("application/json"));
    reader.push_chunk(answer.to_string().as_bytes());
    client
        .open_session(reader.finish().expect("a result"), Some("s-2"))
        .expect("a new session");
    let again = client.in_current_session(&list);
    assert_eq!(header(&again.headers, HEADER_SESSION_ID), Some("s-2"));
    assert_eq!(again.id(), list.id(), "the same request");
    assert_eq!(again.body(), list.body());
    let sessions = again
        .headers()
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case(HEADER_SESSION_ID))
        .count();
    assert_eq!(sessions, 1);
}
