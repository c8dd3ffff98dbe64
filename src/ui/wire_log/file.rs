//! Saving the wire log as a file, and reading one back.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlInputElement, Url};

use crate::wire::WireLog;

pub const EXPORT_FILE_NAME: &str = "holdbay-wire-log.json";

/// Download what the log shows as `holdbay-wire-log.json`.
pub fn export(log: WireLog) {
    if let Err(problem) = download(&log.export_json(crate::clock::now_ms() as f64)) {
        leptos::logging::warn!("could not export the wire log: {problem:?}");
    }
}

fn download(json: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(json));
    let options = BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let link: HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    link.set_href(&url);
    link.set_download(EXPORT_FILE_NAME);
    link.set_class_name("visually-hidden");
    // Attached while clicked: some browsers ignore clicks on detached links.
    let body = document.body().ok_or("no body")?;
    body.append_child(&link)?;
    link.click();
    link.remove();
    // Revoke later: the download reads the URL after this click handler returns.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&url);
    });
    web_sys::window()
        .ok_or("no window")?
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000)?;
    Ok(())
}

/// Read the chosen file and show it instead of the live log.
pub fn import(log: WireLog, event: &web_sys::Event, problem: RwSignal<Option<String>>) {
    let Some(input) = event
        .target()
        .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(file) = input.files().and_then(|files| files.get(0)) else {
        return;
    };
    // Choosing the same file again must fire `change` again.
    input.set_value("");
    spawn_local(async move {
        let text = JsFuture::from(file.text()).await;
        let outcome = match text.ok().and_then(|t| t.as_string()) {
            Some(text) => log.import_json(text).await.map(|_| ()),
            None => Err("could not read that file".to_owned()),
        };
        problem.try_set(outcome.err());
    });
}
