//! How a task ended: the tool result of a completed task, the JSON-RPC error of a failed one.

use holdbay_engine::model::JsonObject;
use holdbay_engine::{CallTool, McpMethod};
use leptos::prelude::*;
use serde_json::Value;

/// A completed task's result: its text content and structured content, `isError` marked.
#[component]
pub fn TaskResult(result: JsonObject) -> impl IntoView {
    let result = Value::Object(result);
    // The tool result as the engine reads a `tools/call` answer; its content blocks are
    // shown as they came, even when it does not read as one.
    let typed = CallTool::decode_output(&result).ok();
    let is_error = typed
        .as_ref()
        .is_some_and(|typed| typed.is_error == Some(true));
    let blocks: Vec<Value> = result
        .get("content")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let content = blocks
        .into_iter()
        .map(|block| match block.get("text").and_then(Value::as_str) {
            Some(text) if block.get("type").and_then(Value::as_str) == Some("text") => {
                view! { <pre class="task-text">{text.to_owned()}</pre> }.into_any()
            }
            _ => {
                let kind = block
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown")
                    .to_owned();
                view! { <p class="quiet">"(" {kind} " content)"</p> }.into_any()
            }
        })
        .collect_view();
    let structured = typed
        .and_then(|typed| typed.structured_content)
        .map(|value| serde_json::to_string_pretty(&value).unwrap_or_default());
    view! {
        <div class="task-result" class:is-error=is_error>
            {is_error
                .then(|| {
                    view! { <p class="task-result-flag">"The tool reported an error (isError)"</p> }
                })}
            {content}
            {structured
                .map(|json| {
                    view! {
                        <p class="task-result-label">"structuredContent"</p>
                        <pre class="json" tabindex="0">{json}</pre>
                    }
                })}
        </div>
    }
}

/// A failed task's JSON-RPC error.
#[component]
pub fn TaskError(error: JsonObject) -> impl IntoView {
    let code = error
        .get("code")
        .map(Value::to_string)
        .unwrap_or_else(|| "(no code)".into());
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("(no message)")
        .to_owned();
    let data = error
        .get("data")
        .map(|data| serde_json::to_string_pretty(data).unwrap_or_default());
    view! {
        <div class="task-error" role="alert">
            <p>
                "JSON-RPC error " <code class="task-error-code">{code}</code> ": "
                <span class="task-error-message">{message}</span>
            </p>
            {data.map(|json| view! { <pre class="json" tabindex="0">{json}</pre> })}
        </div>
    }
}
