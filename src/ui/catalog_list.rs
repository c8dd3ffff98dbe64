//! The pieces every list of the catalog shares: items with their names as shown, the
//! search, the frame of a searchable list, and what a list that is not ready says.

use holdbay_engine::{ListMethod, NameBook, NameMarks, Shown};
use leptos::prelude::*;

use super::ErrorNotice;
use crate::catalog::Loaded;

/// The query as a search looks for it in a [`haystack`] (case-insensitive, ASCII folding
/// keeps the wasm small). Names and titles are matched as shown, so the query is read the
/// same way: typing `ok_echo` never finds `ok_\u{200B}echo`, which shows as
/// `ok_⟨U+200B⟩echo`, and pasting that name (or its shown text) does.
pub fn search_key(query: &str) -> String {
    Shown::of(query.trim()).text().to_ascii_lowercase()
}

/// An item's fields as a search looks in them, one text, kept by a list searched often:
/// the fields folded, one per line (a query, one line, cannot match across two).
pub fn haystack<'a>(fields: impl IntoIterator<Item = Option<&'a str>>) -> String {
    let mut all = String::new();
    for field in fields.into_iter().flatten() {
        all.push_str(&field.to_ascii_lowercase());
        all.push('\n');
    }
    all
}

/// A listed item with its name and title as shown, and the flags its list gives it.
#[derive(Debug, Clone)]
pub struct Named<T> {
    pub item: T,
    pub marks: NameMarks,
    /// The shown name and title as text: what the list draws, and what search matches.
    pub shown_name: String,
    pub shown_title: Option<String>,
}

/// `items` of list `M`, each with its names as `book` shows them.
pub fn named<M: ListMethod>(items: Vec<M::Item>, book: &NameBook) -> Vec<Named<M::Item>> {
    items
        .into_iter()
        .map(|item| {
            let marks = book.marks(M::name_of(&item), M::title_of(&item));
            Named {
                shown_name: marks.name.text(),
                shown_title: marks.title.as_ref().map(Shown::text),
                marks,
                item,
            }
        })
        .collect()
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

/// Why a list is incomplete, when the pager stopped before its end.
pub fn stopped_note(stopped: Option<String>) -> Option<impl IntoView> {
    stopped.map(|why| {
        view! { <p class="list-stopped" role="status">"The list is incomplete: " {why}</p> }
    })
}

/// Why each item the client will not offer was left out (each is a finding too).
pub fn left_out_note(left_out: Vec<String>) -> Option<impl IntoView> {
    (!left_out.is_empty()).then(|| {
        view! {
            <ul class="list-left-out">
                {left_out.into_iter().map(|why| view! { <li>{why}</li> }).collect_view()}
            </ul>
        }
    })
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
    #[prop(optional)] left_out: Vec<String>,
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
            {left_out_note(left_out)}
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
