//! What the server offers, in tabs: Tools | Prompts | Resources, each searchable.

use leptos::prelude::*;

use super::prompts::PromptsTab;
use super::resources::ResourcesTab;
use super::{ErrorNotice, ToolsPanel};
use crate::catalog::{Listed, Loaded, Toolbox};
use crate::session::Session;

/// Whether `query` (case-insensitive, ASCII folding keeps the wasm small) occurs in any field.
pub fn matches<'a>(query: &str, fields: impl IntoIterator<Item = Option<&'a str>>) -> bool {
    let query = query.trim().to_ascii_lowercase();
    query.is_empty()
        || fields
            .into_iter()
            .flatten()
            .any(|field| field.to_ascii_lowercase().contains(&query))
}

/// A search field that filters as you type.
#[component]
pub fn SearchBox(
    query: RwSignal<String>,
    #[prop(into)] id: String,
    #[prop(into)] label: String,
) -> impl IntoView {
    view! {
        <input
            type="search"
            class="catalog-search"
            id=id
            aria-label=label.clone()
            placeholder=label
            prop:value=query
            on:input=move |ev| query.set(event_target_value(&ev))
        />
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Tools,
    Prompts,
    Resources,
}

/// The tabs over the session's tools, prompts and resources.
#[component]
pub fn Catalog() -> impl IntoView {
    let session = Session::current();
    let tab = RwSignal::new(Tab::Tools);
    let tab_button = move |which: Tab, label: &'static str, id: &'static str| {
        let count = move || {
            let catalog = session.catalog();
            match which {
                Tab::Tools => catalog
                    .tools()
                    .with(|tools| tools.ready().map(|t| t.tools.items.len())),
                Tab::Prompts => catalog.prompts().with(count_of),
                Tab::Resources => {
                    let resources = catalog.resources().with(count_of);
                    let templates = catalog.templates().with(count_of);
                    match (resources, templates) {
                        (None, None) => None,
                        (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
                    }
                }
            }
        };
        view! {
            <button
                type="button"
                role="tab"
                id=id
                class="tab"
                aria-selected=move || (tab.get() == which).to_string()
                on:click=move |_| tab.set(which)
            >
                {label}
                {move || count().map(|n| view! { <span class="count">{n}</span> })}
            </button>
        }
    };

    view! {
        <div class="catalog">
            <div class="tabs" role="tablist" aria-label="What the server offers">
                {tab_button(Tab::Tools, "Tools", "tab-tools")}
                {tab_button(Tab::Prompts, "Prompts", "tab-prompts")}
                {tab_button(Tab::Resources, "Resources", "tab-resources")}
            </div>
            <div role="tabpanel" class="tab-panel">
                {move || {
                    let catalog = session.catalog();
                    match tab.get() {
                        Tab::Tools => tools_view(catalog.tools().get()),
                        Tab::Prompts => view! { <PromptsTab /> }.into_any(),
                        Tab::Resources => view! { <ResourcesTab /> }.into_any(),
                    }
                }}
            </div>
        </div>
    }
}

fn count_of<T>(step: &Loaded<Listed<T>>) -> Option<usize> {
    step.ready().map(|listed| listed.items.len())
}

fn tools_view(tools: Loaded<Toolbox>) -> AnyView {
    match tools {
        Loaded::Loading => view! { <p class="pending">"Listing tools…"</p> }.into_any(),
        Loaded::Ready(Toolbox { tools, hidden }) => view! {
            <ToolsPanel tools=tools.items hidden=hidden />
            {stopped_note(tools.stopped)}
        }
        .into_any(),
        Loaded::NotOffered => {
            view! { <p class="quiet" id="no-tools">"This server does not advertise tools."</p> }
                .into_any()
        }
        // Also shown when discovery failed and tools/list was never sent.
        Loaded::Failed(message) => {
            view! { <ErrorNotice title="tools not listed" message=message /> }.into_any()
        }
    }
}

/// Why a list is incomplete, when the pager stopped before its end.
fn stopped_note(stopped: Option<String>) -> Option<impl IntoView> {
    stopped.map(|why| {
        view! { <p class="list-stopped" role="status">"The list is incomplete: " {why}</p> }
    })
}

/// The items whose name, title, description or detail (`fields`) match the query, as a
/// derived list for a view.
pub fn searched<T: Clone + Send + Sync + 'static>(
    items: StoredValue<Vec<T>>,
    query: RwSignal<String>,
    fields: for<'a> fn(&'a T) -> [Option<&'a str>; 4],
) -> impl Fn() -> Vec<T> + Copy + Send + Sync + 'static {
    move || {
        let query = query.get();
        items.with_value(|items| {
            items
                .iter()
                .filter(|item| matches(&query, fields(item)))
                .cloned()
                .collect()
        })
    }
}

/// The frame of a searchable list of prompts, resources or templates: title and count, the
/// search box, why the list is incomplete if it is, and the items (`children`).
#[component]
pub fn CatalogSection(
    #[prop(into)] id: String,
    noun: &'static str,
    total: usize,
    #[prop(into)] shown: Signal<usize>,
    query: RwSignal<String>,
    stopped: Option<String>,
    children: Children,
) -> impl IntoView {
    let search_id = format!("{id}-search");
    view! {
        <section class="panel catalog-panel" id=id>
            <h2>{noun} " " <span class="count catalog-count">{move || shown.get()}</span></h2>
            {(total == 0).then(|| view! { <p class="quiet">"The server lists no " {noun} "."</p> })}
            {(total > 0)
                .then(|| view! { <SearchBox query=query id=search_id.clone() label=format!("Search {noun}") /> })}
            {stopped_note(stopped)}
            <ul class="catalog-list">{children()}</ul>
        </section>
    }
}

/// A list that is not ready: still listing, not offered by the server, or failed.
pub fn not_ready<T>(step: Loaded<T>, noun: &'static str) -> AnyView {
    match step {
        Loaded::Loading => view! { <p class="pending">"Listing " {noun} "…"</p> }.into_any(),
        Loaded::NotOffered => {
            view! { <p class="quiet">"This server does not advertise " {noun} "."</p> }.into_any()
        }
        Loaded::Failed(message) => {
            view! { <ErrorNotice title=format!("{noun} not listed") message=message /> }.into_any()
        }
        Loaded::Ready(_) => ().into_any(),
    }
}
