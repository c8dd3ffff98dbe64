//! A form-mode `elicitation/create`: the server's message, a form for its `requestedSchema`,
//! and the three actions.

use holdbay_engine::InputAnswer;
use holdbay_engine::model::JsonObject;
use leptos::prelude::*;
use serde_json::Value;

use super::decline::DeclineOrCancel;
use super::delivery::Delivery;
use super::schema_form::{FormSignals, fresh_prefix, schema_form};

#[component]
pub fn FormElicitation(
    key: String,
    message: String,
    schema: JsonObject,
    delivery: Delivery,
) -> impl IntoView {
    let content = RwSignal::new(Ok::<Value, String>(Value::Object(JsonObject::new())));
    let safe_key = crate::ui::dom_id::id_part(&key);
    let form = schema_form(
        &schema,
        fresh_prefix(&format!("elicit-{safe_key}-")),
        FormSignals {
            value: content,
            seed: RwSignal::new(None),
            draft: None,
            raw_draft: None,
            preview: false,
        },
    );
    let accepted = move || match content.get_untracked() {
        Ok(Value::Object(content)) => Some(InputAnswer::Accept(Some(content))),
        _ => None,
    };
    let refusal = RwSignal::new(None::<InputAnswer>);
    // Gathered: the card's answer is the form's content, unless declined or cancelled.
    if let Delivery::Gathered(slot) = delivery {
        Effect::new(move |_| {
            let answer = match refusal.get() {
                Some(refused) => Some(refused),
                None => content.with(|c| match c {
                    Ok(Value::Object(content)) => Some(InputAnswer::Accept(Some(content.clone()))),
                    _ => None,
                }),
            };
            slot.set(answer);
        });
    }
    let accept_button = (!delivery.is_gathered()).then(|| {
        view! {
            <button
                type="button"
                class="accept primary"
                disabled=move || content.with(Result::is_err)
                on:click=move |_| {
                    if let Some(answer) = accepted() {
                        delivery.give(answer);
                    }
                }
            >
                "Accept"
            </button>
        }
    });
    let gathered_note = delivery.is_gathered().then(|| {
        view! {
            <p class="quiet gathered-note">
                {move || match refusal.get() {
                    Some(InputAnswer::Decline) => "Will be declined with the other answers.",
                    Some(_) => "Will be cancelled with the other answers.",
                    None => "Accepted with this content when you submit the answers.",
                }}
            </p>
        }
    });
    view! {
        <p class="input-message">{message}</p>
        <div class="input-form" class:refused=move || refusal.with(Option::is_some)>{form}</div>
        {gathered_note}
        <div class="input-actions">
            {accept_button}
            <DeclineOrCancel delivery=delivery refusal=refusal />
        </div>
    }
}
