//! The tool list of a server with thousands of tools, in headless Chromium: a window of its
//! rows is drawn in a scrolling region, the list keeps the height of all of them, scrolling
//! draws the rows scrolled to, a search looks through every tool, and a look-alike pair far
//! down the list is flagged when drawn. (The window's arithmetic has native tests in
//! `src/ui/list_window.rs`; the 10,000-tool server in `tests/e2e/many_tools.test.mjs`.)
#![cfg(target_arch = "wasm32")]

use holdbay::ui::ToolsPanel;
use holdbay_engine::model::Tool;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlInputElement};

mod dom;

use dom::{find, fresh_host, text, wait_until};

wasm_bindgen_test_configure!(run_in_browser);

const TOOLS: usize = 2_000;

fn tool(name: &str) -> Tool {
    serde_json::from_value(serde_json::json!({
        "name": name,
        "description": format!("What {name} does, in one sentence."),
        "inputSchema": {"type": "object"}
    }))
    .expect("tool")
}

fn many_tools() -> Vec<Tool> {
    (0..TOOLS).map(|n| tool(&format!("tool_{n}"))).collect()
}

/// `tools` in a 400 px scrolling region, as the server column holds them.
fn mount_scrolled(id: &str, tools: Vec<Tool>) -> HtmlElement {
    let host = fresh_host(id);
    host.set_attribute("style", "height: 400px; overflow-y: auto")
        .expect("style");
    leptos::mount::mount_to(host.clone(), move || view! { <ToolsPanel tools=tools /> }).forget();
    host
}

fn rows(host: &Element) -> Vec<Element> {
    let found = host.query_selector_all("li.tool").expect("query");
    (0..found.length())
        .filter_map(|at| found.item(at)?.dyn_into::<Element>().ok())
        .collect()
}

fn position(row: &Element) -> usize {
    row.get_attribute("aria-posinset")
        .and_then(|p| p.parse().ok())
        .expect("aria-posinset")
}

/// The window has drawn its first rows.
async fn drawn(host: &Element) {
    wait_until(|| !rows(host).is_empty(), "the first rows drawn").await;
}

/// Scroll `host` to `top` (again at each look: rows measured on the way change the list's
/// height) until the rows drawn satisfy `done`.
async fn scroll_until(
    host: &Element,
    top: impl Fn(&Element) -> i32,
    done: impl Fn(&[usize]) -> bool,
    what: &str,
) {
    wait_until(
        || {
            let drawn: Vec<usize> = rows(host).iter().map(position).collect();
            if done(&drawn) {
                return true;
            }
            host.set_scroll_top(top(host));
            false
        },
        what,
    )
    .await;
}

#[wasm_bindgen_test]
async fn a_long_list_draws_a_window_of_its_rows_and_keeps_its_height() {
    let host = mount_scrolled("window-height", many_tools());
    drawn(&host).await;
    // The rows drawn are measured, and the list sized for all of them.
    wait_until(
        || {
            let list = find(&host, ".tool-list").map(|l| l.get_bounding_client_rect().height());
            let row = rows(&host)
                .first()
                .map(|r| r.get_bounding_client_rect().height());
            matches!((list, row), (Some(list), Some(row)) if list > row * (TOOLS as f64) * 0.8)
        },
        "the list sized for every row",
    )
    .await;
    let drawn = rows(&host);
    assert!(
        (5..=120).contains(&drawn.len()),
        "{} rows drawn of {TOOLS}",
        drawn.len()
    );
    assert_eq!(text(&host, "#tool-count"), TOOLS.to_string());
    assert_eq!(position(&drawn[0]), 1);
    assert_eq!(
        drawn[0].get_attribute("aria-setsize").as_deref(),
        Some("2000")
    );
    let list = find(&host, ".tool-list").expect("the list");
    let row_height = drawn[0].get_bounding_client_rect().height();
    let list_height = list.get_bounding_client_rect().height();
    assert!(
        list_height > row_height * (TOOLS as f64) * 0.8,
        "the list is {list_height} px for {TOOLS} rows of about {row_height} px"
    );
    assert!(
        f64::from(host.scroll_height()) > list_height * 0.9,
        "the scrolling region scrolls the whole list"
    );
}

#[wasm_bindgen_test]
async fn scrolling_draws_the_rows_scrolled_to_down_to_the_last() {
    let host = mount_scrolled("window-scroll", many_tools());
    drawn(&host).await;
    scroll_until(
        &host,
        |host| host.scroll_height() / 2,
        |drawn| drawn.iter().any(|p| (800..1200).contains(p)),
        "the middle of the list drawn",
    )
    .await;
    let middle = rows(&host).len();
    assert!(middle <= 120, "{middle} rows drawn");
    scroll_until(
        &host,
        Element::scroll_height,
        |drawn| drawn.last() == Some(&TOOLS),
        "the last row drawn",
    )
    .await;
    let last = rows(&host).into_iter().last().expect("rows at the end");
    assert_eq!(position(&last), TOOLS);
    assert_eq!(
        find(&last, ".tool-name").and_then(|n| n.text_content()),
        Some(format!("tool_{}", TOOLS - 1))
    );
    let (view, row) = (
        host.get_bounding_client_rect(),
        last.get_bounding_client_rect(),
    );
    assert!(
        row.bottom() <= view.bottom() + 1.0 && row.top() >= view.top(),
        "the last tool is in view"
    );
}

#[wasm_bindgen_test]
async fn a_search_looks_through_every_tool_and_draws_what_matches() {
    let host = mount_scrolled("window-search", many_tools());
    drawn(&host).await;
    let input: HtmlInputElement = find(&host, "#tool-search")
        .expect("the search box")
        .unchecked_into();
    input.set_value("tool_1999");
    let init = EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).expect("event"))
        .expect("dispatch");
    wait_until(
        || text(&host, "#tool-count") == "1" && rows(&host).len() == 1,
        "one match counted and drawn",
    )
    .await;
    let drawn = rows(&host);
    assert_eq!(
        find(&drawn[0], ".tool-name").and_then(|n| n.text_content()),
        Some("tool_1999".into())
    );
    assert_eq!(position(&drawn[0]), 1, "its place among the matches");
}

#[wasm_bindgen_test]
async fn a_look_alike_pair_far_down_the_list_is_flagged_where_it_is_drawn() {
    // `tooI_1500` (capital I) reads as `tool_1500`: both are flagged, wherever they are.
    let mut tools = many_tools();
    tools.insert(1_501, tool("tooI_1500"));
    let host = mount_scrolled("window-flags", tools);
    drawn(&host).await;
    assert!(
        find(&host, ".tool.flagged").is_none(),
        "no flag among the first rows"
    );
    // Scroll the pair into view: its rows are drawn with their flags.
    scroll_until(
        &host,
        |host| {
            let per_row = f64::from(host.scroll_height()) / (TOOLS + 1) as f64;
            (1_499.0 * per_row) as i32
        },
        |drawn| drawn.contains(&1_501) && drawn.contains(&1_502),
        "the look-alike pair drawn",
    )
    .await;
    let flagged: Vec<String> = rows(&host)
        .iter()
        .filter(|row| row.class_list().contains("flagged"))
        .filter_map(|row| find(row, ".tool-name").and_then(|n| n.text_content()))
        .collect();
    assert_eq!(flagged, ["tool_1500", "tooI_1500"]);
    let flag = find(&host, ".tool.flagged .name-flag").expect("a flag");
    assert!(
        flag.text_content()
            .is_some_and(|words| words.contains("looks like")),
        "{:?}",
        flag.text_content()
    );
}
