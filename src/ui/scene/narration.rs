//! The scene's text alternative: the latest narrated events, in a polite live region.

use leptos::prelude::*;

use super::SceneContext;

/// Lines kept in the live region (newest last).
const LINES: usize = 6;

#[component]
pub(super) fn Narration() -> impl IntoView {
    let traffic = SceneContext::current().traffic;
    let lines = Memo::new(move |_| {
        traffic.track();
        traffic.with(|t| {
            // Only this scene's story: a lesson's start (or Reset scene) leaves the earlier
            // lines to the timeline.
            let start = t.scene_start().unwrap_or(f64::NEG_INFINITY);
            let mut lines: Vec<(u64, String)> = t
                .events()
                .iter()
                .rev()
                .take_while(|event| event.at >= start)
                .filter_map(|event| Some((event.seq, event.narration.clone()?)))
                .take(LINES)
                .collect();
            lines.reverse();
            lines
        })
    });
    view! {
        <div class="narration">
            <h3 class="scene-part-title">"What just happened"</h3>
            <ol id="scene-narration" aria-live="polite" aria-relevant="additions">
                <For each=move || lines.get() key=|(seq, _)| *seq let((_, line))>
                    <li>{line}</li>
                </For>
            </ol>
        </div>
    }
}
