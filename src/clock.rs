//! The page's clock: the one place the app reads the time.

/// Milliseconds since the Unix epoch, by the browser's clock (`Date.now()`), as the engine
/// takes time (it never reads a clock itself). Whole milliseconds, so `as f64` is exact.
pub fn now_ms() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}
