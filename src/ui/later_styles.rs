//! The later style sheets (the dock's, the tasks', the forms', the prompts' and resources',
//! the Scene's) are not part of the first paint: `index.html` keeps their links in
//! `<template id="later-styles">`, where they are inert (not fetched, not applied); the
//! release build makes them one minified file (`scripts/split/finish-dist.sh`). The page
//! attaches them once the tool list is drawn, or when a view they style is first shown,
//! whichever comes first; such a view waits for them (`ui::chunks::styled`).

use std::cell::{Cell, RefCell};

use js_sys::{Array, Promise};
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

thread_local! {
    /// Settles when every attached sheet has loaded or failed; attached once per page. `None`
    /// inside: there was nothing to attach.
    static ATTACHED: RefCell<Option<Option<Promise>>> = const { RefCell::new(None) };
    /// They have settled: a view asking now is drawn at once, with no fallback in between.
    static SETTLED: Cell<bool> = const { Cell::new(false) };
}

/// Attach the later style sheets (once per page) and wait until each has loaded or failed:
/// a sheet that failed leaves its view plain, never hidden. Without the template (tests,
/// debug pages) there is nothing to wait for, and the future is ready at once.
pub fn later_styles() -> SendWrapper<impl Future<Output = ()>> {
    let pending = if SETTLED.get() {
        None
    } else {
        ATTACHED.with(|attached| attached.borrow_mut().get_or_insert_with(attach).clone())
    };
    SendWrapper::new(async move {
        if let Some(pending) = pending {
            let _ = JsFuture::from(pending).await;
        }
        SETTLED.set(true);
    })
}

fn attach() -> Option<Promise> {
    let document = web_sys::window().and_then(|window| window.document())?;
    let template = document
        .get_element_by_id("later-styles")
        .and_then(|element| element.dyn_into::<web_sys::HtmlTemplateElement>().ok())?;
    let head = document.query_selector("head").ok().flatten()?;
    let links = template.content().query_selector_all("link").ok()?;
    let loads = Array::new();
    for index in 0..links.length() {
        let Some(link) = links.item(index) else {
            continue;
        };
        let Ok(link) = document.import_node_with_deep(&link, true) else {
            continue;
        };
        let loaded = Promise::new(&mut |resolve, _| {
            let _ = link.add_event_listener_with_callback("load", &resolve);
            let _ = link.add_event_listener_with_callback("error", &resolve);
        });
        if head.append_child(&link).is_ok() {
            loads.push(&loaded);
        }
    }
    Some(Promise::all(&loads))
}
