//! A form-mode `elicitation/create`: the server's message, a form for its `requestedSchema`,
//! and the three actions.

use holdbay_engine::model::JsonObject;
use leptos::prelude::*;
use serde_json::{Value, json};

use super::decline::DeclineOrCancel;

use super::schema_form::{fresh_prefix, schema_form};

#[component]
pub fn FormElicitation(key: String, params: Value, answer: Callback<Value>) -> impl IntoView {
    let message = params
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let schema = params
        .get("requestedSchema")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(JsonObject::new);
    let content = RwSignal::new(Ok::<Value, String>(Value::Object(JsonObject::new())));
    let safe_key: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let form = schema_form(
        &schema,
        content,
        fresh_prefix(&format!("elicit-{safe_key}-")),
        RwSignal::new(None),
    );
    let accept = move |_| {
        if let Ok(content) = content.get_untracked() {
            answer.run(json!({ "action": "accept", "content": content }));
        }
    };
    view! {
        <p class="input-message">{message}</p>
        {form}
        <div class="input-actions">
            <button
                type="button"
                class="accept primary"
                disabled=move || content.with(Result::is_err)
                on:click=accept
            >
                "Accept"
            </button>
            <DeclineOrCancel answer=answer />
        </div>
    }
}
