//! The relay of the real `holdbay` binary over real HTTP: its per-launch token, its target
//! policy, SSE passing through live, and what it does and does not carry.

mod support;

use std::time::Duration;

use holdbay_engine::relay::RELAY_TOKEN_HEADER;

use support::upstream::{FIRST_EVENT, SECOND_EVENT, Upstream};
use support::{
    TestServer, discover, header, http_client, jsonrpc_error, with_mcp_headers, with_relay_token,
};

/// Long enough for any honest relay; a buffering one would wait forever.
const LIVE_WITHIN: Duration = Duration::from_secs(10);

#[tokio::test]
async fn targets_off_this_machine_are_refused_with_how_to_allow_them() {
    let server = TestServer::start(&[]);
    let token = server.relay_token().await;
    let client = http_client();
    for (target, host) in [
        ("http://10.1.2.3/mcp", "10.1.2.3"),
        ("http://example.com/mcp", "example.com"),
        ("http://0.0.0.0:9/mcp", "0.0.0.0"),
    ] {
        let response = with_relay_token(discover(&client, &server.relay_url(target)), &token)
            .send()
            .await
            .expect("the server answers");
        assert_eq!(header(&response, "x-holdbay-relay"), "1", "{target}");
        let (status, content_type, code, message) = jsonrpc_error(response).await;
        assert_eq!(status, 403, "{target}: {message}");
        assert_eq!(content_type, "application/json");
        assert_eq!(code, -32600);
        assert!(message.contains(host), "{target}: {message}");
        assert!(
            message.contains(&format!("--relay-allow {host}")),
            "{target}: {message}"
        );
    }
}

#[tokio::test]
async fn a_target_allowed_by_relay_allow_is_not_refused_by_policy() {
    let server = TestServer::start(&["--relay-allow", "relay-target.invalid"]);
    let token = server.relay_token().await;
    let response = with_relay_token(
        discover(
            &http_client(),
            &server.relay_url("http://relay-target.invalid/mcp"),
        ),
        &token,
    )
    .send()
    .await
    .expect("the server answers");
    let (status, _, _, message) = jsonrpc_error(response).await;
    assert_eq!(status, 502, "{message}");
    assert!(message.contains("relay-target.invalid"), "{message}");
}

#[tokio::test]
async fn unusable_targets_and_closed_ports_get_clear_errors() {
    let server = TestServer::start(&[]);
    let token = server.relay_token().await;
    let client = http_client();

    let without_target = discover(&client, &format!("{}/relay", server.base()))
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    let (status, _, _, message) = jsonrpc_error(without_target).await;
    assert_eq!(status, 400);
    assert!(message.contains("?target="), "{message}");

    let not_http = discover(&client, &server.relay_url("file:///etc/passwd"))
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(not_http.status(), 400);

    let closed_port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.local_addr().expect("bound address").port()
    };
    let target = format!("http://127.0.0.1:{closed_port}/mcp");
    let unreachable = discover(&client, &server.relay_url(&target))
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    let (status, _, code, message) = jsonrpc_error(unreachable).await;
    assert_eq!((status, code), (502, -32603), "{message}");
    assert!(message.contains(&target), "{message}");
}

#[tokio::test]
async fn a_discover_through_the_relay_arrives_as_the_servers_answer() {
    let server = TestServer::start(&[]);
    // The app's own page calls it.
    let origin = server.base();
    let token = server.relay_token().await;
    let response = discover(&http_client(), &server.relay_url(&server.mcp_url()))
        .header("Origin", &origin)
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "x-holdbay-relay"), "1");
    assert_eq!(header(&response, "access-control-allow-origin"), origin);
    // The demo server answers one message as a JSON body; the relay passes it on as it is.
    assert_eq!(header(&response, "content-type"), "application/json");
    let body = response.text().await.expect("the body ends");
    let result: serde_json::Value =
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    assert_eq!(result["id"], 1, "{result}");
    assert!(
        result["result"]["supportedVersions"]
            .as_array()
            .is_some_and(|versions| versions.iter().any(|v| v == "2026-07-28")),
        "{result}"
    );
}

#[tokio::test]
async fn events_are_relayed_as_they_come_not_when_the_stream_ends() {
    let server = TestServer::start(&[]);
    let token = server.relay_token().await;
    let upstream = Upstream::start().await;
    let mut response = http_client()
        .get(server.relay_url(&upstream.url("/stream")))
        .header("Accept", "text/event-stream")
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-type"), "text/event-stream");

    let first = tokio::time::timeout(LIVE_WITHIN, response.chunk())
        .await
        .expect("the first event arrives while the stream is still open")
        .expect("body")
        .expect("a chunk");
    assert_eq!(first, FIRST_EVENT.as_bytes());

    upstream.release();
    let rest = tokio::time::timeout(LIVE_WITHIN, response.text())
        .await
        .expect("the stream ends once released")
        .expect("body");
    assert_eq!(rest, SECOND_EVENT);
}

#[tokio::test]
async fn cookies_never_cross_and_authorization_only_when_sent() {
    let server = TestServer::start(&[]);
    let token = server.relay_token().await;
    let upstream = Upstream::start().await;
    let client = http_client();
    let relay_url = server.relay_url(&upstream.url("/echo"));

    let with_auth = with_mcp_headers(client.post(&relay_url))
        .header(RELAY_TOKEN_HEADER, &token)
        .header("Cookie", "holdbay-session=must-not-leak")
        .header("Authorization", "Bearer for-the-target")
        .header("Mcp-Param-Region", "eu-west")
        .header("Mcp-Name", "echo")
        .header("X-Not-Mcp", "dropped")
        .body(support::DISCOVER_BODY)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(with_auth.status(), 200);
    assert!(
        header(&with_auth, "set-cookie").is_empty(),
        "Set-Cookie came back"
    );
    assert_eq!(header(&with_auth, "x-holdbay-relay"), "1");
    let echoed: serde_json::Value = with_auth.json().await.expect("echo JSON");
    let received = &echoed["headers"];
    assert!(
        received.get("cookie").is_none(),
        "Cookie was forwarded: {received}"
    );
    assert!(received.get("x-not-mcp").is_none(), "{received}");
    assert!(
        received.get("x-holdbay-relay-token").is_none(),
        "the relay token went on to the target: {received}"
    );
    assert_eq!(received["authorization"], "Bearer for-the-target");
    assert_eq!(received["mcp-param-region"], "eu-west");
    assert_eq!(received["mcp-name"], "echo");
    assert_eq!(received["mcp-protocol-version"], support::PROTOCOL_VERSION);
    assert_eq!(received["content-type"], "application/json");
    assert_eq!(echoed["method"], "POST");
    assert_eq!(echoed["body"], support::DISCOVER_BODY);

    let without_auth = client
        .delete(&relay_url)
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    let echoed: serde_json::Value = without_auth.json().await.expect("echo JSON");
    assert_eq!(echoed["method"], "DELETE");
    assert!(
        echoed["headers"].get("authorization").is_none(),
        "{}",
        echoed["headers"]
    );
}

#[tokio::test]
async fn a_redirect_is_returned_not_followed() {
    let server = TestServer::start(&[]);
    let token = server.relay_token().await;
    let upstream = Upstream::start().await;
    let response = with_relay_token(
        discover(
            &http_client(),
            &server.relay_url(&upstream.url("/redirect")),
        ),
        &token,
    )
    .send()
    .await
    .expect("the server answers");
    assert_eq!(response.status(), 302);
    assert_eq!(header(&response, "x-holdbay-relay"), "1");
    assert!(header(&response, "location").is_empty());
}

#[tokio::test]
async fn without_this_launchs_token_the_relay_refuses_before_reaching_the_target() {
    let server = TestServer::start(&[]);
    let upstream = Upstream::start().await;
    let client = http_client();
    let relay_url = server.relay_url(&upstream.url("/echo"));

    let missing = discover(&client, &relay_url)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(header(&missing, "x-holdbay-relay"), "1");
    let (status, content_type, code, message) = jsonrpc_error(missing).await;
    assert_eq!(
        (status, content_type.as_str(), code),
        (403, "application/json", -32600)
    );
    assert!(message.contains("X-Holdbay-Relay-Token"), "{message}");
    assert!(message.contains("--relay-token"), "{message}");

    // Another launch's token, or a guess: refused the same way.
    let another_launch = TestServer::start(&[]).relay_token().await;
    let token = server.relay_token().await;
    assert_ne!(another_launch, token, "each launch makes its own token");
    for wrong in [another_launch.as_str(), &token[..token.len() - 1], "0"] {
        let refused = with_relay_token(discover(&client, &relay_url), wrong)
            .send()
            .await
            .expect("the server answers");
        let (status, _, _, message) = jsonrpc_error(refused).await;
        assert_eq!(status, 403, "{wrong}: {message}");
        assert!(message.contains("Reload the page"), "{message}");
    }

    // The right one passes, to the target's own answer.
    let passed = with_relay_token(discover(&client, &relay_url), &token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(passed.status(), 200);
    let echoed: serde_json::Value = passed.json().await.expect("echo JSON");
    assert_eq!(echoed["method"], "POST");
}

#[tokio::test]
async fn relay_token_sets_the_token_for_tests_and_the_page_carries_it() {
    let given = "a-relay-token-for-tests-0123456789";
    let server = TestServer::start(&["--relay-token", given]);
    assert_eq!(server.relay_token().await, given);
    let response = with_relay_token(
        discover(&http_client(), &server.relay_url(&server.mcp_url())),
        given,
    )
    .send()
    .await
    .expect("the server answers");
    assert_eq!(response.status(), 200);
}
