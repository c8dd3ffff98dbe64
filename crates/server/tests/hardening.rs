//! Browser hardening over real HTTP on 127.0.0.1: the app page's Content-Security-Policy
//! allows its inline loader and styles by hash (computed from the index.html served) and
//! connections only to this machine and the servers allowed with `--relay-allow`; every
//! response, MCP and relay ones included, carries `nosniff` and `no-referrer`, and what is
//! not a page gets a policy under which nothing runs or loads.

mod support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use holdbay_engine::relay::RELAY_TOKEN_HEADER;
use sha2::{Digest, Sha256};
use support::{TestServer, discover, header, http_client};
use tempfile::TempDir;

/// The index.html Trunk and `scripts/split/finish-dist.sh` write (inline module loader,
/// nine inline style blocks), trimmed: see the fixture's first line.
const TRUNK_INDEX: &str = include_str!("fixtures/trunk-index.html");
const JS: &str = "holdbay-app-4c430d886ad9a312.js";

fn app_dist() -> TempDir {
    let dist = TempDir::new().expect("temp dist");
    std::fs::write(dist.path().join("index.html"), TRUNK_INDEX).expect("index.html");
    std::fs::write(dist.path().join(JS), "export default function init() {}\n").expect("js");
    dist
}

/// The text of each `<tag>…</tag>` without `src`, found independently of the server's
/// parser: split at the start tags, cut at the end tag.
fn inline(html: &str, tag: &str) -> Vec<String> {
    html.split(&format!("<{tag}"))
        .skip(1)
        .filter_map(|rest| {
            let (attributes, after) = rest.split_once('>')?;
            let (body, _) = after.split_once(&format!("</{tag}>"))?;
            (!attributes.contains("src=")).then(|| body.to_owned())
        })
        .collect()
}

fn sha256_source(text: &str) -> String {
    format!(
        "'sha256-{}'",
        STANDARD.encode(Sha256::digest(text.as_bytes()))
    )
}

/// The policy's directives by name.
fn directives(policy: &str) -> Vec<(String, Vec<String>)> {
    policy
        .split(';')
        .filter_map(|directive| {
            let mut words = directive.split_whitespace();
            let name = words.next()?.to_owned();
            Some((name, words.map(str::to_owned).collect()))
        })
        .collect()
}

fn directive(policy: &str, name: &str) -> Vec<String> {
    directives(policy)
        .into_iter()
        .find(|(found, _)| found == name)
        .map(|(_, sources)| sources)
        .unwrap_or_else(|| panic!("no {name} in {policy}"))
}

async fn get(server: &TestServer, path: &str) -> reqwest::Response {
    http_client()
        .get(format!("{}{path}", server.base()))
        .send()
        .await
        .expect("response")
}

fn assert_common(response: &reqwest::Response, what: &str) {
    assert_eq!(
        header(response, "x-content-type-options"),
        "nosniff",
        "{what}"
    );
    assert_eq!(header(response, "referrer-policy"), "no-referrer", "{what}");
    assert_eq!(
        response
            .headers()
            .get_all("content-security-policy")
            .iter()
            .count(),
        1,
        "{what}: one policy"
    );
}

#[tokio::test]
async fn the_app_page_allows_exactly_its_inline_scripts_and_styles_by_hash() {
    let server = TestServer::serving(app_dist(), &[]);
    let response = get(&server, "/").await;
    assert_eq!(response.status(), 200);
    assert_common(&response, "/");
    let policy = header(&response, "content-security-policy");
    let page = response.text().await.expect("page");

    let scripts = inline(&page, "script");
    assert_eq!(scripts.len(), 1, "Trunk's loader");
    let styles = inline(&page, "style");
    assert_eq!(styles.len(), 9);
    let mut script_src = vec!["'self'".to_owned(), "'wasm-unsafe-eval'".to_owned()];
    script_src.extend(scripts.iter().map(|text| sha256_source(text)));
    assert_eq!(directive(&policy, "script-src"), script_src, "{policy}");
    let mut style_src = vec!["'self'".to_owned()];
    style_src.extend(styles.iter().map(|text| sha256_source(text)));
    assert_eq!(directive(&policy, "style-src"), style_src, "{policy}");

    for (name, sources) in [
        ("default-src", &["'self'"][..]),
        ("style-src-attr", &["'unsafe-inline'"]),
        ("img-src", &["'self'", "data:"]),
        ("media-src", &["'self'", "data:"]),
        (
            "connect-src",
            &["'self'", "http://127.0.0.1:*", "http://localhost:*"],
        ),
        ("object-src", &["'none'"]),
        ("base-uri", &["'none'"]),
        ("form-action", &["'none'"]),
        ("frame-ancestors", &["'none'"]),
    ] {
        assert_eq!(directive(&policy, name), sources, "{name} in {policy}");
    }
    // Nothing else: every directive is one of the above.
    assert_eq!(directives(&policy).len(), 11, "{policy}");
}

#[tokio::test]
async fn servers_allowed_with_relay_allow_are_also_in_connect_src() {
    let server = TestServer::serving(
        app_dist(),
        &[
            "--relay-allow",
            "mcp.example.test",
            "--relay-allow",
            "10.9.9.9:8443",
            "--relay-allow",
            "bad; script-src *",
        ],
    );
    let policy = header(&get(&server, "/").await, "content-security-policy");
    assert_eq!(
        directive(&policy, "connect-src"),
        [
            "'self'",
            "http://127.0.0.1:*",
            "http://localhost:*",
            "http://mcp.example.test:*",
            "https://mcp.example.test:*",
            "http://10.9.9.9:8443",
            "https://10.9.9.9:8443",
        ],
        "{policy}"
    );
    assert_eq!(directive(&policy, "script-src").len(), 3, "{policy}");
}

#[tokio::test]
async fn deep_links_carry_the_app_policy_and_assets_one_that_runs_nothing() {
    let server = TestServer::serving(app_dist(), &[]);
    let page_policy = header(&get(&server, "/").await, "content-security-policy");
    for path in ["/lessons/anything", "/index.html"] {
        let response = get(&server, path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_common(&response, path);
        assert_eq!(
            header(&response, "content-security-policy"),
            page_policy,
            "{path}"
        );
    }
    // A policy governs the document it comes with: the page's script needs none of its own,
    // and one that runs nothing costs 1 KB less than the page's on every file.
    let script = get(&server, &format!("/{JS}")).await;
    assert_eq!(script.status(), 200);
    assert_common(&script, JS);
    assert_eq!(
        header(&script, "content-security-policy"),
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    );
    // A revalidated page (304, no type) keeps the page's policy: its headers replace the
    // cached ones, and the page would otherwise be governed by the one that runs nothing.
    let first = get(&server, "/").await;
    let validator = first
        .headers()
        .get("etag")
        .expect("the page has a validator")
        .clone();
    let again = http_client()
        .get(format!("{}/", server.base()))
        .header("if-none-match", validator)
        .send()
        .await
        .expect("revalidation");
    assert_eq!(again.status(), 304);
    assert_eq!(header(&again, "content-security-policy"), page_policy);
}

#[tokio::test]
async fn mcp_relay_favicon_and_consent_answers_carry_the_headers_and_run_nothing() {
    let server = TestServer::serving(app_dist(), &[]);
    let client = http_client();
    let mcp = discover(&client, &server.mcp_url())
        .send()
        .await
        .expect("discover");
    assert_eq!(mcp.status(), 200);
    let relay = client
        .post(server.relay_url("http://127.0.0.1:1/mcp"))
        .header(RELAY_TOKEN_HEADER, server.relay_token().await)
        .body("{}")
        .send()
        .await
        .expect("relay");
    let refused = client
        .post(server.mcp_url())
        .header("Origin", "https://evil.test")
        .body("{}")
        .send()
        .await
        .expect("refusal");
    assert_eq!(refused.status(), 403);
    let favicon = get(&server, "/favicon.ico").await;
    for (what, response) in [
        ("/mcp", &mcp),
        ("/relay", &relay),
        ("a refusal", &refused),
        ("/favicon.ico", &favicon),
    ] {
        assert_common(response, what);
        let policy = header(response, "content-security-policy");
        assert_eq!(directive(&policy, "default-src"), ["'none'"], "{what}");
        assert_eq!(directive(&policy, "frame-ancestors"), ["'none'"], "{what}");
        assert_eq!(directive(&policy, "form-action"), ["'none'"], "{what}");
    }

    // The consent page: its one style block by hash, its form posting to itself.
    let consent = get(&server, "/consent/0123").await;
    assert_eq!(consent.status(), 404);
    assert_common(&consent, "consent");
    let policy = header(&consent, "content-security-policy");
    let page = consent.text().await.expect("page");
    let styles = inline(&page, "style");
    assert_eq!(styles.len(), 1);
    assert_eq!(directive(&policy, "default-src"), ["'none'"]);
    assert_eq!(directive(&policy, "style-src"), [sha256_source(&styles[0])]);
    assert_eq!(directive(&policy, "form-action"), ["'self'"]);
    assert!(inline(&page, "script").is_empty());
}
