//! DOM helpers shared by the browser tests: a fresh element to mount into, waiting for
//! what the app renders, queries that fail with the selector in the message, and a scripted
//! `fetch` standing in for a server.
#![allow(dead_code)] // each test file uses its own part

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement};

pub fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

/// A fresh element to mount into (never touch <body> itself: the runner reports there).
pub fn fresh_host(id: &str) -> HtmlElement {
    if let Some(old) = document().get_element_by_id(id) {
        old.remove();
    }
    let host: HtmlElement = document()
        .create_element("div")
        .expect("div")
        .unchecked_into();
    host.set_id(id);
    document()
        .body()
        .expect("body")
        .append_child(&host)
        .expect("append");
    host
}

pub fn find(host: &Element, selector: &str) -> Option<Element> {
    host.query_selector(selector).ok().flatten()
}

/// The text of the first match; fails the test when nothing matches.
pub fn text(host: &Element, selector: &str) -> String {
    find(host, selector)
        .and_then(|e| e.text_content())
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
}

pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .expect("setTimeout");
    });
    JsFuture::from(promise).await.expect("timer");
}

/// Wait (up to ~10 s) until `selector` appears under `host`.
pub async fn wait_for(host: &Element, selector: &str) -> Element {
    for _ in 0..200 {
        if let Some(found) = find(host, selector) {
            return found;
        }
        sleep_ms(50).await;
    }
    panic!("{selector} never appeared; page: {}", host.inner_html());
}

pub fn click(host: &Element, selector: &str) {
    find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
        .unchecked_into::<HtmlElement>()
        .click();
}

/// Replace `window.fetch`: `script` is a JS function body that gets the parsed request
/// (`body`), the URL (`url`) and the call count (`n`, from 1) and returns the JSON-RPC
/// `result` object, or throws. Every request seen lands in `window.__seen`.
pub fn script_fetch(script: &str) {
    let install = js_sys::Function::new_no_args(&format!(
        r#"
        window.__seen = [];
        window.fetch = async (url, init) => {{
            const body = JSON.parse(init.body);
            window.__seen.push({{ url: String(url), body }});
            const n = window.__seen.length;
            const answer = ((body, url, n) => {{ {script} }})(body, String(url), n);
            const message = answer.error
                ? {{ jsonrpc: "2.0", id: body.id, error: answer.error }}
                : {{ jsonrpc: "2.0", id: body.id, result: answer }};
            return new Response(JSON.stringify(message), {{
                status: 200, headers: {{ "content-type": "application/json" }} }});
        }};"#
    ));
    install.call0(&JsValue::NULL).expect("fetch replaced");
}
