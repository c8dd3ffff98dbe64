//! Helpers shared by the browser tests: a fresh element to mount into, waiting for what the
//! app renders, queries that fail with the selector in the message, a scripted `fetch`
//! standing in for a server, a session to mount views in, and exchanges recorded into a wire
//! log the way the transport records them (with the typed events the engine decodes).
#![allow(dead_code)] // each test file uses its own part

use holdbay::session::Session;
use holdbay::ui::{UiState, View};
use holdbay::wire::{WireChunk, WireEntry, WireLog, decode_recorded};
use leptos::prelude::*;
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

/// Wait `ms` on the clock. Only for tests about time itself (a debounce, a redraw budget, a
/// clock that ticks): everything else waits for what it expects with [`wait_until`].
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .expect("setTimeout");
    });
    JsFuture::from(promise).await.expect("timer");
}

/// How long a wait gives what it waits for before the test fails.
const WAIT_LIMIT_MS: f64 = 10_000.0;

/// How often a wait looks again: a short tick, so signals, effects and the DOM update in
/// between (Leptos runs render effects in tasks of their own).
const POLL_MS: i32 = 10;

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Wait (up to 10 s) until `found` returns something, and return it; fails with `what`
/// and, when the wait ran out, with `failure()` (what there was instead).
pub async fn wait_some<T>(
    mut found: impl FnMut() -> Option<T>,
    what: &str,
    failure: impl FnOnce() -> String,
) -> T {
    let deadline = now_ms() + WAIT_LIMIT_MS;
    loop {
        if let Some(found) = found() {
            return found;
        }
        if now_ms() > deadline {
            panic!("{what} never happened within 10 s; {}", failure());
        }
        sleep_ms(POLL_MS).await;
    }
}

/// Wait (up to 10 s) until `condition` holds; fails with `what`.
pub async fn wait_until(mut condition: impl FnMut() -> bool, what: &str) {
    wait_some(|| condition().then_some(()), what, String::new).await;
}

/// Wait (up to 10 s) until `actual()` equals `expected`; fails with both, like `assert_eq!`.
pub async fn wait_eq<T: PartialEq + std::fmt::Debug>(
    mut actual: impl FnMut() -> T,
    expected: T,
    what: &str,
) {
    let last = std::cell::RefCell::new(None);
    wait_some(
        || {
            let now = actual();
            let done = now == expected;
            *last.borrow_mut() = Some(now);
            done.then_some(())
        },
        what,
        || format!("expected {expected:?}, last seen {:?}", last.borrow()),
    )
    .await;
}

/// Wait (up to 10 s) until `selector` appears under `host`.
pub async fn wait_for(host: &Element, selector: &str) -> Element {
    wait_some(
        || find(host, selector),
        &format!("{selector} appearing"),
        || format!("page: {}", host.inner_html()),
    )
    .await
}

/// Wait (up to 10 s) until the first `selector` under `host` has a text containing `needle`;
/// returns that text.
pub async fn wait_for_text(host: &Element, selector: &str, needle: &str) -> String {
    wait_some(
        || {
            find(host, selector)
                .and_then(|e| e.text_content())
                .filter(|text| text.contains(needle))
        },
        &format!("{selector} showing {needle:?}"),
        || {
            format!(
                "it shows {:?}",
                find(host, selector).and_then(|e| e.text_content())
            )
        },
    )
    .await
}

/// Wait (up to 10 s) until nothing matches `selector` under `host`.
pub async fn wait_gone(host: &Element, selector: &str) {
    wait_some(
        || find(host, selector).is_none().then_some(()),
        &format!("{selector} going away"),
        || format!("page: {}", host.inner_html()),
    )
    .await
}

/// How many elements match `selector` under `host`.
pub fn count(host: &Element, selector: &str) -> u32 {
    host.query_selector_all(selector).expect("query").length()
}

/// Wait (up to 10 s) until `n` elements match `selector` under `host`.
pub async fn wait_count(host: &Element, selector: &str, n: u32) {
    wait_some(
        || (count(host, selector) == n).then_some(()),
        &format!("{n} × {selector}"),
        || format!("there are {}", count(host, selector)),
    )
    .await
}

pub fn click(host: &Element, selector: &str) {
    find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
        .unchecked_into::<HtmlElement>()
        .click();
}

/// The `_meta` the app's requests carry (protocol version, client info, capabilities with the
/// tasks extension), for requests a test writes by hand.
pub const REQUEST_META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"holdbay","version":"0.1.0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#;

/// `params` (a JSON object, as text) with [`REQUEST_META`] added.
pub fn with_meta(params: &str) -> String {
    let params = params.trim();
    let inner = params
        .strip_prefix('{')
        .and_then(|rest| rest.strip_suffix('}'))
        .unwrap_or(params)
        .trim();
    if inner.is_empty() {
        format!("{{{REQUEST_META}}}")
    } else {
        format!("{{{REQUEST_META},{inner}}}")
    }
}

/// Replace `window.fetch`: `script` is a JS function body that gets the parsed request
/// (`body`: its JSON, or its text when it is not JSON, `null` when empty), the URL (`url`),
/// the call count (`n`, from 1) and the request's `headers` (names lowercase), and returns
/// - the JSON-RPC `result` object, or `{ error }`: answered 200 `application/json`;
/// - `reply({ status, headers, body })`: answered as said (`body` text or a `ReadableStream`
///   as is, anything else as JSON; no `content-type` unless `headers` has one): any status,
///   any content type;
/// - `reply({ status: 200, headers: { "content-type": "text/event-stream" }, body:
///   sse(message, …) })`: the messages (JSON-RPC objects, `rpc(result)` makes this
///   request's answer) as server-sent events, one `event: message` each;
///
/// or throws (a refused fetch). Every request seen lands in `window.__seen` (its `url`,
/// `method`, `body` and `headers`).
pub fn script_fetch(script: &str) {
    let install = js_sys::Function::new_no_args(&format!(
        r#"
        window.__seen = [];
        const answered = Symbol("a whole answer");
        window.fetch = async (input, init) => {{
            // The app fetches a `Request` (gloo-net); a URL and options work too.
            const request = input instanceof Request ? input : new Request(input, init);
            const url = String(request.url);
            const text = await request.text();
            let body = null;
            try {{ body = text ? JSON.parse(text) : null; }} catch {{ body = text; }}
            const headers = Object.fromEntries(request.headers.entries());
            window.__seen.push({{ url, method: request.method, body, headers }});
            const n = window.__seen.length;
            const reply = (descriptor) => ({{ [answered]: descriptor }});
            const rpc = (result) => ({{ jsonrpc: "2.0", id: body && body.id, result }});
            const sse = (...messages) => messages
                .map((message) => `event: message
data: ${{JSON.stringify(message)}}

`)
                .join("");
            const answer = ((body, url, n, headers) => {{ {script} }})(body, url, n, headers);
            if (answer && answer[answered]) {{
                const {{ status = 200, headers = {{}}, body = "" }} = answer[answered];
                const text = typeof body === "string" || body instanceof ReadableStream
                    ? body : JSON.stringify(body);
                return new Response(status === 204 ? null : text, {{ status, headers }});
            }}
            const message = answer.error
                ? {{ jsonrpc: "2.0", id: body.id, error: answer.error }}
                : {{ jsonrpc: "2.0", id: body.id, result: answer }};
            return new Response(JSON.stringify(message), {{
                status: 200, headers: {{ "content-type": "application/json" }} }});
        }};"#
    ));
    install.call0(&JsValue::NULL).expect("fetch replaced");
}

/// Mount `view` in `host` with a session made by `make` and a fresh [`UiState`], both
/// provided as contexts; returns them. Both are made inside the mount: a session starts
/// effects, which need the executor mounting sets up, and lives as long as the mount.
pub fn mount_with_session<V: IntoView + 'static>(
    host: &HtmlElement,
    make: impl FnOnce() -> Session + 'static,
    view: impl FnOnce() -> V + 'static,
) -> (Session, UiState) {
    let made = std::rc::Rc::new(std::cell::Cell::new(None));
    let out = made.clone();
    leptos::mount::mount_to(host.clone(), move || {
        let ui = UiState::new(View::Workbench);
        provide_context(ui);
        let session = make();
        provide_context(session);
        out.set(Some((session, ui)));
        view()
    })
    .forget();
    made.get().expect("mounted synchronously")
}

/// Give `entry` a whole JSON answer: status 200, `application/json`, `body` in one piece
/// `after_ms` after the request started, and the end.
pub fn answered_json(entry: WireEntry, after_ms: f64, body: &str) -> WireEntry {
    WireEntry {
        status: Some(200),
        response_headers: vec![("content-type".into(), "application/json".into())],
        responded_after: Some(after_ms),
        body: vec![WireChunk {
            after: after_ms,
            text: body.to_owned(),
        }],
        finished_after: Some(after_ms),
        ..entry
    }
}

/// Record a whole exchange as the transport would have: the engine decodes it (as it does
/// a recorded or imported exchange), then it goes into `wire`. Returns its id.
pub fn record_exchange(wire: &WireLog, mut entry: WireEntry) -> u64 {
    decode_recorded(&mut entry);
    wire.begin(entry)
}

/// `entry` with only what had happened when its request went out.
fn request_only(entry: &WireEntry) -> WireEntry {
    WireEntry {
        status: None,
        response_headers: Vec::new(),
        responded_after: None,
        body: Vec::new(),
        finished_after: None,
        error: None,
        stopped: false,
        events: Vec::new(),
        ..entry.clone()
    }
}

/// Start recording an exchange still in flight: only its request has gone out (whatever
/// response parts `entry` holds are left out). Returns its id.
pub fn begin_exchange(wire: &WireLog, entry: &WireEntry) -> u64 {
    record_exchange(wire, request_only(entry))
}

/// The exchange `id` of this page's log as it is now.
pub fn live_entry(wire: &WireLog, id: u64) -> WireEntry {
    wire.with_live(|entries| entries.iter().find(|e| e.id == id).cloned())
        .unwrap_or_else(|| panic!("exchange {id} is not in the log"))
}

/// The rest of an exchange begun with [`begin_exchange`] arrives: `respond` adds the
/// response parts, the engine decodes the whole exchange again, and the events after those
/// already recorded join it (a decode of the first parts is a prefix of the whole's).
pub fn finish_exchange(wire: &WireLog, id: u64, respond: impl FnOnce(WireEntry) -> WireEntry) {
    let mut whole = respond(live_entry(wire, id));
    decode_recorded(&mut whole);
    wire.update(id, move |entry| *entry = whole);
}

/// Record a whole exchange as it arrives: the request first, then each further event the
/// engine decodes from it in its own change (the response parts come with the first one),
/// so listeners fold it step by step, as they do live traffic. Returns its id.
pub fn record_exchange_in_steps(wire: &WireLog, entry: WireEntry) -> u64 {
    let mut whole = entry.clone();
    decode_recorded(&mut whole);
    let id = begin_exchange(wire, &entry);
    let known = live_entry(wire, id).events.len();
    for event in whole.events.iter().skip(known).cloned() {
        let whole = &whole;
        wire.update(id, move |recorded| {
            recorded.status = whole.status;
            recorded.response_headers = whole.response_headers.clone();
            recorded.responded_after = whole.responded_after;
            recorded.body = whole.body.clone();
            recorded.finished_after = whole.finished_after;
            recorded.error = whole.error.clone();
            recorded.stopped = whole.stopped;
            recorded.events.push(event);
        });
    }
    id
}
