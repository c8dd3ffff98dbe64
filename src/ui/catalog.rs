//! What the server offers, in tabs: Tools | Prompts | Resources, each searchable.

use leptos::prelude::*;

use super::session::{Session, Step, Toolbox};
use super::{ErrorNotice, ToolsPanel};

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

/// One prompt or resource, as listed.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogItem {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// A resource's URI (and MIME type).
    pub detail: Option<String>,
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
        let count = move || match which {
            Tab::Tools => match session.tools.get() {
                Step::Done(Some(toolbox)) => Some(toolbox.tools.len()),
                _ => None,
            },
            Tab::Prompts => count_of(&session.prompts.get()),
            Tab::Resources => count_of(&session.resources.get()),
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
                {move || match tab.get() {
                    Tab::Tools => tools_view(session.tools.get()),
                    Tab::Prompts => {
                        let prompts = session.prompts.get().map_items(|prompts| {
                            prompts
                                .into_iter()
                                .map(|p| CatalogItem {
                                    name: p.name,
                                    title: p.title,
                                    description: p.description,
                                    detail: None,
                                })
                                .collect()
                        });
                        list_view(prompts, "prompts", "prompts-panel")
                    }
                    Tab::Resources => {
                        let resources = session.resources.get().map_items(|resources| {
                            resources
                                .into_iter()
                                .map(|r| CatalogItem {
                                    detail: Some(match &r.mime_type {
                                        Some(mime) => format!("{} · {mime}", r.uri),
                                        None => r.uri.clone(),
                                    }),
                                    name: r.name,
                                    title: r.title,
                                    description: r.description,
                                })
                                .collect()
                        });
                        list_view(resources, "resources", "resources-panel")
                    }
                }}
            </div>
        </div>
    }
}

fn count_of<T>(step: &Step<Option<Vec<T>>>) -> Option<usize> {
    match step {
        Step::Done(Some(items)) => Some(items.len()),
        _ => None,
    }
}

trait MapItems<T> {
    fn map_items(self, f: impl FnOnce(T) -> Vec<CatalogItem>) -> Step<Option<Vec<CatalogItem>>>;
}

impl<T> MapItems<T> for Step<Option<T>> {
    fn map_items(self, f: impl FnOnce(T) -> Vec<CatalogItem>) -> Step<Option<Vec<CatalogItem>>> {
        match self {
            Step::Waiting => Step::Waiting,
            Step::Done(items) => Step::Done(items.map(f)),
            Step::Failed(message) => Step::Failed(message),
        }
    }
}

fn tools_view(tools: Step<Option<Toolbox>>) -> AnyView {
    match tools {
        Step::Waiting => view! { <p class="pending">"Listing tools…"</p> }.into_any(),
        Step::Done(Some(Toolbox { tools, hidden })) => {
            view! { <ToolsPanel tools=tools hidden=hidden /> }.into_any()
        }
        Step::Done(None) => {
            view! { <p class="quiet" id="no-tools">"This server does not advertise tools."</p> }
                .into_any()
        }
        Step::Failed(message) => {
            view! { <ErrorNotice title="tools/list failed" message=message /> }.into_any()
        }
    }
}

fn list_view(
    step: Step<Option<Vec<CatalogItem>>>,
    noun: &'static str,
    id: &'static str,
) -> AnyView {
    match step {
        Step::Waiting => view! { <p class="pending">"Listing " {noun} "…"</p> }.into_any(),
        Step::Done(Some(items)) => view! { <CatalogList items=items noun=noun id=id /> }.into_any(),
        Step::Done(None) => {
            view! { <p class="quiet">"This server does not advertise " {noun} "."</p> }.into_any()
        }
        Step::Failed(message) => {
            view! { <ErrorNotice title=format!("{noun}/list failed") message=message /> }.into_any()
        }
    }
}

/// A searchable list of prompts or resources.
#[component]
pub fn CatalogList(
    items: Vec<CatalogItem>,
    noun: &'static str,
    #[prop(into)] id: String,
) -> impl IntoView {
    let total = items.len();
    let items = StoredValue::new(items);
    let query = RwSignal::new(String::new());
    let shown = move || {
        let query = query.get();
        items.with_value(|items| {
            items
                .iter()
                .filter(|item| {
                    matches(
                        &query,
                        [
                            Some(item.name.as_str()),
                            item.title.as_deref(),
                            item.description.as_deref(),
                            item.detail.as_deref(),
                        ],
                    )
                })
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let count = move || shown().len();
    view! {
        <section class="panel catalog-panel" id=id>
            <h2>{noun} " " <span class="count catalog-count">{count}</span></h2>
            {(total == 0).then(|| view! { <p class="quiet">"The server lists no " {noun} "."</p> })}
            {(total > 0)
                .then(|| view! { <SearchBox query=query id=format!("{noun}-search") label=format!("Search {noun}") /> })}
            <ul class="catalog-list">
                {move || {
                    shown()
                        .into_iter()
                        .map(|item| {
                            view! {
                                <li class="catalog-item">
                                    <code class="item-name">{item.name}</code>
                                    {item.title.map(|t| view! { <span class="tool-title">{t}</span> })}
                                    {item.detail.map(|d| view! { <p class="item-detail">{d}</p> })}
                                    {item.description.map(|d| view! { <p class="tool-description">{d}</p> })}
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </section>
    }
}
