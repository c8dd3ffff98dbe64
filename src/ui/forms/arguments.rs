//! Tool arguments as raw JSON (the fallback editor).

use std::sync::Arc;

use holdbay_engine::model::JsonObject;
use leptos::prelude::*;
use serde_json::Value;

/// Edits a tool's arguments. `value` holds `Ok(arguments)` while the text is a JSON
/// object, else `Err(why not)`.
#[component]
pub fn ArgumentsEditor(
    schema: Arc<JsonObject>,
    value: RwSignal<Result<Value, String>>,
) -> impl IntoView {
    let _ = schema;
    let initial = match value.get_untracked() {
        Ok(arguments) => serde_json::to_string_pretty(&arguments).unwrap_or_default(),
        Err(_) => "{}".to_owned(),
    };
    view! {
        <label class="raw-json">
            "Arguments (JSON)"
            <textarea
                class="arguments-json"
                rows="6"
                prop:value=initial
                on:input=move |event| {
                    let text = event_target_value(&event);
                    value.set(match serde_json::from_str::<Value>(&text) {
                        Ok(parsed @ Value::Object(_)) => Ok(parsed),
                        Ok(_) => Err("the arguments must be a JSON object".to_owned()),
                        Err(error) => Err(format!("not JSON: {error}")),
                    });
                }
            ></textarea>
        </label>
    }
}
