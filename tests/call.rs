//! The call panel in headless Chromium, against a scripted `fetch` (no server needed).
#![cfg(target_arch = "wasm32")]

use holdbay::catalog::Catalog;
use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::UiState;
use holdbay::ui::call::{CallPanel, ToolResult, base64_decoded_len, data_url, shorten};
use holdbay_engine::model::{CallToolResult, Tool};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Event, EventInit, HtmlElement, HtmlInputElement};

mod dom;

use dom::{
    click, find, fresh_host, mount_with_session, script_fetch, text, wait_eq, wait_for, wait_gone,
};

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

fn session() -> Session {
    Session::new(Connection::direct("http://mcp.test/mcp".into()))
}

/// The call panel of the tool `demo` (not listed: an empty schema).
fn mount_panel(id: &str) -> (HtmlElement, Session) {
    let host = fresh_host(id);
    let (session, _) = mount_with_session(&host, session, || {
        UiState::current().selected_tool().set(Some("demo".into()));
        view! { <CallPanel /> }
    });
    (host, session)
}

/// The call panel of the tool `demo` (listed with `schema`), shown while `shown` is true:
/// hiding it disposes the panel's view, as switching views does; the session and the UI
/// state stay.
fn mount_switchable_panel(
    id: &str,
    schema: serde_json::Value,
) -> (HtmlElement, RwSignal<bool>, UiState) {
    let host = fresh_host(id);
    let shown = RwSignal::new(true);
    let tool: Tool = serde_json::from_value(serde_json::json!({
        "name": "demo", "description": "demo", "inputSchema": schema
    }))
    .expect("tool");
    let make = move || {
        let session = session();
        session.show_catalog(Catalog::with_tools(vec![tool]));
        session
    };
    let (_, ui) = mount_with_session(&host, make, move || {
        UiState::current().selected_tool().set(Some("demo".into()));
        view! { {move || shown.get().then(|| view! { <CallPanel /> })} }
    });
    (host, shown, ui)
}

/// Hide the call panel, check it is gone, and show a new one.
async fn remount(host: &HtmlElement, shown: RwSignal<bool>) {
    shown.set(false);
    wait_gone(host, "#call-panel").await;
    shown.set(true);
    wait_for(host, "#call-panel").await;
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
    let counter = text(&host, ".round-counter");
    assert!(
        counter.starts_with("Round 1 of at most 10 · ")
            && counter.ends_with(" of at most 10 min 00 s elapsed"),
        "{counter}"
    );
    let state = text(&host, ".request-state");
    assert!(
        state.starts_with("sealed-0123") && state.contains('…'),
        "{state}"
    );
    let card = find(&host, ".paused-call .input-request[data-key='confirm']")
        .expect("the input request's card");
    assert!(
        card.text_content().unwrap_or_default().contains("Sure?"),
        "{}",
        card.inner_html()
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

/// Put `<meta name="holdbay-relay-token" content=TOKEN>` in the page, as `holdbay serve`
/// does in the page it serves; returns it, for the test to remove.
fn page_relay_token(token: &str) -> web_sys::Element {
    let document = web_sys::window()
        .and_then(|window| window.document())
        .expect("document");
    let meta = document.create_element("meta").expect("meta");
    meta.set_attribute("name", "holdbay-relay-token")
        .expect("name");
    meta.set_attribute("content", token).expect("content");
    let head = document
        .query_selector("head")
        .ok()
        .flatten()
        .expect("head");
    head.append_child(&meta).expect("in the head");
    meta
}

#[wasm_bindgen_test]
async fn a_refused_fetch_offers_the_relay_and_retries_through_it() {
    let meta = page_relay_token("token-of-this-page-0123");
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
    meta.remove();
    assert!(session.connection().get_untracked().via_relay);
    let url = seen("window.__seen[1].url").as_string().unwrap_or_default();
    assert!(url.contains("/relay?target="), "{url}");
    assert_eq!(text(&host, ".content-text"), "via relay");
    // The relay gets the page's token; the server itself, tried directly, never did.
    assert_eq!(
        seen("window.__seen[1].headers['x-holdbay-relay-token']").as_string(),
        Some("token-of-this-page-0123".to_owned())
    );
    assert!(seen("window.__seen[0].headers['x-holdbay-relay-token']").is_undefined());
    // The wire log withholds its value, like any credential.
    let relayed = session
        .wire()
        .entries()
        .get_untracked()
        .into_iter()
        .find(|entry| entry.relayed)
        .expect("the relayed exchange is in the log");
    assert!(
        relayed.is_withheld("X-Holdbay-Relay-Token"),
        "{:?}",
        relayed.withheld_headers
    );
    assert_eq!(relayed.request_header("X-Holdbay-Relay-Token"), Some("•••"));
}

#[wasm_bindgen_test]
async fn through_the_relay_a_page_without_a_token_sends_none_and_a_users_header_is_dropped() {
    script_fetch(r#"return { resultType: "complete", content: [{ type: "text", text: "ok" }] };"#);
    let host = fresh_host("call-relay-no-token");
    let (_session, _) = mount_with_session(
        &host,
        || {
            let mut connection = Connection::direct("http://mcp.test/mcp".into());
            connection.via_relay = true;
            connection.headers = vec![("X-Holdbay-Relay-Token".into(), "typed-by-the-user".into())];
            Session::new(connection)
        },
        || {
            UiState::current().selected_tool().set(Some("demo".into()));
            view! { <CallPanel /> }
        },
    );
    click(&host, "button.call");
    wait_for(&host, ".call-result").await;
    assert!(
        seen("window.__seen[0].url")
            .as_string()
            .unwrap_or_default()
            .contains("/relay?target=")
    );
    assert!(seen("window.__seen[0].headers['x-holdbay-relay-token']").is_undefined());
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
    assert_eq!(session.tasks().tasks().get_untracked().len(), 1);
}

/// The server pauses the first round, and completes the retry.
const PAUSE_THEN_COMPLETE: &str = r#"if (n === 1) return { resultType: "input_required",
    inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form",
        message: "Sure?", requestedSchema: { type: "object", properties: {} } } } },
    requestState: "sealed-0123456789abcdefghijklmnopqrstuvwxyz" };
    return { resultType: "complete", content: [{ type: "text", text: "done" }] };"#;

#[wasm_bindgen_test]
async fn a_paused_call_survives_remounting_the_call_panel() {
    script_fetch(PAUSE_THEN_COMPLETE);
    let (host, shown, _ui) = mount_switchable_panel("call-remount-paused", json_object());
    click(&host, "button.call");
    wait_for(&host, ".paused-call .input-request[data-key='confirm']").await;

    remount(&host, shown).await;
    // The new panel shows the same paused call: its round, and the card to answer.
    wait_for(&host, ".paused-call .input-request[data-key='confirm']").await;
    let counter = text(&host, ".round-counter");
    assert!(
        counter.starts_with("Round 1 of at most 10 · ")
            && counter.ends_with(" of at most 10 min 00 s elapsed"),
        "{counter}"
    );
    assert_eq!(seen_count(), 1, "remounting sends nothing");

    // Answering the card goes on with the same logical request: the retry carries its state.
    click(&host, ".paused-call .input-request button.accept");
    wait_for(&host, ".call-result").await;
    assert_eq!(text(&host, ".content-text"), "done");
    assert_eq!(seen_count(), 2);
    assert_eq!(
        seen("window.__seen[1].body.params.requestState").as_string(),
        Some("sealed-0123456789abcdefghijklmnopqrstuvwxyz".to_owned())
    );
}

fn json_object() -> serde_json::Value {
    serde_json::json!({"type": "object", "properties": {}})
}

#[wasm_bindgen_test]
async fn typed_arguments_survive_remounting_the_call_panel() {
    script_fetch(r#"return { resultType: "complete", content: [] };"#);
    let schema = serde_json::json!({"type": "object",
        "properties": {"restaurant": {"type": "string", "default": "Chez Holdbay"}}});
    let (host, shown, ui) = mount_switchable_panel("call-remount-draft", schema);
    let field: HtmlInputElement = wait_for(&host, "input[name=restaurant]")
        .await
        .unchecked_into();
    wait_eq(
        || field.value(),
        "Chez Holdbay".to_owned(),
        "the schema's default in the field first",
    )
    .await;
    field.set_value("Le Jardin");
    for kind in ["input", "blur"] {
        let init = EventInit::new();
        init.set_bubbles(true);
        let event = Event::new_with_event_init_dict(kind, &init).expect("event");
        field.dispatch_event(&event).expect("dispatch");
    }
    wait_eq(
        || ui.draft("demo").arguments.get_untracked(),
        Some(serde_json::json!({"restaurant": "Le Jardin"})),
        "the draft holding what was typed",
    )
    .await;

    remount(&host, shown).await;
    let field: HtmlInputElement = wait_for(&host, "input[name=restaurant]")
        .await
        .unchecked_into();
    assert_eq!(field.value(), "Le Jardin", "the form shows what was typed");
    assert_eq!(
        ui.draft("demo").arguments.get_untracked(),
        Some(serde_json::json!({"restaurant": "Le Jardin"}))
    );
    // And the call sends it.
    click(&host, "button.call");
    wait_for(&host, ".call-result").await;
    assert_eq!(
        seen("window.__seen[0].body.params.arguments.restaurant").as_string(),
        Some("Le Jardin".to_owned())
    );
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
