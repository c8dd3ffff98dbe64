//! A resource template's form: one field per URI variable (read from the template by the
//! engine), the URI it expands to, shown live, and Read.

use std::collections::BTreeMap;

use holdbay_engine::model::ResourceTemplate;
use holdbay_engine::{CompletionTarget, ListMethod, ListResourceTemplates, NameMarks, UriTemplate};
use leptos::prelude::*;

use super::read;
use crate::session::Session;
use crate::ui::library_drafts::FormOf;
use crate::ui::names::{ShownText, flags_of, warnings_of};
use crate::ui::prompts::ArgumentField;
use crate::ui::state::UiState;

/// `marks`: the template's name and title as its list shows them.
#[component]
pub fn TemplateForm(template: ResourceTemplate, marks: NameMarks) -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    let key = template.uri_template.clone();
    let values = drafts.values(&FormOf::Template(key.clone()));
    let parsed = UriTemplate::parse(&key);
    let (variables, broken) = match &parsed {
        Ok(parsed) => (parsed.variables(), None),
        Err(why) => (Vec::new(), Some(why.to_string())),
    };
    let parsed = StoredValue::new(parsed.ok());
    let expanded = Memo::new(move |_| {
        // An empty field is an undefined variable (RFC 6570 leaves it out).
        let defined: BTreeMap<String, String> = values
            .get()
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .collect();
        parsed.with_value(|p| p.as_ref().map(|p| p.expand(&defined)))
    });
    let completion = Memo::new({
        let key = key.clone();
        move |_| {
            session
                .catalog()
                .offers_completions()
                .then(|| CompletionTarget::Template(key.clone()))
        }
    });
    let note = RwSignal::new(None::<String>);
    let read_it = move |_| {
        if let Some(uri) = expanded.get_untracked() {
            note.set(read(session, drafts, &uri).err());
        }
    };
    let flags = flags_of(&marks, ListResourceTemplates::ITEM, &template.name);
    let warnings = warnings_of(&marks, ListResourceTemplates::ITEM, &template.name);
    let title = marks.title.unwrap_or(marks.name);
    view! {
        <section class="panel" id="template-panel" data-template=key.clone()>
            <h2>"Read from a template"</h2>
            <header class="call-header">
                <p class="call-title shown-name"><ShownText shown=title /></p>
                {flags}
                {warnings}
                <code class="call-tool uri-template">{key.clone()}</code>
                {template.description.clone().map(|d| view! { <p class="call-description">{d}</p> })}
            </header>
            {broken.map(|why| view! { <p class="call-blocked invalid">"The template cannot be read: " {why}</p> })}
            <form class="template-form" on:submit=|ev| ev.prevent_default()>
                {{
                    variables
                        .iter()
                        .map(|variable| {
                            view! {
                                <ArgumentField
                                    name=variable.clone()
                                    required=false
                                    description=None
                                    values=values
                                    completion=completion
                                    id=format!("template-var-{variable}")
                                />
                            }
                        })
                        .collect_view()
                }}
            </form>
            <p class="expanded">
                <span class="label">"URI "</span>
                <code class="expanded-uri">{move || expanded.get().unwrap_or_default()}</code>
            </p>
            <div class="call-actions">
                <button class="read-template" disabled=move || expanded.with(Option::is_none) on:click=read_it>
                    "Read"
                </button>
            </div>
            {move || note.get().map(|n| view! { <p class="call-preset-note" role="status">{n}</p> })}
        </section>
    }
}
