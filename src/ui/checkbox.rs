//! A checkbox with its words, bound to a signal: the one way a view writes one.

use leptos::prelude::*;

#[component]
pub fn Checkbox(
    /// What the box says, after it.
    label: &'static str,
    checked: RwSignal<bool>,
    /// The label's class.
    #[prop(optional)]
    class: Option<&'static str>,
    /// The box's own class.
    #[prop(optional)]
    input_class: Option<&'static str>,
    #[prop(optional)] id: Option<&'static str>,
    /// A longer explanation, shown on hover.
    #[prop(optional)]
    title: Option<&'static str>,
) -> impl IntoView {
    view! {
        <label class=class title=title>
            <input
                type="checkbox"
                class=input_class
                id=id
                prop:checked=move || checked.get()
                on:change=move |ev| checked.set(event_target_checked(&ev))
            />
            {label}
        </label>
    }
}
