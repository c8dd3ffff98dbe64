//! The two ways to refuse an elicitation, the same on every kind of card.

use leptos::prelude::*;
use serde_json::{Value, json};

/// Decline (the user says no) and Cancel (the user dismissed it without deciding).
#[component]
pub fn DeclineOrCancel(answer: Callback<Value>) -> impl IntoView {
    view! {
        <button
            type="button"
            class="decline"
            on:click=move |_| answer.run(json!({ "action": "decline" }))
        >
            "Decline"
        </button>
        <button
            type="button"
            class="cancel"
            on:click=move |_| answer.run(json!({ "action": "cancel" }))
        >
            "Cancel"
        </button>
    }
}
