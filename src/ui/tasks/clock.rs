//! The panel's clock (ages and countdowns tick once a second) and how spans of time read.

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

/// `850ms`, `42s`, `3m 05s`, `2h 07m`.
pub fn span(ms: u64) -> String {
    let seconds = ms / 1000;
    match seconds {
        0 => format!("{ms}ms"),
        1..60 => format!("{seconds}s"),
        60..3600 => format!("{}m {:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h {:02}m", seconds / 3600, (seconds % 3600) / 60),
    }
}

/// Whole seconds until `at`, rounded up (a countdown never shows 0 while time is left).
pub fn seconds_until(at: u64, now: u64) -> u64 {
    at.saturating_sub(now).div_ceil(1000)
}
