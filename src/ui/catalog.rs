//! What the server offers, in tabs: Tools | Prompts | Resources, each searchable.

use leptos::prelude::*;

use super::ErrorNotice;
use super::on_demand::{PromptsTabOnDemand, ResourcesTabOnDemand};
use super::tools_panel::ToolList;
use crate::catalog::{Listed, Loaded, Toolbox};
use crate::session::Session;

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
    // The tools tab is drawn again when the listing's state changes (listed, failed, listed
    // anew), not at each page that comes, so the list keeps its search and scroll meanwhile.
    let tools_state = Memo::new(move |_| session.catalog().tools().with(ToolsState::of));
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
                        Tab::Tools => tools_view(tools_state.get(), catalog.tools()),
                        Tab::Prompts => view! { <PromptsTabOnDemand /> }.into_any(),
                        Tab::Resources => view! { <ResourcesTabOnDemand /> }.into_any(),
                    }
                }}
            </div>
        </div>
    }
}

fn count_of<T>(step: &Loaded<Listed<T>>) -> Option<usize> {
    step.ready().map(|listed| listed.items.len())
}

fn tools_view(state: ToolsState, tools: Signal<Loaded<Toolbox>>) -> AnyView {
    match state {
        ToolsState::Loading => view! { <p class="pending">"Listing tools…"</p> }.into_any(),
        ToolsState::Listed(_) => view! { <ToolList toolbox=tools /> }.into_any(),
        ToolsState::NotOffered => {
            view! { <p class="quiet" id="no-tools">"This server does not advertise tools."</p> }
                .into_any()
        }
        // Also shown when discovery failed and tools/list was never sent.
        ToolsState::Failed(message) => {
            view! { <ErrorNotice title="tools not listed" message=message /> }.into_any()
        }
    }
}

/// Where the tools' listing stands (a listing's round: a relisting draws the list anew).
#[derive(Debug, Clone, PartialEq, Eq)]
enum ToolsState {
    Loading,
    Listed(u32),
    NotOffered,
    Failed(String),
}

impl ToolsState {
    fn of(tools: &Loaded<Toolbox>) -> Self {
        match tools {
            Loaded::Loading => Self::Loading,
            Loaded::Ready(toolbox) => Self::Listed(toolbox.round),
            Loaded::NotOffered => Self::NotOffered,
            Loaded::Failed(why) => Self::Failed(why.clone()),
        }
    }
}
