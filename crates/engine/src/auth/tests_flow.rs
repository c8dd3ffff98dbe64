//! [`AuthFlow`] driven end to end against canned servers shaped like the conformance
//! suite's mocks (docs/auth-scenarios.md).

use serde_json::{Value, json};

use super::*;

const MCP: &str = "http://localhost:3000/mcp";
const AS: &str = "http://localhost:4000";
const REDIRECT: &str = "https://holdbay.example/callback";

/// A canned world: an MCP server's PRM and an AS, configurable per scenario.
struct World {
    prm_at: String,
    prm: Value,
    metadata_at: String,
    metadata: Value,
    iss_in_redirect: Option<String>,
    token_answer: Value,
    registered: Value,
    fetched: Vec<AuthRequest>,
    authorize_urls: Vec<String>,
    /// The nonce the token endpoint demands of DPoP proofs (RFC 9449 §8), if any.
    token_nonce: Option<&'static str>,
}

impl World {
    fn new() -> World {
        World {
            prm_at: "http://localhost:3000/.well-known/oauth-protected-resource/mcp".into(),
            prm: json!({"resource": MCP, "authorization_servers": [AS]}),
            metadata_at: format!("{AS}/.well-known/oauth-authorization-server"),
            metadata: json!({
                "issuer": AS,
                "authorization_endpoint": format!("{AS}/authorize"),
                "token_endpoint": format!("{AS}/token"),
                "registration_endpoint": format!("{AS}/register"),
                "code_challenge_methods_supported": ["S256"],
                "authorization_response_iss_parameter_supported": true,
                "token_endpoint_auth_methods_supported": ["none"],
            }),
            iss_in_redirect: Some(AS.into()),
            token_answer: json!({"access_token": "test-token-1", "token_type": "Bearer", "expires_in": 3600}),
            registered: json!({"client_id": "dcr-client"}),
            fetched: Vec::new(),
            authorize_urls: Vec::new(),
            token_nonce: None,
        }
    }

    fn answer(&mut self, request: &AuthRequest) -> AuthResponse {
        self.fetched.push(request.clone());
        let json = |status: u16, value: &Value| AuthResponse {
            status,
            headers: vec![],
            body: value.to_string().into_bytes(),
        };
        match request.purpose {
            Purpose::ProtectedResourceMetadata if request.url == self.prm_at => {
                json(200, &self.prm)
            }
            Purpose::AuthorizationServerMetadata if request.url == self.metadata_at => {
                json(200, &self.metadata)
            }
            Purpose::Registration => json(201, &self.registered),
            Purpose::Token | Purpose::Refresh
                if request.dpop.is_some()
                    && self.token_nonce.is_some()
                    && request.dpop.as_ref().and_then(|p| p.nonce.as_deref())
                        != self.token_nonce =>
            {
                AuthResponse {
                    status: 400,
                    headers: vec![("DPoP-Nonce".into(), self.token_nonce.unwrap_or("").into())],
                    body: br#"{"error":"use_dpop_nonce"}"#.to_vec(),
                }
            }
            Purpose::Token | Purpose::Refresh => json(200, &self.token_answer),
            _ => json(404, &json!({"error": "not_found"})),
        }
    }

    /// The AS's /authorize: redirects to the callback with code, state and maybe iss.
    fn authorize(&mut self, url: &str) -> String {
        self.authorize_urls.push(url.to_owned());
        let url = url::Url::parse(url).unwrap();
        let state = url
            .query_pairs()
            .find(|(k, _)| k == "state")
            .unwrap()
            .1
            .into_owned();
        let mut back = url::Url::parse(REDIRECT).unwrap();
        back.query_pairs_mut()
            .append_pair("code", "test-auth-code")
            .append_pair("state", &state);
        if let Some(iss) = &self.iss_in_redirect {
            back.query_pairs_mut().append_pair("iss", iss);
        }
        back.into()
    }

    fn param(&self, key: &str) -> Option<String> {
        let url = url::Url::parse(self.authorize_urls.last()?).ok()?;
        url.query_pairs()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.into_owned())
    }
}

fn config() -> AuthClientConfig {
    AuthClientConfig {
        redirect_uri: REDIRECT.into(),
        client_name: "Holdbay".into(),
        client_metadata_url: None,
        pre_registered: None,
        registered: vec![],
        application_type: ApplicationType::Web,
        want_refresh: true,
        dpop: false,
    }
}

fn start(challenge: Option<BearerChallenge>, config: AuthClientConfig) -> FlowStart {
    FlowStart {
        server_url: MCP.into(),
        challenge,
        config,
        tokens: None,
        step_ups: 0,
    }
}

/// Runs the flow to its end, round-tripping it through JSON at the redirect as the app does.
fn drive(world: &mut World, start: FlowStart) -> (Result<TokenSet, AuthError>, AuthFlow) {
    let mut flow = AuthFlow::start(start, &[7; 48]);
    for _ in 0..20 {
        match flow.step() {
            Step::Fetch(request) => {
                let response = world.answer(&request);
                flow.on_response(&response, 1_000);
            }
            Step::Authorize { url } => {
                let saved = serde_json::to_string(&flow).unwrap();
                let callback = world.authorize(&url);
                flow = serde_json::from_str(&saved).unwrap();
                flow.on_callback(&callback);
            }
            Step::Done(tokens) => return (Ok(tokens), flow),
            Step::Failed(error) => return (Err(error), flow),
        }
    }
    panic!("the flow did not end");
}

fn purposes(world: &World) -> Vec<(Purpose, String)> {
    world
        .fetched
        .iter()
        .map(|r| (r.purpose, r.url.clone()))
        .collect()
}

fn challenge(resource_metadata: Option<&str>, scope: Option<&str>) -> Option<BearerChallenge> {
    Some(BearerChallenge {
        resource_metadata: resource_metadata.map(str::to_owned),
        scope: scope.map(str::to_owned),
        error: Some("invalid_token".into()),
        error_description: None,
    })
}

#[test]
fn metadata_default_uses_the_challenges_url_and_registers() {
    let mut world = World::new();
    let prm = world.prm_at.clone();
    let (tokens, flow) = drive(&mut world, start(challenge(Some(&prm), None), config()));
    let tokens = tokens.unwrap();
    assert_eq!(tokens.access_token, "test-token-1");
    assert_eq!(tokens.expires_at_ms, Some(3_601_000));
    assert_eq!(tokens.issuer, AS);
    assert_eq!(flow.new_registration().unwrap().client_id, "dcr-client");
    let order: Vec<Purpose> = world.fetched.iter().map(|r| r.purpose).collect();
    assert_eq!(
        order,
        [
            Purpose::ProtectedResourceMetadata,
            Purpose::AuthorizationServerMetadata,
            Purpose::Registration,
            Purpose::Token
        ]
    );
    assert_eq!(
        world.param("code_challenge_method").as_deref(),
        Some("S256")
    );
    assert_eq!(world.param("resource").as_deref(), Some(MCP));
    assert_eq!(world.param("scope"), None);
    let token_body = world.fetched[3].body.as_ref().unwrap().encoded();
    assert!(token_body.contains("resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp"));
    assert!(token_body.contains("client_id=dcr-client"));
}

#[test]
fn metadata_var1_falls_to_openid_configuration() {
    let mut world = World::new();
    world.metadata_at = format!("{AS}/.well-known/openid-configuration");
    let (tokens, _) = drive(&mut world, start(challenge(None, None), config()));
    assert!(tokens.is_ok());
    assert_eq!(
        world.fetched[0].url,
        "http://localhost:3000/.well-known/oauth-protected-resource/mcp"
    );
    assert_eq!(
        world.fetched[1].url,
        format!("{AS}/.well-known/oauth-authorization-server")
    );
    assert_eq!(
        world.fetched[2].url,
        format!("{AS}/.well-known/openid-configuration")
    );
}

#[test]
fn metadata_var2_root_prm_and_path_issuer() {
    let mut world = World::new();
    world.prm_at = "http://localhost:3000/.well-known/oauth-protected-resource".into();
    let issuer = format!("{AS}/tenant1");
    world.prm = json!({"resource": "http://localhost:3000", "authorization_servers": [issuer]});
    world.metadata_at = format!("{AS}/.well-known/oauth-authorization-server/tenant1");
    world.metadata["issuer"] = json!(issuer);
    world.iss_in_redirect = Some(issuer.clone());
    let (tokens, _) = drive(&mut world, start(None, config()));
    assert!(tokens.is_ok(), "{tokens:?}");
    let urls: Vec<String> = purposes(&world).into_iter().map(|(_, u)| u).collect();
    assert!(!urls.contains(&format!("{AS}/.well-known/oauth-authorization-server")));
    assert_eq!(urls[1], world.prm_at);
}

#[test]
fn metadata_var3_custom_prm_and_appended_openid() {
    let mut world = World::new();
    world.prm_at = "http://localhost:3000/custom/metadata/location.json".into();
    let issuer = format!("{AS}/tenant1");
    world.prm["authorization_servers"] = json!([issuer]);
    world.metadata_at = format!("{AS}/tenant1/.well-known/openid-configuration");
    world.metadata["issuer"] = json!(issuer);
    world.iss_in_redirect = Some(issuer.clone());
    let prm = world.prm_at.clone();
    let (tokens, _) = drive(&mut world, start(challenge(Some(&prm), None), config()));
    assert!(tokens.is_ok(), "{tokens:?}");
    let as_urls: Vec<String> = purposes(&world)
        .into_iter()
        .filter(|(p, _)| *p == Purpose::AuthorizationServerMetadata)
        .map(|(_, u)| u)
        .collect();
    assert_eq!(
        as_urls,
        [
            format!("{AS}/.well-known/oauth-authorization-server/tenant1"),
            format!("{AS}/.well-known/openid-configuration/tenant1"),
            format!("{AS}/tenant1/.well-known/openid-configuration"),
        ]
    );
}

#[test]
fn cimd_is_used_when_advertised() {
    let mut world = World::new();
    world.metadata["client_id_metadata_document_supported"] = json!(true);
    let mut config = config();
    config.client_metadata_url = Some("https://conformance-test.local/client-metadata.json".into());
    let (tokens, flow) = drive(&mut world, start(None, config));
    assert!(tokens.is_ok());
    assert_eq!(
        world.param("client_id").as_deref(),
        Some("https://conformance-test.local/client-metadata.json")
    );
    assert!(
        !world
            .fetched
            .iter()
            .any(|r| r.purpose == Purpose::Registration)
    );
    assert!(flow.new_registration().is_none());
}

#[test]
fn pre_registered_client_uses_basic_auth() {
    let mut world = World::new();
    world
        .metadata
        .as_object_mut()
        .unwrap()
        .remove("registration_endpoint");
    world.metadata["token_endpoint_auth_methods_supported"] = json!(["client_secret_basic"]);
    let mut config = config();
    config.pre_registered = Some(PreRegisteredClient {
        issuer: None,
        client_id: "pre-registered-client".into(),
        client_secret: Some("pre-registered-secret".into()),
    });
    let (tokens, _) = drive(&mut world, start(None, config));
    assert!(tokens.is_ok());
    let token = world.fetched.last().unwrap();
    let auth = token
        .headers
        .iter()
        .find(|(n, _)| n == "Authorization")
        .unwrap();
    use base64::Engine;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(auth.1.trim_start_matches("Basic "))
        .unwrap();
    assert_eq!(decoded, b"pre-registered-client:pre-registered-secret");
}

#[test]
fn no_registration_path_is_a_typed_failure() {
    let mut world = World::new();
    world
        .metadata
        .as_object_mut()
        .unwrap()
        .remove("registration_endpoint");
    let (tokens, _) = drive(&mut world, start(None, config()));
    assert!(matches!(tokens, Err(AuthError::NoRegistration { .. })));
    assert!(world.authorize_urls.is_empty());
}

#[test]
fn dcr_secret_and_method_drive_token_auth() {
    for (method, header, in_body) in [
        ("client_secret_basic", true, false),
        ("client_secret_post", false, true),
    ] {
        let mut world = World::new();
        world.metadata["token_endpoint_auth_methods_supported"] = json!([method]);
        world.registered =
            json!({"client_id": "c", "client_secret": "s", "token_endpoint_auth_method": method});
        let (tokens, _) = drive(&mut world, start(None, config()));
        assert!(tokens.is_ok());
        let token = world.fetched.last().unwrap();
        assert_eq!(
            token.headers.iter().any(|(n, _)| n == "Authorization"),
            header,
            "{method}"
        );
        assert_eq!(
            token
                .body
                .as_ref()
                .unwrap()
                .encoded()
                .contains("client_secret=s"),
            in_body,
            "{method}"
        );
        let Some(RequestBody::Json(registration)) = &world.fetched[2].body else {
            panic!()
        };
        assert_eq!(registration["application_type"], "web");
    }
}

#[test]
fn resource_mismatch_stops_before_authorization() {
    let mut world = World::new();
    world.prm["resource"] = json!("https://evil.example.com/mcp");
    let (tokens, flow) = drive(&mut world, start(None, config()));
    assert!(matches!(tokens, Err(AuthError::PrmResourceMismatch { .. })));
    assert!(world.authorize_urls.is_empty());
    assert_eq!(flow.findings()[0].rule, crate::Rule::PrmResourceMismatch);
}

#[test]
fn metadata_issuer_mismatch_uses_no_endpoint() {
    let mut world = World::new();
    world.metadata["issuer"] = json!("https://attacker.example.com");
    let (tokens, _) = drive(&mut world, start(None, config()));
    assert!(
        matches!(tokens, Err(AuthError::AsIssuerMismatch { .. })),
        "{tokens:?}"
    );
    assert!(world.fetched.iter().all(|r| matches!(
        r.purpose,
        Purpose::ProtectedResourceMetadata | Purpose::AuthorizationServerMetadata
    )));
}

#[test]
fn iss_rules_gate_the_token_request() {
    let cases: [(Option<bool>, Option<&str>, bool); 6] = [
        (Some(true), Some(AS), true),
        (None, None, true),
        (Some(true), None, false),
        (Some(true), Some("https://evil.example.com"), false),
        (None, Some("https://evil.example.com"), false),
        (Some(true), Some("http://localhost:4000/"), false),
    ];
    for (advertised, iss, proceeds) in cases {
        let mut world = World::new();
        match advertised {
            Some(value) => {
                world.metadata["authorization_response_iss_parameter_supported"] = json!(value)
            }
            None => {
                world
                    .metadata
                    .as_object_mut()
                    .unwrap()
                    .remove("authorization_response_iss_parameter_supported");
            }
        }
        world.iss_in_redirect = iss.map(str::to_owned);
        let (tokens, _) = drive(&mut world, start(None, config()));
        assert_eq!(
            tokens.is_ok(),
            proceeds,
            "{advertised:?} {iss:?}: {tokens:?}"
        );
        assert_eq!(
            world.fetched.iter().any(|r| r.purpose == Purpose::Token),
            proceeds
        );
        assert_eq!(world.authorize_urls.len(), 1);
    }
}

#[test]
fn scopes_from_challenge_then_prm_and_offline_access() {
    let mut world = World::new();
    let (_, _) = drive(
        &mut world,
        start(challenge(None, Some("mcp:basic")), config()),
    );
    assert_eq!(world.param("scope").as_deref(), Some("mcp:basic"));

    let mut world = World::new();
    world.prm["scopes_supported"] = json!(["mcp:basic", "mcp:read", "mcp:write"]);
    let (_, _) = drive(&mut world, start(None, config()));
    assert_eq!(
        world.param("scope").as_deref(),
        Some("mcp:basic mcp:read mcp:write")
    );

    let mut world = World::new();
    world.prm["scopes_supported"] = json!(["mcp:basic"]);
    world.metadata["scopes_supported"] = json!(["mcp:basic", "offline_access"]);
    let (_, _) = drive(&mut world, start(None, config()));
    assert_eq!(
        world.param("scope").as_deref(),
        Some("mcp:basic offline_access")
    );
}

#[test]
fn step_up_unions_scopes_and_is_bounded() {
    let mut world = World::new();
    world.prm["scopes_supported"] = json!(["mcp:profile"]);
    world.token_answer =
        json!({"access_token": "test-token-1", "token_type": "Bearer", "scope": "mcp:basic"});
    let (first, _) = drive(
        &mut world,
        start(challenge(None, Some("mcp:basic")), config()),
    );
    let first = first.unwrap();
    let forbidden = Some(BearerChallenge {
        resource_metadata: None,
        scope: Some("mcp:write".into()),
        error: Some("insufficient_scope".into()),
        error_description: None,
    });
    let mut again = start(forbidden.clone(), config());
    again.tokens = Some(first.clone());
    again.step_ups = 1;
    let (_, _) = drive(&mut world, again);
    assert_eq!(world.param("scope").as_deref(), Some("mcp:basic mcp:write"));

    let mut over = start(forbidden, config());
    over.step_ups = MAX_STEP_UPS + 1;
    let (result, _) = drive(&mut World::new(), over);
    assert!(matches!(result, Err(AuthError::StepUpLimit { .. })));
}

#[test]
fn held_tokens_are_refreshed_and_migration_registers_again() {
    let mut world = World::new();
    world.token_answer =
        json!({"access_token": "test-token-1", "token_type": "Bearer", "refresh_token": "R1"});
    let (first, _) = drive(&mut world, start(None, config()));
    let first = first.unwrap();

    // Same AS: a refresh, no new authorization.
    let mut world = World::new();
    let mut again = start(None, config());
    again.tokens = Some(first.clone());
    let (refreshed, _) = drive(&mut world, again);
    assert!(refreshed.is_ok());
    assert!(world.authorize_urls.is_empty());
    assert_eq!(world.fetched.last().unwrap().purpose, Purpose::Refresh);

    // The PRM now names another AS: no refresh, no reuse of the old client, a new registration.
    let mut world = World::new();
    let as2 = "http://localhost:5000";
    world.prm["authorization_servers"] = json!([as2]);
    world.metadata_at = format!("{as2}/.well-known/oauth-authorization-server");
    world.metadata["issuer"] = json!(as2);
    world.iss_in_redirect = Some(as2.into());
    world.registered = json!({"client_id": "as2-client"});
    let mut migrated = start(
        None,
        AuthClientConfig {
            registered: vec![first.client.clone()],
            ..config()
        },
    );
    migrated.tokens = Some(first);
    let (tokens, flow) = drive(&mut world, migrated);
    assert_eq!(tokens.unwrap().issuer, as2);
    assert!(
        world
            .fetched
            .iter()
            .any(|r| r.purpose == Purpose::Registration)
    );
    assert_eq!(world.param("client_id").as_deref(), Some("as2-client"));
    assert_eq!(flow.new_registration().unwrap().issuer, as2);
}

#[test]
fn a_rejected_refresh_falls_back_to_sign_in() {
    let mut world = World::new();
    world.token_answer =
        json!({"access_token": "test-token-1", "token_type": "Bearer", "refresh_token": "R1"});
    let (first, _) = drive(&mut world, start(None, config()));
    let mut world = World::new();
    world.token_answer = json!({"error": "invalid_grant"});
    let mut again = start(None, config());
    again.tokens = first.ok();
    let (result, flow) = drive(&mut world, again);
    // The refresh failed, a new authorization followed, and its token answer failed too.
    assert!(
        matches!(result, Err(AuthError::TokenRefused { .. })),
        "{result:?}"
    );
    assert_eq!(world.authorize_urls.len(), 1);
    // The flow says why it needed a new sign-in (survives the save across the redirect).
    assert!(
        matches!(flow.refresh_refusal(), Some(AuthError::RefreshRejected { error, .. }) if error == "invalid_grant"),
        "{:?}",
        flow.refresh_refusal()
    );
}

#[test]
fn a_wrong_state_discards_the_callback() {
    let mut world = World::new();
    let mut flow = AuthFlow::start(start(None, config()), &[1; 48]);
    loop {
        match flow.step() {
            Step::Fetch(request) => {
                let response = world.answer(&request);
                flow.on_response(&response, 0);
            }
            Step::Authorize { .. } => break,
            other => panic!("{other:?}"),
        }
    }
    flow.on_callback("https://holdbay.example/callback?code=x&state=forged");
    assert_eq!(flow.step(), Step::Failed(AuthError::StateMismatch));
}

#[test]
fn a_failed_fetch_moves_to_the_next_candidate() {
    let mut flow = AuthFlow::start(start(None, config()), &[1; 48]);
    let Step::Fetch(first) = flow.step() else {
        panic!()
    };
    flow.fetch_failed("TypeError: Failed to fetch");
    let Step::Fetch(second) = flow.step() else {
        panic!()
    };
    assert_ne!(first.url, second.url);
    flow.fetch_failed("TypeError: Failed to fetch");
    let Step::Failed(error) = flow.step() else {
        panic!()
    };
    assert!(error.to_string().contains("Failed to fetch"), "{error}");
}

#[test]
fn an_edited_stored_flow_fails_without_panicking() {
    let flow = AuthFlow::start(start(None, config()), &[1; 48]);
    let mut stored: Value = serde_json::to_value(&flow).unwrap();
    stored["phase"]["Prm"]["at"] = json!(99);
    let restored: AuthFlow = serde_json::from_value(stored).unwrap();
    assert!(matches!(
        restored.step(),
        Step::Failed(AuthError::OutOfOrder { .. })
    ));
    let mut restored = restored;
    restored.on_response(&AuthResponse::default(), 0);
    assert!(matches!(restored.step(), Step::Failed(_)));
}

#[test]
fn a_pre_registered_client_of_another_issuer_is_not_used() {
    let mut world = World::new();
    let mut config = config();
    config.pre_registered = Some(PreRegisteredClient {
        issuer: Some("https://other-as.example.com".into()),
        client_id: "pre".into(),
        client_secret: None,
    });
    let (tokens, _) = drive(&mut world, start(None, config));
    assert!(tokens.is_ok());
    assert_eq!(world.param("client_id").as_deref(), Some("dcr-client"));
}

fn dpop_world() -> World {
    let mut world = World::new();
    world.metadata["dpop_signing_alg_values_supported"] = json!(["ES256"]);
    world.token_answer =
        json!({"access_token": "bound-1", "token_type": "DPoP", "expires_in": 3600});
    world
}

fn dpop_config() -> AuthClientConfig {
    AuthClientConfig {
        dpop: true,
        ..config()
    }
}

#[test]
fn dpop_token_request_carries_a_proof_for_the_token_endpoint_and_yields_a_dpop_token() {
    let mut world = dpop_world();
    let (tokens, _) = drive(&mut world, start(challenge(None, None), dpop_config()));
    let tokens = tokens.unwrap();
    assert_eq!(tokens.token_type, TokenType::Dpop);
    assert_eq!(tokens.authorization_header(), "DPoP bound-1");
    let token = world
        .fetched
        .iter()
        .find(|r| r.purpose == Purpose::Token)
        .unwrap();
    let proof = token
        .dpop
        .as_ref()
        .expect("the code exchange asks for a proof");
    assert_eq!(
        (proof.htm.as_str(), proof.htu.as_str()),
        ("POST", &*format!("{AS}/token"))
    );
    assert_eq!((proof.nonce.as_deref(), proof.ath.as_deref()), (None, None));
    // Discovery and registration carry none.
    assert!(
        world
            .fetched
            .iter()
            .filter(|r| r.purpose != Purpose::Token)
            .all(|r| r.dpop.is_none())
    );
}

#[test]
fn dpop_nonce_demanded_by_the_token_endpoint_is_sent_with_the_same_code() {
    let mut world = dpop_world();
    world.token_nonce = Some("as-nonce-1");
    let (tokens, _) = drive(&mut world, start(challenge(None, None), dpop_config()));
    assert_eq!(tokens.unwrap().token_type, TokenType::Dpop);
    let tries: Vec<&AuthRequest> = world
        .fetched
        .iter()
        .filter(|r| r.purpose == Purpose::Token)
        .collect();
    assert_eq!(
        tries.len(),
        2,
        "one refused for want of the nonce, one with it"
    );
    assert_eq!(
        tries[1].dpop.as_ref().unwrap().nonce.as_deref(),
        Some("as-nonce-1")
    );
    assert_eq!(
        tries[0].body, tries[1].body,
        "the same code and verifier go again"
    );
}

#[test]
fn dpop_nonce_demands_are_bounded() {
    let mut world = dpop_world();
    world.token_nonce = Some("never-matched");
    // A server that demands a new nonce each time: the proof's nonce never matches.
    let mut flow = AuthFlow::start(start(challenge(None, None), dpop_config()), &[7; 48]);
    let mut token_tries = 0;
    let outcome = loop {
        match flow.step() {
            Step::Fetch(request) => {
                if request.purpose == Purpose::Token {
                    token_tries += 1;
                    world.token_nonce = Some(if token_tries % 2 == 0 { "a" } else { "b" });
                }
                let response = world.answer(&request);
                flow.on_response(&response, 1_000);
            }
            Step::Authorize { url } => {
                let callback = world.authorize(&url);
                flow.on_callback(&callback);
            }
            Step::Done(tokens) => break Ok(tokens),
            Step::Failed(error) => break Err(error),
        }
        assert!(token_tries < 10, "the flow keeps obeying nonce demands");
    };
    assert!(
        matches!(outcome, Err(AuthError::TokenRefused { ref error, .. }) if error == "use_dpop_nonce"),
        "{outcome:?}"
    );
    assert_eq!(token_tries, 1 + usize::from(MAX_NONCE_RETRIES));
}

#[test]
fn without_dpop_es256_or_app_support_the_flow_stays_bearer() {
    // The AS accepts only other algorithms: no proof, and a DPoP answer is refused.
    let mut world = dpop_world();
    world.metadata["dpop_signing_alg_values_supported"] = json!(["RS256"]);
    let (tokens, flow) = drive(&mut world, start(challenge(None, None), dpop_config()));
    assert!(
        matches!(tokens, Err(AuthError::TokenTypeNotBearer { .. })),
        "{tokens:?}"
    );
    assert!(
        flow.findings()
            .iter()
            .any(|f| f.rule == crate::vocabulary::findings::Rule::TokenTypeNotBearer)
    );
    assert!(world.fetched.iter().all(|r| r.dpop.is_none()));
    // The app cannot sign: the same.
    let mut world = dpop_world();
    let (tokens, _) = drive(&mut world, start(challenge(None, None), config()));
    assert!(tokens.is_err());
    assert!(world.fetched.iter().all(|r| r.dpop.is_none()));
    // A Bearer answer to a proof is taken as Bearer (the AS chose not to bind it).
    let mut world = dpop_world();
    world.token_answer["token_type"] = json!("Bearer");
    let (tokens, _) = drive(&mut world, start(challenge(None, None), dpop_config()));
    assert_eq!(tokens.unwrap().token_type, TokenType::Bearer);
}

#[test]
fn a_dpop_flow_survives_the_redirect_as_json() {
    let mut world = dpop_world();
    world.token_nonce = Some("n");
    // drive() round-trips the flow through JSON at the redirect; the nonce state too.
    let (tokens, _) = drive(&mut world, start(challenge(None, None), dpop_config()));
    assert!(tokens.is_ok());
    let old: AuthClientConfig = serde_json::from_value(json!({
        "redirect_uri": REDIRECT, "client_name": "Holdbay", "client_metadata_url": null,
        "pre_registered": null, "registered": [], "application_type": "web", "want_refresh": false
    }))
    .unwrap();
    assert!(
        !old.dpop,
        "a flow kept before DPoP reads back as Bearer-only"
    );
}

#[test]
fn an_as_without_the_authorization_code_grant_is_not_sent_the_browser() {
    let mut world = World::new();
    world.metadata["grant_types_supported"] = json!(["client_credentials"]);
    let (tokens, _) = drive(&mut world, start(challenge(None, None), config()));
    let Err(AuthError::GrantUnsupported { issuer, grants }) = tokens else {
        panic!("expected GrantUnsupported, got {tokens:?}");
    };
    assert_eq!(
        (issuer.as_str(), grants.as_str()),
        (AS, "client_credentials")
    );
    assert!(world.authorize_urls.is_empty(), "no trip to /authorize");
    assert!(
        world
            .fetched
            .iter()
            .all(|r| r.purpose != Purpose::Registration)
    );
    // Absent, the grant defaults to authorization_code (RFC 8414 §2).
    let mut world = World::new();
    world
        .metadata
        .as_object_mut()
        .unwrap()
        .remove("grant_types_supported");
    assert!(
        drive(&mut world, start(challenge(None, None), config()))
            .0
            .is_ok()
    );
}
