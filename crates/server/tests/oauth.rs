//! `holdbay serve --auth oauth`: the whole MCP authorization flow against the real binary,
//! from the 401 challenge through discovery, registration, consent, the code exchange with
//! PKCE, refresh with rotation, audience binding, expiry and the step-up to a bigger scope.
//! And `/protected/mcp`, there on every `holdbay serve` (the authorization lesson's
//! endpoint): its own challenge, metadata, audience and step-up, while `/mcp` stays open.

mod support;

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use support::{TestServer, discover, header, http_client};

const VERIFIER: &str = "a-fixed-pkce-code-verifier-that-is-long-enough-0123456789";
const REDIRECT: &str = "http://127.0.0.1:9/callback";

fn challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn oauth_server(extra: &[&str]) -> TestServer {
    let mut args = vec!["--auth", "oauth"];
    args.extend_from_slice(extra);
    TestServer::start(&args)
}

/// Registers a public client (or one with `auth_method`) redirecting to [`REDIRECT`].
async fn register(server: &TestServer, auth_method: &str) -> Value {
    let response = http_client()
        .post(format!("{}/oauth/register", server.base()))
        .json(&json!({
            "application_type": "web",
            "client_name": "Test <client>",
            "redirect_uris": [REDIRECT],
            "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": auth_method,
        }))
        .send()
        .await
        .expect("register");
    assert_eq!(response.status(), 201);
    response.json().await.expect("registration JSON")
}

struct Authorization<'a> {
    client_id: &'a str,
    redirect_uri: &'a str,
    scope: &'a str,
    resource: String,
}

fn authorize_url(server: &TestServer, request: &Authorization<'_>) -> String {
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("response_type", "code")
        .append_pair("client_id", request.client_id)
        .append_pair("redirect_uri", request.redirect_uri)
        .append_pair("scope", request.scope)
        .append_pair("state", "st-42")
        .append_pair("code_challenge", &challenge(VERIFIER))
        .append_pair("code_challenge_method", "S256")
        .append_pair("resource", &request.resource)
        .finish();
    format!("{}/oauth/authorize?{query}", server.base())
}

/// The consent page's one-time request id.
fn request_id(page: &str) -> String {
    let marker = "name=\"request_id\" value=\"";
    let start = page.find(marker).expect("request_id in the page") + marker.len();
    let end = start + page[start..].find('"').expect("end of request_id");
    page[start..end].to_owned()
}

/// Shows the consent page, answers it, and returns the redirect's query parameters.
async fn consent(
    server: &TestServer,
    request: &Authorization<'_>,
    decision: &str,
) -> HashMap<String, String> {
    let client = http_client();
    let page = client
        .get(authorize_url(server, request))
        .send()
        .await
        .expect("consent page");
    assert_eq!(page.status(), 200);
    assert!(header(&page, "content-security-policy").contains("form-action 'self'"));
    // A browser posts the form with its Origin (under no-referrer it would say `null`,
    // which the Origin guard refuses).
    assert_eq!(header(&page, "referrer-policy"), "same-origin");
    let page = page.text().await.expect("page text");
    assert!(page.contains("Allow") && page.contains("Deny"), "{page}");
    let answer = client
        .post(format!("{}/oauth/authorize", server.base()))
        .form(&[
            ("request_id", request_id(&page).as_str()),
            ("decision", decision),
        ])
        .send()
        .await
        .expect("decision");
    assert_eq!(answer.status(), 303);
    let location = header(&answer, "location");
    assert!(location.starts_with(request.redirect_uri), "{location}");
    url::Url::parse(&location)
        .expect("location URL")
        .query_pairs()
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect()
}

async fn token(server: &TestServer, form: &[(&str, &str)]) -> (u16, Value) {
    let response = http_client()
        .post(format!("{}/oauth/token", server.base()))
        .form(form)
        .send()
        .await
        .expect("token request");
    let status = response.status().as_u16();
    assert_eq!(header(&response, "cache-control"), "no-store");
    (status, response.json().await.expect("token JSON"))
}

/// A registered public client's tokens for `scope`, for the server's `/mcp`.
async fn sign_in(server: &TestServer, scope: &str) -> Value {
    sign_in_for(server, scope, &server.mcp_url()).await
}

/// `http://ADDR/protected/mcp`: the endpoint that always needs a token.
fn protected_url(server: &TestServer) -> String {
    format!("{}/protected/mcp", server.base())
}

/// A registered public client's tokens for `scope`, for the endpoint `resource`.
async fn sign_in_for(server: &TestServer, scope: &str, resource: &str) -> Value {
    let client = register(server, "none").await;
    let client_id = client["client_id"].as_str().expect("client_id").to_owned();
    let request = Authorization {
        client_id: &client_id,
        redirect_uri: REDIRECT,
        scope,
        resource: resource.to_owned(),
    };
    let answer = consent(server, &request, "allow").await;
    let (status, body) = token(
        server,
        &[
            ("grant_type", "authorization_code"),
            ("code", &answer["code"]),
            ("redirect_uri", REDIRECT),
            ("client_id", &client_id),
            ("code_verifier", VERIFIER),
            ("resource", resource),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut body = body;
    body["client_id"] = json!(client_id);
    body
}

/// Arguments each called tool accepts.
fn arguments_for(name: &str) -> Value {
    match name {
        "echo" => json!({"message": "hi"}),
        _ => json!({}),
    }
}

fn tool_call(name: &str) -> String {
    json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {
            "name": name, "arguments": arguments_for(name),
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": support::PROTOCOL_VERSION,
                "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
            }
        }
    })
    .to_string()
}

async fn call_tool(server: &TestServer, access_token: &str, name: &str) -> reqwest::Response {
    call_tool_at(&server.mcp_url(), access_token, name).await
}

async fn call_tool_at(url: &str, access_token: &str, name: &str) -> reqwest::Response {
    http_client()
        .post(url)
        .bearer_auth(access_token)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", support::PROTOCOL_VERSION)
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", name)
        .body(tool_call(name))
        .send()
        .await
        .expect("tools/call")
}

#[tokio::test]
async fn mcp_without_a_token_is_challenged_towards_the_resource_metadata() {
    let server = oauth_server(&[]);
    let client = http_client();
    let response = discover(&client, &server.mcp_url())
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 401);
    assert_eq!(
        header(&response, "www-authenticate"),
        format!(
            "Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:tools\"",
            server.base()
        )
    );
    // A browser page of the server's own origin may read the challenge.
    let response = discover(&client, &server.mcp_url())
        .header("Origin", server.base())
        .send()
        .await
        .expect("discover from the page");
    assert_eq!(response.status(), 401);
    assert!(
        header(&response, "access-control-expose-headers")
            .to_ascii_lowercase()
            .contains("www-authenticate")
    );
    // Its preflight is answered before any token is asked for.
    let preflight = client
        .request(reqwest::Method::OPTIONS, server.mcp_url())
        .header("Origin", server.base())
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization, content-type",
        )
        .send()
        .await
        .expect("preflight");
    assert_eq!(preflight.status(), 204);
    // A made-up token is refused as invalid.
    let response = discover(&client, &server.mcp_url())
        .bearer_auth("not-a-token")
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 401);
    assert!(header(&response, "www-authenticate").contains("error=\"invalid_token\""));
}

#[tokio::test]
async fn both_metadata_documents_describe_this_origin() {
    let server = oauth_server(&[]);
    let client = http_client();
    let base = server.base();
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let document: Value = client
            .get(format!("{base}{path}"))
            .send()
            .await
            .expect("resource metadata")
            .json()
            .await
            .expect("JSON");
        assert_eq!(document["resource"], server.mcp_url(), "{path}");
        assert_eq!(document["authorization_servers"], json!([base]));
        assert_eq!(document["bearer_methods_supported"], json!(["header"]));
        assert!(
            document["scopes_supported"]
                .as_array()
                .expect("scopes")
                .contains(&json!("mcp:tools"))
        );
    }
    for path in [
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
    ] {
        let response = client
            .get(format!("{base}{path}"))
            .header("Origin", &base)
            .send()
            .await
            .expect("AS metadata");
        assert_eq!(header(&response, "access-control-allow-origin"), base);
        let document: Value = response.json().await.expect("JSON");
        assert_eq!(document["issuer"], base);
        assert_eq!(
            document["authorization_endpoint"],
            format!("{base}/oauth/authorize")
        );
        assert_eq!(document["token_endpoint"], format!("{base}/oauth/token"));
        assert_eq!(
            document["registration_endpoint"],
            format!("{base}/oauth/register")
        );
        assert_eq!(
            document["code_challenge_methods_supported"],
            json!(["S256"])
        );
        assert_eq!(document["response_types_supported"], json!(["code"]));
        assert_eq!(
            document["token_endpoint_auth_methods_supported"],
            json!(["none", "client_secret_post", "client_secret_basic"])
        );
        assert_eq!(
            document["authorization_response_iss_parameter_supported"],
            true
        );
        assert_eq!(document["client_id_metadata_document_supported"], true);
        assert!(
            document["scopes_supported"]
                .as_array()
                .expect("scopes")
                .contains(&json!("offline_access"))
        );
    }
    // The app's page may call the token endpoint: its preflight is answered.
    let preflight = client
        .request(reqwest::Method::OPTIONS, format!("{base}/oauth/token"))
        .header("Origin", &base)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type")
        .send()
        .await
        .expect("preflight");
    assert_eq!(preflight.status(), 204);
    assert_eq!(header(&preflight, "access-control-allow-origin"), base);
    // A foreign page may not read them.
    let response = client
        .get(format!("{base}/.well-known/oauth-authorization-server"))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .expect("AS metadata");
    assert_eq!(response.status(), 403);
}

#[tokio::test]
async fn registration_accepts_loopback_redirects_and_gives_secrets_when_asked() {
    let server = oauth_server(&[]);
    let public = register(&server, "none").await;
    assert!(
        public["client_id"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );
    assert!(public.get("client_secret").is_none(), "{public}");
    let confidential = register(&server, "client_secret_post").await;
    assert!(
        confidential["client_secret"]
            .as_str()
            .is_some_and(|s| s.len() >= 32)
    );
    let refused = http_client()
        .post(format!("{}/oauth/register", server.base()))
        .json(&json!({"redirect_uris": ["https://evil.example/cb"], "token_endpoint_auth_method": "none"}))
        .send()
        .await
        .expect("register");
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.expect("JSON");
    assert_eq!(body["error"], "invalid_redirect_uri");
}

#[tokio::test]
async fn the_code_flow_with_pkce_issues_tokens_once() {
    let server = oauth_server(&[]);
    let client = register(&server, "none").await;
    let client_id = client["client_id"].as_str().expect("client_id");
    let request = Authorization {
        client_id,
        redirect_uri: REDIRECT,
        scope: "mcp:tools",
        resource: server.mcp_url(),
    };
    // The page names the client (escaped), the redirect target and each scope.
    let page = http_client()
        .get(authorize_url(&server, &request))
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("text");
    assert!(page.contains("Test &lt;client&gt;"), "{page}");
    assert!(
        page.contains(REDIRECT) && page.contains("mcp:tools"),
        "{page}"
    );

    let answer = consent(&server, &request, "allow").await;
    assert_eq!(answer["state"], "st-42");
    assert_eq!(answer["iss"], server.base());
    let code = answer["code"].clone();
    let exchange = |verifier: &'static str, code: String| {
        let server = &server;
        async move {
            token(
                server,
                &[
                    ("grant_type", "authorization_code"),
                    ("code", &code),
                    ("redirect_uri", REDIRECT),
                    ("client_id", client_id),
                    ("code_verifier", verifier),
                ],
            )
            .await
        }
    };
    // A wrong verifier fails, and spends the code.
    let (status, body) = exchange(
        "the-wrong-verifier-which-is-also-long-enough-000000000",
        code.clone(),
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant")),
        "{body}"
    );
    let (status, _) = exchange(VERIFIER, code).await;
    assert_eq!(status, 400);

    // A fresh code with the right verifier works once.
    let code = consent(&server, &request, "allow").await["code"].clone();
    let (status, body) = exchange(VERIFIER, code.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["scope"], "mcp:tools");
    assert!(body["expires_in"].as_u64().is_some_and(|secs| secs > 0));
    assert!(
        body.get("refresh_token").is_none(),
        "no offline_access, no refresh token"
    );
    let (status, body2) = exchange(VERIFIER, code).await;
    assert_eq!(
        (status, body2["error"].as_str()),
        (400, Some("invalid_grant"))
    );

    // The token opens /mcp.
    let access = body["access_token"].as_str().expect("access_token");
    let response = discover(&http_client(), &server.mcp_url())
        .bearer_auth(access)
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn deny_and_bad_requests_are_answered_where_they_safely_can_be() {
    let server = oauth_server(&[]);
    let client = register(&server, "none").await;
    let client_id = client["client_id"].as_str().expect("client_id");
    let request = Authorization {
        client_id,
        redirect_uri: REDIRECT,
        scope: "mcp:tools",
        resource: server.mcp_url(),
    };
    let answer = consent(&server, &request, "deny").await;
    assert_eq!(answer["error"], "access_denied");
    assert_eq!(answer["state"], "st-42");
    assert!(!answer.contains_key("code"));

    // A decision needs the page's one-time id, and another site's page cannot post one.
    let page = http_client()
        .get(authorize_url(&server, &request))
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("text");
    let id = request_id(&page);
    let post = |origin: &'static str| {
        http_client()
            .post(format!("{}/oauth/authorize", server.base()))
            .header("Origin", origin)
            .form(&[("request_id", id.as_str()), ("decision", "allow")])
            .send()
    };
    assert_eq!(
        post("https://evil.example").await.expect("post").status(),
        403
    );
    let forged = http_client()
        .post(format!("{}/oauth/authorize", server.base()))
        .form(&[("request_id", "guessed"), ("decision", "allow")])
        .send()
        .await
        .expect("post");
    assert_eq!(forged.status(), 400);
    assert!(header(&forged, "location").is_empty());

    // An unregistered redirect target is explained on the page, not redirected to.
    let bad = Authorization {
        redirect_uri: "http://127.0.0.1:9/elsewhere",
        ..request
    };
    let response = http_client()
        .get(authorize_url(&server, &bad))
        .send()
        .await
        .expect("page");
    assert_eq!(response.status(), 400);
    assert!(header(&response, "location").is_empty());
    // A token for another resource is not asked for here.
    let other = Authorization {
        client_id,
        redirect_uri: REDIRECT,
        scope: "mcp:tools",
        resource: "http://127.0.0.1:1/mcp".to_owned(),
    };
    let response = http_client()
        .get(authorize_url(&server, &other))
        .send()
        .await
        .expect("redirect");
    assert_eq!(response.status(), 303);
    assert!(header(&response, "location").contains("error=invalid_target"));
}

#[tokio::test]
async fn refresh_tokens_rotate_and_short_lived_tokens_expire() {
    let server = oauth_server(&["--auth-token-lifetime", "1"]);
    let tokens = sign_in(&server, "mcp:tools offline_access").await;
    let client_id = tokens["client_id"].as_str().expect("client_id");
    let first_refresh = tokens["refresh_token"].as_str().expect("refresh_token");
    assert_eq!(tokens["expires_in"], 1);

    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let response = discover(&http_client(), &server.mcp_url())
        .bearer_auth(tokens["access_token"].as_str().expect("access"))
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 401, "an expired token is refused");
    assert!(header(&response, "www-authenticate").contains("invalid_token"));

    let (status, refreshed) = token(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", first_refresh),
            ("client_id", client_id),
        ],
    )
    .await;
    assert_eq!(status, 200, "{refreshed}");
    let second_refresh = refreshed["refresh_token"]
        .as_str()
        .expect("a rotated refresh token");
    assert_ne!(second_refresh, first_refresh);
    let response = discover(&http_client(), &server.mcp_url())
        .bearer_auth(refreshed["access_token"].as_str().expect("access"))
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 200);

    let (status, old) = token(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", first_refresh),
            ("client_id", client_id),
        ],
    )
    .await;
    assert_eq!(
        (status, old["error"].as_str()),
        (400, Some("invalid_grant"))
    );
}

#[tokio::test]
async fn a_token_for_another_resource_is_refused() {
    let server = oauth_server(&[]);
    // Issued at http://127.0.0.1:PORT, for that origin's /mcp ...
    let tokens = sign_in(&server, "mcp:tools").await;
    let access = tokens["access_token"].as_str().expect("access");
    // ... and presented at http://localhost:PORT/mcp: another resource.
    let other = format!("http://localhost:{}/mcp", server.address.port());
    let response = discover(&http_client(), &other)
        .bearer_auth(access)
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 401);
    let challenge = header(&response, "www-authenticate");
    assert!(challenge.contains("invalid_token"), "{challenge}");
    assert!(challenge.contains("localhost"), "{challenge}");
}

#[tokio::test]
async fn the_admin_tool_needs_a_step_up() {
    let server = oauth_server(&[]);
    let tokens = sign_in(&server, "mcp:tools").await;
    let access = tokens["access_token"].as_str().expect("access");
    let response = call_tool(&server, access, "deploy").await;
    assert_eq!(response.status(), 403);
    assert_eq!(
        header(&response, "www-authenticate"),
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"mcp:tools mcp:admin\", resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"",
            server.base()
        )
    );
    // The body decides too: a misleading Mcp-Name does not hide the call.
    let response = http_client()
        .post(server.mcp_url())
        .bearer_auth(access)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", support::PROTOCOL_VERSION)
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "echo")
        .body(tool_call("deploy"))
        .send()
        .await
        .expect("tools/call");
    assert_eq!(response.status(), 403);
    // Other tools need only the base scope.
    let response = call_tool(&server, access, "echo").await;
    assert_eq!(response.status(), 200);
    let text = response.text().await.expect("body");
    assert!(text.contains("\"result\""), "{text}");

    let bigger = sign_in(&server, "mcp:tools mcp:admin").await;
    let response = call_tool(
        &server,
        bigger["access_token"].as_str().expect("access"),
        "deploy",
    )
    .await;
    assert_eq!(response.status(), 200);
    let text = response.text().await.expect("body");
    assert!(text.contains("\"result\""), "{text}");
    assert!(!text.contains("insufficient"), "{text}");
}

#[tokio::test]
async fn the_apps_own_metadata_document_is_a_client_id_and_a_foreign_one_is_not() {
    let server = oauth_server(&[]);
    let base = server.base();
    let cimd_url = format!("{base}/oauth/client-metadata.json");
    let document: Value = http_client()
        .get(&cimd_url)
        .send()
        .await
        .expect("CIMD")
        .json()
        .await
        .expect("JSON");
    assert_eq!(document["client_id"], cimd_url);
    assert_eq!(document["client_name"], "Holdbay");
    let callback = format!("{base}/oauth/callback");
    assert_eq!(document["redirect_uris"], json!([callback]));
    assert_eq!(document["token_endpoint_auth_method"], "none");

    // The callback is the app's page.
    let page = http_client()
        .get(&callback)
        .send()
        .await
        .expect("callback")
        .text()
        .await
        .expect("text");
    assert!(page.contains("holdbay test page"), "{page}");

    let request = Authorization {
        client_id: &cimd_url,
        redirect_uri: &callback,
        scope: "mcp:tools",
        resource: server.mcp_url(),
    };
    let answer = consent(&server, &request, "allow").await;
    let (status, body) = token(
        &server,
        &[
            ("grant_type", "authorization_code"),
            ("code", &answer["code"]),
            ("redirect_uri", &callback),
            ("client_id", &cimd_url),
            ("code_verifier", VERIFIER),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let foreign = Authorization {
        client_id: "https://evil.example/client.json",
        redirect_uri: "https://evil.example/cb",
        scope: "mcp:tools",
        resource: server.mcp_url(),
    };
    let response = http_client()
        .get(authorize_url(&server, &foreign))
        .send()
        .await
        .expect("page");
    assert_eq!(response.status(), 400);
    assert!(header(&response, "location").is_empty());
    assert!(
        response
            .text()
            .await
            .expect("text")
            .contains("fetches nothing")
    );
}

#[tokio::test]
async fn confidential_clients_authenticate_with_their_secret() {
    let server = oauth_server(&[]);
    let client = register(&server, "client_secret_basic").await;
    let client_id = client["client_id"].as_str().expect("client_id");
    let secret = client["client_secret"].as_str().expect("secret");
    let request = Authorization {
        client_id,
        redirect_uri: REDIRECT,
        scope: "mcp:tools",
        resource: server.mcp_url(),
    };
    let form = |code: String| {
        vec![
            ("grant_type".to_owned(), "authorization_code".to_owned()),
            ("code".to_owned(), code),
            ("redirect_uri".to_owned(), REDIRECT.to_owned()),
            ("code_verifier".to_owned(), VERIFIER.to_owned()),
        ]
    };
    let code = consent(&server, &request, "allow").await["code"].clone();
    let wrong = http_client()
        .post(format!("{}/oauth/token", server.base()))
        .basic_auth(client_id, Some("wrong-secret"))
        .form(&form(code))
        .send()
        .await
        .expect("token");
    assert_eq!(wrong.status(), 401);
    let code = consent(&server, &request, "allow").await["code"].clone();
    let right = http_client()
        .post(format!("{}/oauth/token", server.base()))
        .basic_auth(client_id, Some(secret))
        .form(&form(code))
        .send()
        .await
        .expect("token");
    assert_eq!(right.status(), 200);
}

#[tokio::test]
async fn the_protected_endpoint_is_there_without_flags_and_challenges_towards_its_own_metadata() {
    let server = TestServer::start(&[]);
    let client = http_client();
    let base = server.base();
    // /mcp stays open ...
    let open = discover(&client, &server.mcp_url())
        .send()
        .await
        .expect("discover");
    assert_eq!(open.status(), 200);
    // ... and /protected/mcp asks for a token, naming its own resource metadata.
    let response = discover(&client, &protected_url(&server))
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 401);
    assert_eq!(
        header(&response, "www-authenticate"),
        format!(
            "Bearer resource_metadata=\"{base}/.well-known/oauth-protected-resource/protected/mcp\", scope=\"mcp:tools\""
        )
    );
    let body: Value = response.json().await.expect("JSON-RPC error");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("OAuth access token")),
        "{body}"
    );
    // The app's page may read the challenge.
    let response = discover(&client, &protected_url(&server))
        .header("Origin", &base)
        .send()
        .await
        .expect("discover from the page");
    assert_eq!(response.status(), 401);
    assert!(
        header(&response, "access-control-expose-headers")
            .to_ascii_lowercase()
            .contains("www-authenticate")
    );

    // Its metadata names it, at its path and at the root (the only guarded resource).
    for path in [
        "/.well-known/oauth-protected-resource/protected/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let response = client
            .get(format!("{base}{path}"))
            .header("Origin", &base)
            .send()
            .await
            .expect("resource metadata");
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(header(&response, "access-control-allow-origin"), base);
        let document: Value = response.json().await.expect("JSON");
        assert_eq!(document["resource"], protected_url(&server), "{path}");
        assert_eq!(document["authorization_servers"], json!([base]));
    }
    // The open /mcp has no resource metadata of its own: it is not a protected resource.
    let response = client
        .get(format!("{base}/.well-known/oauth-protected-resource/mcp"))
        .send()
        .await
        .expect("no metadata");
    assert!(
        !header(&response, "content-type").starts_with("application/json"),
        "{}",
        header(&response, "content-type")
    );
    // The authorization server's metadata is served without --auth oauth.
    let document: Value = client
        .get(format!("{base}/.well-known/oauth-authorization-server"))
        .send()
        .await
        .expect("AS metadata")
        .json()
        .await
        .expect("JSON");
    assert_eq!(document["issuer"], base);
    assert_eq!(
        document["authorization_endpoint"],
        format!("{base}/oauth/authorize")
    );
}

#[tokio::test]
async fn a_token_for_the_protected_endpoint_opens_it_and_the_step_up_guards_deploy() {
    let server = TestServer::start(&[]);
    let resource = protected_url(&server);
    let tokens = sign_in_for(&server, "mcp:tools", &resource).await;
    let access = tokens["access_token"].as_str().expect("access");
    let response = discover(&http_client(), &resource)
        .bearer_auth(access)
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 200);
    let response = call_tool_at(&resource, access, "echo").await;
    assert_eq!(response.status(), 200);
    let text = response.text().await.expect("body");
    assert!(text.contains("\"result\""), "{text}");

    // deploy needs mcp:admin: the step-up names this endpoint's metadata.
    let response = call_tool_at(&resource, access, "deploy").await;
    assert_eq!(response.status(), 403);
    assert_eq!(
        header(&response, "www-authenticate"),
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"mcp:tools mcp:admin\", resource_metadata=\"{}/.well-known/oauth-protected-resource/protected/mcp\"",
            server.base()
        )
    );
    let bigger = sign_in_for(&server, "mcp:tools mcp:admin", &resource).await;
    let response = call_tool_at(
        &resource,
        bigger["access_token"].as_str().expect("access"),
        "deploy",
    )
    .await;
    assert_eq!(response.status(), 200);
    let text = response.text().await.expect("body");
    assert!(text.contains("\"result\""), "{text}");

    // The open /mcp is no resource of this authorization server: no token is issued for it.
    let client = register(&server, "none").await;
    let request = Authorization {
        client_id: client["client_id"].as_str().expect("client_id"),
        redirect_uri: REDIRECT,
        scope: "mcp:tools",
        resource: server.mcp_url(),
    };
    let response = http_client()
        .get(authorize_url(&server, &request))
        .send()
        .await
        .expect("redirect");
    assert_eq!(response.status(), 303);
    let location = header(&response, "location");
    assert!(location.contains("error=invalid_target"), "{location}");
    assert!(location.contains("protected%2Fmcp"), "{location}");
}

#[tokio::test]
async fn with_auth_oauth_each_endpoint_takes_only_its_own_tokens() {
    let server = oauth_server(&[]);
    let protected = protected_url(&server);
    let for_mcp = sign_in(&server, "mcp:tools").await;
    let for_protected = sign_in_for(&server, "mcp:tools", &protected).await;
    let mcp_token = for_mcp["access_token"].as_str().expect("access");
    let protected_token = for_protected["access_token"].as_str().expect("access");
    for (url, token, status) in [
        (server.mcp_url(), mcp_token, 200),
        (protected.clone(), protected_token, 200),
        (server.mcp_url(), protected_token, 401),
        (protected.clone(), mcp_token, 401),
    ] {
        let response = discover(&http_client(), &url)
            .bearer_auth(token)
            .send()
            .await
            .expect("discover");
        assert_eq!(response.status(), status, "{url}");
        if status == 401 {
            let challenge = header(&response, "www-authenticate");
            assert!(challenge.contains("invalid_token"), "{challenge}");
            let own_metadata = format!(
                "resource_metadata=\"{}/.well-known/oauth-protected-resource{}\"",
                server.base(),
                url.trim_start_matches(&server.base())
            );
            assert!(challenge.contains(&own_metadata), "{challenge}");
        }
    }
    // Both have metadata; the root still describes /mcp, as before.
    let root: Value = http_client()
        .get(format!(
            "{}/.well-known/oauth-protected-resource",
            server.base()
        ))
        .send()
        .await
        .expect("root metadata")
        .json()
        .await
        .expect("JSON");
    assert_eq!(root["resource"], server.mcp_url());
    let own: Value = http_client()
        .get(format!(
            "{}/.well-known/oauth-protected-resource/protected/mcp",
            server.base()
        ))
        .send()
        .await
        .expect("metadata")
        .json()
        .await
        .expect("JSON");
    assert_eq!(own["resource"], protected);
}

#[tokio::test]
async fn token_users_do_not_open_the_protected_endpoint() {
    let server = TestServer::start(&["--token", "alice:alice-secret-1"]);
    let protected = protected_url(&server);
    // The --token secret is not an access token of the authorization server.
    let response = discover(&http_client(), &protected)
        .bearer_auth("alice-secret-1")
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 401);
    assert!(header(&response, "www-authenticate").contains("resource_metadata="));
    // An access token opens it; /mcp still wants alice's secret.
    let tokens = sign_in_for(&server, "mcp:tools", &protected).await;
    let access = tokens["access_token"].as_str().expect("access");
    let response = discover(&http_client(), &protected)
        .bearer_auth(access)
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 200);
    let response = discover(&http_client(), &server.mcp_url())
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 401);
    assert!(header(&response, "www-authenticate").contains("realm=\"holdbay\""));
}
