//! A tool's `CallToolResult`: its content blocks, structured content, and whether the tool
//! itself reported an error. Nothing here is fetched: images and audio come only from the
//! block's own base64 data, links are shown, not followed.

use holdbay_engine::model::CallToolResult;
use holdbay_engine::{Media, media};
use leptos::prelude::*;

use crate::ui::content::{ShowResult, ToolContent};

impl ShowResult for CallToolResult {
    fn show(self) -> AnyView {
        view! { <ToolResult result=self /> }.into_any()
    }
}

/// The result of a completed call.
#[component]
pub fn ToolResult(result: CallToolResult) -> impl IntoView {
    let tool_error = result.is_error == Some(true);
    view! {
        <section class="call-result" class:tool-error=tool_error aria-label="Result">
            {if tool_error {
                view! {
                    <p class="tool-error-banner" role="alert">
                        "The tool reported an error (isError: true). The request itself succeeded."
                    </p>
                }
                    .into_any()
            } else {
                view! { <p class="result-ok">"Complete"</p> }.into_any()
            }}
            <ToolContent result=result />
        </section>
    }
}

/// A `data:` URL, only for the expected kind of media (`image/` or `audio/`) and
/// well-formed base64, as the engine decides ([`media`]).
pub fn data_url(mime_type: &str, kind: &str, data: &str) -> Option<String> {
    match media(Some(mime_type), data) {
        Media::Image { data_url } if kind == "image/" => Some(data_url),
        Media::Audio { data_url } if kind == "audio/" => Some(data_url),
        _ => None,
    }
}

/// Bytes that base64 text decodes to.
pub fn base64_decoded_len(data: &str) -> usize {
    holdbay_engine::base64_decoded_len(data)
}
