//! The timeline's transport controls: play, the scrubber, follow live.

use leptos::prelude::*;

use super::playback::Playback;
use crate::ui::format::offset;

/// `current`: the index and seq of the event the scene shows (`None`: following live).
#[component]
pub fn Controls(playback: Playback, current: Memo<Option<(usize, u64)>>) -> impl IntoView {
    let traffic = playback.traffic;
    let total = Memo::new(move |_| {
        traffic.track_calm();
        traffic.with_whole(|t| t.events().len())
    });
    let is_live = move || traffic.position().get().is_none();
    let value = move || match current.get() {
        Some((index, _)) => index,
        None => total.get().saturating_sub(1),
    };
    let value_text = move || match current.get() {
        None => "following live".to_owned(),
        Some((index, _)) => traffic.with_whole(|t| {
            let events = t.events();
            let first = events.first().map_or(0.0, |e| e.at);
            match events.get(index) {
                Some(event) => format!(
                    "event {} of {}: {}, {}",
                    index + 1,
                    events.len(),
                    event.label,
                    offset(event.at - first)
                ),
                None => String::new(),
            }
        }),
    };
    let on_scrub = move |ev| {
        if let Ok(index) = event_target_value(&ev).parse::<usize>() {
            playback.scrub_by_hand(index);
        }
    };
    let toggle_play = move |_| {
        if playback.playing.get_untracked() {
            playback.stop();
        } else {
            playback.play(current.get_untracked().map(|(index, _)| index));
        }
    };
    view! {
        <div class="timeline-controls">
            <button
                type="button"
                id="timeline-play"
                aria-pressed=move || if playback.playing.get() { "true" } else { "false" }
                disabled=move || total.get() == 0
                on:click=toggle_play
            >
                {move || if playback.playing.get() { "❚❚ Pause" } else { "▶ Play" }}
            </button>
            <label class="timeline-scrub-label">
                <span class="visually-hidden">"Position in the session"</span>
                <input
                    type="range"
                    id="timeline-scrub"
                    min="0"
                    max=move || total.get().saturating_sub(1)
                    step="1"
                    prop:value=move || value().to_string()
                    aria-valuetext=value_text
                    disabled=move || total.get() == 0
                    on:input=on_scrub
                />
            </label>
            <span class="timeline-position" aria-hidden="true">
                {move || match current.get() {
                    Some((index, _)) => format!("{} / {}", index + 1, total.get()),
                    None => format!("live · {}", total.get()),
                }}
            </span>
            <button
                type="button"
                id="timeline-live"
                aria-pressed=move || if is_live() { "true" } else { "false" }
                on:click=move |_| playback.follow_live()
            >
                "Follow live"
            </button>
        </div>
    }
}
