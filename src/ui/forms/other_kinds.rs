//! Input requests this client did not declare: the deprecated `sampling/createMessage` and
//! `roots/list` (declined by default, answerable as raw JSON on request), and unknown kinds
//! (decline only).

use holdbay_engine::{InputAnswer, InputRequestKind};
use leptos::prelude::*;
use serde_json::Value;

use super::delivery::Delivery;
use crate::ui::checkbox::Checkbox;

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// What declining `kind` sends, as the engine decides it.
fn refusal_text(kind: &InputRequestKind) -> String {
    InputAnswer::Refuse
        .to_response(kind)
        .map(|value| pretty(&value))
        .unwrap_or_default()
}

/// A gathered card of a kind this client did not declare is declined unless the user
/// chooses otherwise.
fn refuse_by_default(delivery: Delivery) {
    if let Delivery::Gathered(slot) = delivery {
        slot.set(Some(InputAnswer::Refuse));
    }
}

#[component]
pub fn DeprecatedRequest(
    kind: InputRequestKind,
    request: Value,
    delivery: Delivery,
) -> impl IntoView {
    refuse_by_default(delivery);
    let method = kind.method_name().to_owned();
    let enabled = RwSignal::new(false);
    // A starting point the user edits; the engine checks the shape when it is sent.
    let starter = match kind {
        InputRequestKind::Roots => r#"{ "roots": [] }"#,
        _ => {
            r#"{ "role": "assistant", "content": { "type": "text", "text": "" }, "model": "manual" }"#
        }
    };
    let starter = serde_json::from_str::<Value>(starter)
        .map(|value| pretty(&value))
        .unwrap_or_default();
    let draft = RwSignal::new(starter);
    let parsed = Memo::new(move |_| match serde_json::from_str::<Value>(&draft.get()) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err("the result must be a JSON object".to_owned()),
        Err(error) => Err(format!("not JSON: {error}")),
    });
    let decline_text = refusal_text(&kind);
    // Refusing roots is a result that shares nothing, not a decline: the button says so.
    let (refuse_label, by_default) = match kind {
        InputRequestKind::Roots => (
            "Share no roots",
            "It gets an empty list (a result that shares no folder) unless you choose otherwise.",
        ),
        _ => ("Decline", "It is declined unless you choose otherwise."),
    };
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
                                    delivery.give(InputAnswer::Written(result));
                                }
                            }
                        >
                            {if delivery.is_gathered() { "Use this result" } else { "Send this result" }}
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
            " in its capabilities, so the server should not have asked for it. "
            {by_default}
        </p>
        <pre class="json request-json" tabindex="0">{pretty(&request)}</pre>
        <Checkbox
            class="enable-deprecated-line"
            input_class="enable-deprecated"
            checked=enabled
            label="Enable deprecated kinds: answer this one with a result I write"
        />
        {editor}
        <div class="input-actions">
            <button
                type="button"
                class="decline"
                on:click=move |_| delivery.give(InputAnswer::Refuse)
            >
                {refuse_label}
            </button>
            <span class="quiet decline-shape">"sends " <code>{decline_text}</code></span>
        </div>
    }
}

#[component]
pub fn UnknownRequest(kind: InputRequestKind, request: Value, delivery: Delivery) -> impl IntoView {
    refuse_by_default(delivery);
    view! {
        <p class="input-deprecated">
            <strong>"Unknown input kind."</strong>
            " Holdbay cannot answer it; it can only decline."
        </p>
        <pre class="json request-json" tabindex="0">{pretty(&request)}</pre>
        <div class="input-actions">
            <button
                type="button"
                class="decline"
                on:click=move |_| delivery.give(InputAnswer::Refuse)
            >
                "Decline"
            </button>
            <span class="quiet decline-shape">"sends " <code>{refusal_text(&kind)}</code></span>
        </div>
    }
}
