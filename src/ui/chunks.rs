//! How a view chunk is called and shown (the chunks themselves: `on_demand.rs` and beside
//! their views). A chunk is a `#[cfg_attr(holdbay_split, leptos::lazy)]` function returning
//! `AnyView`; `scripts/build-app.sh` sets `holdbay_split` and splits the wasm there (see
//! `crate::split`).

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;

pub(crate) use crate::split::chunk;

use super::later_styles::later_styles;

/// The view once its chunk is here; "Loading…" until then (on loopback, one frame or two).
pub fn when_loaded(view: impl Future<Output = AnyView> + Send + 'static) -> AnyView {
    when_loaded_or(loading, view)
}

/// The view once its chunk is here; `meanwhile` until then (a frame that does not move when
/// the view replaces it).
pub fn when_loaded_or(
    meanwhile: fn() -> AnyView,
    view: impl Future<Output = AnyView> + Send + 'static,
) -> AnyView {
    suspended(meanwhile, Box::pin(view))
}

/// One `Suspense` for every chunked view: its future boxed, so the generic code of
/// `Suspense` and `Suspend` is compiled once, not once per call site, in the first screen.
fn suspended(
    meanwhile: fn() -> AnyView,
    view: Pin<Box<dyn Future<Output = AnyView> + Send>>,
) -> AnyView {
    view! { <Suspense fallback=meanwhile>{Suspend::new(view)}</Suspense> }.into_any()
}

fn loading() -> AnyView {
    view! { <p class="pending">"Loading…"</p> }.into_any()
}

/// `view` once the later style sheets have loaded too (`later_styles`): a view they style is
/// never shown plain, even when it is asked for before the tool list is drawn.
pub async fn styled(view: impl Future<Output = AnyView>) -> AnyView {
    let (view, ()) = futures::future::join(view, later_styles()).await;
    view
}
