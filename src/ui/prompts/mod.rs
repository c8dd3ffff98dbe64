//! The Prompts tab: the server's prompts; pick one, fill the form built from its
//! `arguments`, Get. The get runs in the session like a tool call (MRTR rounds through the
//! same input cards), and the messages show with their roles and content.

mod field;

use std::collections::BTreeMap;

use holdbay_engine::model::Prompt;
use holdbay_engine::{CompletionTarget, ListMethod, ListPrompts, NameMarks};
use leptos::prelude::*;

pub use field::{ArgumentField, SUGGEST_DEBOUNCE_MS};

use crate::catalog::{Listed, Loaded};
use crate::session::Session;
use crate::ui::call::CallOutcome;
use crate::ui::catalog_list::not_ready;
use crate::ui::library_drafts::FormOf;
use crate::ui::names::{ShownText, flags_of, warnings_of};
use crate::ui::pick_list::{PickButton, PickList, PickRow};
use crate::ui::state::UiState;

/// The prompts, and the picked one's form and gets.
#[component]
pub fn PromptsTab() -> impl IntoView {
    let session = Session::current();
    // Listed when first shown, not at connect (the first screen waits only for the tools).
    session.want_library();
    move || match session.catalog().prompts().get() {
        Loaded::Ready(listed) => view! { <PromptList listed=listed /> <PromptPanel /> }.into_any(),
        other => not_ready(other, ListPrompts::ITEMS),
    }
}

#[component]
fn PromptList(listed: Listed<Prompt>) -> impl IntoView {
    let drafts = UiState::current().library();
    let row = move |row: PickRow<Prompt>| {
        let prompt = row.item;
        let shape = shape(&prompt);
        view! {
            <li class="catalog-item">
                <PickButton
                    picked=drafts.prompt
                    key=prompt.name.clone()
                    class="prompt-pick"
                    attr:data-name=prompt.name.clone()
                >
                    {row.names}
                    <span class="quiet item-shape">{shape}</span>
                </PickButton>
                {row.flags}
                {prompt.description.map(|d| view! { <p class="tool-description">{d}</p> })}
            </li>
        }
        .into_any()
    };
    view! { <PickList method=ListPrompts listed=listed row=row /> }
}

/// How many arguments `prompt` takes, and how many are required.
fn shape(prompt: &Prompt) -> String {
    let required = prompt
        .arguments
        .iter()
        .flatten()
        .filter(|a| a.required == Some(true))
        .count();
    match prompt.arguments.as_ref().map_or(0, Vec::len) {
        0 => "no arguments".to_owned(),
        n => format!(
            "{n} argument{}, {required} required",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// The picked prompt: its form, the Get button, and its gets (the session's).
#[component]
fn PromptPanel() -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    // A memo: the form is built again only when the prompt itself changes, never under the
    // user's typing because a list was set again.
    let picked = Memo::new(move |_| {
        let name = drafts.prompt.get()?;
        let catalog = session.catalog();
        let prompt = catalog.prompt(&name)?;
        let marks = catalog.prompt_names().marks(&name, prompt.title.as_deref());
        Some((prompt, marks))
    });
    move || {
        let (prompt, marks) = picked.get()?;
        Some(view! { <PromptForm prompt=prompt marks=marks /> })
    }
}

#[component]
fn PromptForm(prompt: Prompt, marks: NameMarks) -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    let name = prompt.name.clone();
    let run = session.prompt(&name);
    let values = drafts.values(&FormOf::Prompt(name.clone()));
    let arguments = prompt.arguments.clone().unwrap_or_default();
    let required: StoredValue<Vec<String>> = StoredValue::new(
        arguments
            .iter()
            .filter(|a| a.required == Some(true))
            .map(|a| a.name.clone())
            .collect(),
    );
    let completion = Memo::new({
        let name = name.clone();
        move |_| {
            session
                .catalog()
                .offers_completions()
                .then(|| CompletionTarget::Prompt(name.clone()))
        }
    });
    let phase = run.phase();
    let live = move || phase.with(|p| p.as_ref().is_some_and(|p| p.is_live()));
    let missing = move || {
        values.with(|values| {
            required.with_value(|required| {
                required
                    .iter()
                    .filter(|r| values.get(*r).is_none_or(|v| v.is_empty()))
                    .cloned()
                    .collect::<Vec<_>>()
            })
        })
    };
    let blocked = move || {
        let missing = missing();
        if !missing.is_empty() {
            Some(format!("Fill in the required: {}", missing.join(", ")))
        } else if live() {
            Some("A get is under way.".to_owned())
        } else {
            None
        }
    };
    let note = RwSignal::new(None::<String>);
    let get = move |_| {
        // Arguments the user left empty are left out; the rest are sent exactly as typed.
        let sent: BTreeMap<String, String> = values
            .get_untracked()
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .collect();
        note.set(run.get(sent).err());
    };
    let flags = flags_of(&marks, ListPrompts::ITEM, &name);
    let warnings = warnings_of(&marks, ListPrompts::ITEM, &name);
    let title = prompt
        .title
        .as_ref()
        .filter(|t| **t != name)
        .and(marks.title);
    view! {
        <section class="panel" id="prompt-panel" data-prompt=name.clone()>
            <h2>"Get prompt"</h2>
            <header class="call-header">
                {title.map(|t| view! { <p class="call-title shown-name"><ShownText shown=t /></p> })}
                <code class="call-tool shown-name"><ShownText shown=marks.name /></code>
                {flags}
                {warnings}
                {prompt.description.clone().map(|d| view! { <p class="call-description">{d}</p> })}
            </header>
            <form class="prompt-form" on:submit=|ev| ev.prevent_default()>
                {arguments.is_empty().then(|| view! { <p class="quiet">"This prompt takes no arguments."</p> })}
                {{
                    arguments
                        .iter()
                        .map(|argument| {
                            view! {
                                <ArgumentField
                                    name=argument.name.clone()
                                    required=argument.required == Some(true)
                                    description=argument.description.clone()
                                    values=values
                                    completion=completion
                                    id=format!("prompt-arg-{}", argument.name)
                                />
                            }
                        })
                        .collect_view()
                }}
            </form>
            <div class="call-actions">
                <button class="get-prompt" disabled=move || blocked().is_some() on:click=get>
                    "Get"
                </button>
                {move || blocked().map(|why| view! { <span class="call-blocked">{why}</span> })}
            </div>
            {move || note.get().map(|n| view! { <p class="call-preset-note" role="status">{n}</p> })}
            <CallOutcome run=run />
        </section>
    }
}
