//! A tool's `outputSchema`, learned from `tools/list`, checked against the `structuredContent`
//! of its `tools/call` result on the engine's own decode path: the finding is in the reply and
//! among the exchange's events (where the app's findings list reads it), and every MRTR retry
//! of the call carries the same contract.

use holdbay_engine::model::Tool;
use holdbay_engine::{
    Bounds, CallTool, Client, ExchangeEvent, InputAnswer, LogicalRequest, Outcome, OutgoingRequest,
    RequestOptions, Rule, Severity, Step,
};
use serde_json::{Value, json};

fn note_tool() -> Tool {
    serde_json::from_value(json!({
        "name": "format_note",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
        "outputSchema": {
            "type": "object",
            "$defs": {"ending": {"enum": ["LF", "CRLF", "CR"]}},
            "properties": {
                "lines": {"type": "integer", "minimum": 1},
                "line_endings": {"type": "array", "items": {"$ref": "#/$defs/ending"}}
            },
            "required": ["lines", "line_endings"],
            "additionalProperties": false
        }
    }))
    .expect("a tool")
}

fn plain_tool() -> Tool {
    serde_json::from_value(json!({"name": "echo", "inputSchema": {"type": "object"}}))
        .expect("a tool")
}

fn client() -> Client {
    let mut client = Client::default();
    let (kept, findings) = client.learn_tools(vec![note_tool(), plain_tool()]);
    assert_eq!(kept.len(), 2);
    assert!(findings.is_empty());
    client
}

fn call(client: &mut Client, tool: &str) -> OutgoingRequest<CallTool> {
    client
        .call_tool(tool, Some(Default::default()), &RequestOptions::default())
        .expect("a request")
}

/// The answer to `request` with `result`, read as the app reads it (JSON body, decoded events).
fn answer(request: &OutgoingRequest<CallTool>, result: Value) -> (Vec<ExchangeEvent>, Vec<Rule>) {
    let body = json!({"jsonrpc": "2.0", "id": request.id(), "result": result}).to_string();
    let mut reader = request.reader(200, Some("application/json"));
    reader.push_chunk(body.as_bytes());
    let decoded = reader.finish_decoded();
    let reply = decoded.result.expect("a decoded reply");
    let rules = reply.findings.iter().map(|finding| finding.rule).collect();
    (decoded.events, rules)
}

fn event_findings(events: &[ExchangeEvent]) -> Vec<(Rule, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            ExchangeEvent::Finding(finding) => Some((finding.rule, finding.explanation.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_conforming_structured_result_gives_no_finding() {
    let mut client = client();
    let request = call(&mut client, "format_note");
    assert!(request.output_contract().is_some());
    let (events, rules) = answer(
        &request,
        json!({"resultType": "complete", "content": [],
               "structuredContent": {"lines": 2, "line_endings": ["CRLF"]}}),
    );
    assert!(rules.is_empty(), "{rules:?}");
    assert!(event_findings(&events).is_empty());
}

#[test]
fn a_mismatch_is_a_finding_in_the_reply_and_among_the_events() {
    let mut client = client();
    let request = call(&mut client, "format_note");
    let (events, rules) = answer(
        &request,
        json!({"resultType": "complete", "content": [],
               "structuredContent": {"lines": "2", "line_endings": ["crlf"], "extra": true}}),
    );
    assert_eq!(rules, [Rule::OutputSchemaMismatch]);
    let found = event_findings(&events);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, Rule::OutputSchemaMismatch);
    assert_eq!(Rule::OutputSchemaMismatch.severity(), Severity::Must);
    assert!(
        found[0].1.contains("/lines: expected integer, got string")
            && found[0].1.contains("/line_endings/0: expected one of")
            && found[0].1.contains("`extra` is not allowed"),
        "{}",
        found[0].1
    );
}

#[test]
fn a_result_without_structured_content_is_a_finding_unless_it_is_a_tool_error() {
    let mut client = client();
    let request = call(&mut client, "format_note");
    let (_, rules) = answer(
        &request,
        json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]}),
    );
    assert_eq!(rules, [Rule::StructuredContentMissing]);
    let request = call(&mut client, "format_note");
    let (_, rules) = answer(
        &request,
        json!({"resultType": "complete", "isError": true,
               "content": [{"type": "text", "text": "text is required"}]}),
    );
    assert!(rules.is_empty(), "{rules:?}");
}

#[test]
fn a_tool_without_output_schema_is_not_checked() {
    let mut client = client();
    let request = call(&mut client, "echo");
    assert!(request.output_contract().is_none());
    let (_, rules) = answer(
        &request,
        json!({"resultType": "complete", "content": [], "structuredContent": {"anything": 1}}),
    );
    assert!(rules.is_empty());
}

#[test]
fn an_mrtr_retry_carries_the_contract_and_only_its_complete_result_is_checked() {
    let mut client = client();
    let first = call(&mut client, "format_note");
    let mut logical = LogicalRequest::start(&first, Bounds::default(), 0);
    let input_required = json!({"resultType": "input_required",
        "inputRequests": {"ok": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "Sure?", "requestedSchema": {"type": "object", "properties": {}}}}},
        "requestState": "state-1"});
    let body = json!({"jsonrpc": "2.0", "id": first.id(), "result": input_required}).to_string();
    let mut reader = first.reader(200, Some("application/json"));
    reader.push_chunk(body.as_bytes());
    let reply = reader.finish_outcome().expect("input required");
    assert!(matches!(reply.result, Outcome::InputRequired(_)));
    assert!(reply.findings.is_empty(), "{:?}", reply.findings);
    assert!(matches!(logical.handle(reply), Step::NeedsInput));
    logical
        .answer("ok", InputAnswer::Accept(Some(Default::default())))
        .expect("answered");
    let retry = logical.retry(&mut client, 1).expect("a retry");
    assert_eq!(retry.output_contract(), first.output_contract());
    let (_, rules) = answer(
        &retry,
        json!({"resultType": "complete", "content": [], "structuredContent": {"lines": 0, "line_endings": []}}),
    );
    assert_eq!(rules, [Rule::OutputSchemaMismatch], "minimum 1");
}

#[test]
fn learning_the_tools_again_forgets_a_dropped_output_schema() {
    let mut client = client();
    let mut without = note_tool();
    without.output_schema = None;
    client.learn_tools(vec![without]);
    assert!(call(&mut client, "format_note").output_contract().is_none());
}
