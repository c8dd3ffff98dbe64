//! The demo server's answers on the wire: a one-message answer is a JSON body, compressed as
//! the client accepts; a stream of events is never compressed, so each event still arrives
//! when it is sent.

mod support;

use std::io::Read;
use std::time::{Duration, Instant};

use holdbay_engine::{McpMethod, OutgoingRequest, RequestOptions};
use serde_json::{Value, json};
use support::session::Session;
use support::{TestServer, header, http_client};

/// POST `request` as the engine builds it, saying which encodings the client accepts.
async fn post<M: McpMethod>(
    server: &TestServer,
    request: &OutgoingRequest<M>,
    accept_encoding: &str,
) -> reqwest::Response {
    let mut post = http_client()
        .post(server.mcp_url())
        .header("Accept-Encoding", accept_encoding)
        .body(request.body().to_owned());
    for (name, value) in request.headers() {
        post = post.header(name.as_str(), value);
    }
    post.send().await.expect("the server answers")
}

#[tokio::test]
async fn tools_list_is_a_json_body_compressed_as_the_client_accepts() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp.client.list_tools(None);

    let plain = post(&server, &request, "identity").await;
    assert_eq!(header(&plain, "content-type"), "application/json");
    assert_eq!(header(&plain, "content-encoding"), "");
    let plain = plain.bytes().await.expect("body");

    let brotli = post(&server, &request, "gzip, deflate, br, zstd").await;
    assert_eq!(brotli.status(), 200);
    assert_eq!(header(&brotli, "content-type"), "application/json");
    assert_eq!(header(&brotli, "content-encoding"), "br");
    assert!(
        header(&brotli, "vary")
            .to_ascii_lowercase()
            .contains("accept-encoding")
    );
    let compressed = brotli.bytes().await.expect("body");
    let mut decoded = Vec::new();
    brotli::Decompressor::new(&compressed[..], 4096)
        .read_to_end(&mut decoded)
        .expect("a brotli body");
    assert_eq!(decoded, plain, "the same answer, compressed");
    assert!(
        compressed.len() * 2 < plain.len(),
        "{} bytes compressed from {}",
        compressed.len(),
        plain.len()
    );
    let answer: Value = serde_json::from_slice(&decoded).expect("JSON");
    assert!(
        answer["result"]["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty())
    );
}

#[tokio::test]
async fn progress_streams_uncompressed_and_arrives_as_it_is_sent() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let options = RequestOptions {
        progress_token: Some(mcp.client.progress_token()),
        ..RequestOptions::default()
    };
    let seconds = 3.0;
    let request = mcp
        .client
        .call_tool(
            "slow_report",
            json!({ "seconds": seconds }).as_object().cloned(),
            &options,
        )
        .expect("request");
    let started = Instant::now();
    let mut response = post(&server, &request, "gzip, deflate, br, zstd").await;
    assert_eq!(header(&response, "content-type"), "text/event-stream");
    assert_eq!(header(&response, "content-encoding"), "");
    let first = response
        .chunk()
        .await
        .expect("a chunk")
        .expect("the stream has a first event");
    let text = String::from_utf8_lossy(&first);
    assert!(text.contains("notifications/progress"), "{text}");
    // The first of six sections is announced at once; the result comes `seconds` later.
    assert!(
        started.elapsed() < Duration::from_secs_f64(seconds / 2.0),
        "the first event came after {:?}",
        started.elapsed()
    );
}
