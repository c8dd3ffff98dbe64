//! A one-line text field bound to a signal: the one way a view writes a typed string.

use leptos::prelude::*;

#[component]
pub fn TextField(
    value: RwSignal<String>,
    /// `text` or `search`.
    #[prop(default = "text")]
    kind: &'static str,
    #[prop(optional)] id: Option<&'static str>,
    #[prop(optional)] class: Option<&'static str>,
    #[prop(optional)] placeholder: Option<&'static str>,
    /// The field's name for assistive technology, when no `<label>` gives one.
    #[prop(optional)]
    label: Option<&'static str>,
    /// What the browser may fill in (`off` unless said).
    #[prop(default = "off")]
    autocomplete: &'static str,
    /// The on-screen keyboard wanted (`url`, …).
    #[prop(optional)]
    inputmode: Option<&'static str>,
    /// The `<datalist>` of suggestions.
    #[prop(optional)]
    list: Option<&'static str>,
) -> impl IntoView {
    view! {
        <input
            type=kind
            id=id
            class=class
            placeholder=placeholder
            aria-label=label
            autocomplete=autocomplete
            inputmode=inputmode
            list=list
            spellcheck="false"
            prop:value=value
            on:input=move |ev| value.set(event_target_value(&ev))
        />
    }
}
