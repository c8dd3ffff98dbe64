//! One row of the sequence diagram: an arrow between two lanes, as a button that selects
//! the part of the scene it concerns.

use holdbay_scene::Lane;
use leptos::prelude::*;

use super::rows::{Row, lane_name, lane_title};
use crate::ui::UiState;
use crate::ui::format::offset;

/// Where a lane's line runs, in percent of the lanes' width.
fn lane_x(lane: Lane) -> f64 {
    match lane {
        Lane::User => 100.0 / 6.0,
        Lane::Client => 50.0,
        Lane::Server => 500.0 / 6.0,
    }
}

/// The arrow's direction class and its box (`left`, `width` in percent).
fn arrow_geometry(from: Lane, to: Lane) -> (&'static str, String) {
    let (a, b) = (lane_x(from), lane_x(to));
    if from == to {
        // A self-arrow loops to the right of its lane, its label beside it.
        return (
            "self",
            format!("left:{a:.3}%;width:{:.3}%", 100.0 - a - 1.0),
        );
    }
    let direction = if b > a { "to-right" } else { "to-left" };
    (
        direction,
        format!("left:{:.3}%;width:{:.3}%", a.min(b), (b - a).abs()),
    )
}

/// `current`: the seq range of the event the scene shows, when scrubbed.
#[component]
pub fn EventRow(row: Row, current: Memo<Option<(usize, u64)>>) -> impl IntoView {
    let selected = UiState::current().inspected();
    let Row {
        first_seq,
        seq,
        from,
        to,
        label,
        after_ms,
        part,
        failed,
    } = row;
    let (direction, geometry) = arrow_geometry(from, to);
    let time = offset(after_ms);
    // Said between the time and the label, so the button's name is its visible text with
    // the lanes added (WCAG 2.5.3: the name contains the label).
    let lanes = format!(", {} to {}: ", lane_title(from), lane_title(to));
    let is_current = move || {
        current
            .get()
            .is_some_and(|(_, shown)| (first_seq..=seq).contains(&shown))
    };
    let selected_part = part.clone();
    let is_selected = move || selected.with(|s| s.as_ref() == Some(&selected_part));
    let select = move |_| selected.set(Some(part.clone()));
    view! {
        <button
            type="button"
            class="timeline-event"
            class:current=is_current
            class:selected=is_selected.clone()
            class:is-error=failed
            data-seq=seq
            data-from=lane_name(from)
            data-to=lane_name(to)
            aria-pressed=move || if is_selected() { "true" } else { "false" }
            aria-current=move || is_current().then_some("step")
            on:click=select
        >
            <span class="timeline-time">{time}</span>
            <span class="visually-hidden">{lanes}</span>
            <span class="timeline-lanes">
                <span class=format!("timeline-arrow {direction}") style=geometry>
                    <span class="timeline-label">{label}</span>
                    <span class="timeline-line"></span>
                </span>
            </span>
        </button>
    }
}
