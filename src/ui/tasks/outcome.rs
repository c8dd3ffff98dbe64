//! How a task ended: the tool result of a completed task, drawn with the content views a
//! call's result uses, and the JSON-RPC error of a failed one.

use holdbay_engine::model::{CallToolResult, ErrorData};
use leptos::prelude::*;

use crate::ui::content::ToolContent;

/// A completed task's result: its content blocks and structured content, `isError` marked.
#[component]
pub fn TaskResult(result: CallToolResult) -> impl IntoView {
    let is_error = result.is_error == Some(true);
    view! {
        <div class="task-result" class:is-error=is_error>
            {is_error
                .then(|| {
                    view! { <p class="task-result-flag">"The tool reported an error (isError)"</p> }
                })}
            <ToolContent result=result />
        </div>
    }
}

/// A failed task's JSON-RPC error.
#[component]
pub fn TaskError(error: ErrorData) -> impl IntoView {
    let data = error
        .data
        .as_ref()
        .map(|data| serde_json::to_string_pretty(data).unwrap_or_default());
    view! {
        <div class="task-error" role="alert">
            <p>
                "JSON-RPC error " <code class="task-error-code">{error.code.0}</code> ": "
                <span class="task-error-message">{error.message.into_owned()}</span>
            </p>
            {data.map(|json| view! { <pre class="json" tabindex="0">{json}</pre> })}
        </div>
    }
}
