//! The inputs of a schema form, one view per field kind. Labels, help and errors are
//! server-provided text and are rendered as text nodes only.

use std::sync::Arc;

use leptos::prelude::*;

use super::schema::{Field, Kind, TextInput};
use super::state::{FieldState, ListItem, count_problem, leaf_value};

/// Where a field sits: its element id (unique on the page) and its `name` attribute
/// (the property path, e.g. `address.city`).
#[derive(Clone)]
pub struct Place {
    pub id: String,
    pub name: String,
}

impl Place {
    pub fn child(&self, segment: &str) -> Place {
        let safe: String = segment
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        Place {
            id: format!("{}-{safe}", self.id),
            name: if self.name.is_empty() {
                segment.to_owned()
            } else {
                format!("{}.{segment}", self.name)
            },
        }
    }
}

/// Every field of an object, in schema order.
pub fn object_fields_view(fields: &[Arc<Field>], states: &[FieldState], place: &Place) -> AnyView {
    fields
        .iter()
        .zip(states)
        .map(|(field, state)| field_view(field.clone(), state.clone(), place.child(&field.name)))
        .collect_view()
        .into_any()
}

pub fn field_view(field: Arc<Field>, state: FieldState, place: Place) -> AnyView {
    match (&field.kind, state) {
        (Kind::Object(fields), FieldState::Object(states)) => view! {
            <fieldset class="form-object" id=place.id.clone()>
                <legend>{label_text(&field)}</legend>
                {help_view(&field, &place)}
                {object_fields_view(fields, &states, &place)}
            </fieldset>
        }
        .into_any(),
        (Kind::List { item, .. }, FieldState::List(items)) => {
            list_view(field.clone(), item.clone(), items, place)
        }
        (Kind::MultiChoice { options, .. }, FieldState::MultiChoice(flags)) => {
            let boxes = options
                .iter()
                .enumerate()
                .map(|(index, option)| {
                    let id = format!("{}-{index}", place.id);
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
                                }
                            />
                            <label for=id>{option.label.clone()}</label>
                        </span>
                    }
                })
                .collect_view();
            let problem = {
                let field = field.clone();
                move || count_problem(&field, flags.with(|f| f.iter().filter(|on| **on).count()))
            };
            view! {
                <fieldset class="form-field form-multi" id=place.id.clone()>
                    <legend>{label_text(&field)}</legend>
                    {help_view(&field, &place)}
                    <div class="check-options">{boxes}</div>
                    {move || problem().map(|why| view! { <p class="field-error">{why}</p> })}
                </fieldset>
            }
            .into_any()
        }
        (_, state) => leaf_view(field, state, place),
    }
}

fn label_text(field: &Field) -> impl IntoView + use<> {
    let mark = field
        .required
        .then(|| view! { <span class="required-mark" title="required">" *"</span> });
    view! { {field.label.clone()} {mark} }
}

fn help_view(field: &Field, place: &Place) -> Option<impl IntoView + use<>> {
    let id = format!("{}-help", place.id);
    field
        .help
        .clone()
        .map(|help| view! { <p class="field-help" id=id>{help}</p> })
}

/// One text, number, checkbox or select input, with its help and error text. "Required"
/// shows only once the user has been in the field, so a fresh form is not all red.
fn leaf_view(field: Arc<Field>, state: FieldState, place: Place) -> AnyView {
    let touched = RwSignal::new(false);
    let error = {
        let field = field.clone();
        let state = state.clone();
        Memo::new(move |_| match leaf_value(&field, &state) {
            Err(why) => Some(why),
            Ok(None) if field.required && touched.get() => Some("required".to_owned()),
            Ok(_) => None,
        })
    };
    let help_id = format!("{}-help", place.id);
    let described = field.help.is_some().then(|| help_id.clone());
    let id = place.id.clone();
    let name = place.name.clone();
    let required = field.required;
    let input = match (&field.kind, state) {
        (Kind::Boolean, FieldState::Boolean(checked)) => {
            return view! {
                <div class="form-field form-check">
                    <input
                        type="checkbox"
                        id=id.clone()
                        name=name
                        aria-describedby=described
                        prop:checked=move || checked.get()
                        on:change=move |event| checked.set(event_target_checked(&event))
                    />
                    <label for=id>{label_text(&field)}</label>
                    {help_view(&field, &place)}
                </div>
            }
            .into_any();
        }
        (Kind::Choice(options), FieldState::Choice(chosen)) => {
            // An empty choice only when the field may be left out or has nothing chosen yet.
            let blank = (!required || chosen.get_untracked().is_empty())
                .then(|| view! { <option value="">"— choose —"</option> });
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
                        chosen.set(event_target_value(&event));
                    }
                    on:blur=move |_| touched.set(true)
                >
                    {blank}
                    {options}
                </select>
            }
            .into_any()
        }
        (kind, FieldState::Text(text)) => {
            let (input_type, step, min, max) = match kind {
                Kind::Number {
                    integer,
                    minimum,
                    maximum,
                } => (
                    "number",
                    Some(if *integer { "1" } else { "any" }),
                    minimum.map(|m| m.to_string()),
                    maximum.map(|m| m.to_string()),
                ),
                Kind::Text { input, .. } => (
                    match input {
                        TextInput::Plain => "text",
                        TextInput::Email => "email",
                        TextInput::Uri => "url",
                        TextInput::Date => "date",
                        TextInput::DateTime => "datetime-local",
                    },
                    None,
                    None,
                    None,
                ),
                _ => ("text", None, None, None),
            };
            let (min_length, max_length) = match kind {
                Kind::Text {
                    min_length,
                    max_length,
                    ..
                } => (
                    min_length.map(|n| n.to_string()),
                    max_length.map(|n| n.to_string()),
                ),
                _ => (None, None),
            };
            view! {
                <input
                    type=input_type
                    id=id.clone()
                    name=name
                    step=step
                    min=min
                    max=max
                    minlength=min_length
                    maxlength=max_length
                    aria-describedby=described
                    aria-invalid=move || error.get().is_some().then_some("true")
                    aria-required=required.then_some("true")
                    prop:value=move || text.get()
                    on:input=move |event| text.set(event_target_value(&event))
                    on:blur=move |_| touched.set(true)
                />
            }
            .into_any()
        }
        _ => ().into_any(),
    };
    view! {
        <div class="form-field" class:invalid=move || error.get().is_some()>
            <label for=id>{label_text(&field)}</label>
            {input}
            {help_view(&field, &place)}
            {move || error.get().map(|why| view! { <p class="field-error">{why}</p> })}
        </div>
    }
    .into_any()
}

/// An array: its items, each removable, and a button to add one.
fn list_view(
    field: Arc<Field>,
    item: Arc<Field>,
    items: RwSignal<Vec<ListItem>>,
    place: Place,
) -> AnyView {
    // New items' signals belong to this view, so they are freed with it.
    let owner = Owner::current();
    let full = {
        let field = field.clone();
        move || {
            let count = items.with(Vec::len) as u64;
            matches!(&field.kind, Kind::List { max_items: Some(max), .. } if count >= *max)
        }
    };
    let add = {
        let item = item.clone();
        move |_| {
            let make = || ListItem::new(&item, None, true);
            let fresh = match &owner {
                Some(owner) => owner.with(make),
                None => make(),
            };
            items.update(|items| items.push(fresh));
        }
    };
    let problem = {
        let field = field.clone();
        move || count_problem(&field, items.with(Vec::len))
    };
    let list_place = place.clone();
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
    view! {
        <fieldset class="form-field form-list" id=place.id.clone()>
            <legend>{label_text(&field)}</legend>
            {help_view(&field, &place)}
            <ol class="form-list-items">{rows}</ol>
            {move || {
                items.with(Vec::is_empty).then(|| view! { <p class="quiet form-list-empty">"No items."</p> })
            }}
            <button type="button" class="add-item" on:click=add disabled=full>
                "Add item"
            </button>
            {move || problem().map(|why| view! { <p class="field-error">{why}</p> })}
        </fieldset>
    }
    .into_any()
}
