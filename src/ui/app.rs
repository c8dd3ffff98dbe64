//! The app shell: the connection bar, a view switch between the 3-column workbench (server
//! and catalog | call | tasks) and the scene (lessons, call and tasks | the teaching scene
//! and its timeline), the bottom dock (wire log, findings); and connecting, which fills the
//! session.

use holdbay_engine::model::PaginatedRequestParams;
use holdbay_engine::{MAX_TOOL_PAGES, McpMethod, OutgoingRequest, ToolPages};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::session::{Session, Step, Toolbox};
use super::{
    CallPanel, Catalog, ConnectionBar, DiscoverPanel, Dock, ErrorNotice, LessonsPanel, Scene,
    TasksPanel, Timeline,
};
use crate::connection::Connection;
use crate::transport::{Exchange, exchange};

#[component]
pub fn App(endpoint: Result<String, String>) -> impl IntoView {
    let connection = match &endpoint {
        Ok(url) => Connection::restore(url.clone()),
        Err(_) => Connection::default(),
    };
    let session = Session::new(connection);
    provide_context(session);
    if endpoint.is_ok() {
        let round = session.reset_for_connect();
        spawn_local(connect(session, round));
    }
    let connected = move || !session.connection.with(|c| c.server.is_empty());
    let on_connect = Callback::new(move |connection: Connection| {
        reconnect(session, connection);
    });
    let shown = RwSignal::new(View::from_page_url());
    let show = move |view: View| {
        shown.set(view);
        view.share_in_page_url();
    };

    view! {
        <div class="holdbay">
            <header class="masthead">
                <h1>"Holdbay"</h1>
                <p class="tagline">"MCP 2026-07-28 multi-step flows, seen from the wire"</p>
                <nav class="view-switch" aria-label="View">
                    <button
                        id="view-workbench"
                        aria-pressed=move || (shown.get() == View::Workbench).to_string()
                        on:click=move |_| show(View::Workbench)
                    >
                        "Workbench"
                    </button>
                    <button
                        id="view-scene"
                        aria-pressed=move || (shown.get() == View::Scene).to_string()
                        on:click=move |_| show(View::Scene)
                    >
                        "Scene"
                    </button>
                </nav>
            </header>
            <ConnectionBar on_connect=on_connect />
            {endpoint
                .err()
                .map(|problem| view! { <ErrorNotice title="Cannot connect" message=problem /> })}
            {move || match shown.get() {
                View::Workbench => view! { <Workbench connected=connected /> }.into_any(),
                View::Scene => view! { <SceneView connected=connected /> }.into_any(),
            }}
            <Dock />
        </div>
    }
}

/// The two ways to look at a session. Only one is mounted at a time: both hold the call and
/// tasks panels, whose ids are unique on the page.
#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    Workbench,
    Scene,
}

impl View {
    /// `?view=scene` opens the scene.
    fn from_page_url() -> Self {
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        let scene = web_sys::UrlSearchParams::new_with_str(&search)
            .ok()
            .and_then(|params| params.get("view"))
            .is_some_and(|view| view == "scene");
        if scene { View::Scene } else { View::Workbench }
    }

    /// Keep the choice in the page URL (other parameters stay).
    fn share_in_page_url(self) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let Ok(href) = window.location().href() else {
            return;
        };
        let Ok(url) = web_sys::Url::new(&href) else {
            return;
        };
        let params = url.search_params();
        match self {
            View::Scene => params.set("view", "scene"),
            View::Workbench => params.delete("view"),
        }
        url.set_search(&params.to_string().as_string().unwrap_or_default());
        if url.href() != href
            && let Ok(history) = window.history()
        {
            let _ =
                history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()));
        }
    }
}

#[component]
fn Workbench(connected: impl Fn() -> bool + Send + Sync + Copy + 'static) -> impl IntoView {
    let session = Session::current();
    view! {
        <main class="workbench" class:hidden=move || !connected()>
            <div class="column server-column" aria-label="Server">
                {move || match session.discovery.get() {
                    Step::Waiting => {
                        view! { <p class="pending">"Discovering the server…"</p> }.into_any()
                    }
                    Step::Done(result) => view! { <DiscoverPanel result=result /> }.into_any(),
                    Step::Failed(message) => view! { <DiscoveryFailed message=message /> }.into_any(),
                }}
                <Catalog />
            </div>
            <div class="column call-column" aria-label="Call">
                <CallPanel />
            </div>
            <div class="column tasks-column" aria-label="Tasks">
                <TasksPanel />
            </div>
        </main>
    }
}

/// Lessons, call and tasks on the left (the learner acts there); the scene and its timeline
/// on the right.
#[component]
fn SceneView(connected: impl Fn() -> bool + Send + Sync + Copy + 'static) -> impl IntoView {
    view! {
        <main class="scene-view" class:hidden=move || !connected()>
            <div class="column scene-side" aria-label="Lessons, call and tasks">
                <LessonsPanel />
                <CallPanel />
                <TasksPanel />
            </div>
            <div class="column scene-main" aria-label="Scene and timeline">
                <Scene />
                <Timeline />
            </div>
        </main>
    }
}

/// Discovery failed: say why, and when it looks like CORS offer the relay in one click.
#[component]
fn DiscoveryFailed(message: String) -> impl IntoView {
    let session = Session::current();
    let could_be_cors = session
        .discovery_error
        .with_untracked(|error| error.as_ref().is_some_and(|e| e.could_be_cors()));
    let relay_offer = could_be_cors.then(|| {
        let use_relay = move |_| {
            let mut connection = session.connection_now();
            connection.via_relay = true;
            reconnect(session, connection);
        };
        view! {
            <div class="cors-hint" id="cors-hint">
                <p>
                    "The browser could not read this server's answer. Most often that is because the
                    server does not allow other web pages to call it (it sends no CORS headers).
                    The Holdbay relay can fetch it for this page instead."
                </p>
                <button class="use-relay primary" on:click=use_relay>"Use the relay"</button>
            </div>
        }
    });
    view! {
        <ErrorNotice title="server/discover failed" message=message />
        {relay_offer}
    }
}

/// Switch to `connection`: remember what may be remembered, share it in the page URL, forget
/// what the last server said (keeping the wire log), and connect again.
pub fn reconnect(session: Session, connection: Connection) {
    if let Err(problem) = connection.persist() {
        leptos::logging::warn!("{problem}");
    }
    crate::endpoint::share_in_page_url(&connection.server);
    session.connection.set(connection);
    let round = session.reset_for_connect();
    spawn_local(connect(session, round));
}

/// Discover the server, then list its tools, prompts and resources.
async fn connect(session: Session, round: u64) {
    let connection = session.connection_now();
    let how = session.exchange_with(&connection);
    let Some(request) = session.build(|client| client.discover()) else {
        return;
    };
    let outcome = exchange(&how, &request).await;
    if !session.is_current_round(round) {
        return;
    }
    let discovered = match outcome {
        Ok(reply) => {
            session.note_findings(reply.findings);
            reply.result
        }
        Err(error) => {
            session.discovery.set(Step::Failed(error.to_string()));
            session.discovery_error.set(Some(error));
            return;
        }
    };
    let offers_prompts = discovered.capabilities.prompts.is_some();
    let offers_resources = discovered.capabilities.resources.is_some();
    let pages = ToolPages::for_server(&discovered);
    session.discovery.set(Step::Done(discovered));
    list_tools(session, round, &how, pages).await;
    if !session.is_current_round(round) {
        return;
    }
    let prompts = if offers_prompts {
        list_all(
            session,
            &how,
            |client, cursor| client.list_prompts(cursor),
            |page| (page.prompts, page.next_cursor),
        )
        .await
        .map(Some)
    } else {
        Ok(None)
    };
    if session.is_current_round(round) {
        session.prompts.set(step_of(prompts));
    }
    let resources = if offers_resources {
        list_all(
            session,
            &how,
            |client, cursor| client.list_resources(cursor),
            |page| (page.resources, page.next_cursor),
        )
        .await
        .map(Some)
    } else {
        Ok(None)
    };
    if session.is_current_round(round) {
        session.resources.set(step_of(resources));
    }
}

fn step_of<T>(outcome: Result<T, String>) -> Step<T> {
    match outcome {
        Ok(value) => Step::Done(value),
        Err(message) => Step::Failed(message),
    }
}

async fn list_tools(session: Session, round: u64, how: &Exchange<'_>, pages: Option<ToolPages>) {
    let Some(mut pages) = pages else {
        session.tools.set(Step::Done(None));
        return;
    };
    while let Some(request) = session.build(|client| pages.next_request(client)).flatten() {
        let outcome = match exchange(how, &request).await {
            Ok(reply) => pages.accept(reply).map_err(|e| e.to_string()),
            Err(error) => Err(error.to_string()),
        };
        if !session.is_current_round(round) {
            return;
        }
        if let Err(message) = outcome {
            session.tools.set(Step::Failed(message));
            return;
        }
    }
    // Tools with invalid x-mcp-header annotations must not be offered; say which were hidden.
    let Some((kept, findings)) = session.build(|client| client.learn_tools(pages.into_tools()))
    else {
        return;
    };
    let hidden = findings.iter().map(|f| f.explanation.clone()).collect();
    session.note_findings(findings);
    session.tools.set(Step::Done(Some(Toolbox {
        tools: kept,
        hidden,
    })));
}

/// Every page of a paginated list (`prompts/list`, `resources/list`), following the opaque
/// `nextCursor` for at most as many pages as the engine allows for tools.
async fn list_all<M, Item>(
    session: Session,
    how: &Exchange<'_>,
    request: impl Fn(&mut holdbay_engine::Client, Option<String>) -> OutgoingRequest<M>,
    items_of: impl Fn(M::Output) -> (Vec<Item>, Option<String>),
) -> Result<Vec<Item>, String>
where
    M: McpMethod<Params = PaginatedRequestParams>,
{
    let mut all = Vec::new();
    let mut cursor = None;
    for _ in 0..MAX_TOOL_PAGES {
        let Some(outgoing) = session.build(|client| request(client, cursor.take())) else {
            return Ok(all);
        };
        let reply = exchange(how, &outgoing)
            .await
            .map_err(|error| error.to_string())?;
        session.note_findings(reply.findings);
        let (items, next) = items_of(reply.result);
        all.extend(items);
        match next {
            Some(next) => cursor = Some(next),
            None => return Ok(all),
        }
    }
    Ok(all)
}
