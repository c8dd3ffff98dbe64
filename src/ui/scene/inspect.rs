//! The inspector: what the selected part is in the protocol, and its real JSON now.

use leptos::prelude::*;

use super::SceneContext;
use super::parts::{describe, facts};

#[component]
pub(super) fn Inspector() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    let selected = scene.selected;
    let role = move || {
        traffic.track_calm();
        selected
            .get()
            .map(|part| traffic.with(|t| describe(t, &part).0))
            .unwrap_or_default()
    };
    let explanation = move || {
        traffic.track_calm();
        selected
            .get()
            .map(|part| traffic.with(|t| describe(t, &part).1))
            .unwrap_or_default()
    };
    let facts = move || {
        traffic.track_calm();
        let part = selected.get()?;
        traffic.with(|t| facts(t, &part))
    };
    let json = move || {
        traffic.track_calm();
        let part = selected.get()?;
        Some(
            traffic
                .with(|t| t.json_of(&part))
                .and_then(|value| serde_json::to_string_pretty(&value).ok())
                .unwrap_or_else(|| "(this part is not in the scene at this moment)".into()),
        )
    };
    view! {
        <aside id="inspect" class="inspect" aria-label="Inspector">
            <Show
                when=move || selected.with(Option::is_some)
                fallback=|| {
                    view! {
                        <p class="quiet inspect-hint">
                            "Click or focus any part of the scene (a piece on the conveyor, a tray, a latch, a tag, a cartridge) to see its role and its real JSON. Escape clears."
                        </p>
                    }
                }
            >
                <h3 class="inspect-role">{role}</h3>
                <p class="inspect-explanation">{explanation}</p>
                {move || facts().map(|text| view! { <p class="inspect-facts">{text}</p> })}
                // Focusable: a long JSON scrolls, and a keyboard must be able to scroll it too.
                <pre class="inspect-json" tabindex="0">{json}</pre>
                <button class="inspect-close" on:click=move |_| selected.set(None)>
                    "Close"
                </button>
            </Show>
        </aside>
    }
}
