//! The lessons panel in headless Chromium, with the call panel beside it and a scripted
//! `fetch`: Start sets up and runs the lesson's call, the question gives feedback, the reveal
//! shows the answer and selects the scene part, and lesson 8's tamper gets refused.
#![cfg(target_arch = "wasm32")]

use holdbay::catalog::Catalog;
use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::lessons::LESSONS;
use holdbay::ui::{CallPanel, LessonsPanel, UiState};
use holdbay_engine::model::Tool;
use holdbay_engine::traffic::Part;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

mod dom;

use dom::{click, find, fresh_host, mount_with_session, script_fetch, sleep_ms, text, wait_for};

wasm_bindgen_test_configure!(run_in_browser);

fn seen(expression: &str) -> String {
    js_sys::eval(expression)
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// A tool as the demo server lists it (`restaurant` is lesson 1's argument).
fn tool(name: &str) -> Tool {
    serde_json::from_value(serde_json::json!({
        "name": name, "description": "demo", "inputSchema": {"type": "object",
            "properties": {"restaurant": {"type": "string"}}}
    }))
    .expect("tool")
}

/// The lessons and the call panel, with `tools` listed as the server's.
fn mount(id: &str, tools: &[&str]) -> (HtmlElement, Session, UiState) {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.remove_item("holdbay/lessons");
    }
    let host = fresh_host(id);
    let tools: Vec<Tool> = tools.iter().map(|name| tool(name)).collect();
    let make = move || {
        let session = Session::new(Connection::direct("http://mcp.test/mcp".into()));
        session.show_catalog(Catalog::with_tools(tools));
        session
    };
    let (session, ui) = mount_with_session(&host, make, || {
        view! {
            <LessonsPanel />
            <CallPanel />
        }
    });
    (host, session, ui)
}

/// The server pauses the first round with a form and a sealed state.
const PAUSE_THEN: &str = r#"if (n === 1) return { resultType: "input_required",
    inputRequests: { party: { method: "elicitation/create", params: { mode: "form",
        message: "How many?", requestedSchema: { type: "object", properties: {} } } } },
    requestState: "sealed-0123456789abcdefghijklmnopqrstuvwxyz" };"#;

#[wasm_bindgen_test]
async fn start_runs_the_lessons_call_and_the_reveal_selects_the_latch() {
    script_fetch(&format!(
        "{PAUSE_THEN} return {{ resultType: \"complete\", content: [] }};"
    ));
    let (host, _, ui) = mount("lessons-start", &["book_table"]);
    assert_eq!(
        host.query_selector_all("button.lesson-start")
            .map(|l| l.length())
            .unwrap_or(0),
        LESSONS.len() as u32
    );
    click(&host, "button.lesson-start[data-lesson='1']");
    wait_for(&host, ".lesson[data-lesson='1']").await;
    assert_eq!(
        ui.selected_tool().get_untracked().as_deref(),
        Some("book_table")
    );
    // One click: the call went out with the lesson's arguments, without the tasks extension.
    wait_for(&host, ".paused-call").await;
    assert_eq!(seen("window.__seen[0].body.params.name"), "book_table");
    assert_eq!(
        seen("window.__seen[0].body.params.arguments.restaurant"),
        "Chez Holdbay"
    );
    let meta = seen("JSON.stringify(window.__seen[0].body.params._meta)");
    assert!(!meta.contains("io.modelcontextprotocol/tasks"), "{meta}");
    assert!(text(&host, ".call-preset-note").contains("Started by a lesson"));
    // The call panel shows the arguments the lesson's call went out with.
    let restaurant: HtmlInputElement = wait_for(&host, "input[name=restaurant]")
        .await
        .unchecked_into();
    assert_eq!(restaurant.value(), "Chez Holdbay");

    click(&host, ".lesson .lesson-reveal");
    wait_for(&host, ".lesson-answer").await;
    let selected = ui.inspected().get_untracked();
    assert!(
        matches!(selected, Some(Part::Latch { round: 1, .. })),
        "{selected:?}"
    );
    assert!(text(&host, ".lesson-answer").contains("Shown in the scene"));
}

#[wasm_bindgen_test]
async fn a_lesson_with_a_task_accepts_one() {
    script_fetch(r#"return { resultType: "complete", content: [] };"#);
    let (host, _, _) = mount("lessons-task", &["run_pipeline", "quick_sum"]);
    click(&host, "button.lesson-start[data-lesson='4']");
    wait_for(&host, ".call-result").await;
    let meta = seen("JSON.stringify(window.__seen[0].body.params._meta)");
    assert!(meta.contains("io.modelcontextprotocol/tasks"), "{meta}");
    assert_eq!(
        seen("window.__seen[0].body.params.arguments.target"),
        "staging"
    );
    // Step 2 is its own button: quick_sum, also accepting a task.
    click(&host, ".lesson-step-run[data-step='2']");
    for _ in 0..100 {
        if seen("String(window.__seen.length)") == "2" {
            break;
        }
        sleep_ms(50).await;
    }
    assert_eq!(seen("window.__seen[1].body.params.name"), "quick_sum");
}

#[wasm_bindgen_test]
async fn the_question_gives_feedback_and_marks_the_lesson_done() {
    script_fetch(r#"return { resultType: "complete", content: [] };"#);
    let (host, _, _) = mount("lessons-question", &["bulk_import"]);
    click(&host, "button.lesson-start[data-lesson='6']");
    wait_for(&host, ".lesson[data-lesson='6'] .lesson-question").await;
    click(&host, ".lesson-choice[data-correct='false']");
    let feedback = wait_for(&host, ".lesson-feedback").await;
    assert_eq!(
        feedback.get_attribute("data-correct").as_deref(),
        Some("false")
    );
    assert!(text(&host, ".lesson-start[data-lesson='6'] .lesson-done").is_empty());
    click(&host, ".lesson-choice[data-correct='true']");
    sleep_ms(20).await;
    assert_eq!(
        find(&host, ".lesson-feedback")
            .and_then(|f| f.get_attribute("data-correct"))
            .as_deref(),
        Some("true")
    );
    assert!(text(&host, ".lesson-feedback").contains("outcome"));
    assert_eq!(
        text(&host, ".lesson-start[data-lesson='6'] .lesson-done"),
        "✓"
    );
    // No cancel in this session yet: the reveal says what to do.
    click(&host, ".lesson-reveal");
    wait_for(&host, ".lesson-answer").await;
    assert!(text(&host, ".lesson-reveal-status").contains("Not in the scene yet"));
}

#[wasm_bindgen_test]
async fn a_missing_tool_is_explained() {
    let (host, session, ui) = mount("lessons-missing", &["echo"]);
    click(&host, "button.lesson-start[data-lesson='3']");
    let problem = wait_for(&host, ".lesson-problem").await;
    let shown = problem.text_content().unwrap_or_default();
    assert!(shown.contains("connect_account"), "{shown}");
    // Nothing was set up for a tool the server does not have.
    assert_eq!(ui.selected_tool().get_untracked(), None);
    assert_eq!(
        session.call("connect_account").phase().get_untracked(),
        None
    );
}

#[wasm_bindgen_test]
async fn a_tampered_latch_goes_out_changed_and_the_refusal_is_shown() {
    script_fetch(&format!(
        "{PAUSE_THEN} return {{ error: {{ code: -32602, message: \"requestState was tampered with\" }} }};"
    ));
    let (host, _, ui) = mount("lessons-tamper", &["book_table"]);
    click(&host, "button.lesson-start[data-lesson='8']");
    wait_for(&host, ".paused-call").await;
    click(&host, "button.tamper-latch");
    wait_for(&host, ".tamper-after").await;
    let before = text(&host, ".tamper-before");
    let after = text(&host, ".tamper-after");
    assert_ne!(before, after);
    click(&host, ".paused-call .input-request button.accept");
    wait_for(&host, ".tamper-refused").await;
    let sent = seen("window.__seen[1].body.params.requestState");
    assert!(!sent.is_empty());
    assert_ne!(sent, "sealed-0123456789abcdefghijklmnopqrstuvwxyz");
    assert!(text(&host, ".call-error").contains("-32602"));
    // The scene's model saw the changed latch; the reveal selects it.
    click(&host, ".lesson-reveal");
    wait_for(&host, ".lesson-answer").await;
    let selected = ui.inspected().get_untracked();
    assert!(
        matches!(selected, Some(Part::Latch { round: 1, .. })),
        "{selected:?}"
    );
}
