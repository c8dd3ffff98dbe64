//! Input requests this client did not declare: the deprecated `sampling/createMessage` and
//! `roots/list` (declined by default, answerable as raw JSON on request), and unknown kinds
//! (decline only).

use holdbay_engine::refusal_for;
use leptos::prelude::*;
use serde_json::{Value, json};

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[component]
pub fn DeprecatedRequest(method: String, request: Value, answer: Callback<Value>) -> impl IntoView {
    let enabled = RwSignal::new(false);
    let starter = match method.as_str() {
        "roots/list" => json!({ "roots": [] }),
        _ => json!({
            "role": "assistant",
            "content": { "type": "text", "text": "" },
            "model": "manual",
        }),
    };
    let draft = RwSignal::new(pretty(&starter));
    let parsed = Memo::new(move |_| match serde_json::from_str::<Value>(&draft.get()) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) => Err("the result must be a JSON object".to_owned()),
        Err(error) => Err(format!("not JSON: {error}")),
    });
    let decline_with = refusal_for(&method);
    let decline_text = pretty(&decline_with);
    let editor_id = format!("deprecated-{}", super::schema_form::fresh_prefix("answer"));
    let editor = move || {
        enabled.get().then(|| {
            view! {
                <div class="raw-json">
                    <label for=editor_id.clone()>"Result to send (JSON)"</label>
                    <textarea
                        id=editor_id.clone()
                        class="answer-json-editor"
                        rows="7"
                        spellcheck="false"
                        prop:value=move || draft.get()
                        on:input=move |event| draft.set(event_target_value(&event))
                    ></textarea>
                    {move || parsed.get().err().map(|why| view! { <p class="field-error">{why}</p> })}
                    <div class="input-actions">
                        <button
                            type="button"
                            class="accept"
                            disabled=move || parsed.with(Result::is_err)
                            on:click=move |_| {
                                if let Ok(result) = parsed.get_untracked() {
                                    answer.run(result);
                                }
                            }
                        >
                            "Send this result"
                        </button>
                    </div>
                </div>
            }
        })
    };
    view! {
        <p class="input-deprecated">
            <strong>"Deprecated input kind."</strong>
            " Holdbay did not declare "
            <code>{method.clone()}</code>
            " in its capabilities, so the server should not have asked for it. It is declined unless you choose otherwise."
        </p>
        <pre class="json request-json">{pretty(&request)}</pre>
        <label class="enable-deprecated-line">
            <input
                type="checkbox"
                class="enable-deprecated"
                prop:checked=move || enabled.get()
                on:change=move |event| enabled.set(event_target_checked(&event))
            />
            "Enable deprecated kinds: answer this one with a result I write"
        </label>
        {editor}
        <div class="input-actions">
            <button type="button" class="decline" on:click=move |_| answer.run(decline_with.clone())>
                "Decline"
            </button>
            <span class="quiet decline-shape">"sends " <code>{decline_text}</code></span>
        </div>
    }
}

#[component]
pub fn UnknownRequest(method: String, request: Value, answer: Callback<Value>) -> impl IntoView {
    let decline_with = refusal_for(if method.is_empty() {
        "this input request"
    } else {
        &method
    });
    view! {
        <p class="input-deprecated">
            <strong>"Unknown input kind."</strong>
            " Holdbay cannot answer it; it can only decline."
        </p>
        <pre class="json request-json">{pretty(&request)}</pre>
        <div class="input-actions">
            <button type="button" class="decline" on:click=move |_| answer.run(decline_with.clone())>
                "Decline"
            </button>
        </div>
    }
}
