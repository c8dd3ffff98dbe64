//! The app shell: the connection bar, a view switch between the 3-column workbench (server
//! and catalog | call | tasks) and the scene (lessons, call and tasks | the teaching scene
//! and its timeline), and the bottom dock (wire log, findings). The client's state is the
//! session's; this file only lays the views out.

use leptos::prelude::*;

use super::first_screen::{self, DockFrame, TasksFrame};
use super::on_demand::{DockOnDemand, SceneColumns, TasksPanelOnDemand};
use super::state::{UiState, View};
use super::{
    CallPanel, Catalog, ConnectionBar, DiscoverPanel, ErrorNotice, SessionAsks, SignInCard,
    TasksAsking, VersionNotice,
};
use crate::catalog::Loaded;
use crate::connection::Connection;
use crate::link::ExchangeError;
use crate::session::Session;

/// The page's session for `endpoint` (the server the page URL names): connecting at once.
/// `kept_log`: the IndexedDB database that keeps the wire log across reloads, if any.
///
/// Started before the views are built (`crate::mount_app_to_body`), so the first requests
/// are on the wire while the page is laid out; it lives as long as the page.
pub fn start_session(endpoint: &Result<String, String>, kept_log: Option<&str>) -> Session {
    let connection = match endpoint {
        Ok(url) => {
            let mut connection = Connection::restore(url.clone());
            connection.via_relay |= crate::endpoint::relay_from_page();
            if let Some(era) = crate::endpoint::era_from_page() {
                connection.era = era;
            }
            connection
        }
        Err(_) => Connection::default(),
    };
    // Mounting sets Leptos' executor up too; the session's tasks may come first.
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let owner = Owner::new();
    let session = owner.with(|| Session::start(connection, kept_log));
    // The page's state outlives every view: its owner is never dropped (dropping it would
    // dispose of the session's signals).
    std::mem::forget(owner);
    session
}

/// The app's views over `session` (see [`start_session`]); `endpoint` says why there is no
/// server to talk to, when there is none.
#[component]
pub fn App(endpoint: Result<String, String>, session: Session) -> impl IntoView {
    let ui = UiState::new(View::from_page_url());
    provide_context(ui);
    provide_context(session);
    let connected = move || !session.connection().with(|c| c.server.is_empty());
    let later = first_screen::drawn(session);
    Effect::new(move || {
        if later.get() {
            session.after_first_screen();
        }
    });
    let on_connect = Callback::new(move |connection: Connection| {
        reconnect(session, ui, connection);
    });
    let shown = ui.view();

    view! {
        <div class="holdbay">
            <header class="masthead">
                <h1>"Holdbay"</h1>
                <p class="tagline">"MCP 2026-07-28 multi-step flows, seen from the wire"</p>
                <nav class="view-switch" aria-label="View">
                    <ViewButton view=View::Workbench shown=shown />
                    <ViewButton view=View::Scene shown=shown />
                    // The lesson and the call come first in the page: one key press past them.
                    <Show when=move || shown.get() == View::Scene>
                        <button type="button" class="skip-to-scene" on:click=|_| focus_scene()>
                            "Skip to the scene"
                        </button>
                    </Show>
                </nav>
            </header>
            <ConnectionBar on_connect=on_connect />
            <SignInCard />
            {endpoint
                .err()
                .map(|problem| view! { <ErrorNotice title="Cannot connect" message=problem /> })}
            {move || match shown.get() {
                View::Workbench => view! { <Workbench connected=connected later=later /> }.into_any(),
                View::Scene => view! { <SceneView connected=connected /> }.into_any(),
            }}
            <Show when=move || later.get() fallback=|| view! { <DockFrame /> }>
                <DockOnDemand />
            </Show>
        </div>
    }
}

/// Put the focus on the scene, so the next Tab reaches its first part.
fn focus_scene() {
    use wasm_bindgen::JsCast;
    if let Some(scene) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("scene"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = scene.focus();
    }
}

impl View {
    /// `?view=scene` opens the scene.
    pub fn from_page_url() -> Self {
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
    pub fn share_in_page_url(self) {
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

/// One button of the view switch, pressed while its view is shown; the choice goes into
/// the page URL.
#[component]
fn ViewButton(view: View, shown: RwSignal<View>) -> impl IntoView {
    let (id, label) = match view {
        View::Workbench => ("view-workbench", "Workbench"),
        View::Scene => ("view-scene", "Scene"),
    };
    let choose = move |_| {
        shown.set(view);
        view.share_in_page_url();
    };
    view! {
        <button id=id aria-pressed=move || (shown.get() == view).to_string() on:click=choose>
            {label}
        </button>
    }
}

#[component]
fn Workbench(
    connected: impl Fn() -> bool + Send + Sync + Copy + 'static,
    /// The tool list has been drawn: the tasks panel may be built (`first_screen`).
    later: Signal<bool>,
) -> impl IntoView {
    let session = Session::current();
    view! {
        <main class="workbench" class:hidden=move || !connected()>
            <div class="column server-column" aria-label="Server">
                {move || match session.catalog().discovery().get() {
                    Loaded::Loading => {
                        view! { <p class="pending">"Discovering the server…"</p> }.into_any()
                    }
                    Loaded::Ready(result) => {
                        let fell_back = session.catalog().fell_back().get_untracked();
                        view! { <DiscoverPanel result=result fell_back=fell_back /> }.into_any()
                    }
                    Loaded::Failed(message) => view! { <DiscoveryFailed message=message /> }.into_any(),
                    Loaded::NotOffered => ().into_any(),
                }}
                <Catalog />
            </div>
            <div class="column call-column" aria-label="Call">
                <SessionAsks />
                <TasksAsking />
                <CallPanel />
            </div>
            <div class="column tasks-column" aria-label="Tasks">
                <Show when=move || later.get() fallback=|| view! { <TasksFrame /> }>
                    <TasksPanelOnDemand />
                </Show>
            </div>
        </main>
    }
}

/// The scene view's columns are loaded on demand (`on_demand.rs`).
#[component]
fn SceneView(connected: impl Fn() -> bool + Send + Sync + Copy + 'static) -> impl IntoView {
    view! {
        <main class="scene-view" class:hidden=move || !connected()>
            <SceneColumns />
        </main>
    }
}

/// Discovery failed: say why (no common protocol revision in plain words), and when it looks
/// like CORS offer the relay in one click.
#[component]
fn DiscoveryFailed(message: String) -> impl IntoView {
    let session = Session::current();
    let error = session
        .catalog_untracked()
        .discovery_error()
        .get_untracked();
    if let Some(ExchangeError::Version(mismatch)) = error {
        return view! { <VersionNotice mismatch=mismatch /> }.into_any();
    }
    let ui = UiState::current();
    let could_be_cors = error.as_ref().is_some_and(|e| e.could_be_cors());
    let relay_offer = could_be_cors.then(|| {
        let use_relay = move |_| {
            let mut connection = session.connection_now();
            connection.via_relay = true;
            reconnect(session, ui, connection);
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
    .into_any()
}

/// Switch to `connection`: share it in the page URL, and let the session connect. To
/// another server, the views start clean too (no tool of the last one left in the call panel).
pub fn reconnect(session: Session, ui: UiState, connection: Connection) {
    crate::endpoint::share_in_page_url(&connection.server, connection.via_relay, connection.era);
    let switching = session.connection_now().server != connection.server;
    // The session first (it cancels the last server's calls while their views still
    // stand), then the views.
    session.connect(connection);
    if switching {
        ui.forget_server();
    }
}
