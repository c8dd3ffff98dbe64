//! How a view chunk is called and shown (the chunks themselves: `on_demand.rs` and beside
//! their views). A chunk is a `#[cfg_attr(holdbay_split, leptos::lazy)]` function returning
//! `AnyView`; `scripts/build-app.sh` sets `holdbay_split` and splits the wasm there (see
//! `crate::split`).

use std::future::Future;

use leptos::prelude::*;

pub(crate) use crate::split::chunk;

use super::later_styles::later_styles;

/// The view once its chunk is here; "Loading…" until then (on loopback, one frame or two).
pub fn when_loaded(view: impl Future<Output = AnyView> + Send + 'static) -> impl IntoView {
    when_loaded_or(|| view! { <p class="pending">"Loading…"</p> }, view)
}

/// The view once its chunk is here; `meanwhile` until then (a frame that does not move when
/// the view replaces it).
pub fn when_loaded_or<Meanwhile: IntoView + 'static>(
    meanwhile: impl Fn() -> Meanwhile + Send + Sync + 'static,
    view: impl Future<Output = AnyView> + Send + 'static,
) -> impl IntoView {
    view! { <Suspense fallback=meanwhile>{Suspend::new(view)}</Suspense> }
}

/// `view` once the later style sheets have loaded too (`later_styles`): a view they style is
/// never shown plain, even when it is asked for before the tool list is drawn.
pub async fn styled(view: impl Future<Output = AnyView>) -> AnyView {
    let (view, ()) = futures::future::join(view, later_styles()).await;
    view
}
