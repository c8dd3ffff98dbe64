//! Copying text: the async clipboard (`navigator.clipboard.writeText`), else the old
//! `execCommand("copy")` on a hidden text area; if both are refused, the text is shown to be
//! copied by hand.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Put `text` on the clipboard.
pub async fn copy_text(text: &str) -> Result<(), String> {
    if let Some(clipboard) = async_clipboard()
        && JsFuture::from(clipboard.write_text(text)).await.is_ok()
    {
        return Ok(());
    }
    copy_with_exec_command(text)
}

/// The async clipboard, when the page may use it (a secure context: `localhost` counts).
fn async_clipboard() -> Option<web_sys::Clipboard> {
    let navigator = web_sys::window()?.navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).ok()?;
    (!clipboard.is_undefined() && !clipboard.is_null()).then(|| clipboard.unchecked_into())
}

fn copy_with_exec_command(text: &str) -> Result<(), String> {
    let refused = || "this browser refused the clipboard".to_owned();
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(refused)?;
    let area: web_sys::HtmlTextAreaElement = document
        .create_element("textarea")
        .map_err(|_| refused())?
        .unchecked_into();
    area.set_value(text);
    area.set_read_only(true);
    area.set_class_name("visually-hidden");
    let body = document.body().ok_or_else(refused)?;
    body.append_child(&area).map_err(|_| refused())?;
    area.select();
    let copied = document
        .dyn_ref::<web_sys::HtmlDocument>()
        .and_then(|html| html.exec_command("copy").ok())
        .unwrap_or(false);
    area.remove();
    if copied { Ok(()) } else { Err(refused()) }
}

/// A button that copies what `text` gives when pressed, and says how that went; when the
/// browser refuses, the text is shown, selected, to be copied by hand.
#[component]
pub fn CopyButton(
    label: &'static str,
    #[prop(into)] class: String,
    text: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let status = RwSignal::new(None::<Result<usize, (String, String)>>);
    let press = move |_| {
        let text = text();
        spawn_local(async move {
            let outcome = match copy_text(&text).await {
                Ok(()) => Ok(text.chars().count()),
                Err(problem) => Err((problem, text)),
            };
            status.try_set(Some(outcome));
        });
    };
    view! {
        <button type="button" class=format!("copy {class}") on:click=press>{label}</button>
        {move || {
            status
                .get()
                .map(|outcome| match outcome {
                    Ok(chars) => {
                        view! {
                            <span class="copy-status quiet" role="status">
                                {format!("copied ({chars} characters)")}
                            </span>
                        }
                            .into_any()
                    }
                    Err((problem, text)) => {
                        view! {
                            <span class="copy-status" role="status">
                                {problem} ": select and copy it here"
                                <textarea class="copy-fallback" readonly=true rows="4" prop:value=text></textarea>
                            </span>
                        }
                            .into_any()
                    }
                })
        }}
    }
}
