//! One searchable list of the catalog (prompts, resources, resource templates): each item
//! named as the engine shows it and flagged as its list flags it, filtered as you search,
//! and drawn by the caller's row.

use holdbay_engine::{ListMethod, NameMarks};
use leptos::prelude::*;

use crate::catalog::Listed;
use crate::ui::catalog_list::{CatalogSection, Named, haystack, named, search_key};
use crate::ui::names::{ShownText, flags_of};

/// What a row draws besides its own parts: the item, its name and title as shown, and the
/// flags its name earns.
pub struct PickRow<T> {
    pub item: T,
    pub names: AnyView,
    pub flags: AnyView,
}

/// The items of list `M` (`method`, e.g. `ListPrompts`) in `listed`, searchable by their
/// shown name and title and by the engine's `searched_text` (description, URI), each drawn by
/// `row` inside its `<li>`.
#[component]
pub fn PickList<M, R>(
    /// The list's method: which kind of item (its words in the heading and flags, the
    /// panel's id, its names).
    method: M,
    listed: Listed<M::Item>,
    row: R,
) -> impl IntoView
where
    M: ListMethod + Send + Sync + 'static,
    M::Item: Send + Sync + 'static,
    R: Fn(PickRow<M::Item>) -> AnyView + Copy + Send + Sync + 'static,
{
    let _ = method;
    let total = listed.items.len();
    // Each item kept with the text search looks in, folded once.
    let items = StoredValue::new(
        named::<M>(listed.items, &listed.names)
            .into_iter()
            .map(|named| {
                let [first, second] = M::searched_text(&named.item);
                let hay = haystack([
                    Some(named.shown_name.as_str()),
                    named.shown_title.as_deref(),
                    first,
                    second,
                ]);
                (named, hay)
            })
            .collect::<Vec<_>>(),
    );
    let query = RwSignal::new(String::new());
    let shown = move || {
        let key = search_key(&query.get());
        items.with_value(|items| {
            items
                .iter()
                .filter(|(_, hay)| key.is_empty() || hay.contains(&key))
                .map(|(named, _)| named.clone())
                .collect::<Vec<_>>()
        })
    };
    view! {
        <CatalogSection
            id=format!("{}-panel", M::ITEMS.replace(' ', "-"))
            noun=M::ITEMS
            total=total
            shown=Signal::derive(move || shown().len())
            query=query
            stopped=listed.stopped
            left_out=listed.left_out
        >
            {move || shown().into_iter().map(|named| row(pick_row::<M>(named))).collect_view()}
        </CatalogSection>
    }
}

fn pick_row<M: ListMethod>(named: Named<M::Item>) -> PickRow<M::Item> {
    let Named { item, marks, .. } = named;
    let flags = flags_of(&marks, M::ITEM, M::name_of(&item)).into_any();
    let NameMarks { name, title, .. } = marks;
    let names = view! {
        <code class="item-name shown-name"><ShownText shown=name /></code>
        {title.map(|t| view! { <span class="tool-title shown-name"><ShownText shown=t /></span> })}
    }
    .into_any();
    PickRow { item, names, flags }
}

/// The button that picks `key` into `picked` (pressed while it is the one picked); its
/// row's names go inside (`children`).
#[component]
pub fn PickButton(
    picked: RwSignal<Option<String>>,
    #[prop(into)] key: String,
    class: &'static str,
    children: Children,
) -> impl IntoView {
    let key = StoredValue::new(key);
    let pressed = move || picked.with(|p| key.with_value(|key| p.as_ref() == Some(key)));
    view! {
        <button
            type="button"
            class=format!("item-pick {class}")
            aria-pressed=move || pressed().to_string()
            on:click=move |_| picked.set(Some(key.get_value()))
        >
            {children()}
        </button>
    }
}
