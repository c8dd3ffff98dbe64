//! The real transport and session against answers other than a 200 JSON one, from a scripted
//! `fetch`: a 401 with a Bearer challenge brings up the sign-in card, a 503 is an error the
//! call panel and the wire log show (and the typed arguments stay for the next try), and a
//! tools/call answered as server-sent events shows its notification, then its result.
#![cfg(target_arch = "wasm32")]

use holdbay::catalog::Catalog;
use holdbay::connection::Connection;
use holdbay::session::Session;
use holdbay::ui::{CallPanel, SignInCard, UiState, WireLogPanel};
use holdbay_engine::model::Tool;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlInputElement};

mod dom;

use dom::{
    click, find, fresh_host, mount_with_session, script_fetch, text, wait_for, wait_for_text,
    wait_gone, wait_until,
};

wasm_bindgen_test_configure!(run_in_browser);

const SERVER: &str = "http://mcp.test/mcp";

fn seen(expression: &str) -> JsValue {
    js_sys::eval(expression).unwrap_or(JsValue::UNDEFINED)
}

fn seen_count() -> u32 {
    seen("window.__seen.length").as_f64().unwrap_or(0.0) as u32
}

/// The sign-in card, the call panel of the tool `book` (one string argument) and the wire
/// log, over one session, as the workbench shows them.
fn mount_workbench(id: &str) -> HtmlElement {
    let host = fresh_host(id);
    let tool: Tool = serde_json::from_value(serde_json::json!({
        "name": "book", "description": "Book a table",
        "inputSchema": {"type": "object", "properties": {"restaurant": {"type": "string"}}}
    }))
    .expect("tool");
    mount_with_session(
        &host,
        move || {
            let session = Session::new(Connection::direct(SERVER.into()));
            session.show_catalog(Catalog::with_tools(vec![tool]));
            session
        },
        || {
            UiState::current().selected_tool().set(Some("book".into()));
            view! { <SignInCard /> <CallPanel /> <WireLogPanel /> }
        },
    );
    host
}

async fn type_restaurant(host: &Element, name: &str) {
    let field: HtmlInputElement = wait_for(host, "input[name=restaurant]")
        .await
        .unchecked_into();
    field.set_value(name);
    for kind in ["input", "blur"] {
        let init = EventInit::new();
        init.set_bubbles(true);
        let event = Event::new_with_event_init_dict(kind, &init).expect("event");
        field.dispatch_event(&event).expect("dispatch");
    }
}

#[wasm_bindgen_test]
async fn a_401_with_a_bearer_challenge_brings_up_the_sign_in_card() {
    script_fetch(
        r#"return reply({ status: 401, headers: { "www-authenticate":
            'Bearer resource_metadata="http://mcp.test/.well-known/oauth-protected-resource/mcp", scope="tables:book"' },
            body: "" });"#,
    );
    let host = mount_workbench("answers-401");
    click(&host, "button.call");

    let card = wait_for(&host, "#sign-in").await;
    assert_eq!(text(&card, "h2"), "Sign-in needed");
    assert_eq!(
        text(&card, ".sign-in-why"),
        "http://mcp.test/mcp answered 401: it wants an access token (scope asked: tables:book)."
    );
    let plan = text(&card, ".sign-in-plan");
    assert!(
        plan.contains(
            "read the server's resource metadata at \
             http://mcp.test/.well-known/oauth-protected-resource/mcp"
        ),
        "{plan}"
    );
    assert!(find(&card, "button.sign-in").is_some());
    // The refusal is in the wire log, as the server sent it.
    wait_for_text(&host, ".wire-entry .wire-status", "401").await;
    assert_eq!(seen_count(), 1, "nothing goes again before a sign-in");

    // "Not now": the card goes, and the call ends refused.
    click(&host, "button.sign-in-dismiss");
    wait_gone(&host, "#sign-in").await;
    let refused = wait_for_text(&host, ".call-error", "401").await;
    assert!(
        refused.contains("The server requires authorization (HTTP 401 Unauthorized)")
            && refused.contains("scope=\"tables:book\""),
        "{refused}"
    );
    assert_eq!(seen_count(), 1, "declining sends nothing more");
}

#[wasm_bindgen_test]
async fn a_503_is_a_clear_error_and_the_arguments_stay_for_the_next_try() {
    script_fetch(
        r#"if (n === 1) return reply({ status: 503,
               headers: { "content-type": "text/plain" }, body: "upstream is down" });
           return { resultType: "complete", content: [{ type: "text", text: "booked" }] };"#,
    );
    let host = mount_workbench("answers-503");
    type_restaurant(&host, "Le Jardin").await;
    wait_until(
        || find(&host, "button.call").is_some_and(|b| !b.has_attribute("disabled")),
        "the Call button enabled",
    )
    .await;
    click(&host, "button.call");

    let error = wait_for_text(&host, ".call-error", "503").await;
    assert!(
        error.contains("The server answered HTTP 503 Service Unavailable: upstream is down"),
        "{error}"
    );
    assert!(find(&host, ".call-result").is_none(), "no result: {error}");
    let status = wait_for_text(&host, ".wire-entry .wire-status", "503").await;
    assert!(
        find(&host, ".wire-entry .wire-status.bad").is_some(),
        "the log marks {status} as failed"
    );
    // The server's words are kept in the exchange.
    click(&host, ".wire-entry .wire-summary");
    wait_for_text(&host, ".wire-entry .wire-body", "upstream is down").await;
    // Nothing typed is lost: the field still holds it and the next try sends it.
    let field: HtmlInputElement = wait_for(&host, "input[name=restaurant]")
        .await
        .unchecked_into();
    assert_eq!(field.value(), "Le Jardin");
    click(&host, "button.call");
    wait_for_text(&host, ".call-result .content-text", "booked").await;
    assert_eq!(seen_count(), 2);
    assert_eq!(
        seen("window.__seen[1].body.params.arguments.restaurant").as_string(),
        Some("Le Jardin".to_owned())
    );
}

/// Answers a tools/call as an event stream: a progress notification at once, the result
/// when the test calls `window.__finish()`.
const STREAMED_CALL: &str = r#"
    const token = body.params._meta.progressToken;
    const encoder = new TextEncoder();
    const stream = new ReadableStream({ start(controller) {
        controller.enqueue(encoder.encode(sse({ jsonrpc: "2.0", method: "notifications/progress",
            params: { progressToken: token, progress: 1, total: 2, message: "finding a table" } })));
        window.__finish = () => {
            controller.enqueue(encoder.encode(sse(rpc({ resultType: "complete",
                content: [{ type: "text", text: "table for two at eight" }] }))));
            controller.close();
        };
    } });
    return reply({ headers: { "content-type": "text/event-stream" }, body: stream });"#;

#[wasm_bindgen_test]
async fn a_call_answered_as_an_event_stream_shows_its_progress_then_its_result() {
    script_fetch(STREAMED_CALL);
    let host = mount_workbench("answers-sse");
    click(&host, "button.call");

    // The notification arrives while the call is still open.
    wait_for_text(&host, ".progress-box .progress-amount", "1 of 2").await;
    assert_eq!(text(&host, ".progress-message"), "finding a table");
    wait_for_text(&host, ".wire-note", "finding a table").await;
    assert!(find(&host, ".call-result").is_none());

    js_sys::eval("window.__finish()").expect("the stream goes on");
    wait_for_text(
        &host,
        ".call-result .content-text",
        "table for two at eight",
    )
    .await;
    wait_gone(&host, ".progress-box").await;
    wait_for_text(&host, ".wire-entry .wire-outcome", "complete").await;
    assert_eq!(seen_count(), 1);
}
