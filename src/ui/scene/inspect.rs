//! The inspector: what the selected part is in the protocol, and its real JSON now.

use leptos::prelude::*;

use super::SceneContext;
use super::auth_lane;
use super::parts::{describe, facts};

/// What the inspector shows of the selected part.
#[derive(Clone, PartialEq)]
struct Shown {
    role: String,
    explanation: &'static str,
    facts: Option<String>,
    json: String,
}

const NOT_IN_SCENE: &str = "(this part is not in the scene at this moment)";

fn pretty(value: Option<serde_json::Value>) -> String {
    value
        .and_then(|value| serde_json::to_string_pretty(&value).ok())
        .unwrap_or_else(|| NOT_IN_SCENE.into())
}

#[component]
pub(super) fn Inspector() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    let selected = scene.selected;
    let auth_selected = scene.auth_selected;
    // A memo: the token's expiry counts down with the scene's clock, and an unchanged JSON
    // must not be written again (that would reset its scroll).
    let shown = Memo::new(move |_| {
        if let Some(part) = auth_selected.get() {
            let inspected = auth_lane::inspect(&scene, part);
            return Some(Shown {
                role: inspected.role,
                explanation: inspected.explanation,
                facts: inspected.facts,
                json: pretty(inspected.json),
            });
        }
        traffic.track_calm();
        let part = selected.get()?;
        traffic.with(|t| {
            let (role, explanation) = describe(t, &part);
            Some(Shown {
                role,
                explanation,
                facts: facts(t, &part),
                json: pretty(t.json_of(&part)),
            })
        })
    });
    let role = move || shown.with(|s| s.as_ref().map(|s| s.role.clone()));
    let explanation = move || shown.with(|s| s.as_ref().map(|s| s.explanation));
    let facts = move || shown.with(|s| s.as_ref().and_then(|s| s.facts.clone()));
    let json = move || shown.with(|s| s.as_ref().map(|s| s.json.clone()));
    let close = move |_| {
        selected.set(None);
        auth_selected.set(None);
    };
    view! {
        <aside id="inspect" class="inspect" aria-label="Inspector">
            <Show
                when=move || shown.with(Option::is_some)
                fallback=|| {
                    view! {
                        <p class="quiet inspect-hint">
                            "Click or focus any part of the scene (a piece on the conveyor, a tray, a latch, a tag, a cartridge, an authorization step) to see its role and its real JSON. Escape clears."
                        </p>
                    }
                }
            >
                <h3 class="inspect-role">{role}</h3>
                <p class="inspect-explanation">{explanation}</p>
                {move || facts().map(|text| view! { <p class="inspect-facts">{text}</p> })}
                // Focusable: a long JSON scrolls, and a keyboard must be able to scroll it too.
                <pre class="inspect-json" tabindex="0">{json}</pre>
                <button class="inspect-close" on:click=close>
                    "Close"
                </button>
            </Show>
        </aside>
    }
}
