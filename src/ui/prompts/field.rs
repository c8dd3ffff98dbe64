//! One string argument (a prompt's argument, a template's variable): a text field marked
//! when required, with the server's `completion/complete` suggestions as you type
//! (debounced), offered both as a `datalist` and as buttons under the field.

use std::collections::BTreeMap;
use std::time::Duration;

use holdbay_engine::CompletionTarget;
use leptos::leptos_dom::helpers::TimeoutHandle;
use leptos::prelude::*;

use crate::session::Session;

/// Milliseconds of quiet typing before suggestions are asked for.
pub const SUGGEST_DEBOUNCE_MS: u64 = 250;

/// What completions are asked about: what was typed, and the other arguments filled in.
#[derive(Debug, Clone, PartialEq)]
struct Question {
    typed: String,
    context: BTreeMap<String, String>,
}

#[component]
pub fn ArgumentField(
    /// The argument's name (the key in `values`).
    name: String,
    required: bool,
    description: Option<String>,
    /// Every value of the form, this field's included.
    values: RwSignal<BTreeMap<String, String>>,
    /// What to ask completions about; `None` while the server offers none. A signal, so
    /// that the server's offer changing never rebuilds the field under the user's typing.
    #[prop(into)]
    completion: Signal<Option<CompletionTarget>>,
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
    // The question asked last (debounced while typing); `None`: nothing asked, or a
    // suggestion was just picked. Only the latest question's answer is shown.
    let question = RwSignal::new(None::<Question>);
    // Not a resource: a resource read while it loads suspends the chunk's `Suspense` the
    // form sits in, which takes the whole tab off the page and back, the input under the
    // user's typing with it (keystrokes were lost).
    let answer = RwSignal::new(None::<Result<Vec<String>, String>>);
    Effect::new(move |_| {
        let (Some(asked), Some(target)) = (question.get(), completion.get()) else {
            return;
        };
        let argument = key.get_value();
        leptos::task::spawn_local(async move {
            let got = session
                .suggestions(target, argument, asked.typed.clone(), asked.context.clone())
                .await;
            if question.try_with_untracked(|now| now.as_ref() == Some(&asked)) == Some(true) {
                answer.try_set(Some(got));
            }
        });
    });
    let answered = move || {
        if question.with(Option::is_none) {
            return None;
        }
        answer.get()
    };
    let suggestions = move || answered().and_then(Result::ok).unwrap_or_default();
    let problem = move || answered().and_then(Result::err);
    let quiet_wait = StoredValue::new(None::<TimeoutHandle>);
    // Ask after a quiet moment (`now`: at once); a newer ask replaces a waiting one.
    let ask = move |now: bool| {
        if completion.with_untracked(Option::is_none) {
            return;
        }
        if let Some(waiting) = quiet_wait.try_update_value(Option::take).flatten() {
            waiting.clear();
        }
        let put = move || {
            let all = values.get_untracked();
            let typed = all.get(&key.get_value()).cloned().unwrap_or_default();
            let context = all.into_iter().filter(|(_, v)| !v.is_empty()).collect();
            question.try_set(Some(Question { typed, context }));
        };
        if now {
            put();
        } else {
            let waiting =
                set_timeout_with_handle(put, Duration::from_millis(SUGGEST_DEBOUNCE_MS)).ok();
            quiet_wait.set_value(waiting);
        }
    };
    let set = move |text: String| {
        let key = key.get_value();
        values.update(|values| {
            values.insert(key, text);
        });
    };
    let offered = move || completion.with(Option::is_some);
    let shown = move || {
        let current = value.get();
        suggestions()
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
                list={
                    let list_id = list_id.clone();
                    move || offered().then(|| list_id.clone())
                }
                autocomplete="off"
                required=required
                aria-required=required.to_string()
                prop:value=move || value.get()
                on:input=move |ev| {
                    set(event_target_value(&ev));
                    ask(false);
                }
                on:focus=move |_| {
                    if untrack(suggestions).is_empty() {
                        ask(true);
                    }
                }
            />
            {move || {
                offered()
                    .then(|| {
                    let list_id = list_id.clone();
                    view! {
                        <datalist id=list_id.clone()>
                            {move || {
                                suggestions()
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
                                                    question.set(None);
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
                })
            }}
            {move || {
                problem()
                    .map(|why| view! { <p class="quiet suggestion-problem">"No suggestions: " {why}</p> })
            }}
        </div>
    }
}
