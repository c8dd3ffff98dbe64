//! The inputs of a schema form, one view per field kind, each with its presence controls
//! ("Leave out", "null") where the schema allows them. Labels, help and errors are
//! server-provided text and are rendered as text nodes only.

use std::sync::Arc;

use leptos::prelude::*;

use super::state::{
    Entry, FieldState, LineEnding, ListItem, Presence, TextEntry, leaf_problem, line_endings,
    with_line_ending,
};
use holdbay_engine::{FieldKind, FormField, TextFormat};

/// Where a field sits: its element id (unique on the page), its `name` attribute (the
/// property path, e.g. `address.city`), and the presence of each object or list it sits in
/// (entering a value sends them too).
#[derive(Clone)]
pub struct Place {
    pub id: String,
    pub name: String,
    pub ancestors: Vec<RwSignal<Presence>>,
}

impl Place {
    /// The place of a property of the object at this place.
    pub fn child(&self, segment: &str) -> Place {
        let safe = crate::ui::dom_id::id_part(segment);
        Place {
            id: format!("{}-{safe}", self.id),
            name: if self.name.is_empty() {
                segment.to_owned()
            } else {
                format!("{}.{segment}", self.name)
            },
            ancestors: self.ancestors.clone(),
        }
    }
}

/// Send the field (and everything it sits in): the user entered a value.
fn present(presence: RwSignal<Presence>, ancestors: &[RwSignal<Presence>]) {
    for signal in ancestors.iter().chain([&presence]) {
        if signal.get_untracked() != Presence::Value {
            signal.set(Presence::Value);
        }
    }
}

fn presence_name(presence: Presence) -> &'static str {
    match presence {
        Presence::Omitted => "omitted",
        Presence::Null => "null",
        Presence::Value => "value",
    }
}

/// Every field of an object, in schema order.
pub fn object_fields_view(
    fields: &[Arc<FormField>],
    states: &[FieldState],
    place: &Place,
) -> AnyView {
    fields
        .iter()
        .zip(states)
        .map(|(field, state)| field_view(field.clone(), state.clone(), place.child(&field.name)))
        .collect_view()
        .into_any()
}

pub fn field_view(field: Arc<FormField>, state: FieldState, place: Place) -> AnyView {
    let presence = state.presence;
    match (&field.kind, state.entry.clone()) {
        (FieldKind::Object(fields), Entry::Object(states)) => {
            let inner = Place {
                ancestors: place.ancestors.iter().copied().chain([presence]).collect(),
                ..place.clone()
            };
            let children = fields
                .iter()
                .zip(&states)
                .map(|(child, child_state)| {
                    field_view(child.clone(), child_state.clone(), inner.child(&child.name))
                })
                .collect_view();
            let parts = view! { <div class="form-object-fields">{children}</div> };
            // An object's fields are not counted.
            group_view("form-object", &field, presence, &place, parts, || None)
        }
        (FieldKind::List { item, .. }, Entry::List(items)) => {
            list_view(field.clone(), item.clone(), items, presence, place)
        }
        (FieldKind::MultiChoice { options, .. }, Entry::MultiChoice(flags)) => {
            let ancestors = place.ancestors.clone();
            let boxes = options
                .iter()
                .enumerate()
                .map(|(index, option)| {
                    let id = format!("{}-{index}", place.id);
                    let ancestors = ancestors.clone();
                    view! {
                        <span class="check-option">
                            <input
                                type="checkbox"
                                id=id.clone()
                                name=place.name.clone()
                                value=option.key()
                                prop:checked=move || flags.with(|f| f.get(index).copied().unwrap_or(false))
                                on:change=move |event| {
                                    let on = event_target_checked(&event);
                                    flags.update(|f| if let Some(flag) = f.get_mut(index) { *flag = on });
                                    present(presence, &ancestors);
                                }
                            />
                            <label for=id>{option.label.clone()}</label>
                        </span>
                    }
                })
                .collect_view();
            let ticked = move || Some(flags.with(|f| f.iter().filter(|on| **on).count()));
            let parts = view! { <div class="check-options">{boxes}</div> };
            group_view(
                "form-field form-multi",
                &field,
                presence,
                &place,
                parts,
                ticked,
            )
        }
        (_, _) => leaf_view(field, state, place),
    }
}

/// The frame of a field made of parts (an object's fields, a list's items, a set of choices):
/// legend, presence controls, help and what is sent above the parts; where the parts are
/// counted (`count` says how many), the count's problem (too few, too many) below them.
fn group_view(
    class: &'static str,
    field: &Arc<FormField>,
    presence: RwSignal<Presence>,
    place: &Place,
    parts: impl IntoView + 'static,
    count: impl Fn() -> Option<usize> + Send + Sync + 'static,
) -> AnyView {
    let problem = {
        let field = field.clone();
        move || {
            if presence.get() != Presence::Value {
                return None;
            }
            let why = field.count_problem(count()?)?;
            Some(view! { <p class="field-error">{why}</p> })
        }
    };
    view! {
        <fieldset
            class=class
            id=place.id.clone()
            data-presence=move || presence_name(presence.get())
        >
            <legend>{label_text(field)}</legend>
            {presence_controls(field, presence, place)}
            {help_view(field, place)}
            {presence_note(field, presence)}
            {parts}
            {problem}
        </fieldset>
    }
    .into_any()
}

fn label_text(field: &FormField) -> impl IntoView + use<> {
    let mark = field
        .required
        .then(|| view! { <span class="required-mark" title="required">" *"</span> });
    view! { {field.label.clone()} {mark} }
}

fn help_view(field: &FormField, place: &Place) -> Option<impl IntoView + use<>> {
    let id = format!("{}-help", place.id);
    field
        .help
        .clone()
        .map(|help| view! { <p class="field-help" id=id>{help}</p> })
}

/// "Leave out" for an optional field, "null" where the schema allows it: toggles, pressed
/// while the field is in that state. Pressing a pressed one sends the value again.
fn presence_controls(
    field: &FormField,
    presence: RwSignal<Presence>,
    place: &Place,
) -> Option<impl IntoView + use<>> {
    if field.required && !field.nullable {
        return None;
    }
    let toggle = move |state: Presence, ancestors: Vec<RwSignal<Presence>>| {
        move |_: leptos::ev::MouseEvent| {
            if presence.get_untracked() == state {
                present(presence, &ancestors);
            } else {
                // A null is sent, so whatever holds it is sent too.
                if state == Presence::Null {
                    present(presence, &ancestors);
                }
                presence.set(state);
            }
        }
    };
    let pressed = move |state: Presence| move || (presence.get() == state).to_string();
    let chips = [
        (
            !field.required,
            Presence::Omitted,
            "chip presence-omit",
            format!("Leave out {}", field.label),
            "Leave the field out: its key is not sent",
            "Leave out",
        ),
        (
            field.nullable,
            Presence::Null,
            "chip presence-null",
            format!("Send {} as null", field.label),
            "Send null (the schema allows it)",
            "null",
        ),
    ]
    .into_iter()
    .filter(|(offered, ..)| *offered)
    .map(|(_, state, class, label, title, words)| {
        view! {
            <button
                type="button"
                class=class
                aria-pressed=pressed(state)
                aria-label=label
                title=title
                on:click=toggle(state, place.ancestors.clone())
            >
                {words}
            </button>
        }
    })
    .collect_view();
    Some(view! { <span class="presence-controls">{chips}</span> })
}

/// Says what is sent when it is not the value shown (a required field not entered yet says
/// "required" once touched instead).
fn presence_note(field: &FormField, presence: RwSignal<Presence>) -> impl IntoView + use<> {
    let required = field.required;
    move || match presence.get() {
        Presence::Omitted if required => None,
        Presence::Omitted => Some(view! { <p class="presence-note">"Left out: not sent."</p> }),
        Presence::Null => Some(view! { <p class="presence-note">"Sent as null."</p> }),
        Presence::Value => None,
    }
}

/// One text, number, checkbox or select input, with its presence controls, help and error
/// text. "Required" shows only once the user has been in the field, so a fresh form is not
/// all red.
fn leaf_view(field: Arc<FormField>, state: FieldState, place: Place) -> AnyView {
    let presence = state.presence;
    let touched = RwSignal::new(false);
    let error = {
        let field = field.clone();
        let state = state.clone();
        Memo::new(move |_| match leaf_problem(&field, &state) {
            Some(why) if why == "required" && !touched.get() => None,
            other => other,
        })
    };
    let help_id = format!("{}-help", place.id);
    let described = field.help.is_some().then(|| help_id.clone());
    let id = place.id.clone();
    let name = place.name.clone();
    let required = field.required;
    let ancestors = place.ancestors.clone();
    let controls = presence_controls(&field, presence, &place);
    let input = match (&field.kind, state.entry.clone()) {
        (FieldKind::Boolean, Entry::Boolean(checked)) => {
            return view! {
                <div
                    class="form-field form-check"
                    class:omitted=move || presence.get() == Presence::Omitted
                    class:is-null=move || presence.get() == Presence::Null
                    data-presence=move || presence_name(presence.get())
                >
                    <div class="field-head">
                        <input
                            type="checkbox"
                            id=id.clone()
                            name=name
                            aria-describedby=described
                            prop:checked=move || presence.get() == Presence::Value && checked.get()
                            prop:indeterminate=move || presence.get() != Presence::Value
                            on:change=move |event| {
                                checked.set(event_target_checked(&event));
                                present(presence, &ancestors);
                            }
                        />
                        <label for=id>{label_text(&field)}</label>
                        {controls}
                    </div>
                    {help_view(&field, &place)}
                    {presence_note(&field, presence)}
                </div>
            }
            .into_any();
        }
        (FieldKind::Choice(options), Entry::Choice(chosen)) => {
            // An empty choice only when the field may be left out or has nothing chosen yet.
            let blank = (!required || chosen.get_untracked().is_empty())
                .then(|| view! { <option value="" prop:selected=move || chosen.get().is_empty()>"— choose —"</option> });
            let options = options
                .iter()
                .map(|option| {
                    let key = option.key();
                    let selected = key.clone();
                    view! {
                        <option value=key prop:selected=move || chosen.get() == selected>
                            {option.label.clone()}
                        </option>
                    }
                })
                .collect_view();
            view! {
                <select
                    id=id.clone()
                    name=name
                    aria-describedby=described
                    aria-invalid=move || error.get().is_some().then_some("true")
                    aria-required=required.then_some("true")
                    on:change=move |event| {
                        touched.set(true);
                        let key = event_target_value(&event);
                        let none = key.is_empty();
                        chosen.set(key);
                        if none && !required {
                            presence.set(Presence::Omitted);
                        } else {
                            present(presence, &ancestors);
                        }
                    }
                    on:blur=move |_| touched.set(true)
                >
                    {blank}
                    {options}
                </select>
            }
            .into_any()
        }
        (kind, Entry::Text(entry)) => {
            text_input(kind, entry, presence, &field, &place, (touched, error))
        }
        _ => ().into_any(),
    };
    let multiline = match (&field.kind, &state.entry) {
        (
            FieldKind::Text {
                format: TextFormat::Plain,
                ..
            },
            Entry::Text(entry),
        ) => Some(multiline_toggle(*entry)),
        _ => None,
    };
    let empty_string = match (&field.kind, &state.entry) {
        (FieldKind::Text { .. }, Entry::Text(entry)) => Some(*entry),
        _ => None,
    }
    .map(|entry| {
        move || {
            (presence.get() == Presence::Value && entry.text.with(String::is_empty)).then(|| {
                view! { <p class="presence-note empty-string">"Sent as an empty string."</p> }
            })
        }
    });
    view! {
        <div
            class="form-field"
            class:invalid=move || error.get().is_some()
            class:omitted=move || presence.get() == Presence::Omitted
            class:is-null=move || presence.get() == Presence::Null
            data-presence=move || presence_name(presence.get())
        >
            <div class="field-head">
                <label for=id>{label_text(&field)}</label>
                {controls}
                {multiline}
            </div>
            {input}
            {help_view(&field, &place)}
            {presence_note(&field, presence)}
            {empty_string}
            {move || error.get().map(|why| view! { <p class="field-error">{why}</p> })}
        </div>
    }
    .into_any()
}

/// A text or number input; a plain string in multi-line mode is a text area with its line
/// break kind beside it.
fn text_input(
    kind: &FieldKind,
    entry: TextEntry,
    presence: RwSignal<Presence>,
    field: &FormField,
    place: &Place,
    (touched, error): (RwSignal<bool>, Memo<Option<String>>),
) -> AnyView {
    let id = place.id.clone();
    let name = place.name.clone();
    let required = field.required;
    let described = field.help.is_some().then(|| format!("{}-help", place.id));
    let ancestors = place.ancestors.clone();
    let (input_type, step, min, max, plain) = match kind {
        FieldKind::Number {
            integer,
            minimum,
            maximum,
            ..
        } => (
            "number",
            Some(if *integer { "1" } else { "any" }),
            minimum.map(|m| m.to_string()),
            maximum.map(|m| m.to_string()),
            false,
        ),
        FieldKind::Text { format, .. } => (
            match format {
                TextFormat::Plain => "text",
                TextFormat::Email => "email",
                TextFormat::Uri => "url",
                TextFormat::Date => "date",
                TextFormat::DateTime => "datetime-local",
            },
            None,
            None,
            None,
            *format == TextFormat::Plain,
        ),
        _ => ("text", None, None, None, true),
    };
    let (min_length, max_length) = match kind {
        FieldKind::Text {
            min_length,
            max_length,
            ..
        } => (
            min_length.map(|n| n.to_string()),
            max_length.map(|n| n.to_string()),
        ),
        _ => (None, None),
    };
    let text = entry.text;
    let typed_in_line = {
        let ancestors = ancestors.clone();
        move |typed: String| {
            // An empty number, date or address is no value: an optional one is left out.
            // An empty plain string is a value: "".
            let leave_out = typed.is_empty() && !plain && !required;
            text.set(typed);
            if leave_out {
                presence.set(Presence::Omitted);
            } else {
                present(presence, &ancestors);
            }
        }
    };
    let single = {
        let id = id.clone();
        let name = name.clone();
        let described = described.clone();
        move || {
            let typed_in_line = typed_in_line.clone();
            view! {
                <input
                    type=input_type
                    id=id.clone()
                    name=name.clone()
                    step=step
                    min=min.clone()
                    max=max.clone()
                    minlength=min_length.clone()
                    maxlength=max_length.clone()
                    aria-describedby=described.clone()
                    aria-invalid=move || error.get().is_some().then_some("true")
                    aria-required=required.then_some("true")
                    prop:value=move || text.get()
                    on:input=move |event| typed_in_line(event_target_value(&event))
                    on:blur=move |_| touched.set(true)
                />
            }
        }
    };
    let multi = move || {
        let ancestors = ancestors.clone();
        let ending = entry.ending;
        view! {
            <textarea
                id=id.clone()
                name=name.clone()
                class="text-lines"
                rows="4"
                spellcheck="false"
                aria-describedby=described.clone()
                aria-invalid=move || error.get().is_some().then_some("true")
                aria-required=required.then_some("true")
                prop:value=move || text.get()
                on:input=move |event| {
                    // The element holds `\n` only: the line break kind is the form's.
                    let typed = event_target_value(&event);
                    text.set(with_line_ending(&typed, ending.get_untracked()));
                    present(presence, &ancestors);
                }
                on:blur=move |_| touched.set(true)
            ></textarea>
            {line_ending_select(entry, format!("{}-ending", id))}
        }
    };
    let multiline = entry.multiline;
    view! {
        {move || {
            if plain && multiline.get() {
                multi().into_any()
            } else {
                single().into_any()
            }
        }}
    }
    .into_any()
}

/// "Multi-line": a text area instead of a one-line input. A text with line breaks stays
/// multi-line (a one-line input would drop them).
fn multiline_toggle(entry: TextEntry) -> impl IntoView + use<> {
    let locked = move || entry.multiline.get() && entry.text.with(|t| !line_endings(t).is_empty());
    view! {
        <button
            type="button"
            class="chip multiline-toggle"
            aria-pressed=move || entry.multiline.get().to_string()
            disabled=locked
            title=move || {
                if locked() {
                    "The text has line breaks: it stays multi-line"
                } else {
                    "Edit as several lines"
                }
            }
            on:click=move |_| entry.multiline.update(|on| *on = !*on)
        >
            "Multi-line"
        </button>
    }
}

/// The kind of line break a multi-line text is sent with.
fn line_ending_select(entry: TextEntry, id: String) -> impl IntoView + use<> {
    let options = LineEnding::ALL
        .into_iter()
        .map(|ending| {
            view! {
                <option value=ending.label() prop:selected=move || entry.ending.get() == ending>
                    {ending.label()}
                </option>
            }
        })
        .collect_view();
    view! {
        <span class="line-ending-choice">
            <label for=id.clone()>"Line breaks sent as"</label>
            <select
                id=id
                class="line-ending"
                on:change=move |event| {
                    if let Some(ending) = LineEnding::from_label(&event_target_value(&event)) {
                        entry.ending.set(ending);
                        entry.text.update(|text| *text = with_line_ending(text, ending));
                    }
                }
            >
                {options}
            </select>
        </span>
    }
}

/// An array: its items, each removable, and a button to add one.
fn list_view(
    field: Arc<FormField>,
    item: Arc<FormField>,
    items: RwSignal<Vec<ListItem>>,
    presence: RwSignal<Presence>,
    place: Place,
) -> AnyView {
    // New items' signals belong to this view, so they are freed with it.
    let owner = Owner::current();
    let full = {
        let field = field.clone();
        move || {
            let count = items.with(Vec::len) as u64;
            matches!(&field.kind, FieldKind::List { max_items: Some(max), .. } if count >= *max)
        }
    };
    let add = {
        let item = item.clone();
        let ancestors = place.ancestors.clone();
        move |_| {
            let make = || ListItem::new(&item, None, true);
            let fresh = match &owner {
                Some(owner) => owner.with(make),
                None => make(),
            };
            items.update(|items| items.push(fresh));
            present(presence, &ancestors);
        }
    };
    let list_place = Place {
        ancestors: place.ancestors.iter().copied().chain([presence]).collect(),
        ..place.clone()
    };
    let rows = move || {
        items
            .get()
            .into_iter()
            .enumerate()
            .map(|(index, entry)| {
                let id = entry.id;
                let item_place = Place {
                    id: format!("{}-{id}", list_place.id),
                    name: format!("{}.{index}", list_place.name),
                    ancestors: list_place.ancestors.clone(),
                };
                let label = format!("Remove item {}", index + 1);
                view! {
                    <li class="form-list-item">
                        <div class="form-list-body">
                            {field_view(item.clone(), entry.state.clone(), item_place)}
                        </div>
                        <button
                            type="button"
                            class="remove-item"
                            aria-label=label
                            on:click=move |_| items.update(|items| items.retain(|i| i.id != id))
                        >
                            "Remove"
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    let parts = view! {
        <ol class="form-list-items">{rows}</ol>
        {move || {
            items.with(Vec::is_empty).then(|| view! { <p class="quiet form-list-empty">"No items."</p> })
        }}
        <button type="button" class="add-item" on:click=add disabled=full>
            "Add item"
        </button>
    };
    let count = move || Some(items.with(Vec::len));
    group_view(
        "form-field form-list",
        &field,
        presence,
        &place,
        parts,
        count,
    )
}
