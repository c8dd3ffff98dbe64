//! The lessons panel in headless Chromium, with the call panel beside it and a scripted
//! `fetch`: Start sets up and runs the lesson's call, the question gives feedback, the reveal
//! shows the answer and selects the scene part, and lesson 8's tamper gets refused. Lesson 11
//! connects to the endpoint behind sign-in and reveals the call refused for a step-up.
#![cfg(target_arch = "wasm32")]

use holdbay::catalog::Catalog;
use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::lessons::LESSONS;
use holdbay::ui::{CallPanel, LessonsPanel, UiState};
use holdbay_engine::model::Tool;
use holdbay_scene::Part;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

mod dom;

use dom::{click, find, fresh_host, mount_with_session, script_fetch, text, wait_for, wait_until};

wasm_bindgen_test_configure!(run_in_browser);

fn seen(expression: &str) -> String {
    js_sys::eval(expression)
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Wait until the scripted fetch has seen `n` requests or more.
async fn requests_seen(n: usize) {
    wait_until(
        || seen(&format!("String(window.__seen.length >= {n})")) == "true",
        &format!("{n} requests sent"),
    )
    .await;
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
    mount_with_progress(id, tools, None)
}

/// [`mount`], with the lessons' stored progress (`holdbay/lessons`) set to `progress` first.
fn mount_with_progress(
    id: &str,
    tools: &[&str],
    progress: Option<&str>,
) -> (HtmlElement, Session, UiState) {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = match progress {
            Some(stored) => storage.set_item("holdbay/lessons", stored),
            None => storage.remove_item("holdbay/lessons"),
        };
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
        host.query_selector_all("button.lesson-start[data-lesson]")
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
    requests_seen(2).await;
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
    wait_for(&host, ".lesson-feedback[data-correct='true']").await;
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

/// The page's address, to put back after a test whose connect wrote `?server=` into it.
fn page_href() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

fn restore_page_href(href: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href));
    }
}

#[wasm_bindgen_test]
async fn lesson_11_starts_by_connecting_to_the_endpoint_behind_sign_in() {
    let href = page_href();
    script_fetch(r#"return { resultType: "complete", content: [] };"#);
    let (host, session, _) = mount("lessons-protected", &["deploy"]);
    click(&host, "button.lesson-start[data-lesson='11']");
    wait_for(&host, ".lesson[data-lesson='11']").await;
    requests_seen(1).await;
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let expected = format!("{origin}/protected/mcp");
    assert_eq!(session.connection().get_untracked().server, expected);
    assert_eq!(seen("window.__seen[0].url"), expected);
    assert_eq!(seen("window.__seen[0].body.method"), "server/discover");
    // Start runs no call: the lesson's first step is the server's answer to the connect.
    let methods = seen("window.__seen.map((s) => s.body.method).join(' ')");
    assert!(!methods.contains("tools/call"), "{methods}");
    assert!(find(&host, ".lesson-problem").is_none());
    // The page's address names the endpoint, as after any connect.
    assert!(page_href().contains("protected%2Fmcp"), "{}", page_href());
    restore_page_href(&href);
}

#[wasm_bindgen_test]
async fn lesson_11_reveals_the_call_refused_for_a_step_up() {
    // deploy is refused with the step-up challenge; anything else completes.
    script_fetch(
        r#"if (body?.method === "tools/call" && body.params.name === "deploy") {
               return reply({ status: 403, headers: {
                   "content-type": "application/json",
                   "www-authenticate": 'Bearer error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="http://mcp.test/.well-known/oauth-protected-resource/protected/mcp"',
               }, body: { jsonrpc: "2.0", id: body.id,
                   error: { code: -32600, message: "This tool needs the scope mcp:admin" } } });
           }
           return { resultType: "complete", content: [] };"#,
    );
    // Lesson 11 open (as after a reload), without Start's connect.
    let (host, _, ui) = mount_with_progress(
        "lessons-step-up",
        &["deploy"],
        Some(r#"{"active":11,"done":[]}"#),
    );
    wait_for(&host, ".lesson[data-lesson='11']").await;
    // Before the call, the reveal says what to do.
    click(&host, ".lesson-reveal");
    wait_for(&host, ".lesson-reveal-status[data-found='false']").await;
    assert!(text(&host, ".lesson-reveal-status").contains("Do step 5"));

    click(&host, ".lesson-step-run[data-step='5']");
    requests_seen(1).await;
    assert_eq!(seen("window.__seen[0].body.params.name"), "deploy");
    assert_eq!(
        seen("window.__seen[0].body.params.arguments.service"),
        "web"
    );
    // The waiting reveal finds the refused call once its answer is in the scene's model.
    let status = wait_for(&host, ".lesson-reveal-status[data-found='true']").await;
    let shown = status.text_content().unwrap_or_default();
    assert!(
        shown.contains("tools/call deploy the server refused with 403"),
        "{shown}"
    );
    let selected = ui.inspected().get_untracked();
    assert!(matches!(selected, Some(Part::Flight(_))), "{selected:?}");
}
