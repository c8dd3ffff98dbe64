//! The call panel in headless Chromium, against a scripted `fetch` (no server needed).
#![cfg(target_arch = "wasm32")]

use holdbay::connection::Connection;
use holdbay::ui::Session;
use holdbay::ui::call::{CallPanel, ToolResult, base64_decoded_len, data_url, shorten};
use holdbay_engine::model::CallToolResult;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

mod dom;

use dom::{click, find, fresh_host, script_fetch, text, wait_for};

wasm_bindgen_test_configure!(run_in_browser);

fn seen_count() -> u32 {
    js_sys::eval("window.__seen.length")
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0) as u32
}

fn seen(expression: &str) -> JsValue {
    js_sys::eval(expression).unwrap_or(JsValue::UNDEFINED)
}

fn mount_panel(id: &str) -> (HtmlElement, Session) {
    let host = fresh_host(id);
    // Made inside the mount: a session starts effects, which need the executor it sets up.
    let made = std::rc::Rc::new(std::cell::Cell::new(None));
    let out = made.clone();
    leptos::mount::mount_to(host.clone(), move || {
        let session = Session::new(Connection::direct("http://mcp.test/mcp".into()));
        out.set(Some(session));
        provide_context(session);
        session.selected_tool.set(Some("demo".into()));
        view! { <CallPanel /> }
    })
    .forget();
    (host, made.get().expect("mounted synchronously"))
}

const PAUSE: &str = r#"return { resultType: "input_required",
    inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form",
        message: "Sure?", requestedSchema: { type: "object", properties: {} } } } },
    requestState: "sealed-0123456789abcdefghijklmnopqrstuvwxyz" };"#;

#[wasm_bindgen_test]
async fn a_paused_call_shows_its_round_and_state_and_can_be_cancelled() {
    script_fetch(PAUSE);
    let (host, _session) = mount_panel("call-paused");
    assert_eq!(text(&host, ".call-tool"), "demo");
    let accept = find(&host, ".accept-task").expect("accept-task checkbox");
    assert!(
        accept
            .unchecked_into::<web_sys::HtmlInputElement>()
            .checked()
    );
    click(&host, "button.call");
    wait_for(&host, ".round-counter").await;
    assert_eq!(text(&host, ".round-counter"), "Round 1 of at most 10");
    let state = text(&host, ".request-state");
    assert!(
        state.starts_with("sealed-0123") && state.contains('…'),
        "{state}"
    );
    assert!(
        find(
            &host,
            ".paused-call [data-key='confirm'], .paused-call .input-request"
        )
        .is_some()
            || host.inner_html().contains("Sure?")
    );
    // The first request declared the tasks extension and asked for progress.
    let meta = seen("JSON.stringify(window.__seen[0].body.params._meta)")
        .as_string()
        .unwrap_or_default();
    assert!(meta.contains("io.modelcontextprotocol/tasks"), "{meta}");
    assert!(meta.contains("progressToken"), "{meta}");
    click(&host, ".cancel-call");
    wait_for(&host, ".call-cancelled").await;
    assert_eq!(seen_count(), 1, "cancelling sends nothing");
}

#[wasm_bindgen_test]
async fn without_accept_task_the_extension_is_not_declared() {
    script_fetch(r#"return { resultType: "complete", content: [{ type: "text", text: "ok" }] };"#);
    let (host, _session) = mount_panel("call-no-task");
    click(&host, ".accept-task");
    click(&host, "button.call");
    wait_for(&host, ".call-result").await;
    let meta = seen("JSON.stringify(window.__seen[0].body.params._meta)")
        .as_string()
        .unwrap_or_default();
    assert!(!meta.contains("io.modelcontextprotocol/tasks"), "{meta}");
}

#[wasm_bindgen_test]
async fn a_json_rpc_error_is_a_protocol_error_not_a_tool_error() {
    script_fetch(r#"return { error: { code: -32021, message: "this tool needs tasks" } };"#);
    let (host, _session) = mount_panel("call-rpc-error");
    click(&host, "button.call");
    let notice = wait_for(&host, ".call-error").await;
    let shown = notice.text_content().unwrap_or_default();
    assert!(
        shown.contains("-32021") && shown.contains("this tool needs tasks"),
        "{shown}"
    );
    assert!(find(&host, ".tool-error").is_none());
    assert!(
        find(&host, ".use-relay").is_none(),
        "not a CORS-like failure"
    );
}

#[wasm_bindgen_test]
async fn a_refused_fetch_offers_the_relay_and_retries_through_it() {
    script_fetch(
        r#"if (n === 1) { throw new TypeError("Failed to fetch"); }
           return { resultType: "complete", content: [{ type: "text", text: "via relay" }] };"#,
    );
    let (host, session) = mount_panel("call-cors");
    click(&host, "button.call");
    wait_for(&host, ".use-relay").await;
    assert!(text(&host, ".call-error").contains("CORS"));
    click(&host, ".use-relay");
    wait_for(&host, ".call-result").await;
    assert!(session.connection.get_untracked().via_relay);
    let url = seen("window.__seen[1].url").as_string().unwrap_or_default();
    assert!(url.starts_with("/relay?target="), "{url}");
    assert_eq!(text(&host, ".content-text"), "via relay");
}

#[wasm_bindgen_test]
async fn a_task_answer_is_handed_to_the_tasks_board() {
    script_fetch(
        r#"return { resultType: "task", taskId: "t-42", status: "working",
                    createdAt: "2026-07-28T00:00:00Z", lastUpdatedAt: "2026-07-28T00:00:00Z",
                    ttlMs: 60000, pollIntervalMs: 1000 };"#,
    );
    let (host, session) = mount_panel("call-task");
    click(&host, "button.call");
    let said = wait_for(&host, ".call-task").await;
    let said = said.text_content().unwrap_or_default();
    assert!(
        said.contains("t-42") && said.contains("see Tasks"),
        "{said}"
    );
    assert_eq!(session.tasks.tasks().get_untracked().len(), 1);
}

fn result(json: &str) -> CallToolResult {
    serde_json::from_str(json).expect("a CallToolResult")
}

#[wasm_bindgen_test]
fn results_render_every_content_kind_as_text_or_data() {
    let host = fresh_host("call-result-kinds");
    let result = result(
        r#"{"resultType":"complete","content":[
            {"type":"text","text":"line one\n<b>line two</b>"},
            {"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},
            {"type":"image","data":"x","mimeType":"text/html"},
            {"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},
            {"type":"resource_link","uri":"https://example.com/r","name":"report","description":"The report"},
            {"type":"resource","resource":{"uri":"mem://blob","blob":"AAECAw==","mimeType":"application/octet-stream"}}
        ],"structuredContent":{"sum":3}}"#,
    );
    leptos::mount::mount_to(host.clone(), move || view! { <ToolResult result=result /> }).forget();
    assert_eq!(text(&host, ".content-text"), "line one\n<b>line two</b>");
    assert!(find(&host, ".content-text b").is_none(), "text stays text");
    let images = host.query_selector_all("img").expect("query");
    assert_eq!(images.length(), 1, "only the image/* block is shown");
    let src = find(&host, "img")
        .and_then(|i| i.get_attribute("src"))
        .unwrap_or_default();
    assert_eq!(src, "data:image/png;base64,iVBORw0KGgo=");
    assert!(find(&host, "audio[controls]").is_some());
    assert_eq!(
        text(&host, ".content-link .link-uri"),
        "https://example.com/r"
    );
    assert!(
        find(&host, "a").is_none(),
        "links are not followed or made clickable"
    );
    assert!(text(&host, ".call-result").contains("binary 4 bytes"));
    assert!(text(&host, ".structured-content").contains("\"sum\": 3"));
    assert!(find(&host, ".tool-error").is_none());
}

#[wasm_bindgen_test]
fn a_tool_error_is_marked() {
    let host = fresh_host("call-tool-error");
    let result = result(
        r#"{"resultType":"complete","content":[{"type":"text","text":"disk full"}],"isError":true}"#,
    );
    leptos::mount::mount_to(host.clone(), move || view! { <ToolResult result=result /> }).forget();
    assert!(find(&host, ".call-result.tool-error").is_some());
    assert!(text(&host, ".tool-error-banner").contains("tool reported an error"));
}

#[wasm_bindgen_test]
fn helpers_refuse_what_is_not_plain_media() {
    assert_eq!(
        data_url("image/png", "image/", "AAAA").as_deref(),
        Some("data:image/png;base64,AAAA")
    );
    assert_eq!(data_url("text/html", "image/", "AAAA"), None);
    assert_eq!(data_url("image/png", "image/", "AA\"><script>"), None);
    assert_eq!(data_url("image/png;x", "image/", "AAAA"), None);
    assert_eq!(base64_decoded_len("AAECAw=="), 4);
    assert_eq!(base64_decoded_len("AAECAwQF"), 6);
    assert_eq!(shorten("short"), "short");
    let long = "a".repeat(16) + &"b".repeat(30) + "12345678";
    assert_eq!(shorten(&long), format!("{}…12345678", "a".repeat(16)));
}
