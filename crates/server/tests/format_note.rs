//! `format_note` over real HTTP: exact arguments (CRLF kept byte for byte, an optional boolean
//! left out, a nullable string sent as null), its outputSchema in `tools/list`, and a result
//! the engine checks against it (and the deliberate break the engine reports).

mod support;

use holdbay_engine::model::CallToolResult;
use holdbay_engine::{Outcome, Rule};
use serde_json::{Value, json};
use support::TestServer;
use support::session::Session;

async fn listed(mcp: &mut Session) {
    let request = mcp.client.list_tools(None);
    let Outcome::Complete(result) = mcp.send(&request).await.expect("tools/list").result else {
        panic!("tools/list did not complete");
    };
    let tool = result
        .tools
        .iter()
        .find(|tool| tool.name == "format_note")
        .expect("format_note is listed")
        .clone();
    let output = tool.output_schema.as_ref().expect("an outputSchema");
    // As written: key order kept, `$ref` not expanded, 2020-12 keywords in place.
    let keys: Vec<&str> = output.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "$schema",
            "type",
            "$defs",
            "properties",
            "required",
            "additionalProperties"
        ]
    );
    assert_eq!(
        output["properties"]["received"]["properties"]["title"],
        json!({"$ref": "#/$defs/arrival"})
    );
    assert_eq!(
        tool.input_schema["properties"]["title"]["type"],
        json!(["string", "null"])
    );
    mcp.client.learn_tools(result.tools);
}

async fn call(mcp: &mut Session, arguments: Value) -> (CallToolResult, Vec<Rule>) {
    let request = mcp
        .client
        .call_tool(
            "format_note",
            arguments.as_object().cloned(),
            &Default::default(),
        )
        .expect("a request");
    let reply = mcp.send(&request).await.expect("the call is answered");
    let rules = reply.findings.iter().map(|finding| finding.rule).collect();
    let Outcome::Complete(result) = reply.result else {
        panic!("format_note answered {:?}", reply.result);
    };
    (result, rules)
}

#[tokio::test]
async fn line_breaks_and_missing_arguments_come_back_exactly() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    listed(&mut mcp).await;
    let (result, rules) = call(
        &mut mcp,
        json!({"text": "first\r\n  second\r\nthird ", "title": null}),
    )
    .await;
    assert!(rules.is_empty(), "the demo keeps its own schema: {rules:?}");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        result.structured_content,
        Some(json!({
            "note": "first\r\n  second\r\nthird ",
            "title": null,
            "lines": 3,
            "line_endings": ["CRLF"],
            "received": {"title": "null", "uppercase": "absent"}
        }))
    );

    let (result, rules) = call(
        &mut mcp,
        json!({"text": "", "title": "", "uppercase": true}),
    )
    .await;
    assert!(rules.is_empty(), "{rules:?}");
    let structured = result.structured_content.expect("structured");
    assert_eq!(structured["note"], "");
    assert_eq!(structured["title"], "");
    assert_eq!(
        structured["received"],
        json!({"title": "value", "uppercase": "value"})
    );
}

#[tokio::test]
async fn a_wrong_argument_type_is_refused_and_break_schema_is_reported() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    listed(&mut mcp).await;
    let request = mcp
        .client
        .call_tool(
            "format_note",
            json!({"text": "x", "uppercase": null}).as_object().cloned(),
            &Default::default(),
        )
        .expect("a request");
    let error = mcp.send(&request).await.expect_err("null is not a boolean");
    assert_eq!(error.rpc_code(), Some(-32602));

    let (result, rules) = call(&mut mcp, json!({"text": "a\nb", "break_schema": true})).await;
    assert_eq!(rules, [Rule::OutputSchemaMismatch]);
    assert_eq!(result.structured_content.expect("structured")["lines"], "2");
}
