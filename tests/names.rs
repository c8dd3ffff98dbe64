//! Names that cannot lie, in headless Chromium: a server's spoofed tool names are drawn with
//! their hidden characters as markers and flagged, search matches what is drawn, the call
//! sends the real name, and the server's own name and the prompts are shown the same way.
#![cfg(target_arch = "wasm32")]

use holdbay::catalog::Catalog;
use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::prompts::PromptsTab;
use holdbay::ui::{CallPanel, DiscoverPanel, ToolsPanel, UiState};
use holdbay_engine::model::{DiscoverResult, Prompt, Tool};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlInputElement};

mod dom;

use dom::{
    click, find, fresh_host, mount_with_session, script_fetch, text, wait_eq, wait_for, wait_some,
};

wasm_bindgen_test_configure!(run_in_browser);

const REAL: &str = "ok_echo";
const ZERO_WIDTH: &str = "ok_\u{200B}echo";
const TRAILING_JOINER: &str = "ok_echo\u{200D}";
const OVERRIDE: &str = "\u{202E}evil_tool";
/// `ok_echo` with a Cyrillic `е` (U+0435).
const CYRILLIC: &str = "ok_\u{0435}cho";

fn tool(name: &str) -> Tool {
    serde_json::from_value(json!({"name": name, "description": "Says it back",
        "inputSchema": {"type": "object"}}))
    .expect("a tool")
}

fn spoofed_tools() -> Vec<Tool> {
    [
        REAL,
        ZERO_WIDTH,
        TRAILING_JOINER,
        OVERRIDE,
        CYRILLIC,
        "weather",
    ]
    .into_iter()
    .map(tool)
    .collect()
}

fn session() -> Session {
    Session::new(Connection::direct("http://mcp.test/mcp".into()))
}

fn all(host: &Element, selector: &str) -> Vec<Element> {
    let list = host.query_selector_all(selector).expect("a selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .collect()
}

fn texts(host: &Element, selector: &str) -> Vec<String> {
    all(host, selector)
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect()
}

/// The tool item whose drawn name is `shown`.
fn item(host: &Element, shown: &str) -> Element {
    all(host, ".tool")
        .into_iter()
        .find(|li| {
            find(li, ".tool-name")
                .and_then(|n| n.text_content())
                .as_deref()
                == Some(shown)
        })
        .unwrap_or_else(|| panic!("no tool drawn as {shown:?}; page: {}", host.inner_html()))
}

fn rules_on(element: &Element) -> Vec<String> {
    all(element, ".name-flag")
        .iter()
        .filter_map(|flag| flag.get_attribute("data-rule"))
        .collect()
}

fn type_into(host: &Element, selector: &str, value: &str) {
    let input: HtmlInputElement = find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
        .unchecked_into();
    input.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("input", &init).expect("event");
    input.dispatch_event(&event).expect("dispatch");
}

/// Wait (up to 10 s) until the drawn tool names are `expected`.
async fn drawn_names_become(host: &Element, expected: &[&str]) {
    wait_eq(
        || texts(host, ".tool-name"),
        expected.iter().map(|name| (*name).to_owned()).collect(),
        "the tools drawn",
    )
    .await;
}

/// No character of the page's text reorders or hides: every one is drawn as a marker.
fn assert_nothing_hidden(host: &Element) {
    let page = host.text_content().unwrap_or_default();
    for c in ['\u{200B}', '\u{200D}', '\u{202E}'] {
        assert!(
            !page.contains(c),
            "U+{:04X} is on the page as itself",
            u32::from(c)
        );
    }
}

#[wasm_bindgen_test]
fn spoofed_tool_names_are_drawn_with_markers_and_flagged() {
    let host = fresh_host("names-tools");
    let tools = spoofed_tools();
    leptos::mount::mount_to(host.clone(), move || view! { <ToolsPanel tools=tools /> }).forget();

    assert_eq!(
        texts(&host, ".tool-name"),
        [
            "ok_echo",
            "ok_⟨U+200B⟩echo",
            "ok_echo⟨U+200D⟩",
            "⟨U+202E⟩evil_tool",
            "ok_\u{0435}cho",
            "weather",
        ]
    );
    assert_nothing_hidden(&host);
    // A marker is its own element, saying what it stands for.
    let marker = find(&item(&host, "ok_⟨U+200B⟩echo"), ".name-mark").expect("a marker");
    assert_eq!(marker.text_content().as_deref(), Some("⟨U+200B⟩"));
    assert_eq!(
        marker.get_attribute("title").as_deref(),
        Some("U+200B, zero-width")
    );

    // Each spoof, and the real tool they pass for, is flagged; the unrelated tool is not.
    assert_eq!(rules_on(&item(&host, "ok_echo")), ["name-look-alike"]);
    assert_eq!(
        rules_on(&item(&host, "ok_⟨U+200B⟩echo")),
        ["name-invisible-chars", "name-look-alike"]
    );
    assert_eq!(
        rules_on(&item(&host, "ok_echo⟨U+200D⟩")),
        ["name-invisible-chars", "name-look-alike"]
    );
    assert_eq!(
        rules_on(&item(&host, "⟨U+202E⟩evil_tool")),
        ["name-invisible-chars"]
    );
    assert_eq!(
        rules_on(&item(&host, "ok_\u{0435}cho")),
        ["name-look-alike", "name-look-alike"],
        "a script mix and a look-alike"
    );
    assert_eq!(rules_on(&item(&host, "weather")), Vec::<String>::new());
    let real = item(&host, "ok_echo");
    let badge = text(&real, ".name-flag");
    assert!(
        badge.contains("looks like \"ok_echo⟨U+200D⟩\" and 2 more"),
        "{badge}"
    );
    // The badge's whole sentence is there for screen readers and on hover.
    let said = text(&real, ".name-flag .visually-hidden");
    assert!(said.contains("tool \"ok_echo\" looks like tools"), "{said}");
    assert!(real.class_list().contains("flagged"));
    let mix = text(&item(&host, "ok_\u{0435}cho"), ".name-flag");
    assert!(mix.contains("mixes Latin and Cyrillic"), "{mix}");
}

#[wasm_bindgen_test]
async fn search_matches_the_names_as_they_are_drawn() {
    let host = fresh_host("names-search");
    let tools = spoofed_tools();
    leptos::mount::mount_to(host.clone(), move || view! { <ToolsPanel tools=tools /> }).forget();

    // "ok_echo" finds the tool drawn so, not the spoofs drawn otherwise.
    type_into(&host, "#tool-search", "ok_echo");
    drawn_names_become(&host, &["ok_echo", "ok_echo⟨U+200D⟩"]).await;
    // The marker's text finds the name it is drawn in.
    type_into(&host, "#tool-search", "u+200b");
    drawn_names_become(&host, &["ok_⟨U+200B⟩echo"]).await;
    // Pasting the real spoofed name finds it too: the query is read as names are.
    type_into(&host, "#tool-search", ZERO_WIDTH);
    drawn_names_become(&host, &["ok_⟨U+200B⟩echo"]).await;
    // "evil" is drawn, so found; the reversed "loot_live" the override once drew is not.
    type_into(&host, "#tool-search", "loot_live");
    drawn_names_become(&host, &[]).await;
    type_into(&host, "#tool-search", "evil_tool");
    drawn_names_become(&host, &["⟨U+202E⟩evil_tool"]).await;
}

#[wasm_bindgen_test]
async fn a_spoofed_tool_is_called_by_its_real_name_and_its_panel_says_why_it_is_flagged() {
    script_fetch(
        r#"return { resultType: "complete", content: [{ type: "text", text: "echoed" }] };"#,
    );
    let host = fresh_host("names-call");
    let make = || {
        let session = session();
        session.show_catalog(Catalog::with_tools(spoofed_tools()));
        session
    };
    mount_with_session(&host, make, || {
        UiState::current()
            .selected_tool()
            .set(Some(ZERO_WIDTH.to_owned()));
        view! { <CallPanel /> }
    });
    let header = wait_for(&host, "#call-panel .call-header").await;
    assert_eq!(text(&header, ".call-tool"), "ok_⟨U+200B⟩echo");
    assert_eq!(
        rules_on(&header),
        ["name-invisible-chars", "name-look-alike"]
    );
    let warnings = texts(&header, ".name-warnings li");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].contains("U+200B (zero-width)") && warnings[1].contains("looks like tools"),
        "{warnings:?}"
    );
    assert_nothing_hidden(&host);

    click(&host, "button.call");
    wait_for(&host, ".call-result").await;
    let sent = js_sys::eval("window.__seen[0].body.params.name")
        .unwrap_or(JsValue::UNDEFINED)
        .as_string();
    assert_eq!(
        sent.as_deref(),
        Some(ZERO_WIDTH),
        "the exact name went on the wire"
    );
}

#[wasm_bindgen_test]
fn the_servers_own_name_is_drawn_with_markers_and_flagged() {
    let host = fresh_host("names-server");
    let result: DiscoverResult = serde_json::from_value(json!({
        "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {},
        "ttlMs": 0, "cacheScope": "private",
        "_meta": {"io.modelcontextprotocol/serverInfo":
            {"name": "acme", "title": "Acme\u{202E}reverof", "version": "1\u{200B}.0"}}
    }))
    .expect("a discover result");
    leptos::mount::mount_to(
        host.clone(),
        move || view! { <DiscoverPanel result=result /> },
    )
    .forget();
    assert_eq!(text(&host, "#server-name"), "Acme⟨U+202E⟩reverof");
    assert_eq!(text(&host, ".server-id"), "acme");
    assert_eq!(text(&host, "#server-version"), "1⟨U+200B⟩.0");
    // The flags sit under the card's one line, and a flagged name keeps the card open.
    let card = find(&host, "#discover-panel").expect("the server card");
    assert_eq!(rules_on(&card), ["name-invisible-chars"]);
    assert!(
        card.has_attribute("open"),
        "a flagged name is not folded away"
    );
    assert!(text(&host, ".name-flag").contains("hidden characters in the title"));
    assert_nothing_hidden(&host);
}

#[wasm_bindgen_test]
async fn prompt_names_are_drawn_and_searched_the_same_way() {
    script_fetch(r#"return { resultType: "complete", messages: [] };"#);
    let host = fresh_host("names-prompts");
    let prompts: Vec<Prompt> = [REAL, ZERO_WIDTH]
        .into_iter()
        .map(|name| serde_json::from_value(json!({"name": name})).expect("a prompt"))
        .collect();
    let make = move || {
        let session = session();
        let catalog = Catalog::new();
        catalog.show_library(prompts, Vec::new(), Vec::new());
        session.show_catalog(catalog);
        session
    };
    mount_with_session(&host, make, || view! { <PromptsTab /> });
    let panel = wait_for(&host, "#prompts-panel").await;
    assert_eq!(texts(&panel, ".item-name"), ["ok_echo", "ok_⟨U+200B⟩echo"]);
    let flagged: Vec<Vec<String>> = all(&panel, ".catalog-item").iter().map(rules_on).collect();
    assert_eq!(
        flagged,
        [
            vec!["name-look-alike".to_owned()],
            vec![
                "name-invisible-chars".to_owned(),
                "name-look-alike".to_owned()
            ],
        ]
    );
    // The picked prompt's panel names it as drawn, and its get sends the real name.
    click(&host, ".prompt-pick[data-name='ok_\u{200B}echo']");
    let form = wait_for(&host, "#prompt-panel").await;
    assert_eq!(text(&form, ".call-tool"), "ok_⟨U+200B⟩echo");
    assert_eq!(texts(&form, ".name-warnings li").len(), 2);
    click(&host, ".get-prompt");
    let sent = || {
        js_sys::eval("window.__seen.length ? window.__seen[0].body.params.name : undefined")
            .ok()
            .and_then(|v| v.as_string())
    };
    let sent = wait_some(sent, "the prompts/get sent", String::new).await;
    assert_eq!(sent, ZERO_WIDTH, "the exact name went on the wire");
    type_into(&host, "#prompts-panel-search", "ok_echo");
    wait_eq(
        || texts(&panel, ".item-name"),
        vec!["ok_echo".to_owned()],
        "the prompts matching ok_echo",
    )
    .await;
}
