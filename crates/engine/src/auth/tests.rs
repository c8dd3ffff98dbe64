//! Readers and builders, one rule each.

use proptest::prelude::*;
use serde_json::json;

use super::*;

fn metadata(extra: serde_json::Value) -> AuthServerMetadata {
    let mut doc = json!({
        "issuer": "https://as.example.com",
        "authorization_endpoint": "https://as.example.com/authorize",
        "token_endpoint": "https://as.example.com/token",
        "code_challenge_methods_supported": ["S256"],
    });
    if let (Some(doc), Some(extra)) = (doc.as_object_mut(), extra.as_object()) {
        doc.extend(extra.clone());
    }
    let issuer = Issuer::parse("https://as.example.com").unwrap();
    read_auth_server_metadata(
        "https://as.example.com/.well-known/oauth-authorization-server",
        doc.to_string().as_bytes(),
        &issuer,
        &mut Vec::new(),
    )
    .unwrap()
}

#[test]
fn challenges_are_read_with_quotes_and_several_per_header() {
    let headers = vec![(
        "WWW-Authenticate".to_owned(),
        r#"Basic realm="x, y", Bearer error="insufficient_scope", scope="a b", resource_metadata="https://s/.well-known/oauth-protected-resource", error_description="say \"more\"""#.to_owned(),
    )];
    let bearer = bearer_challenge(&headers).unwrap();
    assert_eq!(bearer.scope.as_deref(), Some("a b"));
    assert!(bearer.is_insufficient_scope());
    assert_eq!(bearer.error_description.as_deref(), Some("say \"more\""));
    assert_eq!(
        bearer.resource_metadata.as_deref(),
        Some("https://s/.well-known/oauth-protected-resource")
    );
    let all = parse_www_authenticate(&headers[0].1);
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].param("realm"), Some("x, y"));
}

#[test]
fn a_header_without_bearer_gives_none() {
    let headers = vec![("www-authenticate".to_owned(), "Basic abc==".to_owned())];
    assert_eq!(bearer_challenge(&headers), None);
}

#[test]
fn prm_urls_follow_the_spec_order() {
    assert_eq!(
        prm_urls("https://example.com/public/mcp", None).unwrap(),
        [
            "https://example.com/.well-known/oauth-protected-resource/public/mcp",
            "https://example.com/.well-known/oauth-protected-resource"
        ]
    );
    assert_eq!(
        prm_urls(
            "https://example.com/mcp",
            Some("https://example.com/custom.json")
        )
        .unwrap()[0],
        "https://example.com/custom.json"
    );
    assert_eq!(
        prm_urls("https://example.com", None).unwrap(),
        ["https://example.com/.well-known/oauth-protected-resource"]
    );
}

#[test]
fn as_metadata_urls_follow_the_spec_order() {
    let with_path = Issuer::parse("https://auth.example.com/tenant1/").unwrap();
    assert_eq!(
        with_path.metadata_urls(),
        [
            "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example.com/.well-known/openid-configuration/tenant1",
            "https://auth.example.com/tenant1/.well-known/openid-configuration"
        ]
    );
    assert_eq!(with_path.as_str(), "https://auth.example.com/tenant1/");
    let bare = Issuer::parse("https://auth.example.com").unwrap();
    assert_eq!(
        bare.metadata_urls(),
        [
            "https://auth.example.com/.well-known/oauth-authorization-server",
            "https://auth.example.com/.well-known/openid-configuration"
        ]
    );
    assert!(Issuer::parse("http://auth.example.com").is_err());
    assert!(Issuer::parse("http://localhost:9000").is_ok());
    assert!(Issuer::parse("https://a.example.com?x=1").is_err());
}

#[test]
fn canonical_resources_and_coverage() {
    assert_eq!(
        canonical_resource("HTTPS://MCP.Example.com/").unwrap(),
        "https://mcp.example.com"
    );
    assert_eq!(
        canonical_resource("https://mcp.example.com:443/mcp").unwrap(),
        "https://mcp.example.com/mcp"
    );
    assert!(canonical_resource("mcp.example.com").is_err());
    assert!(canonical_resource("https://mcp.example.com#x").is_err());
    assert!(resource_covers(
        "http://localhost:3000",
        "http://localhost:3000/mcp"
    ));
    assert!(resource_covers(
        "http://localhost:3000/mcp",
        "http://localhost:3000/mcp"
    ));
    assert!(!resource_covers(
        "https://evil.example.com/mcp",
        "http://localhost:3000/mcp"
    ));
    assert!(!resource_covers(
        "http://localhost:3000/mc",
        "http://localhost:3000/mcp"
    ));
    assert!(!resource_covers(
        "http://localhost:30",
        "http://localhost:3000/mcp"
    ));
}

#[test]
fn prm_with_another_resource_is_refused_with_a_finding() {
    let mut findings = Vec::new();
    let body = json!({"resource": "https://evil.example.com/mcp", "authorization_servers": ["https://as"]});
    let error = read_protected_resource_metadata(
        "https://s/prm",
        body.to_string().as_bytes(),
        "https://s/mcp",
        &mut findings,
    )
    .unwrap_err();
    assert!(matches!(error, AuthError::PrmResourceMismatch { .. }));
    assert!(
        error
            .to_string()
            .contains("names resource https://evil.example.com/mcp")
    );
    assert_eq!(findings[0].rule, crate::Rule::PrmResourceMismatch);
}

#[test]
fn a_huge_document_is_refused_clearly() {
    let body = vec![b' '; 10 * 1024 * 1024];
    let error =
        read_protected_resource_metadata("https://s/prm", &body, "https://s/mcp", &mut Vec::new())
            .unwrap_err();
    assert!(
        matches!(
            error,
            AuthError::DocumentTooLarge {
                bytes: 10485760,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("the MCP server's document"));
}

#[test]
fn as_metadata_checks_issuer_pkce_and_https() {
    let issuer = Issuer::parse("https://as.example.com").unwrap();
    let read = |doc: serde_json::Value, findings: &mut Vec<crate::Finding>| {
        read_auth_server_metadata(
            "https://as.example.com/.well-known/x",
            doc.to_string().as_bytes(),
            &issuer,
            findings,
        )
    };
    let mut findings = Vec::new();
    let wrong = read(json!({"issuer": "https://attacker.example.com", "authorization_endpoint": "https://a/x", "token_endpoint": "https://a/t", "code_challenge_methods_supported": ["S256"]}), &mut findings).unwrap_err();
    assert!(wrong.to_string().contains(
        "names issuer https://attacker.example.com, but it was fetched for https://as.example.com"
    ));
    let no_pkce = read(json!({"issuer": "https://as.example.com", "authorization_endpoint": "https://a/x", "token_endpoint": "https://a/t"}), &mut findings).unwrap_err();
    assert!(matches!(no_pkce, AuthError::PkceUnsupported { .. }));
    let plain = read(json!({"issuer": "https://as.example.com", "authorization_endpoint": "http://a.example.com/x", "token_endpoint": "https://a/t", "code_challenge_methods_supported": ["S256"]}), &mut findings).unwrap_err();
    assert!(matches!(plain, AuthError::EndpointNotHttps { .. }));
    let rules: Vec<_> = findings.iter().map(|f| f.rule).collect();
    assert_eq!(
        rules,
        [
            crate::Rule::AsIssuerMismatch,
            crate::Rule::PkceS256Unsupported,
            crate::Rule::AuthEndpointNotHttps
        ]
    );
}

#[test]
fn pkce_is_s256_of_the_verifier() {
    // RFC 7636 appendix B.
    let bytes: [u8; 32] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37,
        77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ];
    let (verifier, challenge) = pkce_pair(&bytes);
    assert_eq!(verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
    assert_eq!(challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

#[test]
fn scope_selection_order_and_offline_access() {
    let plain = metadata(json!({}));
    let offline = metadata(json!({"scopes_supported": ["mcp:basic", "offline_access"]}));
    let prm = vec!["a".to_owned(), "b".to_owned()];
    assert_eq!(
        select_scope(Some("x"), Some(&prm), None, &plain, true).as_deref(),
        Some("x")
    );
    assert_eq!(
        select_scope(None, Some(&prm), None, &plain, true).as_deref(),
        Some("a b")
    );
    assert_eq!(select_scope(None, None, None, &offline, true), None);
    assert_eq!(
        select_scope(Some("mcp:write"), None, Some("mcp:basic"), &plain, true).as_deref(),
        Some("mcp:basic mcp:write")
    );
    assert_eq!(
        select_scope(None, Some(&prm), None, &offline, true).as_deref(),
        Some("a b offline_access")
    );
    assert_eq!(
        select_scope(None, Some(&prm), None, &offline, false).as_deref(),
        Some("a b")
    );
}

fn client(method: ClientAuthMethod, secret: Option<&str>) -> ClientCredentials {
    ClientCredentials {
        issuer: "https://as.example.com".into(),
        client_id: "id:1".into(),
        client_secret: secret.map(str::to_owned),
        auth_method: method,
        kind: RegistrationKind::Dynamic,
    }
}

#[test]
fn token_requests_authenticate_as_chosen_and_redact() {
    let basic = code_token_request(
        "https://as/token",
        &client(ClientAuthMethod::ClientSecretBasic, Some("s e")),
        "CODE",
        "VERIFIER",
        "https://app/cb",
        "https://s/mcp",
    );
    assert_eq!(
        basic.headers[1],
        ("Authorization".into(), "Basic aWQlM0ExOnMrZQ==".into())
    );
    let body = basic.body.as_ref().unwrap().encoded();
    assert!(
        body.contains("grant_type=authorization_code")
            && body.contains("resource=https%3A%2F%2Fs%2Fmcp")
            && !body.contains("client_id")
    );
    let redacted = basic.redacted();
    let shown = format!("{redacted:?}");
    assert!(
        !shown.contains("CODE") && !shown.contains("VERIFIER") && !shown.contains("aWQl"),
        "{shown}"
    );
    let post = code_token_request(
        "https://as/token",
        &client(ClientAuthMethod::ClientSecretPost, Some("sec")),
        "C",
        "V",
        "https://app/cb",
        "https://s/mcp",
    );
    let body = post.body.as_ref().unwrap().encoded();
    assert!(body.contains("client_secret=sec") && post.headers.len() == 1);
    let none = code_token_request(
        "https://as/token",
        &client(ClientAuthMethod::None, None),
        "C",
        "V",
        "https://app/cb",
        "https://s/mcp",
    );
    let body = none.body.as_ref().unwrap().encoded();
    assert!(body.contains("client_id=id%3A1") && !body.contains("client_secret"));
}

#[test]
fn callback_urls_and_token_answers_are_redacted_for_the_log() {
    let shown = redacted_url("https://app/cb?code=SECRET&state=s&iss=https%3A%2F%2Fas");
    assert!(
        !shown.contains("SECRET") && shown.contains("state=s"),
        "{shown}"
    );
    let body =
        redacted_json_body(br#"{"access_token":"T","refresh_token":"R","token_type":"Bearer"}"#)
            .unwrap();
    assert_eq!(body["access_token"], "‹redacted›");
    assert_eq!(body["refresh_token"], "‹redacted›");
    assert_eq!(body["token_type"], "Bearer");
}

#[test]
fn answers_with_secrets_are_logged_redacted_and_discovery_as_it_came() {
    let token = logged_answer(
        Purpose::Token,
        br#"{"access_token":"T","token_type":"Bearer"}"#,
    );
    assert!(
        !token.contains("\"T\"") && token.contains("Bearer"),
        "{token}"
    );
    let html = logged_answer(Purpose::Registration, b"<html>client_secret=S</html>");
    assert!(!html.contains("S<"), "{html}");
    let metadata = logged_answer(Purpose::AuthorizationServerMetadata, b"<html>login</html>");
    assert_eq!(metadata, "<html>login</html>");
}

#[test]
fn auth_method_follows_registration_then_metadata() {
    let basic_only =
        metadata(json!({"token_endpoint_auth_methods_supported": ["client_secret_basic"]}));
    let post_only =
        metadata(json!({"token_endpoint_auth_methods_supported": ["client_secret_post"]}));
    assert_eq!(
        choose_auth_method(true, None, &basic_only),
        ClientAuthMethod::ClientSecretBasic
    );
    assert_eq!(
        choose_auth_method(true, None, &post_only),
        ClientAuthMethod::ClientSecretPost
    );
    assert_eq!(
        choose_auth_method(true, Some("client_secret_post"), &basic_only),
        ClientAuthMethod::ClientSecretPost
    );
    assert_eq!(
        choose_auth_method(false, Some("client_secret_post"), &basic_only),
        ClientAuthMethod::None
    );
    let request = registration_request(
        &basic_only,
        "https://as/register",
        "Holdbay",
        "https://app/cb",
        ApplicationType::Web,
    );
    let Some(RequestBody::Json(body)) = request.body else {
        panic!("json body")
    };
    assert_eq!(body["application_type"], "web");
    assert_eq!(body["token_endpoint_auth_method"], "client_secret_basic");
    assert_eq!(
        body["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );
}

#[test]
fn callback_checks_state_then_iss_then_error() {
    let advertised = metadata(json!({"authorization_response_iss_parameter_supported": true}));
    let silent = metadata(json!({}));
    let iss = "iss=https%3A%2F%2Fas.example.com";
    let mut f = Vec::new();
    assert_eq!(
        read_callback(
            &format!("https://app/cb?code=c&state=s&{iss}"),
            "s",
            &advertised,
            &mut f
        )
        .unwrap(),
        "c"
    );
    assert_eq!(
        read_callback("https://app/cb?code=c&state=s", "s", &silent, &mut f).unwrap(),
        "c"
    );
    assert_eq!(
        read_callback("https://app/cb?code=c&state=t", "s", &silent, &mut f),
        Err(AuthError::StateMismatch)
    );
    assert!(matches!(
        read_callback("https://app/cb?code=c&state=s", "s", &advertised, &mut f),
        Err(AuthError::IssMissing { .. })
    ));
    assert!(matches!(
        read_callback(
            "https://app/cb?code=c&state=s&iss=https%3A%2F%2Fevil",
            "s",
            &silent,
            &mut f
        ),
        Err(AuthError::IssMismatch { .. })
    ));
    assert!(matches!(
        read_callback(
            "https://app/cb?code=c&state=s&iss=https%3A%2F%2Fas.example.com%2F",
            "s",
            &advertised,
            &mut f
        ),
        Err(AuthError::IssMismatch { .. })
    ));
    // An error with a wrong iss is not acted on: the mismatch is reported instead.
    assert!(matches!(
        read_callback(
            "https://app/cb?error=access_denied&state=s&iss=x",
            "s",
            &silent,
            &mut f
        ),
        Err(AuthError::IssMismatch { .. })
    ));
    assert!(matches!(
        read_callback(
            &format!("https://app/cb?error=access_denied&state=s&{iss}"),
            "s",
            &silent,
            &mut f
        ),
        Err(AuthError::AuthorizationDenied { .. })
    ));
}

fn context(client: &ClientCredentials) -> TokenContext<'_> {
    TokenContext {
        issuer: "https://as.example.com",
        resource: "https://s/mcp",
        token_endpoint: "https://as/token",
        client,
        requested_scope: Some("a"),
        previous_refresh: None,
        dpop: false,
    }
}

#[test]
fn token_responses_are_read_and_checked() {
    let client = client(ClientAuthMethod::None, None);
    let ok = AuthResponse {
        status: 200,
        headers: vec![],
        body: br#"{"access_token":"T","token_type":"bearer","expires_in":60,"refresh_token":"R"}"#
            .to_vec(),
    };
    let tokens = read_token_response(&ok, &context(&client), 1_000, &mut Vec::new()).unwrap();
    assert_eq!(
        (
            tokens.expires_at_ms,
            tokens.scope.as_deref(),
            tokens.refresh_token.as_deref()
        ),
        (Some(61_000), Some("a"), Some("R"))
    );
    let dpop = AuthResponse {
        status: 200,
        headers: vec![],
        body: br#"{"access_token":"T","token_type":"DPoP"}"#.to_vec(),
    };
    assert!(matches!(
        read_token_response(&dpop, &context(&client), 0, &mut Vec::new()),
        Err(AuthError::TokenTypeNotBearer { .. })
    ));
    let missing = AuthResponse {
        status: 200,
        headers: vec![],
        body: br#"{"token_type":"Bearer"}"#.to_vec(),
    };
    assert!(matches!(
        read_token_response(&missing, &context(&client), 0, &mut Vec::new()),
        Err(AuthError::TokenInvalid { .. })
    ));
    let refused = AuthResponse {
        status: 400,
        headers: vec![],
        body: br#"{"error":"invalid_grant","error_description":"expired"}"#.to_vec(),
    };
    let error = read_token_response(&refused, &context(&client), 0, &mut Vec::new()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the authorization server refused the token request (HTTP 400): invalid_grant — expired"
    );
    let refresh = read_refresh_response(&refused, &tokens, 0, &mut Vec::new()).unwrap_err();
    assert!(refresh.to_string().contains("a new sign-in is needed"));
    let request = refresh_request(&tokens).unwrap();
    assert_eq!(request.purpose, Purpose::Refresh);
    assert!(
        request
            .body
            .unwrap()
            .encoded()
            .contains("grant_type=refresh_token&refresh_token=R&resource=")
    );
}

proptest! {
    #[test]
    fn discovery_urls_never_panic_and_stay_on_the_origin(path in "[a-zA-Z0-9/._~%-]{0,40}") {
        let server = format!("https://example.com/{path}");
        if let Ok(urls) = prm_urls(&server, None) {
            for url in urls {
                prop_assert!(url.starts_with("https://example.com/.well-known/oauth-protected-resource"));
            }
        }
        if let Ok(issuer) = Issuer::parse(&server) {
            prop_assert_eq!(issuer.as_str(), server.as_str());
            for url in issuer.metadata_urls() {
                prop_assert!(url.starts_with("https://example.com/"));
                prop_assert!(url.contains("/.well-known/"));
            }
        }
    }

    #[test]
    fn challenge_parsing_never_panics(text in ".{0,200}") {
        let _ = parse_www_authenticate(&text);
    }

    #[test]
    fn canonical_resources_are_fixed_points(host in "[a-z]{1,10}", path in "(/[a-z0-9]{1,8}){0,3}/?") {
        let once = canonical_resource(&format!("HTTPS://{host}.example{path}")).unwrap();
        prop_assert_eq!(canonical_resource(&once).unwrap(), once.clone());
        prop_assert!(resource_covers(&once, &once));
    }
}

#[test]
fn a_sign_in_is_needed_for_a_bearer_401_or_an_insufficient_scope_403_only() {
    let header = |value: &str| vec![("WWW-Authenticate".to_owned(), value.to_owned())];
    let asked = sign_in_needed(401, &header(r#"Bearer scope="mcp:tools""#)).unwrap();
    assert_eq!((asked.status, asked.step_up), (401, false));
    assert_eq!(asked.challenge.scope.as_deref(), Some("mcp:tools"));
    let step_up = sign_in_needed(403, &header(r#"Bearer error="insufficient_scope""#)).unwrap();
    assert!(step_up.step_up);
    for (status, headers) in [
        (403, header(r#"Bearer error="invalid_token""#)),
        (401, header(r#"Basic realm="proxy""#)),
        (401, Vec::new()),
        // A challenge on a status that is no refusal asks for nothing.
        (200, header("Bearer")),
        (500, header("Bearer")),
    ] {
        assert_eq!(
            sign_in_needed(status, &headers),
            None,
            "{status} {headers:?}"
        );
    }
}
