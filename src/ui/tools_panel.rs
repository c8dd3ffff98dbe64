//! The server's tools, as `tools/list` gave them.

use holdbay_engine::model::Tool;
use holdbay_engine::tool_display_name;
use leptos::prelude::*;

use super::session::Session;

/// `hidden` explains each tool left out because the spec forbids offering it.
#[component]
pub fn ToolsPanel(tools: Vec<Tool>, #[prop(optional)] hidden: Vec<String>) -> impl IntoView {
    // Outside an app (in component tests) there is no session to call tools with.
    let session = use_context::<Session>();
    let count = tools.len();
    let empty = tools.is_empty();
    view! {
        <section class="panel" id="tools-panel">
            <h2>"Tools " <span class="count" id="tool-count">{count}</span></h2>
            {empty.then(|| view! { <p class="quiet">"The server lists no tools."</p> })}
            <ul class="tool-list">
                {tools
                    .into_iter()
                    .map(|tool| {
                        let display = tool_display_name(&tool).to_owned();
                        let name = tool.name.to_string();
                        let shown_title = (display != name).then_some(display);
                        let description = tool.description.as_deref().map(str::to_owned);
                        let select = session.map(|session| {
                            let name = name.clone();
                            view! {
                                <button
                                    class="select-tool"
                                    on:click=move |_| session.selected_tool.set(Some(name.clone()))
                                >
                                    "Call"
                                </button>
                            }
                        });
                        view! {
                            <li class="tool">
                                {select}
                                <code class="tool-name">{name}</code>
                                {shown_title.map(|t| view! { <span class="tool-title">{t}</span> })}
                                {description.map(|d| view! { <p class="tool-description">{d}</p> })}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            {(!hidden.is_empty())
                .then(|| {
                    view! {
                        <ul class="hidden-tools" id="hidden-tools">
                            {hidden.into_iter().map(|why| view! { <li>{why}</li> }).collect_view()}
                        </ul>
                    }
                })}
        </section>
    }
}
