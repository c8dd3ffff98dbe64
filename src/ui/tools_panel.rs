//! The server's tools, as `tools/list` gave them: searchable, one of them selected for the
//! call panel.

use holdbay_engine::model::Tool;
use holdbay_engine::{ListMethod, ListTools, NameBook, NameMarks, Shown, name_book};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::catalog_list::{SearchBox, matches};
use super::names::{ShownText, flags_of};
use super::state::UiState;

/// What the list shows of one tool.
#[derive(Debug, Clone)]
struct ToolRow {
    /// The name as the server wrote it: what is selected, and sent.
    name: String,
    marks: NameMarks,
    /// The name and display title as shown (the title when it differs from the name): what
    /// search matches.
    shown_name: String,
    shown_title: Option<String>,
    description: Option<String>,
}

/// `hidden` explains each tool left out because the spec forbids offering it; `names` is the
/// listing's book (by default, one of `tools`).
#[component]
pub fn ToolsPanel(
    tools: Vec<Tool>,
    #[prop(optional)] hidden: Vec<String>,
    #[prop(optional)] names: Option<NameBook>,
) -> impl IntoView {
    // Outside an app (in component tests) nothing shows the chosen tool's call.
    let selected = use_context::<UiState>().map(|ui| ui.selected_tool());
    let total = tools.len();
    let book = names.unwrap_or_else(|| name_book::<ListTools>(&tools));
    let rows: Vec<ToolRow> = tools
        .iter()
        .map(|tool| {
            let name = tool.name.to_string();
            let title = ListTools::title_of(tool).filter(|title| *title != name);
            let marks = book.marks(&name, title);
            ToolRow {
                shown_name: marks.name.text(),
                shown_title: marks.title.as_ref().map(Shown::text),
                marks,
                name,
                description: tool.description.as_deref().map(str::to_owned),
            }
        })
        .collect();
    let rows = StoredValue::new(rows);
    let query = RwSignal::new(String::new());
    let shown = move || {
        let query = query.get();
        rows.with_value(|rows| {
            rows.iter()
                .filter(|row| {
                    matches(
                        &query,
                        [
                            Some(row.shown_name.as_str()),
                            row.shown_title.as_deref(),
                            row.description.as_deref(),
                        ],
                    )
                })
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let count = move || shown().len();

    view! {
        <section class="panel" id="tools-panel" aria-labelledby="tools-heading">
            <h2 id="tools-heading">
                "Tools " <span class="count" id="tool-count">{count}</span>
                {move || {
                    (!query.get().trim().is_empty())
                        .then(|| view! { <span class="quiet of-total">" of " {total}</span> })
                }}
            </h2>
            {(total == 0).then(|| view! { <p class="quiet">"The server lists no tools."</p> })}
            {(total > 0).then(|| view! { <SearchBox query=query id="tool-search" label="Search tools" /> })}
            <ul class="tool-list catalog-list" on:keydown=move_focus>
                {move || {
                    shown()
                        .into_iter()
                        .map(|row| view! { <ToolItem row=row selected=selected /> })
                        .collect_view()
                }}
            </ul>
            {move || {
                (total > 0 && count() == 0)
                    .then(|| view! { <p class="quiet no-match">"No tool matches."</p> })
            }}
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

/// Up and Down move between the tools' buttons (Tab still works as usual).
fn move_focus(event: leptos::ev::KeyboardEvent) {
    let forward = match event.key().as_str() {
        "ArrowDown" => true,
        "ArrowUp" => false,
        _ => return,
    };
    let Some(item) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("li").ok().flatten())
    else {
        return;
    };
    let next = if forward {
        item.next_element_sibling()
    } else {
        item.previous_element_sibling()
    };
    if let Some(button) = next
        .and_then(|li| li.query_selector(".select-tool").ok().flatten())
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
    {
        event.prevent_default();
        let _ = button.focus();
    }
}

#[component]
fn ToolItem(row: ToolRow, selected: Option<RwSignal<Option<String>>>) -> impl IntoView {
    let name = row.name;
    let is_selected = {
        let name = name.clone();
        move || selected.is_some_and(|s| s.with(|current| current.as_deref() == Some(&name)))
    };
    let choose = {
        let name = name.clone();
        move |_| {
            if let Some(selected) = selected {
                selected.set(Some(name.clone()));
            }
        }
    };
    let is_selected_too = is_selected.clone();
    let flagged = row.marks.is_flagged();
    let flags = flags_of(&row.marks, ListTools::ITEM, &name);
    let NameMarks {
        name: shown, title, ..
    } = row.marks;
    view! {
        <li class="tool" class:selected=is_selected class:flagged=flagged>
            <button
                type="button"
                class="select-tool"
                aria-pressed=move || is_selected_too().to_string()
                on:click=choose
            >
                <code class="tool-name shown-name"><ShownText shown=shown /></code>
                {title.map(|t| view! { <span class="tool-title shown-name"><ShownText shown=t /></span> })}
            </button>
            {flags}
            {row.description.map(|d| view! { <p class="tool-description">{d}</p> })}
        </li>
    }
}
