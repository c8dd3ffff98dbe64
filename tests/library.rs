//! The Prompts and Resources tabs in headless Chromium, against a scripted `fetch`: a
//! prompt's form (required marked, completions as you type), its get paused for input and
//! its messages; a template's form, the URI it expands to and its read; every content kind.
#![cfg(target_arch = "wasm32")]

use holdbay::catalog::Catalog;
use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::UiState;
use holdbay::ui::content::{ContentBlockView, ResourceContentsView};
use holdbay::ui::prompts::PromptsTab;
use holdbay::ui::resources::ResourcesTab;
use holdbay_engine::model::{
    ContentBlock, DiscoverResult, Prompt, Resource, ResourceContents, ResourceTemplate,
};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Event, EventInit, HtmlElement, HtmlInputElement};

mod dom;

use dom::{
    click, find, fresh_host, mount_with_session, script_fetch, sleep_ms, text, wait_eq, wait_for,
    wait_for_text, wait_until,
};

wasm_bindgen_test_configure!(run_in_browser);

/// `expression` over the requests of this test's own server (`window.__here`, set by
/// [`mount`]): the views of earlier tests stay mounted, and a suggestion they debounced may
/// still be fetched while a later test runs.
fn seen(expression: &str) -> JsValue {
    let mine = expression.replace("window.__seen", "mine");
    js_sys::eval(&format!(
        "(() => {{ const mine = window.__seen.filter(s => s.url === window.__here); \
         return ({mine}); }})()"
    ))
    .unwrap_or(JsValue::UNDEFINED)
}

/// What the prompt form `draft_note` holds for `argument`.
fn typed(ui: &UiState, argument: &str) -> Option<String> {
    ui.library()
        .values(&holdbay::ui::library_drafts::FormOf::Prompt(
            "draft_note".into(),
        ))
        .get_untracked()
        .get(argument)
        .cloned()
}

fn seen_methods() -> String {
    seen("window.__seen.map(s => s.body.method).join(',')")
        .as_string()
        .unwrap_or_default()
}

fn discovered(completions: bool) -> DiscoverResult {
    let mut capabilities = json!({"prompts": {}, "resources": {}});
    if completions {
        capabilities["completions"] = json!({});
    }
    serde_json::from_value(json!({
        "resultType": "complete",
        "supportedVersions": ["2026-07-28"],
        "ttlMs": 0,
        "cacheScope": "public",
        "capabilities": capabilities,
    }))
    .expect("a discover result")
}

fn draft_note() -> Prompt {
    serde_json::from_value(json!({
        "name": "draft_note", "title": "Draft a team note",
        "arguments": [
            {"name": "team", "description": "Which team", "required": true},
            {"name": "topic"}
        ]
    }))
    .expect("a prompt")
}

const TEMPLATE: &str = "demo://notes/{team}/{day}{?lang}";

/// The tab `tab` over a session showing the demo-like library (with or without completions).
fn mount(id: &str, completions: bool, tab: &'static str) -> (HtmlElement, Session, UiState) {
    let host = fresh_host(id);
    let url = format!("http://mcp.test/{id}/mcp");
    js_sys::Reflect::set(&js_sys::global(), &"__here".into(), &url.clone().into())
        .expect("window is writable");
    let make = move || {
        let session = Session::new(Connection::direct(url.clone()));
        let catalog = Catalog::new();
        catalog.show_discovery(discovered(completions));
        catalog.show_library(
            vec![draft_note()],
            vec![Resource::new("demo://guide.md", "guide.md").with_mime_type("text/markdown")],
            vec![ResourceTemplate::new(TEMPLATE, "team-notes").with_title("Team notes")],
        );
        session.show_catalog(catalog);
        session
    };
    let (session, ui) = mount_with_session(&host, make, move || match tab {
        "prompts" => view! { <PromptsTab /> }.into_any(),
        _ => view! { <ResourcesTab /> }.into_any(),
    });
    (host, session, ui)
}

fn type_into(host: &HtmlElement, selector: &str, value: &str) {
    let input: HtmlInputElement = find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
        .unchecked_into();
    input.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("input", &init).expect("event");
    input.dispatch_event(&event).expect("dispatch");
}

fn disabled(host: &HtmlElement, selector: &str) -> bool {
    find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
        .has_attribute("disabled")
}

const ANSWER_BY_METHOD: &str = r#"
    const method = body.method;
    if (method === "completion/complete") {
        const all = ["design", "docs", "ops"];
        const typed = body.params.argument.value;
        return { resultType: "complete",
                 completion: { values: all.filter(v => v.startsWith(typed)) } };
    }
    if (method === "prompts/get" && !body.params.inputResponses) {
        return { resultType: "input_required",
            inputRequests: { tone: { method: "elicitation/create", params: { mode: "form",
                message: "Which tone?", requestedSchema: { type: "object",
                    properties: { tone: { type: "string" } } } } } },
            requestState: "sealed-prompt-state-0123456789abcdef" };
    }
    if (method === "prompts/get") {
        return { resultType: "complete", messages: [
            { role: "user", content: { type: "text", text: "Hello <i>there</i>" } },
            { role: "assistant", content: { type: "resource_link", uri: "demo://guide.md", name: "guide" } } ] };
    }
    if (method === "resources/read") {
        return { resultType: "complete", contents: [
            { uri: body.params.uri, mimeType: "text/plain", text: "notes for " + body.params.uri } ] };
    }
    throw new Error("unexpected " + method);
"#;

#[wasm_bindgen_test]
async fn the_prompt_form_marks_required_arguments_and_offers_the_servers_completions() {
    script_fetch(ANSWER_BY_METHOD);
    let (host, _session, ui) = mount("prompts-form", true, "prompts");
    assert!(text(&host, "#prompts-panel").contains("2 arguments, 1 required"));
    click(&host, ".prompt-pick[data-name='draft_note']");
    wait_for(&host, "#prompt-panel[data-prompt='draft_note']").await;
    assert!(text(&host, ".argument-field[data-argument='team'] label").contains("required"));
    assert!(!text(&host, ".argument-field[data-argument='topic'] label").contains("required"));
    assert!(disabled(&host, "button.get-prompt"), "team is required");

    type_into(&host, "#prompt-arg-team-input", "d");
    wait_for(
        &host,
        ".argument-field[data-argument='team'] button.suggestion",
    )
    .await;
    let shown: Vec<String> = (0..2)
        .map(|i| {
            text(
                &host,
                &format!(
                    ".argument-field[data-argument='team'] button.suggestion:nth-child({})",
                    i + 1
                ),
            )
        })
        .collect();
    assert_eq!(shown, ["design", "docs"]);
    let asked = seen("JSON.stringify(window.__seen[0].body.params)")
        .as_string()
        .unwrap_or_default();
    assert!(
        asked.contains(r#""ref":{"type":"ref/prompt","name":"draft_note"}"#)
            && asked.contains(r#""argument":{"name":"team","value":"d"}"#),
        "{asked}"
    );
    assert!(
        find(
            &host,
            "datalist#prompt-arg-team-suggestions option[value='docs']"
        )
        .is_some()
    );

    click(
        &host,
        ".argument-field[data-argument='team'] button.suggestion:nth-child(2)",
    );
    wait_eq(
        || typed(&ui, "team"),
        Some("docs".to_owned()),
        "the suggestion in the form",
    )
    .await;
    wait_until(|| !disabled(&host, "button.get-prompt"), "Get enabled").await;
}

#[wasm_bindgen_test]
async fn typing_fast_asks_once_after_the_pause() {
    script_fetch(ANSWER_BY_METHOD);
    let (host, _session, _ui) = mount("prompts-debounce", true, "prompts");
    click(&host, ".prompt-pick[data-name='draft_note']");
    wait_for(&host, "#prompt-panel").await;
    for typed in ["o", "op", "ops"] {
        type_into(&host, "#prompt-arg-team-input", typed);
        // About time: keys come faster than the pause the suggestions wait for.
        sleep_ms(30).await;
    }
    // The first request asks for the whole word: none went out for the keys before it.
    wait_until(|| !seen_methods().is_empty(), "a completion asked").await;
    assert_eq!(seen_methods(), "completion/complete");
    let value = seen("window.__seen[0].body.params.argument.value")
        .as_string()
        .unwrap_or_default();
    assert_eq!(value, "ops");
}

#[wasm_bindgen_test]
async fn without_the_completions_capability_nothing_is_asked() {
    script_fetch(ANSWER_BY_METHOD);
    let (host, _session, _ui) = mount("prompts-no-completions", false, "prompts");
    click(&host, ".prompt-pick[data-name='draft_note']");
    wait_for(&host, "#prompt-panel").await;
    type_into(&host, "#prompt-arg-team-input", "d");
    // About time: nothing is asked, even well after the pause the suggestions wait for.
    sleep_ms(holdbay::ui::prompts::SUGGEST_DEBOUNCE_MS as i32 + 300).await;
    assert_eq!(seen_methods(), "");
    assert!(find(&host, ".suggestions").is_none());
}

#[wasm_bindgen_test]
async fn a_prompt_get_pauses_in_the_same_input_card_then_shows_its_messages() {
    script_fetch(ANSWER_BY_METHOD);
    let (host, _session, _ui) = mount("prompts-get", false, "prompts");
    click(&host, ".prompt-pick[data-name='draft_note']");
    wait_for(&host, "#prompt-panel").await;
    assert!(disabled(&host, "button.get-prompt"), "team is required");
    type_into(&host, "#prompt-arg-team-input", " ops & <b>dev</b> ");
    wait_until(
        || !disabled(&host, "button.get-prompt"),
        "Get enabled once team is typed",
    )
    .await;
    click(&host, "button.get-prompt");
    wait_for(
        &host,
        "#prompt-panel .paused-call .input-request[data-key='tone']",
    )
    .await;
    let counter = text(&host, ".round-counter");
    assert!(
        counter.starts_with("Round 1 of at most 10 · ")
            && counter.ends_with(" of at most 10 min 00 s elapsed"),
        "{counter}"
    );
    // Only this test's prompts/get requests: a late completion of an earlier test may land too.
    let arguments = seen(
        "JSON.stringify(window.__seen.filter(s => s.body.method === 'prompts/get')[0].body.params.arguments)",
    )
        .as_string()
        .unwrap_or_default();
    // Sent exactly as typed; the empty optional topic is left out.
    assert_eq!(arguments, r#"{"team":" ops & <b>dev</b> "}"#);
    click(&host, ".input-request button.accept");
    wait_for(&host, "#prompt-panel .prompt-result").await;
    let retry = seen(
        "JSON.stringify(window.__seen.filter(s => s.body.method === 'prompts/get')[1].body.params)",
    )
    .as_string()
    .unwrap_or_default();
    assert!(
        retry.contains(r#""requestState":"sealed-prompt-state-0123456789abcdef""#)
            && retry.contains(r#""inputResponses":{"tone":{"action":"accept""#),
        "{retry}"
    );
    assert_eq!(
        text(&host, ".prompt-message[data-role='user'] .content-text"),
        "Hello <i>there</i>"
    );
    assert!(find(&host, ".prompt-result i").is_none(), "text stays text");
    assert_eq!(
        text(&host, ".prompt-message[data-role='assistant'] .link-uri"),
        "demo://guide.md"
    );
    // The link is read only when asked, in the session's run for that URI.
    click(&host, ".prompt-message .read-link");
    wait_for(&host, ".link-reader .read-result").await;
    assert_eq!(
        text(&host, ".link-reader .resource-text"),
        "notes for demo://guide.md"
    );
}

#[wasm_bindgen_test]
async fn a_template_form_shows_the_uri_it_expands_to_and_reads_it() {
    script_fetch(ANSWER_BY_METHOD);
    let (host, _session, _ui) = mount("resources-template", true, "resources");
    click(&host, ".template-pick");
    wait_for(&host, "#template-panel").await;
    let fields: Vec<String> = ["team", "day", "lang"]
        .iter()
        .filter(|name| find(&host, &format!(".argument-field[data-argument='{name}']")).is_some())
        .map(|name| (*name).to_owned())
        .collect();
    assert_eq!(fields, ["team", "day", "lang"]);
    assert_eq!(text(&host, ".expanded-uri"), "demo://notes//");
    type_into(&host, "#template-var-team-input", "o");
    wait_for(
        &host,
        ".argument-field[data-argument='team'] button.suggestion",
    )
    .await;
    let asked = seen("JSON.stringify(window.__seen[0].body.params.ref)")
        .as_string()
        .unwrap_or_default();
    assert_eq!(
        asked,
        format!(r#"{{"type":"ref/resource","uri":"{TEMPLATE}"}}"#)
    );
    click(
        &host,
        ".argument-field[data-argument='team'] button.suggestion",
    );
    type_into(&host, "#template-var-day-input", "to day");
    type_into(&host, "#template-var-lang-input", "fr");
    wait_for_text(&host, ".expanded-uri", "demo://notes/ops/to%20day?lang=fr").await;
    click(&host, "button.read-template");
    wait_for(&host, "#resource-reader .read-result").await;
    assert_eq!(
        text(&host, "#resource-reader .resource-text"),
        "notes for demo://notes/ops/to%20day?lang=fr"
    );
}

#[wasm_bindgen_test]
async fn a_listed_resource_is_read_into_the_reader() {
    script_fetch(ANSWER_BY_METHOD);
    let (host, _session, _ui) = mount("resources-read", false, "resources");
    click(
        &host,
        ".resource-item[data-uri='demo://guide.md'] button.read-resource",
    );
    wait_for(
        &host,
        "#resource-reader[data-uri='demo://guide.md'] .read-result",
    )
    .await;
    assert_eq!(seen_methods(), "resources/read");
    assert_eq!(
        text(&host, "#resource-reader .contents-head .contents-mime").trim(),
        "text/plain"
    );
}

fn block(value: serde_json::Value) -> ContentBlock {
    serde_json::from_value(value).expect("a content block")
}

#[wasm_bindgen_test]
fn every_content_kind_is_shown_safely() {
    let host = fresh_host("content-kinds");
    let blocks = vec![
        block(json!({"type": "text", "text": "<img src=x onerror=alert(1)>"})),
        block(json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"})),
        block(
            json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/svg+xml\" onload=\"x"}),
        ),
        block(json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"})),
        block(json!({"type": "resource", "resource": {"uri": "mem://t", "text": "<b>t</b>"}})),
        block(
            json!({"type": "resource", "resource": {"uri": "mem://png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}}),
        ),
        block(
            json!({"type": "resource", "resource": {"uri": "mem://bin", "mimeType": "application/pdf", "blob": "SE9MREJBWQA="}}),
        ),
        block(json!({"type": "resource_link", "uri": "https://example.com/x", "name": "x"})),
    ];
    leptos::mount::mount_to(host.clone(), move || {
        view! {
            {blocks
                .into_iter()
                .map(|block| view! { <ContentBlockView block=block /> })
                .collect_view()}
        }
    })
    .forget();
    assert_eq!(text(&host, ".content-text"), "<img src=x onerror=alert(1)>");
    let images = host.query_selector_all("img").expect("query");
    assert_eq!(images.length(), 2, "the image block and the PNG blob only");
    assert!(find(&host, "audio.content-audio[controls]").is_some());
    assert!(find(&host, ".resource-text b").is_none());
    assert_eq!(text(&host, ".resource-text"), "<b>t</b>");
    let notes = host.text_content().unwrap_or_default();
    assert!(
        notes.contains("binary 8 bytes (application/pdf)"),
        "{notes}"
    );
    assert!(notes.contains("48 4f 4c 44 42 41 59 00"), "{notes}");
    assert!(find(&host, "a").is_none(), "nothing is made a link");
    assert!(
        find(&host, ".read-link").is_none(),
        "no Read button without a session"
    );
}

#[wasm_bindgen_test]
fn a_blob_of_unknown_type_is_described_not_inlined() {
    let host = fresh_host("content-blob");
    let contents = ResourceContents::BlobResourceContents {
        uri: "mem://x".into(),
        mime_type: None,
        blob: "AAEC".into(),
        meta: None,
    };
    leptos::mount::mount_to(
        host.clone(),
        move || view! { <ResourceContentsView contents=contents /> },
    )
    .forget();
    assert!(text(&host, ".media-note").contains("binary 3 bytes (no MIME type)"));
    assert_eq!(text(&host, ".hex"), "00 01 02");
}
