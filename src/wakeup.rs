//! A timer a loop sleeps on that other code can cut short (a new task, a changed schedule):
//! the task driver's, the legacy session stream's, a resumed stream's wait.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[derive(Clone, Copy)]
pub struct Wakeup {
    /// Resolves the pending sleep, if any, and its timer (cleared when woken: a loop woken
    /// hundreds of times a second left as many timers to fire for nothing).
    resolve: StoredValue<Option<(js_sys::Function, Option<i32>)>, LocalStorage>,
    /// A wake that came while nobody slept: the next sleep returns at once.
    pending: StoredValue<bool>,
}

impl Default for Wakeup {
    fn default() -> Self {
        Self::new()
    }
}

impl Wakeup {
    pub fn new() -> Self {
        Self {
            resolve: StoredValue::new_local(None),
            pending: StoredValue::new(false),
        }
    }

    /// End the current sleep now (or the next one, if nobody is sleeping).
    pub fn wake(&self) {
        match self.resolve.try_update_value(Option::take).flatten() {
            Some((resolve, timer)) => {
                if let (Some(timer), Some(window)) = (timer, web_sys::window()) {
                    window.clear_timeout_with_handle(timer);
                }
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
            None => {
                self.pending.try_set_value(true);
            }
        }
    }

    /// Sleep `ms` milliseconds, or until woken.
    pub async fn sleep(&self, ms: u64) {
        if self.pending.try_update_value(std::mem::take) != Some(false) {
            return;
        }
        let resolve_slot = self.resolve;
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let timed = web_sys::window().and_then(|window| {
                window
                    .set_timeout_with_callback_and_timeout_and_arguments_0(
                        &resolve,
                        ms.min(i32::MAX as u64) as i32,
                    )
                    .ok()
            });
            if timed.is_none() {
                // No timer: return at once rather than hang.
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
            resolve_slot.try_set_value(Some((resolve, timed)));
        });
        let _ = JsFuture::from(promise).await;
        resolve_slot.try_set_value(None);
    }
}
