//! A form built from an object JSON Schema, with a "Raw JSON" toggle. Both edit the same
//! arguments: switching carries them over exactly. JSON the form cannot show (a key it has
//! no field for, mixed line breaks, `1.0` for an integer, …) stays in the raw editor, which
//! is then what is sent, and says so. Schemas the form cannot show open in the raw editor.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use holdbay_engine::FormSchema;
use holdbay_engine::model::JsonObject;
use leptos::prelude::*;
use serde_json::Value;

use super::fields::{Place, object_fields_view};
use super::state::{FieldState, draft_root, entries_alive, fits_draft, fits_root, read_root};

static NEXT_FORM: AtomicUsize = AtomicUsize::new(1);

/// A page-unique id prefix for a form's elements.
pub fn fresh_prefix(kind: &str) -> String {
    format!("{kind}{}", NEXT_FORM.fetch_add(1, Ordering::Relaxed))
}

/// The signals a form reads and writes.
#[derive(Clone, Copy)]
pub struct FormSignals {
    /// `Ok(object)` while the input is valid, else `Err(the first problem)`.
    pub value: RwSignal<Result<Value, String>>,
    /// What the form shows when (re)built: `None` = the schema's defaults. Setting it
    /// rebuilds the form (in the raw editor if the form cannot show it).
    pub seed: RwSignal<Option<Value>>,
    /// Follows what is entered, even while it is not valid yet (so the form can be rebuilt
    /// from it later, e.g. after a view switch).
    pub draft: Option<RwSignal<Option<Value>>>,
    /// The raw editor's text while it is open (so a rebuilt form reopens it as it was).
    pub raw_draft: Option<RwSignal<Option<String>>>,
    /// Show the JSON that will be sent under the form.
    pub preview: bool,
}

/// The form for `schema`.
pub fn schema_form(
    schema: &JsonObject,
    prefix: String,
    signals: FormSignals,
) -> impl IntoView + use<> {
    let FormSignals {
        value,
        seed,
        draft,
        raw_draft,
        preview,
    } = signals;
    let parsed = FormSchema::from_json(schema);
    let required: Vec<String> = parsed
        .as_ref()
        .map(|form| form.required().map(str::to_owned).collect())
        .unwrap_or_default();
    let (fields, unsupported) = match parsed {
        Ok(form) => (Some(Arc::new(form)), None),
        Err(why) => (None, Some(why)),
    };
    let raw = RwSignal::new(fields.is_none());
    let raw_text = RwSignal::new(String::new());
    let switch_problem = RwSignal::new(None::<String>);
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
    // Open the raw editor on `text`: it is what is sent from now on.
    let open_raw = {
        let parse_raw = parse_raw.clone();
        move |text: String| {
            value.set(parse_raw(&text));
            if let Some(raw_draft) = raw_draft {
                raw_draft.set(Some(text.clone()));
            }
            raw_text.set(text);
            raw.set(true);
        }
    };
    // Where the arguments `seed` holds are edited: the form if it can show them exactly.
    let place_seed = {
        let fields = fields.clone();
        let open_raw = open_raw.clone();
        move |seeded: Option<Value>| {
            let Some(fields) = fields.as_ref() else {
                // Only the raw editor: it shows the new arguments.
                if let Some(json) = seeded {
                    open_raw(serde_json::to_string_pretty(&json).unwrap_or_default());
                }
                return;
            };
            // A draft of this form may hold number text typed before it read as a number.
            match seeded.map(|json| (fits_draft(&fields.fields, &json), json)) {
                Some((Err(why), json)) => {
                    switch_problem.set(Some(format!(
                        "Edited as raw JSON: the form cannot show these arguments exactly ({why})."
                    )));
                    open_raw(serde_json::to_string_pretty(&json).unwrap_or_default());
                }
                _ => {
                    switch_problem.set(None);
                    if let Some(raw_draft) = raw_draft {
                        raw_draft.set(None);
                    }
                    raw.set(false);
                }
            }
        }
    };

    let kept_raw = raw_draft.and_then(|raw_draft| raw_draft.get_untracked());
    match (&fields, kept_raw) {
        // The raw editor was open when this form was last shown: as it was.
        (_, Some(text)) => open_raw(text),
        (None, None) => {
            let start = match (seed.get_untracked(), value.get_untracked()) {
                (Some(seeded @ Value::Object(_)), _) | (None, Ok(seeded @ Value::Object(_))) => {
                    seeded
                }
                _ => Value::Object(JsonObject::new()),
            };
            open_raw(serde_json::to_string_pretty(&start).unwrap_or_default());
        }
        (Some(_), None) => place_seed(seed.get_untracked()),
    }
    // A new seed from outside (a lesson's preset) is placed again.
    Effect::new({
        let place_seed = place_seed.clone();
        move |first: Option<()>| {
            let seeded = seed.get();
            if first.is_some() {
                untrack(|| place_seed(seeded));
            }
        }
    });

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
                .fields
                .iter()
                .map(|field| {
                    let given = seed.as_ref().and_then(|seed| seed.get(&field.name));
                    FieldState::new(field, given, with_defaults)
                })
                .collect();
            current.set_value(states.clone());
            value.set(untrack(|| read_root(&fields, &states)));
            let view = if fields.fields.is_empty() {
                view! { <p class="quiet form-empty">"No inputs."</p> }.into_any()
            } else {
                object_fields_view(
                    &fields.fields,
                    &states,
                    &Place {
                        id: prefix.clone(),
                        name: String::new(),
                        ancestors: Vec::new(),
                    },
                )
            };
            let watched = fields.clone();
            Effect::new(move |_| {
                if !entries_alive(&states) {
                    return;
                }
                value.set(read_root(&watched, &states));
                if let Some(draft) = draft {
                    draft.set(Some(draft_root(&watched.fields, &states)));
                }
            });
            Some(view! { <div class="schema-form">{view}</div> })
        }
    };

    let toggle = {
        let fields = fields.clone();
        let parse_raw = parse_raw.clone();
        let open_raw = open_raw.clone();
        move |_| {
            let Some(fields) = fields.as_ref() else {
                return;
            };
            if raw.get_untracked() {
                let back = parse_raw(&raw_text.get_untracked())
                    .and_then(|json| fits_root(&fields.fields, &json).map(|()| json));
                match back {
                    Ok(json) => {
                        switch_problem.set(None);
                        if let Some(raw_draft) = raw_draft {
                            raw_draft.set(None);
                        }
                        seed.set(Some(json));
                        raw.set(false);
                    }
                    Err(why) => switch_problem.set(Some(format!(
                        "Kept as raw JSON: it does not fit the form ({why})."
                    ))),
                }
            } else {
                let draft = current.with_value(|states| {
                    entries_alive(states).then(|| draft_root(&fields.fields, states))
                });
                // The form is being rebuilt: its entries are gone, nothing to open.
                let Some(draft) = draft else {
                    return;
                };
                switch_problem.set(None);
                open_raw(serde_json::to_string_pretty(&draft).unwrap_or_default());
            }
        }
    };

    let raw_id = format!("{prefix}-raw");
    let raw_editor = {
        let fields = fields.clone();
        move || {
            let parse_raw = parse_raw.clone();
            let fields = fields.clone();
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
                                if let Some(raw_draft) = raw_draft {
                                    raw_draft.set(Some(text.clone()));
                                }
                                value.set(parsed);
                                raw_text.set(text);
                            }
                        ></textarea>
                        {fields.map(|fields| raw_fit(fields, value))}
                    </div>
                }
            })
        }
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
    let preview = preview.then(|| json_preview(value));

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
            {preview}
        </div>
    }
}

/// While the raw editor is open: whether the form could show this JSON, or why only the raw
/// editor can (it is then sent exactly as written).
fn raw_fit(form: Arc<FormSchema>, value: RwSignal<Result<Value, String>>) -> impl IntoView + use<> {
    move || {
        let Ok(json) = value.get() else {
            return None;
        };
        Some(match fits_root(&form.fields, &json) {
            Ok(()) => view! {
                <p class="form-note raw-fit" data-fits="true">
                    "The form can show this JSON: “Back to the form” keeps it exactly."
                </p>
            }
            .into_any(),
            Err(why) => view! {
                <p class="form-note raw-fit raw-only" data-fits="false">
                    "Only the raw JSON can show this (" {why} "): it is sent exactly as written."
                </p>
            }
            .into_any(),
        })
    }
}

/// The exact JSON the arguments are, as it goes on the wire: one line in the summary,
/// pretty when opened.
fn json_preview(value: RwSignal<Result<Value, String>>) -> impl IntoView + use<> {
    let compact = move || {
        value.with(|v| match v {
            Ok(json) => json.to_string(),
            Err(_) => "not ready".to_owned(),
        })
    };
    let pretty = move || {
        value.with(|v| {
            v.as_ref()
                .ok()
                .and_then(|json| serde_json::to_string_pretty(json).ok())
                .unwrap_or_default()
        })
    };
    view! {
        <details class="json-preview">
            <summary>
                <span class="json-preview-title">"Arguments as sent"</span>
                <code class="json-preview-line">{compact}</code>
            </summary>
            <pre class="json-preview-body" tabindex="0">{pretty}</pre>
        </details>
    }
}
