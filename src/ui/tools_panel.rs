//! The server's tools, as `tools/list` gave them: searchable, one of them selected for the
//! call panel. A server may list thousands: only the rows in (and near) the visible part of
//! the list are drawn (`windowed`), each with its names as shown and its flags, worked out
//! when it is drawn; the rest of the list is space of its height. A search looks through
//! every tool.

use holdbay_engine::model::Tool;
use holdbay_engine::{ListMethod, ListTools, NameBook, NameMarks, Shown, name_book};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::catalog_list::{SearchBox, haystack, search_key, stopped_note};
use super::frames::after_next_frame;
use super::names::{ShownText, flags_of};
use super::state::UiState;
use super::windowed::Windowed;
use crate::catalog::{Listed, Loaded, Toolbox};

/// What the list keeps of one tool.
#[derive(Debug, Clone)]
struct ToolRow {
    /// The name as the server wrote it: what is selected, and sent.
    name: String,
    /// The display title, when it differs from the name.
    title: Option<String>,
    description: Option<String>,
}

impl ToolRow {
    fn of(tool: &Tool) -> Self {
        let name = tool.name.to_string();
        Self {
            title: ListTools::title_of(tool)
                .filter(|title| *title != name)
                .map(str::to_owned),
            description: tool.description.as_deref().map(str::to_owned),
            name,
        }
    }

    /// What search looks in: the name and title as shown (see `catalog_list::search_key`)
    /// and the description.
    fn haystack(&self) -> String {
        let name = Shown::of(&self.name).text();
        let title = self.title.as_deref().map(|title| Shown::of(title).text());
        haystack([
            Some(name.as_str()),
            title.as_deref(),
            self.description.as_deref(),
        ])
    }
}

/// These tools, all listed (component tests, lessons' checks). `hidden` explains each tool
/// left out because the spec forbids offering it; `names` is the listing's book (by
/// default, one of `tools`).
#[component]
pub fn ToolsPanel(
    tools: Vec<Tool>,
    #[prop(optional)] hidden: Vec<String>,
    #[prop(optional)] names: Option<NameBook>,
) -> impl IntoView {
    let names = names.unwrap_or_else(|| name_book::<ListTools>(&tools));
    let toolbox = Loaded::Ready(Toolbox {
        tools: Listed {
            items: tools,
            stopped: None,
            left_out: Vec::new(),
            names,
        },
        hidden,
        listing: false,
        round: 1,
    });
    view! { <ToolList toolbox=Signal::stored(toolbox) /> }
}

/// The catalog's tools as they are listed: each page that comes adds its rows to the end,
/// and the search and the scroll stay.
#[component]
pub fn ToolList(toolbox: Signal<Loaded<Toolbox>>) -> impl IntoView {
    // Outside an app (in component tests) nothing shows the chosen tool's call.
    let selected = use_context::<UiState>().map(|ui| ui.selected_tool());
    let rows: StoredValue<Vec<ToolRow>> = StoredValue::new(Vec::new());
    // What search looks in, one per row: made after the frame that drew the rows (each page's
    // own), or at a search that comes first; never before the first rows are drawn.
    let haystacks: StoredValue<Vec<String>> = StoredValue::new(Vec::new());
    // The rows so far; a page that comes adds its own (only those are read).
    let row_count = Memo::new(move |_| {
        toolbox.with(|toolbox| {
            let tools = toolbox
                .ready()
                .map_or(&[][..], |toolbox| &toolbox.tools.items);
            rows.update_value(|rows| {
                if tools.len() < rows.len() {
                    rows.clear();
                    haystacks.update_value(Vec::clear);
                }
                let have = rows.len();
                rows.extend(tools[have..].iter().map(ToolRow::of));
            });
            tools.len()
        })
    });
    // The names' book, and how many times it changed: only when a page brings a look-alike
    // of a listed name. The rows drawn are then drawn again (their key has the edition), with
    // their flags.
    let book = Memo::new(move |before: Option<&(u32, Option<NameBook>)>| {
        let now = toolbox.with(|toolbox| toolbox.ready().map(|t| t.tools.names.clone()));
        match before {
            Some((edition, book)) if *book == now => (*edition, now),
            Some((edition, _)) => (edition.wrapping_add(1), now),
            None => (0, now),
        }
    });
    let listing = move || toolbox.with(|t| t.ready().is_some_and(|t| t.listing));

    let query = RwSignal::new(String::new());
    let fill_haystacks = move |count: usize| {
        haystacks.update_value(|haystacks| {
            rows.with_value(|rows| {
                let have = haystacks.len();
                let count = count.min(rows.len()).max(have);
                haystacks.extend(rows[have..count].iter().map(ToolRow::haystack));
            });
        });
    };
    Effect::new(move |_| {
        let count = row_count.get();
        after_next_frame(move || {
            if haystacks.try_with_value(Vec::len).is_some() {
                fill_haystacks(count);
            }
        });
    });
    let shown = Memo::new(move |_| {
        let count = row_count.get();
        let query = query.with(|query| search_key(query));
        if query.is_empty() {
            return (0..count).collect::<Vec<usize>>();
        }
        fill_haystacks(count);
        haystacks.with_value(|haystacks| {
            haystacks
                .iter()
                .enumerate()
                .filter(|(_, haystack)| haystack.contains(&query))
                .map(|(row, _)| row)
                .collect()
        })
    });
    let count = move || shown.with(Vec::len);
    let has_rows = move || row_count.get() > 0;
    let windowed = Windowed::new(shown, row_count);
    let window = windowed.window();
    // The rows drawn: (position in the shown order, row, the book's edition).
    let drawn = move || {
        let window = window.get();
        let edition = book.with(|(edition, _)| *edition);
        shown.with(|shown| {
            window
                .positions()
                .filter_map(|position| shown.get(position).map(|&row| (position, row, edition)))
                .collect::<Vec<_>>()
        })
    };
    let draw = move |(position, row, _): (usize, usize, u32)| {
        let tool = rows.with_value(|rows| rows.get(row).cloned());
        let marks = tool.as_ref().map(|tool| {
            book.with_untracked(|(_, book)| {
                book.as_ref().map_or_else(NameMarks::default, |book| {
                    book.marks(&tool.name, tool.title.as_deref())
                })
            })
        });
        tool.zip(marks).map(|(tool, marks)| {
            view! { <ToolItem tool=tool marks=marks row=row position=position shown=shown selected=selected /> }
        })
    };
    let move_focus = move |event: leptos::ev::KeyboardEvent| move_focus(event, windowed, shown);

    view! {
        <section class="panel" id="tools-panel" aria-labelledby="tools-heading">
            <h2 id="tools-heading">
                "Tools " <span class="count" id="tool-count">{count}</span>
                {move || {
                    (!query.with(|query| query.trim().is_empty()))
                        .then(|| view! { <span class="quiet of-total">" of " {row_count}</span> })
                }}
            </h2>
            // Kept while pages come (not drawn again): the search goes on as it was typed.
            <div class="tool-search-box" hidden=move || !has_rows()>
                <SearchBox query=query id="tool-search" label="Search tools" />
            </div>
            <ul
                class="tool-list catalog-list"
                node_ref=windowed.list()
                // More pages are coming: the rows so far are shown meanwhile.
                aria-busy=move || listing().to_string()
                on:keydown=move_focus
                style:padding-top=move || px(window.with(|w| w.before))
                style:padding-bottom=move || px(window.with(|w| w.after))
            >
                <For each=drawn key=|drawn| *drawn children=draw />
            </ul>
            // Why no row is drawn (the server lists none, or none matches), why the list is
            // incomplete, and why tools were hidden: one view, drawn again as pages come.
            {move || {
                let (some, listing) = (has_rows(), listing());
                let why = match (some, count()) {
                    (false, _) if !listing => Some(("quiet", "The server lists no tools.")),
                    (true, 0) => Some(("quiet no-match", "No tool matches.")),
                    _ => None,
                };
                let (stopped, hidden) = toolbox.with(|toolbox| {
                    toolbox.ready().map_or((None, Vec::new()), |toolbox| {
                        (toolbox.tools.stopped.clone(), toolbox.hidden.clone())
                    })
                });
                view! {
                    {why.map(|(class, text)| view! { <p class=class>{text}</p> })}
                    {stopped_note(stopped)}
                    {(!hidden.is_empty())
                        .then(|| {
                            view! {
                                <ul class="hidden-tools" id="hidden-tools">
                                    {hidden.into_iter().map(|why| view! { <li>{why}</li> }).collect_view()}
                                </ul>
                            }
                        })}
                }
            }}
        </section>
    }
}

/// A length in whole px (whole: formatting a float would bring float printing into the
/// first screen's wasm for half a pixel).
fn px(length: f64) -> String {
    format!("{}px", length.round() as i64)
}

/// Up and Down move between the tools' buttons (Tab still works as usual). The next tool
/// may not be drawn yet (the focused one was scrolled to the window's edge): the focused one
/// is brought into view, which draws its neighbours, and the next is focused a frame later.
fn move_focus(event: leptos::ev::KeyboardEvent, windowed: Windowed, shown: Memo<Vec<usize>>) {
    let forward = match event.key().as_str() {
        "ArrowDown" => true,
        "ArrowUp" => false,
        _ => return,
    };
    let Some(item) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("li.tool").ok().flatten())
    else {
        return;
    };
    let Some(position) = position_of(&item) else {
        return;
    };
    let target = if forward {
        position + 1
    } else {
        let Some(before) = position.checked_sub(1) else {
            return;
        };
        before
    };
    if target >= shown.with_untracked(Vec::len) {
        return;
    }
    event.prevent_default();
    let Some(list) = item.parent_element() else {
        return;
    };
    if focus_position(&list, target) {
        return;
    }
    item.scroll_into_view_with_bool(!forward);
    windowed.look();
    request_animation_frame(move || {
        focus_position(&list, target);
    });
}

fn position_of(item: &web_sys::Element) -> Option<usize> {
    item.get_attribute("aria-posinset")?
        .parse::<usize>()
        .ok()?
        .checked_sub(1)
}

/// Focus the tool at `position` if it is drawn.
fn focus_position(list: &web_sys::Element, position: usize) -> bool {
    let selector = format!("li.tool[aria-posinset=\"{}\"] .select-tool", position + 1);
    list.query_selector(&selector)
        .ok()
        .flatten()
        .and_then(|button| button.dyn_into::<web_sys::HtmlElement>().ok())
        .is_some_and(|button| button.focus().is_ok())
}

#[component]
fn ToolItem(
    tool: ToolRow,
    marks: NameMarks,
    /// Its number in the whole list, and its place in the shown rows.
    row: usize,
    position: usize,
    shown: Memo<Vec<usize>>,
    selected: Option<RwSignal<Option<String>>>,
) -> impl IntoView {
    let ToolRow {
        name, description, ..
    } = tool;
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
    let flagged = marks.is_flagged();
    let flags = flags_of(&marks, ListTools::ITEM, &name);
    let NameMarks {
        name: shown_name,
        title,
        ..
    } = marks;
    view! {
        <li
            class="tool"
            class:selected=is_selected
            class:flagged=flagged
            data-row=row
            aria-posinset=position + 1
            aria-setsize=move || shown.with(Vec::len)
        >
            <button
                type="button"
                class="select-tool"
                aria-pressed=move || is_selected_too().to_string()
                on:click=choose
            >
                <code class="tool-name shown-name"><ShownText shown=shown_name /></code>
                {title.map(|t| view! { <span class="tool-title shown-name"><ShownText shown=t /></span> })}
            </button>
            {flags}
            {description.map(|d| view! { <p class="tool-description">{d}</p> })}
        </li>
    }
}
