//! The shell around the panels, in headless Chromium: the wire log (filters, export and
//! import), the connection bar's headers, the tools search, findings, the CORS hint.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use holdbay::connection::{Connection, headers_key, relay_key};
use holdbay::link::MAX_FINDINGS;
use holdbay::session::Session;
use holdbay::ui::{ConnectionBar, FindingsPanel, ToolsPanel, UiState, WireLogPanel};
use holdbay::wire::{WireChunk, WireEntry};
use holdbay_engine::model::Tool;
use holdbay_engine::{Finding, Rule};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlInputElement, HtmlSelectElement};

mod dom;

use dom::{
    count, document, find, fresh_host, record_exchange, text, wait_count, wait_eq, wait_for,
    wait_for_text, wait_gone, wait_until, with_meta,
};

wasm_bindgen_test_configure!(run_in_browser);

fn window() -> web_sys::Window {
    web_sys::window().expect("window")
}

fn get<T: JsCast>(host: &Element, selector: &str) -> T {
    find(host, selector)
        .unwrap_or_else(|| panic!("{selector} is not on the page: {}", host.inner_html()))
        .unchecked_into()
}

/// Fire a bubbling DOM event, as the browser does for user input (Leptos delegates).
fn fire(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

fn type_into(host: &Element, selector: &str, value: &str) {
    let input: HtmlInputElement = get(host, selector);
    input.set_value(value);
    fire(&input, "input");
}

fn choose(host: &Element, selector: &str, value: &str) {
    let select: HtmlSelectElement = get(host, selector);
    select.set_value(value);
    assert_eq!(select.value(), value, "{selector} has no option {value:?}");
    fire(&select, "change");
}

fn click(host: &Element, selector: &str) {
    get::<HtmlElement>(host, selector).click();
}

fn local_item(key: &str) -> Option<String> {
    window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(key).ok().flatten())
}

/// A whole exchange: `params` in the request, `body` as the answer with `status`.
fn entry(
    method: &str,
    name: Option<&str>,
    params: &str,
    status: Option<u16>,
    body: &str,
) -> WireEntry {
    WireEntry {
        method: method.to_owned(),
        name: name.map(str::to_owned),
        server: "http://example.test/mcp".to_owned(),
        url: "http://example.test/mcp".to_owned(),
        started_at: 1.0,
        request_headers: vec![("Mcp-Method".to_owned(), method.to_owned())],
        request_body: format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{}}}"#,
            with_meta(params)
        ),
        status,
        response_headers: vec![("content-type".to_owned(), "application/json".to_owned())],
        responded_after: Some(3.0),
        body: vec![WireChunk {
            after: 12.0,
            text: body.to_owned(),
        }],
        finished_after: Some(15.0),
        ..Default::default()
    }
}

/// `result` as the JSON-RPC answer to request 1.
fn result(result: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#)
}

const TASK_7: &str = r#""taskId":"task-7","status":"working","createdAt":"2026-07-28T10:00:00Z",
    "lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":60000,"pollIntervalMs":1000"#;

/// A session outside any app (and the page's UI state), provided to whatever `view` mounts.
fn mount_with_session<V: IntoView + 'static>(
    host: &HtmlElement,
    server: &str,
    view: impl FnOnce() -> V + 'static,
) -> (Session, UiState) {
    let server = server.to_owned();
    dom::mount_with_session(host, move || Session::new(Connection::direct(server)), view)
}

/// Catches the export's download link instead of letting it download.
struct DownloadTrap {
    caught: Rc<RefCell<Option<(String, String)>>>,
    listener: Closure<dyn FnMut(Event)>,
}

impl DownloadTrap {
    fn set() -> Self {
        let caught = Rc::new(RefCell::new(None));
        let sink = caught.clone();
        let listener = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            if let Some(link) = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok())
                && !link.download().is_empty()
            {
                event.prevent_default();
                *sink.borrow_mut() = Some((link.href(), link.download()));
            }
        });
        document()
            .add_event_listener_with_callback_and_bool(
                "click",
                listener.as_ref().unchecked_ref(),
                true,
            )
            .expect("listen");
        Self { caught, listener }
    }

    fn take(self) -> Option<(String, String)> {
        let _ = document().remove_event_listener_with_callback_and_bool(
            "click",
            self.listener.as_ref().unchecked_ref(),
            true,
        );
        self.caught.borrow_mut().take()
    }
}

async fn fetch_text(url: &str) -> String {
    let response: web_sys::Response = JsFuture::from(window().fetch_with_str(url))
        .await
        .expect("fetch")
        .unchecked_into();
    JsFuture::from(response.text().expect("text"))
        .await
        .expect("body")
        .as_string()
        .expect("string")
}

#[wasm_bindgen_test]
async fn wire_log_filters_by_method_status_and_task() {
    let host = fresh_host("wire-filter-host");
    let (session, _) = mount_with_session(&host, "http://example.test/mcp", || {
        view! { <WireLogPanel /> }
    });
    let log = session.wire();
    record_exchange(
        &log,
        entry("server/discover", None, "{}", Some(200), &result("{}")),
    );
    record_exchange(
        &log,
        entry(
            "tools/call",
            Some("deploy"),
            r#"{"name":"deploy","arguments":{}}"#,
            Some(200),
            &result(&format!(r#"{{"resultType":"task",{TASK_7}}}"#)),
        ),
    );
    record_exchange(
        &log,
        entry(
            "tasks/get",
            Some("task-7"),
            r#"{"taskId":"task-7"}"#,
            Some(200),
            &result(&format!(r#"{{"resultType":"complete",{TASK_7}}}"#)),
        ),
    );
    record_exchange(
        &log,
        entry(
            "tools/call",
            Some("flaky_job"),
            r#"{"name":"flaky_job","arguments":{}}"#,
            Some(500),
            "oops",
        ),
    );
    wait_count(&host, ".wire-entry", 4).await;
    assert_eq!(
        get::<Element>(&host, ".wire-entry")
            .get_attribute("data-method")
            .as_deref(),
        Some("server/discover")
    );

    choose(&host, ".wire-filter-method", "tools/call");
    wait_count(&host, ".wire-entry", 2).await;
    assert_eq!(count(&host, ".wire-entry[data-method='tools/call']"), 2);

    choose(&host, ".wire-filter-status", "errors");
    wait_count(&host, ".wire-entry", 1).await;
    assert_eq!(count(&host, ".wire-entry[data-status='500']"), 1);

    choose(&host, ".wire-filter-method", "");
    choose(&host, ".wire-filter-status", "2xx");
    type_into(&host, ".wire-filter-task", "task-7");
    // The call that created the task, and the poll of it.
    wait_count(&host, ".wire-entry", 2).await;
    assert_eq!(count(&host, ".wire-entry[data-method='tasks/get']"), 1);

    type_into(&host, ".wire-filter-task", "");
    choose(&host, ".wire-filter-status", "all");
    wait_count(&host, ".wire-entry", 4).await;

    // Rows expand to the request and the response as they were.
    click(&host, ".wire-entry[data-status='500'] .wire-summary");
    let details = wait_for_text(&host, ".wire-details", "oops").await;
    assert!(
        details.contains("Mcp-Method") && details.contains("oops"),
        "{details}"
    );
}

#[wasm_bindgen_test]
async fn wire_log_export_then_import_round_trips() {
    let host = fresh_host("wire-export-host");
    let (session, _) = mount_with_session(&host, "http://example.test/mcp", || {
        view! { <WireLogPanel /> }
    });
    let log = session.wire();
    record_exchange(
        &log,
        entry(
            "server/discover",
            None,
            "{}",
            Some(200),
            &result(r#"{"ok":1}"#),
        ),
    );
    record_exchange(
        &log,
        entry(
            "tools/list",
            None,
            "{}",
            Some(200),
            &result(r#"{"tools":[]}"#),
        ),
    );
    wait_count(&host, ".wire-entry", 2).await;

    let trap = DownloadTrap::set();
    click(&host, ".wire-export");
    let (href, file_name) = trap.take().expect("the export offered a download");
    assert_eq!(file_name, "holdbay-wire-log.json");
    let exported = fetch_text(&href).await;
    let parsed = holdbay::wire::parse_export(&exported).expect("a wire log");
    assert_eq!(parsed.entries.len(), 2);
    assert_eq!(parsed.entries[1].method, "tools/list");

    // This page goes on: a third exchange, then the exported file is imported.
    record_exchange(
        &log,
        entry(
            "tools/call",
            Some("echo"),
            r#"{"name":"echo","arguments":{}}"#,
            Some(200),
            &result(r#"{"resultType":"complete","content":[]}"#),
        ),
    );
    let parts = js_sys::Array::of1(&exported.into());
    let file = web_sys::File::new_with_str_sequence(&parts, "holdbay-wire-log.json").expect("file");
    let transfer = web_sys::DataTransfer::new().expect("DataTransfer");
    transfer.items().add_with_file(&file).expect("add file");
    let input: HtmlInputElement = get(&host, ".wire-import");
    input.set_files(transfer.files().as_ref());
    fire(&input, "change");

    let banner = wait_for(&host, "#wire-imported").await;
    let banner = banner.text_content().unwrap_or_default();
    assert!(
        banner.contains("Viewing an imported log (2 exchanges)"),
        "{banner}"
    );
    assert_eq!(count(&host, ".wire-entry"), 2);
    assert_eq!(count(&host, ".wire-entry[data-method='tools/call']"), 0);

    click(&host, ".wire-live");
    wait_gone(&host, "#wire-imported").await;
    // Live traffic was kept.
    wait_count(&host, ".wire-entry", 3).await;

    // A file that is not a wire log is refused with a reason, and the live log stays.
    let parts = js_sys::Array::of1(&r#"{"format":"other"}"#.into());
    let file = web_sys::File::new_with_str_sequence(&parts, "x.json").expect("file");
    let transfer = web_sys::DataTransfer::new().expect("DataTransfer");
    transfer.items().add_with_file(&file).expect("add file");
    input.set_files(transfer.files().as_ref());
    fire(&input, "change");
    let problem = wait_for(&host, "#wire-log .error-message").await;
    assert!(
        problem
            .text_content()
            .unwrap_or_default()
            .contains("not a Holdbay wire log")
    );
    assert_eq!(count(&host, ".wire-entry"), 3);
}

#[wasm_bindgen_test]
async fn connection_bar_keeps_headers_in_memory_unless_remembered() {
    let server = "http://headers.example.test/mcp";
    let storage = window().local_storage().ok().flatten().expect("storage");
    let _ = storage.remove_item(&headers_key(server));
    let _ = storage.remove_item(&relay_key(server));

    let host = fresh_host("connection-bar-host");
    let connected: RwSignal<Option<Connection>> = RwSignal::new(None);
    // What the app does on Connect, minus the network: persist.
    let on_connect = Callback::new(move |connection: Connection| {
        connection.persist().expect("storage works here");
        connected.set(Some(connection));
    });
    mount_with_session(&host, server, move || {
        view! { <ConnectionBar on_connect=on_connect /> }
    });
    // The bar copies the session's connection in an effect, which runs after mounting.
    wait_eq(
        || get::<HtmlInputElement>(&host, "#server-url").value(),
        server.to_owned(),
        "the server URL in the bar",
    )
    .await;
    assert_eq!(text(&host, "#endpoint-url"), server);

    click(&host, ".toggle-headers");
    click(&host, ".add-header");
    wait_for(&host, ".header-name").await;
    type_into(&host, ".header-name", "Authorization");
    type_into(&host, ".header-value", "Bearer s3cret");
    click(&host, "#connect");
    wait_until(
        || connected.with_untracked(Option::is_some),
        "Connect handing over a connection",
    )
    .await;
    let sent = connected
        .get_untracked()
        .expect("Connect handed over a connection");
    assert_eq!(
        sent.headers,
        vec![("Authorization".to_owned(), "Bearer s3cret".to_owned())]
    );
    assert!(!sent.remember_headers && !sent.via_relay);
    assert_eq!(
        local_item(&headers_key(server)),
        None,
        "headers were stored without asking"
    );
    assert_eq!(local_item(&relay_key(server)).as_deref(), Some("false"));

    click(&host, "#remember-headers");
    click(&host, "#route-relay");
    click(&host, "#connect");
    wait_until(
        || local_item(&headers_key(server)).is_some(),
        "the remembered headers stored",
    )
    .await;
    let stored = local_item(&headers_key(server)).expect("remembered headers are stored");
    assert!(stored.contains("Bearer s3cret"), "{stored}");
    assert_eq!(local_item(&relay_key(server)).as_deref(), Some("true"));
    let restored = Connection::restore(server.to_owned());
    assert!(restored.via_relay && restored.remember_headers);
    assert_eq!(restored.headers, sent.headers);

    // Unticking forgets what was stored.
    click(&host, "#remember-headers");
    click(&host, "#connect");
    wait_until(
        || local_item(&headers_key(server)).is_none(),
        "the stored headers forgotten",
    )
    .await;

    // An unusable URL is refused in place.
    type_into(&host, "#server-url", "ftp://nope");
    let before = connected.get_untracked();
    click(&host, "#connect");
    wait_for_text(&host, "#connection-bar .error-message", "http: or https:").await;
    assert_eq!(connected.get_untracked(), before);
}

fn tool(name: &str, title: Option<&str>, description: &str) -> Tool {
    let mut json = serde_json::json!({"name": name, "description": description,
        "inputSchema": {"type": "object"}});
    if let Some(title) = title {
        json["title"] = title.into();
    }
    serde_json::from_value(json).expect("tool")
}

#[wasm_bindgen_test]
async fn tools_search_filters_as_you_type_and_selection_is_shown() {
    let host = fresh_host("tools-search-host");
    let tools = vec![
        tool("get_weather", Some("Weather"), "Current conditions"),
        tool("deploy", None, "Ship a service to a region"),
        tool("echo", None, "Says it back"),
    ];
    let (_, ui) = mount_with_session(&host, "http://example.test/mcp", move || {
        view! { <ToolsPanel tools=tools /> }
    });
    assert_eq!(count(&host, ".tool"), 3);
    assert_eq!(text(&host, "#tool-count"), "3");

    type_into(&host, "#tool-search", "WEATHER");
    wait_count(&host, ".tool", 1).await;
    assert_eq!(text(&host, ".tool-name"), "get_weather");
    assert_eq!(text(&host, "#tool-count"), "1");

    type_into(&host, "#tool-search", "region");
    // Descriptions are searched.
    wait_for_text(&host, ".tool-name", "deploy").await;
    assert_eq!(count(&host, ".tool"), 1);

    type_into(&host, "#tool-search", "zzz");
    wait_for(&host, ".no-match").await;
    assert_eq!(count(&host, ".tool"), 0);

    type_into(&host, "#tool-search", "");
    wait_count(&host, ".tool", 3).await;
    click(&host, ".tool:nth-child(3) .select-tool");
    wait_count(&host, ".tool.selected", 1).await;
    assert_eq!(ui.selected_tool().get_untracked().as_deref(), Some("echo"));
    assert_eq!(text(&host, ".tool.selected .tool-name"), "echo");
    assert_eq!(
        get::<Element>(&host, ".tool.selected .select-tool")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
fn findings_show_rule_severity_and_message() {
    let host = fresh_host("findings-host");
    let findings = RwSignal::new(vec![Finding::new(
        Rule::CacheHintsMissing,
        "tools/list has no ttlMs",
        Some(serde_json::json!({"tools": []})),
    )]);
    leptos::mount::mount_to(
        host.clone(),
        move || view! { <FindingsPanel findings=findings /> },
    )
    .forget();
    let rule = Rule::CacheHintsMissing.id();
    assert_eq!(count(&host, ".finding"), 1);
    assert!(find(&host, &format!(".finding[data-rule='{rule}']")).is_some());
    assert_eq!(text(&host, ".finding-rule"), rule);
    assert_eq!(text(&host, ".severity"), "info");
    assert!(text(&host, ".finding-message pre").contains("\"tools\""));
}

#[wasm_bindgen_test]
fn repeated_findings_are_counted_and_distinct_ones_capped() {
    let host = fresh_host("findings-count-host");
    leptos::mount::mount_to(host.clone(), move || {
        let link = holdbay::link::Link::new(
            holdbay::connection::Connection::direct("http://127.0.0.1:9/mcp".into()),
            holdbay::wire::WireLog::new(),
        );
        let mismatch =
            || Finding::new(Rule::TaskMismatch, "a snapshot for t2 arrived for t1", None);
        link.note_findings([mismatch(), mismatch()]);
        link.note_findings([mismatch()]);
        link.note_findings((0..MAX_FINDINGS + 5).map(|n| {
            Finding::new(
                Rule::TaskMismatch,
                format!("a snapshot for t{n} arrived"),
                None,
            )
        }));
        view! { <FindingsPanel findings=link.findings() counts=link.finding_counts() /> }
    })
    .forget();
    assert_eq!(count(&host, ".finding") as usize, MAX_FINDINGS);
    assert_eq!(text(&host, ".finding .finding-count").trim(), "×3");
    assert!(
        text(&host, ".findings-unlisted").starts_with("6 more distinct findings"),
        "{}",
        text(&host, ".findings-unlisted")
    );
}

#[wasm_bindgen_test]
async fn an_unreachable_server_offers_the_relay() {
    let host = fresh_host("cors-host");
    let page = window().location().href().expect("href");
    // Nothing listens on port 9: the browser fails the fetch the way it fails CORS.
    holdbay::mount_app_to(host.clone(), Ok("http://127.0.0.1:9/mcp".to_owned()));
    let hint = wait_for(&host, "#cors-hint").await;
    assert!(hint.text_content().unwrap_or_default().contains("CORS"));
    assert!(find(&host, ".connection-status .relayed").is_none());

    click(&host, ".use-relay");
    wait_for(&host, ".connection-status .relayed").await;
    assert!(get::<HtmlInputElement>(&host, "#route-relay").checked());
    // The relay's failure is not a CORS failure: no second offer.
    wait_for(&host, ".error-message").await;
    assert!(find(&host, "#cors-hint").is_none());

    let _ = window()
        .local_storage()
        .ok()
        .flatten()
        .map(|s| s.remove_item(&relay_key("http://127.0.0.1:9/mcp")));
    let _ = window()
        .history()
        .map(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&page)));
}
