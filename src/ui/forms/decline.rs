//! The two ways to refuse an elicitation, the same on every kind of card.

use holdbay_engine::InputAnswer;
use leptos::prelude::*;

use super::delivery::Delivery;

/// Decline (the user says no) and Cancel (the user dismissed it without deciding). When the
/// card's answer is gathered, they are a choice that can be taken back: `refusal` holds it.
#[component]
pub fn DeclineOrCancel(
    delivery: Delivery,
    #[prop(optional)] refusal: Option<RwSignal<Option<InputAnswer>>>,
) -> impl IntoView {
    let choose = move |answer: InputAnswer| match (delivery, refusal) {
        (Delivery::Gathered(_), Some(refusal)) => refusal.update(|chosen| {
            *chosen = (chosen.as_ref() != Some(&answer)).then_some(answer);
        }),
        _ => delivery.give(answer),
    };
    // Only a gathered card's buttons are toggles (and say whether they are pressed).
    let gathered = delivery.is_gathered();
    let pressed = move |answer: InputAnswer| {
        gathered.then(|| {
            refusal
                .is_some_and(|refusal| refusal.with(|chosen| chosen.as_ref() == Some(&answer)))
                .to_string()
        })
    };
    [
        (InputAnswer::Decline, "decline", "Decline"),
        (InputAnswer::Cancel, "cancel", "Cancel"),
    ]
    .into_iter()
    .map(|(answer, class, words)| {
        let answer_again = answer.clone();
        view! {
            <button
                type="button"
                class=class
                aria-pressed=move || pressed(answer.clone())
                on:click=move |_| choose(answer_again.clone())
            >
                {words}
            </button>
        }
    })
    .collect_view()
}
