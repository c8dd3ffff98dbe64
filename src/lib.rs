//! Holdbay in the browser: the Leptos app. It moves bytes (`transport`) and draws (`ui`);
//! every protocol decision is `holdbay_engine`'s.

pub mod connection;
pub mod endpoint;
pub mod storage;
pub mod tasks;
pub mod traffic;
pub mod transport;
pub mod ui;
pub mod wire;

use leptos::prelude::*;

/// Mount the app on `<body>`, talking to the server named by the page URL.
pub fn mount_app_to_body() {
    let endpoint = endpoint::from_page();
    leptos::mount::mount_to_body(move || view! { <ui::App endpoint=endpoint /> });
}

/// Mount the app inside `host`, talking to `endpoint` (tests use this).
pub fn mount_app_to(host: web_sys::HtmlElement, endpoint: Result<String, String>) {
    leptos::mount::mount_to(host, move || view! { <ui::App endpoint=endpoint /> }).forget();
}
