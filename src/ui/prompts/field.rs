//! One string argument (a prompt's argument, a template's variable): a text field marked
//! when required, with the server's `completion/complete` suggestions as you type
//! (debounced), offered both as a `datalist` and as buttons under the field.

use std::collections::BTreeMap;

use holdbay_engine::CompletionTarget;
use leptos::prelude::*;

use crate::completions::suggest;
use crate::session::Session;

/// Milliseconds of quiet typing before suggestions are asked for.
pub const SUGGEST_DEBOUNCE_MS: u64 = 250;

#[component]
pub fn ArgumentField(
    /// The argument's name (the key in `values`).
    name: String,
    required: bool,
    description: Option<String>,
    /// Every value of the form, this field's included.
    values: RwSignal<BTreeMap<String, String>>,
    /// What to ask completions about; `None` when the server offers none.
    completion: Option<CompletionTarget>,
    /// Unique on the page: the field's id stem.
    id: String,
) -> impl IntoView {
    let session = Session::current();
    let input_id = format!("{id}-input");
    let list_id = format!("{id}-suggestions");
    let key = StoredValue::new(name.clone());
    let value = Memo::new(move |_| {
        let key = key.get_value();
        values.with(|values| values.get(&key).cloned().unwrap_or_default())
    });
    let suggestions = RwSignal::new(Vec::<String>::new());
    let problem = RwSignal::new(None::<String>);
    let generation = StoredValue::new(0u64);
    let completion = StoredValue::new(completion);
    // Ask after a quiet moment; only the latest question's answer is shown.
    let ask = move |now: bool| {
        let Some(target) = completion.get_value() else {
            return;
        };
        let asked = generation.get_value() + 1;
        generation.set_value(asked);
        let run = move || {
            if generation.try_get_value() != Some(asked) {
                return;
            }
            let key = key.get_value();
            let all = values.get_untracked();
            let typed = all.get(&key).cloned().unwrap_or_default();
            let context: BTreeMap<String, String> =
                all.into_iter().filter(|(_, v)| !v.is_empty()).collect();
            let link = session.link();
            leptos::task::spawn_local(async move {
                let answer = suggest(link, target, key, typed, context).await;
                if generation.try_get_value() != Some(asked) {
                    return;
                }
                match answer {
                    Ok(values) => {
                        suggestions.try_set(values);
                        problem.try_set(None);
                    }
                    Err(why) => {
                        suggestions.try_set(Vec::new());
                        problem.try_set(Some(why));
                    }
                }
            });
        };
        if now {
            run();
        } else {
            set_timeout(run, std::time::Duration::from_millis(SUGGEST_DEBOUNCE_MS));
        }
    };
    let set = move |text: String| {
        let key = key.get_value();
        values.update(|values| {
            values.insert(key, text);
        });
    };
    let offered = completion.with_value(Option::is_some);
    let shown = move || {
        let current = value.get();
        suggestions
            .get()
            .into_iter()
            .filter(|s| *s != current)
            .collect::<Vec<_>>()
    };
    view! {
        <div class="argument-field" data-argument=name.clone()>
            <label for=input_id.clone()>
                <code class="argument-name">{name.clone()}</code>
                {required.then(|| view! { <span class="required" title="required">" required"</span> })}
            </label>
            {description.map(|d| view! { <p class="argument-description">{d}</p> })}
            <input
                type="text"
                id=input_id
                class="argument-input"
                list=offered.then(|| list_id.clone())
                autocomplete="off"
                required=required
                aria-required=required.to_string()
                prop:value=move || value.get()
                on:input=move |ev| {
                    set(event_target_value(&ev));
                    ask(false);
                }
                on:focus=move |_| {
                    if suggestions.with_untracked(Vec::is_empty) {
                        ask(true);
                    }
                }
            />
            {offered
                .then(|| {
                    view! {
                        <datalist id=list_id.clone()>
                            {move || {
                                suggestions
                                    .get()
                                    .into_iter()
                                    .map(|s| view! { <option value=s></option> })
                                    .collect_view()
                            }}
                        </datalist>
                        <div class="suggestions" aria-label="Suggestions from the server" role="group">
                            {move || {
                                shown()
                                    .into_iter()
                                    .map(|s| {
                                        let pick = s.clone();
                                        view! {
                                            <button
                                                type="button"
                                                class="suggestion"
                                                on:click=move |_| {
                                                    set(pick.clone());
                                                    suggestions.set(Vec::new());
                                                }
                                            >
                                                {s}
                                            </button>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </div>
                    }
                })}
            {move || {
                problem
                    .get()
                    .map(|why| view! { <p class="quiet suggestion-problem">"No suggestions: " {why}</p> })
            }}
        </div>
    }
}
