//! The app in headless Chromium (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

use holdbay::ui::{DiscoverPanel, ToolsPanel};
use holdbay_engine::model::{DiscoverResult, ListToolsResult};
use holdbay_engine::{Client, McpMethod, OutgoingRequest};
use leptos::prelude::*;
use wasm_bindgen_test::*;

mod dom;
mod dpop_keys;

use dom::{find, fresh_host, text, wait_for};

wasm_bindgen_test_configure!(run_in_browser);

/// The 2026-07-28 wire reference's §12.1 discover response.
const DISCOVER_RESPONSE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",
 "supportedVersions":["2026-07-28","2025-11-25"],
 "capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},
  "prompts":{},"completions":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},
 "instructions":"Weather and deployment tools.","ttlMs":3600000,"cacheScope":"public",
 "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"ExampleServer","version":"1.4.0"}}}}"#;

/// Decode a canned response body through the engine, exactly as the transport does.
fn decode<M: McpMethod>(request: OutgoingRequest<M>, body: &str) -> M::Output {
    let mut reader = request.reader(200, Some("application/json"));
    reader.push_chunk(body.as_bytes());
    reader.finish().expect("the canned response decodes").result
}

#[wasm_bindgen_test]
fn discover_panel_renders_a_canned_result() {
    let host = fresh_host("discover-host");
    let result: DiscoverResult = decode(Client::default().discover(), DISCOVER_RESPONSE);
    leptos::mount::mount_to(
        host.clone(),
        move || view! { <DiscoverPanel result=result /> },
    )
    .forget();

    assert_eq!(text(&host, "#server-name"), "ExampleServer");
    assert_eq!(text(&host, "#server-version"), "1.4.0");
    let versions = text(&host, "#supported-versions");
    assert!(
        versions.contains("2026-07-28") && versions.contains("2025-11-25"),
        "{versions}"
    );
    assert!(
        find(&host, "#supported-versions .chip.ours").is_some(),
        "our version is marked"
    );
    let capabilities = text(&host, "#capabilities");
    assert!(
        capabilities.contains("tools (listChanged)"),
        "{capabilities}"
    );
    // The flags come in the order the server's JSON had them.
    assert!(
        capabilities.contains("resources (subscribe, listChanged)"),
        "{capabilities}"
    );
    let extension = text(&host, "#capabilities .chip.extension");
    assert_eq!(extension, "io.modelcontextprotocol/tasks");
    assert_eq!(
        text(&host, "#instructions"),
        "Weather and deployment tools."
    );
}

#[wasm_bindgen_test]
fn server_strings_are_rendered_as_text_not_html() {
    let host = fresh_host("hostile-host");
    let hostile = DISCOVER_RESPONSE
        .replace("ExampleServer", "<img src=x onerror=alert(1)>")
        .replace("Weather and deployment tools.", "<b>bold</b>");
    let result: DiscoverResult = decode(Client::default().discover(), &hostile);
    leptos::mount::mount_to(
        host.clone(),
        move || view! { <DiscoverPanel result=result /> },
    )
    .forget();

    assert_eq!(text(&host, "#server-name"), "<img src=x onerror=alert(1)>");
    assert!(
        find(&host, "img").is_none(),
        "a server string became markup"
    );
    assert!(find(&host, "b").is_none(), "a server string became markup");
}

#[wasm_bindgen_test]
fn tools_panel_shows_names_titles_and_descriptions() {
    let host = fresh_host("tools-host");
    let body = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,
        "cacheScope":"private","tools":[
        {"name":"get_weather","title":"Weather","description":"Current weather","inputSchema":{"type":"object"}},
        {"name":"deploy","inputSchema":{"type":"object"}}]}}"#;
    let page: ListToolsResult = decode(Client::default().list_tools(None), body);
    let tools = page.tools;
    leptos::mount::mount_to(host.clone(), move || view! { <ToolsPanel tools=tools /> }).forget();

    assert_eq!(text(&host, "#tool-count"), "2");
    let names = host.query_selector_all(".tool-name").expect("query");
    assert_eq!(names.length(), 2);
    assert_eq!(text(&host, ".tool-title"), "Weather");
    assert_eq!(text(&host, ".tool-description"), "Current weather");
}

#[wasm_bindgen_test]
async fn an_http_404_from_the_server_shows_an_error_message() {
    let host = fresh_host("app-404-host");
    let origin = web_sys::window()
        .expect("window")
        .location()
        .origin()
        .expect("origin");
    // The test runner's own server answers this path with 404.
    holdbay::mount_app_to(
        host.clone(),
        Ok(format!("{origin}/holdbay-no-such-endpoint")),
    );

    let message = wait_for(&host, ".error-message").await;
    let message = message.text_content().unwrap_or_default();
    assert!(message.contains("HTTP 404"), "{message}");
    assert!(find(&host, "#discover-panel").is_none());
}

#[wasm_bindgen_test]
fn an_unusable_server_url_is_refused_with_a_reason() {
    let page = "http://127.0.0.1:8080/?server=x";
    assert_eq!(
        holdbay::endpoint::resolve(None, page).as_deref(),
        Ok("http://127.0.0.1:8080/mcp")
    );
    assert_eq!(
        holdbay::endpoint::resolve(Some("http://example.test:9/mcp"), page).as_deref(),
        Ok("http://example.test:9/mcp")
    );
    let refused = holdbay::endpoint::resolve(Some("javascript:alert(1)"), page)
        .expect_err("javascript: is not an MCP endpoint");
    assert!(refused.contains("http: or https:"), "{refused}");

    let host = fresh_host("app-bad-url-host");
    holdbay::mount_app_to(host.clone(), Err(refused));
    assert!(text(&host, ".error-message").contains("http: or https:"));
}

#[wasm_bindgen_test]
fn tools_with_invalid_header_annotations_are_hidden_with_a_reason() {
    let host = fresh_host("hidden-tools-host");
    let body = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,
        "cacheScope":"private","tools":[
        {"name":"ok","inputSchema":{"type":"object"}},
        {"name":"bad","inputSchema":{"type":"object","properties":{
            "n":{"type":"number","x-mcp-header":"N"}}}}]}}"#;
    let mut client = Client::default();
    let page: ListToolsResult = decode(client.list_tools(None), body);
    let (tools, findings) = client.learn_tools(page.tools);
    let hidden: Vec<String> = findings.into_iter().map(|f| f.explanation).collect();
    leptos::mount::mount_to(
        host.clone(),
        move || view! { <ToolsPanel tools=tools hidden=hidden /> },
    )
    .forget();

    assert_eq!(text(&host, "#tool-count"), "1");
    assert_eq!(text(&host, ".tool-name"), "ok");
    let why = text(&host, "#hidden-tools");
    assert!(why.contains("\"bad\"") && why.contains("number"), "{why}");
}
