//! Holdbay in the browser: the Leptos app. Every protocol decision is `holdbay_engine`'s;
//! this crate moves bytes and keeps state (`link`, `wire`, `catalog`, `calls`, `tasks`,
//! `traffic`, `history`, `stdio`, gathered by `session`) and draws it (`ui`).

pub mod auth;
pub mod calls;
pub mod catalog;
pub mod clock;
pub mod completions;
pub mod connection;
pub mod endpoint;
pub mod heap;
pub mod history;
pub mod link;
pub mod owner;
pub mod session;
pub mod split;
pub mod stdio;
pub mod storage;
pub mod tasks;
pub mod traffic;
pub mod ui;
pub mod wakeup;
pub mod wire;

// The crate's own unit tests (pure helpers: the list window, search, curl quoting) run in
// the browser layers with the other wasm-bindgen tests.
#[cfg(test)]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use leptos::prelude::*;

/// Mount the app on `<body>`, talking to the server named by the page URL; the wire log is
/// kept across reloads.
///
/// The session starts first and the views are built in the next task of the queue: the
/// connect's first requests (queued before it) go out first and travel while the page is
/// laid out, instead of after it.
pub fn mount_app_to_body() {
    // At the redirect URI: a sign-in window hands back and is done; a page that went to
    // the authorization server is back at its own address before that address is read.
    let resume = match auth::callback::take_over() {
        auth::callback::AtCallback::HandedBack => return,
        auth::callback::AtCallback::No => None,
        auth::callback::AtCallback::Resume {
            pending,
            callback_url,
        } => Some((pending, callback_url)),
    };
    let endpoint = endpoint::from_page();
    let session = ui::start_session(&endpoint, Some(wire::keep::DATABASE));
    if let Some((pending, callback_url)) = resume {
        session.resume_sign_in(pending, callback_url);
    }
    leptos::task::spawn_local(async move {
        leptos::mount::mount_to_body(
            move || view! { <ui::App endpoint=endpoint session=session /> },
        );
        take_over_shell();
    });
}

/// Remove `index.html`'s static shell (painted before the wasm arrived). This runs in the
/// same task as the mount, so the browser never paints the page with both or with neither.
fn take_over_shell() {
    if let Some(shell) = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id("shell"))
    {
        shell.remove();
    }
}

/// Mount the app inside `host`, talking to `endpoint`, keeping nothing across reloads
/// (tests use this).
pub fn mount_app_to(host: web_sys::HtmlElement, endpoint: Result<String, String>) {
    let session = ui::start_session(&endpoint, None);
    leptos::mount::mount_to(
        host,
        move || view! { <ui::App endpoint=endpoint session=session /> },
    )
    .forget();
}
