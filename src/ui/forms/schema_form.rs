//! A form built from an object JSON Schema, with a "Raw JSON" toggle. Schemas the form
//! cannot show open in the raw JSON editor directly.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use holdbay_engine::model::JsonObject;
use leptos::prelude::*;
use serde_json::Value;

use super::fields::{Place, object_fields_view};
use super::schema::parse_root;
use super::state::{FieldState, draft_root, fits_root, read_root};

static NEXT_FORM: AtomicUsize = AtomicUsize::new(1);

/// A page-unique id prefix for a form's elements.
pub fn fresh_prefix(kind: &str) -> String {
    format!("{kind}{}", NEXT_FORM.fetch_add(1, Ordering::Relaxed))
}

/// The form for `schema`. `value` holds `Ok(object)` while the input is valid, else
/// `Err(the first problem)`. `draft`, when given, follows what is entered even while it is
/// not valid yet (so the form can be rebuilt from it later, e.g. after a view switch).
pub fn schema_form(
    schema: &JsonObject,
    value: RwSignal<Result<Value, String>>,
    prefix: String,
    seed: RwSignal<Option<Value>>,
    draft: Option<RwSignal<Option<Value>>>,
) -> impl IntoView + use<> {
    let parsed = parse_root(schema);
    let required: Vec<String> = parsed
        .as_ref()
        .map(|fields| {
            fields
                .iter()
                .filter(|field| field.required)
                .map(|field| field.name.clone())
                .collect()
        })
        .unwrap_or_default();
    let (fields, unsupported) = match parsed {
        Ok(fields) => (Some(Arc::new(fields)), None),
        Err(why) => (None, Some(why)),
    };
    let raw = RwSignal::new(fields.is_none());
    let raw_text = RwSignal::new(String::new());
    let switch_problem = RwSignal::new(None::<String>);
    // `seed` is what the form shows when (re)built: None = the schema's defaults.
    let current: StoredValue<Vec<FieldState>> = StoredValue::new(Vec::new());
    let required = Arc::new(required);

    let parse_raw = {
        let required = required.clone();
        move |text: &str| -> Result<Value, String> {
            match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(object)) => {
                    match required.iter().find(|k| !object.contains_key(*k)) {
                        Some(missing) => Err(format!("`{missing}` is required")),
                        None => Ok(Value::Object(object)),
                    }
                }
                Ok(_) => Err("it must be a JSON object".to_owned()),
                Err(error) => Err(format!("not JSON: {error}")),
            }
        }
    };

    if fields.is_none() {
        let start = match value.get_untracked() {
            Ok(object @ Value::Object(_)) => object,
            _ => Value::Object(JsonObject::new()),
        };
        let text = serde_json::to_string_pretty(&start).unwrap_or_default();
        value.set(parse_raw(&text));
        raw_text.set(text);
    }

    let form = {
        let fields = fields.clone();
        let prefix = prefix.clone();
        move || {
            let fields = fields.clone()?;
            if raw.get() {
                return None;
            }
            let seed = seed.get();
            let with_defaults = seed.is_none();
            let states: Vec<FieldState> = fields
                .iter()
                .map(|field| {
                    let given = seed.as_ref().and_then(|seed| seed.get(&field.name));
                    FieldState::new(field, given, with_defaults)
                })
                .collect();
            current.set_value(states.clone());
            value.set(untrack(|| read_root(&fields, &states)));
            let view = if fields.is_empty() {
                view! { <p class="quiet form-empty">"No inputs."</p> }.into_any()
            } else {
                object_fields_view(
                    &fields,
                    &states,
                    &Place {
                        id: prefix.clone(),
                        name: String::new(),
                    },
                )
            };
            let watched = fields.clone();
            Effect::new(move |_| {
                value.set(read_root(&watched, &states));
                if let Some(draft) = draft {
                    draft.set(Some(draft_root(&watched, &states)));
                }
            });
            Some(view! { <div class="schema-form">{view}</div> })
        }
    };

    let toggle = {
        let fields = fields.clone();
        let parse_raw = parse_raw.clone();
        move |_| {
            let Some(fields) = fields.as_ref() else {
                return;
            };
            if raw.get_untracked() {
                let back = parse_raw(&raw_text.get_untracked())
                    .and_then(|json| fits_root(fields, &json).map(|()| json));
                match back {
                    Ok(json) => {
                        switch_problem.set(None);
                        seed.set(Some(json));
                        raw.set(false);
                    }
                    Err(why) => switch_problem.set(Some(format!(
                        "Kept as raw JSON: it does not fit the form ({why})."
                    ))),
                }
            } else {
                let draft = current.with_value(|states| draft_root(fields, states));
                let text = serde_json::to_string_pretty(&draft).unwrap_or_default();
                value.set(parse_raw(&text));
                raw_text.set(text);
                switch_problem.set(None);
                raw.set(true);
            }
        }
    };

    let raw_id = format!("{prefix}-raw");
    let raw_editor = move || {
        let parse_raw = parse_raw.clone();
        raw.get().then(|| {
            view! {
                <div class="raw-json">
                    <label for=raw_id.clone()>"JSON"</label>
                    <textarea
                        id=raw_id.clone()
                        class="arguments-json"
                        rows="8"
                        spellcheck="false"
                        prop:value=move || raw_text.get()
                        on:input=move |event| {
                            let text = event_target_value(&event);
                            let parsed = parse_raw(&text);
                            if let (Some(draft), Ok(json)) = (draft, &parsed) {
                                draft.set(Some(json.clone()));
                            }
                            value.set(parsed);
                            raw_text.set(text);
                        }
                    ></textarea>
                </div>
            }
        })
    };

    let toolbar = fields.is_some().then(|| {
        view! {
            <div class="form-toolbar">
                <button
                    type="button"
                    class="raw-toggle"
                    aria-pressed=move || if raw.get() { "true" } else { "false" }
                    on:click=toggle
                >
                    {move || if raw.get() { "Back to the form" } else { "Raw JSON" }}
                </button>
            </div>
        }
    });
    let fallback_note = unsupported.map(|why| {
        view! {
            <p class="form-note">"This schema is edited as raw JSON: " {why} "."</p>
        }
    });

    view! {
        <div class="form-host" id=prefix>
            {toolbar}
            {fallback_note}
            {form}
            {raw_editor}
            {move || switch_problem.get().map(|why| view! { <p class="form-note warn">{why}</p> })}
            {move || {
                value.get().err().map(|why| view! { <p class="form-status" role="status">"Not ready: " {why}</p> })
            }}
        </div>
    }
}
