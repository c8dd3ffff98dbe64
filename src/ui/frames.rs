//! Timing against the browser's frames.

use std::time::Duration;

use leptos::prelude::*;

/// Run `then` in a task after the next frame has been drawn (its layout is then up to date,
/// and what it showed has been painted).
pub fn after_next_frame(then: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(then, Duration::ZERO));
}
