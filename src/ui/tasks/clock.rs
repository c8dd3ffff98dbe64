//! The panel's clock: ages and countdowns tick once a second.

use std::time::Duration;

use leptos::prelude::*;

use crate::tasks::now_ms;

/// The local clock in milliseconds, updated every second while the panel is mounted.
pub fn ticking_now() -> Signal<u64> {
    let now = RwSignal::new(now_ms());
    if let Ok(handle) = set_interval_with_handle(
        move || {
            now.try_set(now_ms());
        },
        Duration::from_secs(1),
    ) {
        on_cleanup(move || handle.clear());
    }
    now.into()
}

/// Whole seconds until `at`, rounded up (a countdown never shows 0 while time is left).
pub fn seconds_until(at: u64, now: u64) -> u64 {
    at.saturating_sub(now).div_ceil(1000)
}
