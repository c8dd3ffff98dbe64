//! What the user has entered in a schema form (one signal per input), its validation, and
//! the JSON it stands for.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use serde_json::{Map, Number, Value};

use super::schema::{Field, Kind, TextInput, choice_key};

/// The entered state of one field, shaped like its [`Kind`].
#[derive(Clone)]
pub enum FieldState {
    /// Text and number inputs keep the text as typed.
    Text(RwSignal<String>),
    Boolean(RwSignal<bool>),
    /// The chosen option's key (`""`: none).
    Choice(RwSignal<String>),
    /// One flag per option.
    MultiChoice(RwSignal<Vec<bool>>),
    List(RwSignal<Vec<ListItem>>),
    Object(Vec<FieldState>),
}

/// An array item, with an id that stays stable while other items come and go.
#[derive(Clone)]
pub struct ListItem {
    pub id: usize,
    pub state: FieldState,
}

static NEXT_ITEM: AtomicUsize = AtomicUsize::new(0);

impl ListItem {
    pub fn new(field: &Field, value: Option<&Value>, defaults: bool) -> Self {
        Self {
            id: NEXT_ITEM.fetch_add(1, Ordering::Relaxed),
            state: FieldState::new(field, value, defaults),
        }
    }
}

impl FieldState {
    /// The state showing `value`; where it is None, the field's default if `defaults`, else
    /// empty. Values of the wrong shape are ignored (use [`fits_root`] first when that matters).
    pub fn new(field: &Field, value: Option<&Value>, defaults: bool) -> Self {
        let value = value.or(field.default.as_ref().filter(|_| defaults));
        match &field.kind {
            Kind::Text { input, .. } => {
                let text = value.and_then(Value::as_str).unwrap_or_default();
                let text = match input {
                    TextInput::DateTime => iso_to_local(text),
                    _ => text.to_owned(),
                };
                Self::Text(RwSignal::new(text))
            }
            // A number, or the text typed before it read as one (a draft).
            Kind::Number { .. } => Self::Text(RwSignal::new(match value {
                Some(Value::Number(number)) => number.to_string(),
                Some(Value::String(typed)) => typed.clone(),
                _ => String::new(),
            })),
            Kind::Boolean => Self::Boolean(RwSignal::new(
                value.and_then(Value::as_bool).unwrap_or(false),
            )),
            Kind::Choice(options) => Self::Choice(RwSignal::new(
                value
                    .filter(|value| options.iter().any(|option| &option.value == *value))
                    .map(choice_key)
                    .unwrap_or_default(),
            )),
            Kind::MultiChoice { options, .. } => {
                let chosen = value.and_then(Value::as_array);
                Self::MultiChoice(RwSignal::new(
                    options
                        .iter()
                        .map(|option| chosen.is_some_and(|chosen| chosen.contains(&option.value)))
                        .collect(),
                ))
            }
            Kind::List { item, .. } => Self::List(RwSignal::new(
                value
                    .and_then(Value::as_array)
                    .map(|values| {
                        values
                            .iter()
                            .map(|value| ListItem::new(item, Some(value), defaults))
                            .collect()
                    })
                    .unwrap_or_default(),
            )),
            Kind::Object(fields) => {
                let object = value.and_then(Value::as_object);
                Self::Object(
                    fields
                        .iter()
                        .map(|field| {
                            FieldState::new(
                                field,
                                object.and_then(|o| o.get(&field.name)),
                                defaults,
                            )
                        })
                        .collect(),
                )
            }
        }
    }
}

/// The JSON of the whole form (the top-level object), or the first problem, named by its
/// field's label.
pub fn read_root(fields: &[Arc<Field>], states: &[FieldState]) -> Result<Value, String> {
    read_object(fields, states).map(Value::Object)
}

fn read_object(fields: &[Arc<Field>], states: &[FieldState]) -> Result<Map<String, Value>, String> {
    let mut object = Map::new();
    for (field, state) in fields.iter().zip(states) {
        match read(field, state) {
            Ok(Some(value)) => {
                object.insert(field.name.clone(), value);
            }
            Ok(None) => {}
            Err(why) => return Err(format!("{}: {why}", field.label)),
        }
    }
    Ok(object)
}

/// What is entered now, as JSON, valid or not yet: valid fields as their values, a text
/// or number input that does not read yet as the text typed, the others skipped. A starting
/// point for editing as raw JSON, and what a rebuilt form shows again.
pub fn draft_root(fields: &[Arc<Field>], states: &[FieldState]) -> Value {
    let mut object = Map::new();
    for (field, state) in fields.iter().zip(states) {
        match (read(field, state), state) {
            (Ok(Some(value)), _) => {
                object.insert(field.name.clone(), value);
            }
            (Err(_), FieldState::Text(text)) if !text.with(|t| t.trim().is_empty()) => {
                object.insert(field.name.clone(), Value::String(text.get()));
            }
            _ => {}
        }
    }
    Value::Object(object)
}

/// The JSON of one field: None when it is left empty (and may be).
pub fn read(field: &Field, state: &FieldState) -> Result<Option<Value>, String> {
    let value = match (&field.kind, state) {
        (Kind::Object(fields), FieldState::Object(states)) => {
            // An optional object left wholly empty is left out, whatever its own fields require.
            if !field.required
                && draft_root(fields, states)
                    .as_object()
                    .is_some_and(Map::is_empty)
            {
                return Ok(None);
            }
            let object = read_object(fields, states)?;
            (field.required || !object.is_empty()).then_some(Value::Object(object))
        }
        (Kind::List { item, .. }, FieldState::List(items)) => {
            let items = items.get();
            let mut values = Vec::with_capacity(items.len());
            for (index, entry) in items.iter().enumerate() {
                match read(item, &entry.state) {
                    Ok(Some(value)) => values.push(value),
                    Ok(None) => return Err(format!("item {} is empty", index + 1)),
                    Err(why) => return Err(format!("item {}: {why}", index + 1)),
                }
            }
            count_problem(field, values.len()).map_or(Ok(()), Err)?;
            (field.required || !values.is_empty()).then_some(Value::Array(values))
        }
        _ => leaf_value(field, state)?,
    };
    if value.is_none() && field.required {
        return Err("required".to_owned());
    }
    Ok(value)
}

/// The value of a single input (not objects or lists), checked against its constraints.
pub fn leaf_value(field: &Field, state: &FieldState) -> Result<Option<Value>, String> {
    match (&field.kind, state) {
        (
            Kind::Text {
                input,
                min_length,
                max_length,
            },
            FieldState::Text(text),
        ) => {
            let text = text.get();
            if text.is_empty() {
                return Ok(None);
            }
            let length = text.chars().count() as u64;
            if let Some(min) = min_length.filter(|min| length < *min) {
                return Err(format!("at least {min} characters"));
            }
            if let Some(max) = max_length.filter(|max| length > *max) {
                return Err(format!("at most {max} characters"));
            }
            check_format(*input, &text).map(|text| Some(Value::String(text)))
        }
        (
            Kind::Number {
                integer,
                minimum,
                maximum,
            },
            FieldState::Text(text),
        ) => {
            let text = text.get();
            let text = text.trim();
            if text.is_empty() {
                return Ok(None);
            }
            let number: f64 = text.parse().map_err(|_| "not a number".to_owned())?;
            if !number.is_finite() {
                return Err("not a number".to_owned());
            }
            if minimum.is_some_and(|min| number < min) {
                return Err(format!("at least {}", minimum.unwrap_or_default()));
            }
            if maximum.is_some_and(|max| number > max) {
                return Err(format!("at most {}", maximum.unwrap_or_default()));
            }
            if *integer {
                if number.fract() != 0.0 || number.abs() > 9_007_199_254_740_991.0 {
                    return Err("a whole number".to_owned());
                }
                return Ok(Some(Value::Number(Number::from(number as i64))));
            }
            Ok(Number::from_f64(number).map(Value::Number))
        }
        (Kind::Boolean, FieldState::Boolean(checked)) => Ok(Some(Value::Bool(checked.get()))),
        (Kind::Choice(options), FieldState::Choice(key)) => {
            let key = key.get();
            Ok(options
                .iter()
                .find(|option| option.key() == key)
                .map(|option| option.value.clone()))
        }
        (Kind::MultiChoice { options, .. }, FieldState::MultiChoice(flags)) => {
            let chosen: Vec<Value> = options
                .iter()
                .zip(flags.get())
                .filter(|(_, on)| *on)
                .map(|(option, _)| option.value.clone())
                .collect();
            count_problem(field, chosen.len()).map_or(Ok(()), Err)?;
            Ok((field.required || !chosen.is_empty()).then_some(Value::Array(chosen)))
        }
        _ => Ok(None),
    }
}

/// `minItems`/`maxItems` broken by `count` items, if so.
pub fn count_problem(field: &Field, count: usize) -> Option<String> {
    let (min, max) = match &field.kind {
        Kind::List {
            min_items,
            max_items,
            ..
        }
        | Kind::MultiChoice {
            min_items,
            max_items,
            ..
        } => (*min_items, *max_items),
        _ => return None,
    };
    let count = count as u64;
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    if let Some(min) = min.filter(|min| count < *min) {
        return Some(format!("choose or add at least {min} item{}", plural(min)));
    }
    max.filter(|max| count > *max)
        .map(|max| format!("at most {max} item{}", plural(max)))
}

/// The text to send for a string of this format, or why it does not fit.
fn check_format(input: TextInput, text: &str) -> Result<String, String> {
    match input {
        TextInput::Plain => Ok(text.to_owned()),
        TextInput::Email => {
            let (local, domain) = text.split_once('@').unwrap_or_default();
            if local.is_empty() || domain.is_empty() || text.contains(char::is_whitespace) {
                Err("an email address, like name@example.com".to_owned())
            } else {
                Ok(text.to_owned())
            }
        }
        TextInput::Uri => web_sys::Url::new(text)
            .map(|_| text.to_owned())
            .map_err(|_| "a full address, like https://example.com/".to_owned()),
        TextInput::Date => {
            if is_date(text) {
                Ok(text.to_owned())
            } else {
                Err("a date, like 2026-07-28".to_owned())
            }
        }
        TextInput::DateTime => local_to_iso(text).ok_or_else(|| "a date and time".to_owned()),
    }
}

fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(index, byte)| index == 4 || index == 7 || byte.is_ascii_digit())
}

/// A `datetime-local` input's text (the user's local time) as RFC 3339 in UTC.
fn local_to_iso(local: &str) -> Option<String> {
    let date = js_sys::Date::new(&local.into());
    if date.get_time().is_nan() {
        return None;
    }
    Some(String::from(date.to_iso_string()).replace(".000Z", "Z"))
}

/// An RFC 3339 date-time as `datetime-local` text in the user's local time ("" if unreadable).
fn iso_to_local(iso: &str) -> String {
    if iso.is_empty() {
        return String::new();
    }
    let date = js_sys::Date::new(&iso.into());
    if date.get_time().is_nan() {
        return String::new();
    }
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}",
        date.get_full_year(),
        date.get_month() + 1,
        date.get_date(),
        date.get_hours(),
        date.get_minutes()
    )
}

/// Whether the form can show `value` exactly (so switching from raw JSON loses nothing).
pub fn fits_root(fields: &[Arc<Field>], value: &Value) -> Result<(), String> {
    let Value::Object(object) = value else {
        return Err("the arguments must be a JSON object".to_owned());
    };
    fits_object(fields, object)
}

fn fits_object(fields: &[Arc<Field>], object: &Map<String, Value>) -> Result<(), String> {
    for key in object.keys() {
        if !fields.iter().any(|field| &field.name == key) {
            return Err(format!("the form has no field `{key}`"));
        }
    }
    for field in fields {
        if let Some(value) = object.get(&field.name) {
            fits(field, value).map_err(|why| format!("`{}`: {why}", field.name))?;
        }
    }
    Ok(())
}

fn fits(field: &Field, value: &Value) -> Result<(), String> {
    let ok = match &field.kind {
        Kind::Text { input, .. } => {
            value.is_string() && (*input != TextInput::DateTime || value_is_datetime(value))
        }
        Kind::Number { integer, .. } => {
            value.is_i64() || value.is_u64() || (!integer && value.is_f64())
        }
        Kind::Boolean => value.is_boolean(),
        Kind::Choice(options) => options.iter().any(|option| &option.value == value),
        Kind::MultiChoice { options, .. } => value.as_array().is_some_and(|values| {
            values
                .iter()
                .all(|value| options.iter().any(|option| &option.value == value))
        }),
        Kind::List { item, .. } => match value.as_array() {
            Some(values) => {
                for value in values {
                    fits(item, value)?;
                }
                true
            }
            None => false,
        },
        Kind::Object(fields) => match value.as_object() {
            Some(object) => return fits_object(fields, object),
            None => false,
        },
    };
    if ok {
        Ok(())
    } else {
        Err("does not fit the form's field".to_owned())
    }
}

fn value_is_datetime(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|text| !js_sys::Date::new(&text.into()).get_time().is_nan())
}
