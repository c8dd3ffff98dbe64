//! The Scene's authorization lane: drawn from the wire log's authorization exchanges (and
//! the challenge that started them), each at its station; the token part shows what the
//! token says, never the token.

use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::Scene;
use holdbay::wire::{WireChunk, WireEntry, WireLog};
use holdbay_engine::auth::{
    ClientAuthMethod, ClientCredentials, Purpose, RegistrationKind, TokenSet, TokenType,
};
use leptos::prelude::*;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use crate::dom::{
    find, fresh_host, mount_with_session, record_exchange, wait_eq, wait_for, wait_for_text,
    wait_until,
};

pub mod shot;

const MCP: &str = "http://127.0.0.1:7420/mcp";
const AS: &str = "http://127.0.0.1:7420";
pub const CHALLENGE: &str = r#"Bearer error="invalid_token", resource_metadata="http://127.0.0.1:7420/.well-known/oauth-protected-resource/mcp", scope="mcp:tools""#;

/// An MCP request refused with `status` and `www-authenticate` (none when empty).
pub fn refused(status: u16, www_authenticate: &str) -> WireEntry {
    let mut response_headers = vec![("content-type".to_owned(), "text/plain".to_owned())];
    if !www_authenticate.is_empty() {
        response_headers.push(("www-authenticate".into(), www_authenticate.into()));
    }
    WireEntry {
        method: "tools/call".into(),
        name: Some("book_table".into()),
        server: MCP.into(),
        url: MCP.into(),
        started_at: js_sys::Date::now(),
        request_body: r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book_table","arguments":{}}}"#.into(),
        status: Some(status),
        response_headers,
        responded_after: Some(8.0),
        finished_after: Some(9.0),
        ..Default::default()
    }
}

/// An authorization exchange as the sign-in records it: `status` `None` with `error` for a
/// fetch that broke, `None` without for the browser's recorded trip.
pub fn auth_exchange(
    purpose: Purpose,
    url: &str,
    status: Option<u16>,
    body: &str,
    error: Option<&str>,
) -> WireEntry {
    WireEntry {
        method: purpose.label().into(),
        server: MCP.into(),
        url: url.into(),
        started_at: js_sys::Date::now(),
        request_body: match purpose {
            Purpose::Token => "grant_type=authorization_code&code=%E2%80%B9redacted%E2%80%BA&code_verifier=%E2%80%B9redacted%E2%80%BA".into(),
            _ => String::new(),
        },
        status,
        response_headers: status
            .map(|_| vec![("content-type".into(), "application/json".into())])
            .unwrap_or_default(),
        responded_after: status.map(|_| 12.0),
        body: (!body.is_empty())
            .then(|| WireChunk {
                after: 12.0,
                text: body.into(),
            })
            .into_iter()
            .collect(),
        finished_after: Some(13.0),
        error: error.map(Into::into),
        auth: Some(purpose),
        ..Default::default()
    }
}

/// A whole first sign-in: the challenge, discovery, registration, the browser's trip and
/// the token, as the log holds it; one exchange a second, the first at `SIGN_IN_START` ms
/// before now.
pub fn record_sign_in(wire: &WireLog) -> f64 {
    let start = js_sys::Date::now() - SIGN_IN_START;
    record_exchange(
        wire,
        WireEntry {
            started_at: start,
            ..refused(401, CHALLENGE)
        },
    );
    let exchanges = [
        auth_exchange(
            Purpose::ProtectedResourceMetadata,
            &format!("{AS}/.well-known/oauth-protected-resource/mcp"),
            Some(200),
            r#"{"resource":"http://127.0.0.1:7420/mcp","authorization_servers":["http://127.0.0.1:7420"],"scopes_supported":["mcp:tools"]}"#,
            None,
        ),
        auth_exchange(
            Purpose::AuthorizationServerMetadata,
            &format!("{AS}/.well-known/oauth-authorization-server"),
            Some(200),
            r#"{"issuer":"http://127.0.0.1:7420","authorization_endpoint":"http://127.0.0.1:7420/authorize","token_endpoint":"http://127.0.0.1:7420/token","registration_endpoint":"http://127.0.0.1:7420/register","code_challenge_methods_supported":["S256"]}"#,
            None,
        ),
        auth_exchange(
            Purpose::Registration,
            &format!("{AS}/register"),
            Some(201),
            r#"{"client_id":"hb-client-7","token_endpoint_auth_method":"none"}"#,
            None,
        ),
        auth_exchange(
            Purpose::Authorization,
            &format!("{AS}/authorize?response_type=code&client_id=hb-client-7&state=s1"),
            None,
            "",
            None,
        ),
        auth_exchange(
            Purpose::Callback,
            "http://127.0.0.1:8080/oauth/callback?code=%E2%80%B9redacted%E2%80%BA&state=s1",
            None,
            "",
            None,
        ),
        auth_exchange(
            Purpose::Token,
            &format!("{AS}/token"),
            Some(200),
            r#"{"access_token":"‹redacted›","token_type":"Bearer","expires_in":3600,"scope":"mcp:tools"}"#,
            None,
        ),
        auth_exchange(
            Purpose::Refresh,
            &format!("{AS}/token"),
            None,
            "",
            Some("the authorization server could not be reached"),
        ),
    ];
    for (second, entry) in (1..).zip(exchanges) {
        wire.begin(WireEntry {
            started_at: start + 1000.0 * f64::from(second),
            ..entry
        });
    }
    start
}

/// How long before now [`record_sign_in`]'s first exchange started, ms.
pub const SIGN_IN_START: f64 = 10_000.0;

pub fn mount_scene(id: &str, token: Signal<Option<TokenSet>>) -> (HtmlElement, WireLog) {
    let (host, session) = mount_scene_in_session(id, token);
    (host, session.wire())
}

fn mount_scene_in_session(id: &str, token: Signal<Option<TokenSet>>) -> (HtmlElement, Session) {
    let host = fresh_host(id);
    let (session, _) = mount_with_session(
        &host,
        || Session::new(Connection::default()),
        move || view! { <Scene token=token /> },
    );
    (host, session)
}

fn attrs(host: &Element, selector: &str, name: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).expect("a selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|node| wasm_bindgen::JsCast::dyn_into::<Element>(node).ok())
        .map(|element| element.get_attribute(name).unwrap_or_default())
        .collect()
}

fn station(party: &str) -> String {
    format!(".auth-station[data-party=\"{party}\"] .auth-part")
}

fn inspector_json(host: &Element) -> String {
    find(host, "#inspect .inspect-json")
        .and_then(|pre| pre.text_content())
        .unwrap_or_default()
}

/// The inspector's JSON once it parses and `ready` holds of it.
async fn inspected_json(
    host: &Element,
    ready: impl Fn(&serde_json::Value) -> bool,
    what: &str,
) -> serde_json::Value {
    crate::dom::wait_some(
        || {
            serde_json::from_str(&inspector_json(host))
                .ok()
                .filter(|shown| ready(shown))
        },
        what,
        || format!("the inspector shows {}", inspector_json(host)),
    )
    .await
}

#[wasm_bindgen_test]
async fn a_sign_in_draws_each_exchange_at_its_station_after_the_challenge() {
    let (host, wire) = mount_scene("scene-auth-lane", Signal::stored(None));
    record_sign_in(&wire);
    wait_for(&host, "#auth-lane .auth-part[data-purpose=\"refresh\"]").await;

    let resource = station("resource-server");
    assert_eq!(
        attrs(&host, &resource, "data-purpose"),
        ["challenge", "resource-metadata"]
    );
    assert_eq!(attrs(&host, &resource, "data-status"), ["401", "200"]);
    let authorization = station("authorization-server");
    assert_eq!(
        attrs(&host, &authorization, "data-purpose"),
        [
            "server-metadata",
            "register",
            "authorize",
            "token",
            "refresh"
        ]
    );
    assert_eq!(
        attrs(&host, &authorization, "data-status"),
        ["200", "201", "sent", "200", "error"]
    );
    assert_eq!(
        attrs(&host, &authorization, "data-tone"),
        ["ok", "ok", "ok", "ok", "broken"]
    );
    assert_eq!(
        attrs(&host, &station("browser"), "data-purpose"),
        ["callback"]
    );
    // The challenge is the lane's first part; the numbers follow the log's order.
    let first = find(&host, &format!("{resource}[data-purpose=\"challenge\"]")).expect("challenge");
    assert_eq!(
        first
            .query_selector(".auth-step-number")
            .ok()
            .flatten()
            .and_then(|n| n.text_content()),
        Some("1".to_owned())
    );
    // Its accessible name is its visible text (number, what, status), as axe asks.
    let browser_part = find(&host, &station("browser")).expect("the callback part");
    let name: Vec<String> = [".auth-step-number", ".auth-step-label", ".auth-step-status"]
        .iter()
        .filter_map(|part| browser_part.query_selector(part).ok().flatten())
        .filter_map(|node| node.text_content())
        .collect();
    assert_eq!(name.join(" "), "6 callback sent");
    assert_eq!(browser_part.get_attribute("aria-label"), None);
    assert!(
        find(&host, ".auth-no-token").is_some(),
        "without a token the client holds none"
    );
}

#[wasm_bindgen_test]
async fn inspecting_an_exchange_shows_its_json_as_the_log_has_it() {
    let (host, wire) = mount_scene("scene-auth-inspect", Signal::stored(None));
    record_sign_in(&wire);
    let token = wait_for(&host, "#auth-lane .auth-part[data-purpose=\"token\"]").await;
    wasm_bindgen::JsCast::unchecked_ref::<HtmlElement>(&token).click();
    let role = wait_for_text(&host, "#inspect .inspect-role", "authorization server").await;
    assert!(role.contains("token"), "{role}");
    let shown = inspected_json(
        &host,
        |shown| shown["response"]["status"] == 200,
        "the token exchange inspected",
    )
    .await;
    assert_eq!(shown["response"]["body"]["access_token"], "‹redacted›");
    assert_eq!(shown["request"]["url"], format!("{AS}/token"));
    assert_eq!(token.get_attribute("aria-pressed").as_deref(), Some("true"));

    // The challenge shows the MCP server's refusal, its WWW-Authenticate included.
    let challenge = find(&host, ".auth-part[data-purpose=\"challenge\"]").expect("challenge");
    wasm_bindgen::JsCast::unchecked_ref::<HtmlElement>(&challenge).click();
    let shown = inspected_json(
        &host,
        |shown| shown["response"]["status"] == 401,
        "the challenge inspected",
    )
    .await;
    assert_eq!(shown["response"]["headers"]["www-authenticate"], CHALLENGE);
    assert_eq!(
        token.get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
}

#[wasm_bindgen_test]
async fn a_log_without_authorization_exchanges_draws_no_lane() {
    let (host, wire) = mount_scene("scene-auth-none", Signal::stored(None));
    // A Bearer challenge alone is not a sign-in in the log: no lane yet.
    record_exchange(&wire, refused(401, CHALLENGE));
    let last = record_exchange(&wire, refused(403, r#"Bearer error="insufficient_scope""#));
    // The scene has drawn the refusals (the lane, drawn from the same log, would be there).
    wait_for(&host, &format!("g.flight[data-exchange=\"{last}\"]")).await;
    assert!(find(&host, "#auth-lane").is_none(), "{}", host.inner_html());
    assert!(find(&host, ".auth-part").is_none());
}

#[wasm_bindgen_test]
async fn a_refusal_without_a_bearer_challenge_is_not_drawn_as_one() {
    let (host, wire) = mount_scene("scene-auth-not-challenge", Signal::stored(None));
    record_exchange(&wire, refused(401, r#"Basic realm="proxy""#));
    record_exchange(&wire, refused(403, r#"Bearer error="invalid_token""#));
    record_exchange(&wire, refused(401, CHALLENGE));
    record_sign_in(&wire);
    wait_for(&host, "#auth-lane .auth-part[data-purpose=\"refresh\"]").await;
    assert_eq!(
        attrs(
            &host,
            ".auth-part[data-purpose=\"challenge\"]",
            "data-status"
        ),
        ["401", "401"],
        "only the Bearer 401s are challenges"
    );
}

/// base64url without padding (RFC 4648 §5), as a JWS segment is written.
fn segment(value: serde_json::Value) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let bytes = value.to_string().into_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

pub const SIGNATURE: &str = "c2lnbmF0dXJlLW5ldmVyLXNob3du";
pub const REFRESH: &str = "hb_rt_refresh-never-shown";

/// A token set whose access token is `access_token`, expiring in an hour.
pub fn tokens(access_token: String) -> TokenSet {
    TokenSet {
        access_token,
        refresh_token: Some(REFRESH.into()),
        expires_at_ms: Some(js_sys::Date::now() as u64 + 3_600_000),
        scope: Some("mcp:tools".into()),
        issuer: AS.into(),
        resource: MCP.into(),
        token_endpoint: format!("{AS}/token"),
        client: ClientCredentials {
            issuer: AS.into(),
            client_id: "hb-client-7".into(),
            client_secret: Some("client-secret-never-shown".into()),
            auth_method: ClientAuthMethod::None,
            kind: RegistrationKind::Dynamic,
        },
        token_type: TokenType::Bearer,
    }
}

pub fn jwt() -> String {
    let header = segment(serde_json::json!({"alg": "RS256", "typ": "at+jwt", "kid": "demo-1"}));
    let claims = segment(serde_json::json!({
        "iss": AS, "sub": "ada", "aud": MCP, "scope": "mcp:tools", "exp": 1_900_000_000,
    }));
    format!("{header}.{claims}.{SIGNATURE}")
}

fn assert_no_secret(host: &Element, access_token: &str) {
    let page = crate::dom::document()
        .body()
        .map(|body| body.outer_html())
        .unwrap_or_default();
    for secret in [
        access_token,
        SIGNATURE,
        REFRESH,
        "client-secret-never-shown",
    ] {
        assert!(
            !page.contains(secret),
            "{secret} is on the page: {}",
            host.inner_html()
        );
    }
}

#[wasm_bindgen_test]
async fn the_token_part_shows_what_a_jwt_says_and_never_the_token() {
    let access_token = jwt();
    let (host, wire) = mount_scene(
        "scene-auth-token",
        Signal::stored(Some(tokens(access_token.clone()))),
    );
    record_sign_in(&wire);
    let part = wait_for(&host, "#auth-lane .auth-token").await;
    assert_eq!(part.get_attribute("data-jwt").as_deref(), Some("true"));
    let expiry = part.text_content().unwrap_or_default();
    assert!(
        expiry.contains("expires") && expiry.contains("min"),
        "{expiry}"
    );
    wasm_bindgen::JsCast::unchecked_ref::<HtmlElement>(&part).click();
    wait_eq(
        || find(&host, "#inspect .inspect-role").and_then(|r| r.text_content()),
        Some(format!("Access token from {AS}")),
        "the token inspected",
    )
    .await;
    let facts = find(&host, "#inspect .inspect-facts")
        .and_then(|r| r.text_content())
        .unwrap_or_default();
    assert!(
        facts.contains("scope: mcp:tools") && facts.contains("expires"),
        "{facts}"
    );
    let shown: serde_json::Value =
        serde_json::from_str(&inspector_json(&host)).expect("the inspector's JSON");
    assert_eq!(shown["issuer"], AS);
    assert_eq!(shown["scope"], "mcp:tools");
    assert_eq!(shown["jwt"]["header"]["typ"], "at+jwt");
    assert_eq!(shown["jwt"]["claims"]["sub"], "ada");
    assert!(shown.get("accessToken").is_none() && shown["jwt"].get("signature").is_none());
    assert_no_secret(&host, &access_token);
}

#[wasm_bindgen_test]
async fn an_opaque_token_is_shown_without_claims_and_never_whole() {
    let access_token = "hb_at_opaque-token-never-shown-3f9a0c1e".to_owned();
    let (host, wire) = mount_scene(
        "scene-auth-opaque",
        Signal::stored(Some(tokens(access_token.clone()))),
    );
    record_sign_in(&wire);
    let part = wait_for(&host, "#auth-lane .auth-token").await;
    assert_eq!(part.get_attribute("data-jwt").as_deref(), Some("false"));
    wasm_bindgen::JsCast::unchecked_ref::<HtmlElement>(&part).click();
    let shown = inspected_json(
        &host,
        |shown| shown["issuer"] == AS,
        "the opaque token inspected",
    )
    .await;
    assert_eq!(shown["jwt"], serde_json::Value::Null);
    assert_no_secret(&host, &access_token);
}

#[wasm_bindgen_test]
async fn a_scrub_shows_the_lane_as_it_stood_then_without_the_live_token() {
    let (host, session) = mount_scene_in_session(
        "scene-auth-scrub",
        Signal::stored(Some(tokens("hb_at_live-token".into()))),
    );
    let start = record_sign_in(&session.wire());
    wait_for(&host, "#auth-lane .auth-part[data-purpose=\"refresh\"]").await;
    assert!(find(&host, ".auth-token").is_some());

    let traffic = session.traffic();
    // Half a second after the registration went out: the challenge, discovery, register.
    traffic.scrub_to(Some(start + 3_500.0));
    wait_eq(
        || attrs(&host, "#auth-lane .auth-part[data-entry]", "data-purpose"),
        [
            "challenge",
            "resource-metadata",
            "server-metadata",
            "register",
        ]
        .map(String::from)
        .to_vec(),
        "the lane as it stood",
    )
    .await;
    assert!(
        find(&host, ".auth-token").is_none(),
        "a replay does not show today's token"
    );
    traffic.scrub_to(None);
    wait_until(
        || attrs(&host, "#auth-lane .auth-part[data-entry]", "data-purpose").len() == 8,
        "the whole lane again",
    )
    .await;
    wait_for(&host, ".auth-token").await;
}
