//! The pieces every list of the catalog shares: the search, the frame of a searchable
//! list, and what a list that is not ready says.

use leptos::prelude::*;

use super::ErrorNotice;
use crate::catalog::Loaded;

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
