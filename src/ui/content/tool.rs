//! What a tool's result holds, shown the same for a call's result and a finished task's: its
//! content blocks and its structured content (the `isError` mark is the caller's).

use holdbay_engine::model::CallToolResult;
use leptos::prelude::*;

use super::ContentBlockView;

/// The content blocks of `result`, then its `structuredContent` as JSON.
#[component]
pub fn ToolContent(result: CallToolResult) -> impl IntoView {
    let structured = result
        .structured_content
        .as_ref()
        .map(|value| serde_json::to_string_pretty(value).unwrap_or_default());
    let empty = result.content.is_empty() && structured.is_none();
    view! {
        {empty.then(|| view! { <p class="quiet">"The result has no content."</p> })}
        {result
            .content
            .into_iter()
            .map(|block| view! { <ContentBlockView block=block /> })
            .collect_view()}
        {structured
            .map(|json| {
                view! {
                    <div class="structured">
                        <h3>"Structured content"</h3>
                        <pre class="json structured-content" tabindex="0">{json}</pre>
                    </div>
                }
            })}
    }
}
