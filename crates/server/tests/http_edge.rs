//! The HTTP edge of the real `holdbay` binary over real HTTP: Origin validation and
//! CORS, bearer tokens, and the body limit.

mod support;

use holdbay_engine::relay::RELAY_TOKEN_HEADER;
use support::{TestServer, discover, header, http_client, jsonrpc_error};

const EVIL: &str = "https://evil.test";

#[tokio::test]
async fn a_foreign_origin_is_refused_with_a_jsonrpc_403_on_mcp_and_relay() {
    let server = TestServer::start(&[]);
    let client = http_client();
    let mcp = discover(&client, &server.mcp_url())
        .header("Origin", EVIL)
        .send()
        .await
        .expect("the server answers");
    assert!(header(&mcp, "access-control-allow-origin").is_empty());
    let (status, content_type, code, message) = jsonrpc_error(mcp).await;
    assert_eq!(status, 403);
    assert_eq!(content_type, "application/json");
    assert_eq!(code, -32600);
    assert!(
        message.contains("Origin https://evil.test is not allowed"),
        "{message}"
    );
    assert!(message.contains("--allow-origin"), "{message}");

    let relayed = discover(&client, &server.relay_url(&server.mcp_url()))
        .header("Origin", EVIL)
        .send()
        .await
        .expect("the server answers");
    let (status, _, _, message) = jsonrpc_error(relayed).await;
    assert_eq!(status, 403);
    assert!(message.contains(EVIL), "{message}");
}

#[tokio::test]
async fn the_own_and_listed_origins_are_served_with_cors_headers() {
    let server = TestServer::start(&["--allow-origin", "https://tools.example.test"]);
    let client = http_client();
    let own_origin = server.base();
    let port = server.address.port();
    let by_localhost = format!("http://localhost:{port}");
    for (url, origin) in [
        (server.mcp_url(), own_origin.as_str()),
        // The page as served under the name localhost calls the server by that name.
        (format!("{by_localhost}/mcp"), by_localhost.as_str()),
        // The listening address's page, calling it by another of its names.
        (format!("{by_localhost}/mcp"), own_origin.as_str()),
        (server.mcp_url(), "https://tools.example.test"),
    ] {
        let response = discover(&client, &url)
            .header("Origin", origin)
            .send()
            .await
            .expect("the server answers");
        assert_eq!(response.status(), 200, "{origin} to {url}");
        assert_eq!(header(&response, "access-control-allow-origin"), origin);
        assert!(header(&response, "vary").contains("Origin"), "{origin}");
        let exposed = header(&response, "access-control-expose-headers").to_ascii_lowercase();
        for name in ["www-authenticate", "mcp-protocol-version", "mcp-session-id"] {
            assert!(exposed.contains(name), "{origin}: {exposed}");
        }
    }
}

#[tokio::test]
async fn a_request_without_origin_passes_without_cors_headers() {
    let server = TestServer::start(&[]);
    let response = discover(&http_client(), &server.mcp_url())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status(), 200);
    assert!(header(&response, "access-control-allow-origin").is_empty());
}

#[tokio::test]
async fn a_preflight_allows_the_mcp_headers_and_echoes_param_headers() {
    let server = TestServer::start(&[]);
    let client = http_client();
    let origin = server.base();
    for url in [server.mcp_url(), server.relay_url(&server.mcp_url())] {
        let response = client
            .request(reqwest::Method::OPTIONS, &url)
            .header("Origin", &origin)
            .header("Access-Control-Request-Method", "POST")
            .header(
                "Access-Control-Request-Headers",
                "authorization, content-type, mcp-method, mcp-name, mcp-param-region, \
                 mcp-protocol-version",
            )
            .send()
            .await
            .expect("the server answers");
        assert_eq!(response.status(), 204, "{url}");
        assert_eq!(header(&response, "access-control-allow-origin"), origin);
        assert!(header(&response, "vary").contains("Origin"));
        let methods = header(&response, "access-control-allow-methods");
        for method in ["GET", "POST", "DELETE", "OPTIONS"] {
            assert!(methods.contains(method), "{methods}");
        }
        let allowed = header(&response, "access-control-allow-headers").to_ascii_lowercase();
        for name in [
            "content-type",
            "accept",
            "authorization",
            "mcp-protocol-version",
            "mcp-method",
            "mcp-name",
            "last-event-id",
            "mcp-param-region",
        ] {
            assert!(allowed.contains(name), "{name} in {allowed}");
        }
        assert!(!header(&response, "access-control-max-age").is_empty());
        let exposed = header(&response, "access-control-expose-headers").to_ascii_lowercase();
        assert!(exposed.contains("www-authenticate"), "{exposed}");
    }

    let foreign = client
        .request(reqwest::Method::OPTIONS, server.mcp_url())
        .header("Origin", EVIL)
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .expect("the server answers");
    assert_eq!(foreign.status(), 403);
    assert!(header(&foreign, "access-control-allow-origin").is_empty());
}

#[tokio::test]
async fn with_tokens_mcp_needs_a_right_bearer_token() {
    let server = TestServer::start(&[
        "--token",
        "ada:secret-of-ada",
        "--token",
        "bob:secret-of-bob",
    ]);
    let client = http_client();

    let missing = discover(&client, &server.mcp_url())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(
        header(&missing, "www-authenticate"),
        r#"Bearer realm="holdbay""#
    );
    let (status, content_type, code, message) = jsonrpc_error(missing).await;
    assert_eq!(
        (status, content_type.as_str(), code),
        (401, "application/json", -32600)
    );
    assert!(message.contains("--token"), "{message}");

    let wrong = discover(&client, &server.mcp_url())
        .bearer_auth("secret-of-eve")
        .send()
        .await
        .expect("the server answers");
    assert_eq!(wrong.status(), 401);
    assert_eq!(
        header(&wrong, "www-authenticate"),
        r#"Bearer realm="holdbay", error="invalid_token""#
    );

    for secret in ["secret-of-ada", "secret-of-bob"] {
        let right = discover(&client, &server.mcp_url())
            .bearer_auth(secret)
            .send()
            .await
            .expect("the server answers");
        assert_eq!(right.status(), 200, "{secret}");
    }
}

#[tokio::test]
async fn a_browser_can_read_the_challenge_and_preflight_needs_no_token() {
    let server = TestServer::start(&["--token", "ada:secret-of-ada"]);
    let client = http_client();
    let origin = server.base();
    let origin = origin.as_str();
    let preflight = client
        .request(reqwest::Method::OPTIONS, server.mcp_url())
        .header("Origin", origin)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization")
        .send()
        .await
        .expect("the server answers");
    assert_eq!(preflight.status(), 204);

    let challenged = discover(&client, &server.mcp_url())
        .header("Origin", origin)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(challenged.status(), 401);
    assert_eq!(header(&challenged, "access-control-allow-origin"), origin);
    let exposed = header(&challenged, "access-control-expose-headers").to_ascii_lowercase();
    assert!(exposed.contains("www-authenticate"), "{exposed}");
}

#[tokio::test]
async fn the_app_and_the_relay_are_not_behind_the_tokens() {
    let server = TestServer::start(&["--token", "ada:secret-of-ada"]);
    let client = http_client();
    let page = client
        .get(format!("{}/", server.base()))
        .send()
        .await
        .expect("the server answers");
    assert_eq!(page.status(), 200);
    assert!(
        page.text()
            .await
            .expect("page")
            .contains("holdbay test page")
    );

    // Through the relay, the bearer token check is the target's (here the same server's)
    // own; the relay itself asks for its relay token, not a bearer token.
    let relay_token = server.relay_token().await;
    let relayed = discover(&client, &server.relay_url(&server.mcp_url()))
        .bearer_auth("secret-of-ada")
        .header(RELAY_TOKEN_HEADER, &relay_token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(relayed.status(), 200);
    assert_eq!(header(&relayed, "x-holdbay-relay"), "1");
}

#[tokio::test]
async fn a_body_over_the_limit_gets_a_jsonrpc_413_whether_sized_or_chunked() {
    let server = TestServer::start(&["--max-body-bytes", "512"]);
    let client = http_client();
    let fits = discover(&client, &server.mcp_url())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(fits.status(), 200, "a discover request fits in 512 bytes");

    let oversized = support::DISCOVER_BODY
        .replace(r#""name":"t""#, &format!(r#""name":"{}""#, "t".repeat(600)));
    let sized = support::with_mcp_headers(client.post(server.mcp_url()))
        .body(oversized.clone())
        .send()
        .await
        .expect("the server answers");
    let (status, content_type, code, message) = jsonrpc_error(sized).await;
    assert_eq!(
        (status, content_type.as_str(), code),
        (413, "application/json", -32600)
    );
    assert!(message.contains("512 bytes"), "{message}");
    assert!(message.contains("--max-body-bytes"), "{message}");

    // No Content-Length: the limit has to be found while reading.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = oversized
        .as_bytes()
        .chunks(100)
        .map(|chunk| Ok(chunk.to_vec()))
        .collect();
    let chunked = support::with_mcp_headers(client.post(server.mcp_url()))
        .body(reqwest::Body::wrap_stream(futures::stream::iter(chunks)))
        .send()
        .await
        .expect("the server answers");
    let (status, _, _, message) = jsonrpc_error(chunked).await;
    assert_eq!(status, 413);
    assert!(message.contains("512 bytes"), "{message}");

    let relay_token = server.relay_token().await;
    let relayed = support::with_mcp_headers(client.post(server.relay_url(&server.mcp_url())))
        .header(RELAY_TOKEN_HEADER, &relay_token)
        .body(oversized)
        .send()
        .await
        .expect("the server answers");
    let (status, _, _, message) = jsonrpc_error(relayed).await;
    assert_eq!(status, 413);
    assert!(message.contains("512 bytes"), "{message}");
}

#[tokio::test]
async fn a_foreign_host_name_is_refused_even_without_origin() {
    // What a DNS-rebound page's same-origin GET looks like: its own name, no Origin.
    let server = TestServer::start(&[]);
    let client = http_client();
    let rebound_host = format!("evil.test:{}", server.address.port());
    for url in [server.mcp_url(), server.relay_url(&server.mcp_url())] {
        let response = client
            .get(&url)
            .header("Host", &rebound_host)
            .header("Accept", "text/event-stream")
            .send()
            .await
            .expect("the server answers");
        let (status, _, _, message) = jsonrpc_error(response).await;
        assert_eq!(status, 403, "{url}: {message}");
        assert!(message.contains("evil.test"), "{message}");
    }
    let by_localhost = discover(
        &client,
        &format!("http://localhost:{}/mcp", server.address.port()),
    )
    .send()
    .await
    .expect("the server answers");
    assert_eq!(by_localhost.status(), 200);
}

#[tokio::test]
async fn the_favicon_is_served_not_a_404() {
    let server = TestServer::start(&[]);
    let response = http_client()
        .get(format!("{}/favicon.ico", server.base()))
        .send()
        .await
        .expect("favicon");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-type"), "image/svg+xml");
    let body = response.text().await.expect("body");
    assert!(body.starts_with("<svg"), "{body}");
}
