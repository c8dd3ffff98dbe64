//! The page at the redirect URI (`/oauth/callback`, which `holdbay serve` serves as the
//! app). In the sign-in window it hands the address the authorization server sent it to
//! back to the page that opened it (a `BroadcastChannel` of this origin: it works even when
//! the authorization server cut the window's `opener`), then closes. In a tab whose whole
//! page went to the authorization server (popups blocked), it goes back to where the page
//! was, and the app goes on with the flow this tab kept.
//!
//! Anything this origin posts on the channel is only a candidate: the engine accepts a
//! callback only with the flow's own `state`.

use holdbay_engine::auth::APP_CALLBACK_PATH;

/// The channel the callback page posts the callback address on.
pub const CHANNEL: &str = "holdbay-sign-in";
/// Where this tab keeps a flow whose page went to the authorization server.
pub const PENDING_KEY: &str = "holdbay/sign-in-pending";

/// What the page at the redirect URI does.
pub enum AtCallback {
    /// Not the callback page: the app as usual.
    No,
    /// The sign-in window: handed back; the app is not mounted here.
    HandedBack,
    /// This tab's page came back: the app mounts at the address it left from (already
    /// restored) and goes on with `pending` (JSON) at `callback_url`.
    Resume {
        pending: String,
        callback_url: String,
    },
}

/// Called first thing at start (before the page address is read for the server).
pub fn take_over() -> AtCallback {
    let Some(window) = web_sys::window() else {
        return AtCallback::No;
    };
    let location = window.location();
    if location.pathname().ok().as_deref() != Some(APP_CALLBACK_PATH) {
        return AtCallback::No;
    }
    let callback_url = location.href().unwrap_or_default();
    if let Some(pending) = take_pending() {
        let return_to = serde_json::from_str::<serde_json::Value>(&pending)
            .ok()
            .and_then(|value| value.get("return_to")?.as_str().map(str::to_owned))
            .unwrap_or_else(|| "/".to_owned());
        if let Ok(history) = window.history() {
            let _ =
                history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&return_to));
        }
        return AtCallback::Resume {
            pending,
            callback_url,
        };
    }
    if let Ok(channel) = web_sys::BroadcastChannel::new(CHANNEL) {
        let _ = channel.post_message(&callback_url.clone().into());
        channel.close();
    }
    if let Some(shell) = window.document().and_then(|d| d.get_element_by_id("shell")) {
        shell.set_text_content(Some(
            "Holdbay got the answer of the authorization server. This window closes by \
             itself; if it stays, close it and go back to Holdbay.",
        ));
    }
    let _ = window.close();
    AtCallback::HandedBack
}

/// The flow this tab kept, as JSON (removed as it is read).
fn take_pending() -> Option<String> {
    let value: serde_json::Value = crate::storage::take_for_tab(PENDING_KEY)?;
    Some(value.to_string())
}
