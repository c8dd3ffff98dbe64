//! The app's own surface is the app's, over real HTTP on 127.0.0.1: `/mcp` and the relay
//! answer browser pages of this server's own origin and of each `--allow-origin`, and no
//! other page, not even one on another loopback address or port; the relay also needs the
//! token of this launch, which only the served page carries. Requests without an Origin
//! (curl, native clients) reach `/mcp` as before.

mod support;

use holdbay_engine::relay::RELAY_TOKEN_HEADER;
use support::{TestServer, discover, header, http_client, jsonrpc_error};

/// Pages on this machine that are not the app's: another loopback address on the same
/// port, and the same address on another port.
fn foreign_loopback_origins(server: &TestServer) -> [String; 3] {
    let port = server.address.port();
    let other = if port == u16::MAX { port - 1 } else { port + 1 };
    [
        format!("http://127.0.0.2:{port}"),
        format!("http://127.0.0.1:{other}"),
        format!("http://localhost:{other}"),
    ]
}

async fn preflight(url: &str, origin: &str, headers: &str) -> reqwest::Response {
    http_client()
        .request(reqwest::Method::OPTIONS, url)
        .header("Origin", origin)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", headers)
        .send()
        .await
        .expect("the server answers")
}

async fn assert_refused(response: reqwest::Response, origin: &str, what: &str) {
    assert!(
        header(&response, "access-control-allow-origin").is_empty(),
        "{what}: {origin} may read the answer"
    );
    let (status, _, _, message) = jsonrpc_error(response).await;
    assert_eq!(status, 403, "{what} from {origin}: {message}");
    assert!(
        message.contains(&format!("Origin {origin} is not allowed")),
        "{what}: {message}"
    );
    assert!(
        message.contains(&format!("--allow-origin {origin}")),
        "{what}: {message}"
    );
}

#[tokio::test]
async fn pages_on_other_loopback_origins_are_refused_on_mcp_and_the_relay() {
    let server = TestServer::start(&[]);
    let token = server.relay_token().await;
    let client = http_client();
    let relay = server.relay_url(&server.mcp_url());
    for origin in foreign_loopback_origins(&server) {
        let call = discover(&client, &server.mcp_url())
            .header("Origin", &origin)
            .send()
            .await
            .expect("the server answers");
        assert_refused(call, &origin, "POST /mcp").await;

        let asked = preflight(&server.mcp_url(), &origin, "content-type, mcp-method").await;
        assert!(header(&asked, "access-control-allow-headers").is_empty());
        assert_refused(asked, &origin, "OPTIONS /mcp").await;

        // Even a page that somehow had the token is refused by its origin.
        let relayed = discover(&client, &relay)
            .header("Origin", &origin)
            .header(RELAY_TOKEN_HEADER, &token)
            .send()
            .await
            .expect("the server answers");
        assert_refused(relayed, &origin, "POST /relay").await;

        let asked = preflight(&relay, &origin, "content-type, x-holdbay-relay-token").await;
        assert!(header(&asked, "access-control-allow-headers").is_empty());
        assert_refused(asked, &origin, "OPTIONS /relay").await;
    }
}

#[tokio::test]
async fn the_apps_own_page_uses_mcp_and_the_relay() {
    let server = TestServer::start(&[]);
    let token = server.relay_token().await;
    let client = http_client();
    let origin = server.base();
    let relay = server.relay_url(&server.mcp_url());

    let call = discover(&client, &server.mcp_url())
        .header("Origin", &origin)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(call.status(), 200);
    assert_eq!(header(&call, "access-control-allow-origin"), origin);

    // Only the relay's preflight lets the page send the token's header.
    let to_relay = preflight(&relay, &origin, "content-type, x-holdbay-relay-token").await;
    assert_eq!(to_relay.status(), 204);
    let allowed = header(&to_relay, "access-control-allow-headers").to_ascii_lowercase();
    assert!(allowed.contains("x-holdbay-relay-token"), "{allowed}");
    let to_mcp = preflight(&server.mcp_url(), &origin, "content-type").await;
    assert_eq!(to_mcp.status(), 204);
    let allowed = header(&to_mcp, "access-control-allow-headers").to_ascii_lowercase();
    assert!(!allowed.contains("x-holdbay-relay-token"), "{allowed}");

    let relayed = discover(&client, &relay)
        .header("Origin", &origin)
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(relayed.status(), 200);
    assert_eq!(header(&relayed, "access-control-allow-origin"), origin);
    assert_eq!(header(&relayed, "x-holdbay-relay"), "1");
    let answer: serde_json::Value = relayed.json().await.expect("JSON");
    assert!(answer["result"]["supportedVersions"].is_array(), "{answer}");

    // The own page without the token is refused by the relay, readably.
    let without = discover(&client, &relay)
        .header("Origin", &origin)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(header(&without, "access-control-allow-origin"), origin);
    let (status, _, _, message) = jsonrpc_error(without).await;
    assert_eq!(status, 403);
    assert!(message.contains(RELAY_TOKEN_HEADER), "{message}");
}

#[tokio::test]
async fn allow_origin_opens_mcp_and_the_relay_to_that_page_only() {
    let server = TestServer::start(&["--allow-origin", "http://127.0.0.2:7420"]);
    let token = server.relay_token().await;
    let client = http_client();
    let opened = "http://127.0.0.2:7420";
    let call = discover(&client, &server.mcp_url())
        .header("Origin", opened)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(call.status(), 200);
    assert_eq!(header(&call, "access-control-allow-origin"), opened);
    let relayed = discover(&client, &server.relay_url(&server.mcp_url()))
        .header("Origin", opened)
        .header(RELAY_TOKEN_HEADER, &token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(relayed.status(), 200);
    assert_eq!(header(&relayed, "access-control-allow-origin"), opened);

    let beside = "http://127.0.0.2:7421";
    let refused = discover(&client, &server.mcp_url())
        .header("Origin", beside)
        .send()
        .await
        .expect("the server answers");
    assert_refused(refused, beside, "POST /mcp").await;
}

#[tokio::test]
async fn without_origin_mcp_works_as_before_and_the_relay_still_needs_the_token() {
    let server = TestServer::start(&[]);
    let client = http_client();
    let call = discover(&client, &server.mcp_url())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(call.status(), 200);
    assert!(header(&call, "access-control-allow-origin").is_empty());

    // What a same-origin GET or another page's `no-cors` request looks like: no Origin.
    let relayed = discover(&client, &server.relay_url(&server.mcp_url()))
        .send()
        .await
        .expect("the server answers");
    assert_eq!(relayed.status(), 403);
}
