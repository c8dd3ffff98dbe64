//! One input request of a server, answered as raw JSON (the fallback).

use leptos::prelude::*;
use serde_json::{Value, json};

/// Shows the request under `key` and calls `on_answer` with the response to send.
#[component]
pub fn InputRequestCard(key: String, request: Value, on_answer: Callback<Value>) -> impl IntoView {
    let shown = serde_json::to_string_pretty(&request).unwrap_or_default();
    let data_key = key.clone();
    view! {
        <div class="input-request" data-key=data_key>
            <p class="input-key"><code>{key}</code></p>
            <pre class="json">{shown}</pre>
            <button class="decline" on:click=move |_| on_answer.run(json!({"action": "decline"}))>
                "Decline"
            </button>
        </div>
    }
}
