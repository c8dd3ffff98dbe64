//! What the server offers, in tabs: Tools | Prompts | Resources, each searchable.

use leptos::prelude::*;

use super::catalog_list::stopped_note;
use super::on_demand::{PromptsTabOnDemand, ResourcesTabOnDemand};
use super::{ErrorNotice, ToolsPanel};
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

fn tools_view(tools: Loaded<Toolbox>) -> AnyView {
    match tools {
        Loaded::Loading => view! { <p class="pending">"Listing tools…"</p> }.into_any(),
        Loaded::Ready(Toolbox { tools, hidden }) => view! {
            <ToolsPanel tools=tools.items hidden=hidden names=tools.names />
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
