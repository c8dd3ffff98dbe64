//! Protocol versions over real HTTP: a legacy `initialize` gets HTTP 400 and the modern
//! `-32022` body, and the two version fixtures drive the engine's negotiation (one retry;
//! no common version) against the real binary.

mod support;

use holdbay_engine::{Negotiated, Negotiation, Rule, VersionMismatch};
use serde_json::{Value, json};
use support::session::Session;
use support::{TestServer, discover, header, http_client};

/// What a 2025-11-25 client (the MCP Inspector's default era, SDK v1 clients) sends first.
const LEGACY_INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"legacy-client","version":"1.0.0"}}}"#;

async fn body(response: reqwest::Response) -> Value {
    let text = response.text().await.expect("body");
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"))
}

#[tokio::test]
async fn a_legacy_initialize_gets_400_and_the_modern_unsupported_version_body() {
    // The MCP Inspector's page is not this server's own: it is let in by name.
    let server = TestServer::start(&["--allow-origin", "http://localhost:6274"]);
    let response = http_client()
        .post(server.mcp_url())
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(LEGACY_INITIALIZE)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 400);
    assert_eq!(header(&response, "content-type"), "application/json");
    assert!(header(&response, "mcp-session-id").is_empty(), "no session");
    let body = body(response).await;
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 0, "the error answers the request: {body}");
    assert_eq!(body["error"]["code"], -32022);
    assert_eq!(
        body["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2025-11-25"})
    );
    let message = body["error"]["message"].as_str().expect("message");
    assert!(
        message.contains("Unsupported protocol version"),
        "{message}"
    );

    // The same request from a browser page gets the CORS headers a page needs to read it.
    let response = http_client()
        .post(server.mcp_url())
        .header("Origin", "http://localhost:6274")
        .header("Content-Type", "application/json")
        .body(LEGACY_INITIALIZE)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 400);
    assert_eq!(
        header(&response, "access-control-allow-origin"),
        "http://localhost:6274"
    );

    // A 2026-07-28 request is untouched.
    let modern = discover(&http_client(), &server.mcp_url())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(modern.status().as_u16(), 200);
}

#[tokio::test]
async fn reject_first_version_refuses_once_and_the_engine_retries_once() {
    let server = TestServer::start(&["--fixtures", "reject-first-version"]);
    let mut session = Session::new(server.mcp_url());
    let first = session.client.discover();
    let error = session
        .send(&first)
        .await
        .expect_err("the first request is refused");
    assert_eq!(error.http_status(), Some(400));
    assert_eq!(error.rpc_code(), Some(-32022));
    let Some(Negotiated {
        next: Negotiation::Retry(retry),
        findings,
    }) = session.client.negotiate(&first, &error)
    else {
        panic!("the engine retries once");
    };
    assert_eq!(
        findings.iter().map(|f| f.rule).collect::<Vec<_>>(),
        [Rule::VersionRejectedThoughListed]
    );
    assert_ne!(retry.id(), first.id());
    assert_eq!(retry.protocol_version(), "2026-07-28");
    let discovered = session.send(&retry).await.expect("the retry is answered");
    let holdbay_engine::Outcome::Complete(discovered) = discovered.result else {
        panic!("discover completes");
    };
    assert_eq!(discovered.supported_versions[0].as_str(), "2026-07-28");
    // Later requests go through.
    let tools = session.client.list_tools(None);
    assert!(session.send(&tools).await.is_ok());
}

#[tokio::test]
async fn no_common_version_refuses_every_request_naming_older_revisions() {
    let server = TestServer::start(&["--fixtures", "no-common-version"]);
    let mut session = Session::new(server.mcp_url());
    for _ in 0..2 {
        let request = session.client.discover();
        let raw = session.post(&request).await;
        assert_eq!(raw.status().as_u16(), 400);
        let body = body(raw).await;
        assert_eq!(
            body["error"]["data"],
            json!({"supported": ["2025-06-18", "2025-11-25"], "requested": "2026-07-28"})
        );
    }
    let request = session.client.discover();
    let error = session.send(&request).await.expect_err("refused");
    let Some(Negotiated {
        next: Negotiation::Stop(mismatch),
        ..
    }) = session.client.negotiate(&request, &error)
    else {
        panic!("no retry without a common version");
    };
    assert_eq!(
        mismatch,
        VersionMismatch::NoCommonVersion {
            supported: vec!["2025-06-18".into(), "2025-11-25".into()],
            ours: vec!["2026-07-28".into()],
        }
    );
}
