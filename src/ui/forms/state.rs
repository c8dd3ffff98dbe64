//! What the user has entered in a schema form (one signal per input), whether each field is
//! sent at all, and the exact JSON it stands for: text read into values here, every value
//! checked by the engine's form schema (with the browser's `RegExp` for `pattern`).
//!
//! Every field has a [`Presence`]: left out (the key is not sent), `null` (where the schema
//! allows it), or a value. Required fields are always sent. A present string is sent as
//! typed, spaces, an empty string and line breaks included (see [`LineEnding`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use serde_json::{Map, Number, Value};

use holdbay_engine::{FieldChoice, FieldKind, FormField, FormSchema, TextFormat};

use super::pattern::BrowserRegExp;

/// Whether and how a field is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// The key is not sent (for a required field: nothing entered yet, so the form is not
    /// ready).
    Omitted,
    /// Sent as `null`.
    Null,
    /// Sent with the value entered.
    Value,
}

/// The line break a multi-line text's lines are joined with. A browser's text area only
/// holds `\n` (it turns `\r\n` and `\r` into `\n`), so the kind is kept beside the text and
/// the exact string is kept in the state, never read back from the element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
    Cr,
}

impl LineEnding {
    pub const ALL: [LineEnding; 3] = [LineEnding::Lf, LineEnding::CrLf, LineEnding::Cr];

    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
            LineEnding::Cr => "\r",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            LineEnding::Lf => "LF",
            LineEnding::CrLf => "CRLF",
            LineEnding::Cr => "CR",
        }
    }

    pub fn from_label(label: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|ending| ending.label() == label)
    }
}

/// The kinds of line break in `text`, in the order first met.
pub fn line_endings(text: &str) -> Vec<LineEnding> {
    let mut found = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let ending = match c {
            '\r' if chars.peek() == Some(&'\n') => {
                chars.next();
                LineEnding::CrLf
            }
            '\r' => LineEnding::Cr,
            '\n' => LineEnding::Lf,
            _ => continue,
        };
        if !found.contains(&ending) {
            found.push(ending);
        }
    }
    found
}

/// `text` with every line break (of any kind) written as `ending`.
pub fn with_line_ending(text: &str, ending: LineEnding) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\n', ending.as_str())
}

/// The entered state of one field.
#[derive(Clone)]
pub struct FieldState {
    pub presence: RwSignal<Presence>,
    pub entry: Entry,
}

/// What is entered, shaped like the field's [`Kind`].
#[derive(Clone)]
pub enum Entry {
    /// Text and number inputs.
    Text(TextEntry),
    Boolean(RwSignal<bool>),
    /// The chosen option's key (`""`: none).
    Choice(RwSignal<String>),
    /// One flag per option.
    MultiChoice(RwSignal<Vec<bool>>),
    List(RwSignal<Vec<ListItem>>),
    Object(Vec<FieldState>),
}

/// A text or number input.
#[derive(Clone, Copy)]
pub struct TextEntry {
    /// A string exactly as it is sent (line breaks included); a number as typed.
    pub text: RwSignal<String>,
    /// Shown as a multi-line text area.
    pub multiline: RwSignal<bool>,
    /// The line break the text area's lines are joined with.
    pub ending: RwSignal<LineEnding>,
}

impl TextEntry {
    fn new(text: String) -> Self {
        let endings = line_endings(&text);
        Self {
            multiline: RwSignal::new(!endings.is_empty()),
            ending: RwSignal::new(endings.first().copied().unwrap_or(LineEnding::Lf)),
            text: RwSignal::new(text),
        }
    }
}

/// An array item, with an id that stays stable while other items come and go.
#[derive(Clone)]
pub struct ListItem {
    pub id: usize,
    pub state: FieldState,
}

static NEXT_ITEM: AtomicUsize = AtomicUsize::new(0);

impl ListItem {
    pub fn new(field: &FormField, value: Option<&Value>, defaults: bool) -> Self {
        Self {
            id: NEXT_ITEM.fetch_add(1, Ordering::Relaxed),
            state: FieldState::new(field, value, defaults),
        }
    }
}

impl FieldState {
    /// The state showing `value`; where it is None, the field's default if `defaults`. With
    /// neither, an optional field is left out, and a required one is empty: a required
    /// string is not entered yet (the form is not ready until it is; once typed into, even
    /// emptied again, it is sent, `""` included). Values of the wrong shape are ignored (use
    /// [`fits_root`] first when that matters).
    pub fn new(field: &FormField, value: Option<&Value>, defaults: bool) -> Self {
        let value = value.or(field.default.as_ref().filter(|_| defaults));
        let presence = match value {
            None if field.required && !matches!(field.kind, FieldKind::Text { .. }) => {
                Presence::Value
            }
            None => Presence::Omitted,
            Some(Value::Null) if !field.null_is_a_choice() => Presence::Null,
            Some(_) => Presence::Value,
        };
        let shown = value.filter(|_| presence == Presence::Value);
        Self {
            presence: RwSignal::new(presence),
            entry: Entry::new(field, shown, defaults),
        }
    }
}

impl Entry {
    fn new(field: &FormField, value: Option<&Value>, defaults: bool) -> Self {
        match &field.kind {
            FieldKind::Text { format, .. } => {
                let text = value.and_then(Value::as_str).unwrap_or_default();
                let text = match format {
                    TextFormat::DateTime => iso_to_local(text),
                    _ => text.to_owned(),
                };
                Self::Text(TextEntry::new(text))
            }
            // A number, or the text typed before it read as one (a draft).
            FieldKind::Number { .. } => Self::Text(TextEntry::new(match value {
                Some(Value::Number(number)) => number.to_string(),
                Some(Value::String(typed)) => typed.clone(),
                _ => String::new(),
            })),
            FieldKind::Boolean => Self::Boolean(RwSignal::new(
                value.and_then(Value::as_bool).unwrap_or(false),
            )),
            FieldKind::Choice(options) => Self::Choice(RwSignal::new(
                value
                    .filter(|value| options.iter().any(|option| &option.value == *value))
                    .map(FieldChoice::key_of)
                    .unwrap_or_default(),
            )),
            FieldKind::MultiChoice { options, .. } => {
                let chosen = value.and_then(Value::as_array);
                Self::MultiChoice(RwSignal::new(
                    options
                        .iter()
                        .map(|option| chosen.is_some_and(|chosen| chosen.contains(&option.value)))
                        .collect(),
                ))
            }
            FieldKind::List { item, .. } => Self::List(RwSignal::new(
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
            FieldKind::Object(fields) => {
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
/// field's label (or, for what spans fields, where in the object it is).
pub fn read_root(form: &FormSchema, states: &[FieldState]) -> Result<Value, String> {
    let value = read_object(&form.fields, states).map(Value::Object)?;
    form.check(&value, &BrowserRegExp)?;
    Ok(value)
}

fn read_object(
    fields: &[Arc<FormField>],
    states: &[FieldState],
) -> Result<Map<String, Value>, String> {
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

/// The JSON of one field: None when it is left out.
pub fn read(field: &FormField, state: &FieldState) -> Result<Option<Value>, String> {
    match state.presence.get() {
        Presence::Omitted if field.required => Err("required".to_owned()),
        Presence::Omitted => Ok(None),
        Presence::Null if field.nullable => Ok(Some(Value::Null)),
        Presence::Null => Err("the schema does not allow null here".to_owned()),
        Presence::Value => value_of(field, &state.entry).map(Some),
    }
}

/// The value entered, checked against the field's constraints.
fn value_of(field: &FormField, entry: &Entry) -> Result<Value, String> {
    match (&field.kind, entry) {
        (FieldKind::Object(fields), Entry::Object(states)) => {
            let value = Value::Object(read_object(fields, states)?);
            field.check(&value, &BrowserRegExp).map(|()| value)
        }
        (FieldKind::List { item, .. }, Entry::List(items)) => {
            let items = items.get();
            let mut values = Vec::with_capacity(items.len());
            for (index, entry) in items.iter().enumerate() {
                match read(item, &entry.state) {
                    Ok(Some(value)) => values.push(value),
                    Ok(None) => return Err(format!("item {} is left out", index + 1)),
                    Err(why) => return Err(format!("item {}: {why}", index + 1)),
                }
            }
            let value = Value::Array(values);
            field.check(&value, &BrowserRegExp).map(|()| value)
        }
        _ => leaf_value(field, entry),
    }
}

/// The problem with a present single input (not objects or lists), if any: what the field
/// shows next to it.
pub fn leaf_problem(field: &FormField, state: &FieldState) -> Option<String> {
    match state.presence.get() {
        Presence::Value => leaf_value(field, &state.entry).err(),
        _ => read(field, state).err(),
    }
}

/// The value of a single input (not objects or lists), checked against its field.
pub fn leaf_value(field: &FormField, entry: &Entry) -> Result<Value, String> {
    let value = typed_value(field, entry)?;
    field.check(&value, &BrowserRegExp)?;
    Ok(value)
}

/// What a single input holds, read as JSON (not yet checked against its field).
fn typed_value(field: &FormField, entry: &Entry) -> Result<Value, String> {
    match (&field.kind, entry) {
        (FieldKind::Text { format, .. }, Entry::Text(entry)) => {
            read_text(*format, &entry.text.get()).map(Value::String)
        }
        (FieldKind::Number { integer, .. }, Entry::Text(entry)) => {
            let text = entry.text.get();
            let text = text.trim();
            if text.is_empty() {
                return Err(if field.required {
                    "required".to_owned()
                } else {
                    "a number, or leave it out".to_owned()
                });
            }
            parse_number(text, *integer).map(Value::Number)
        }
        (FieldKind::Boolean, Entry::Boolean(checked)) => Ok(Value::Bool(checked.get())),
        (FieldKind::Choice(options), Entry::Choice(key)) => {
            let key = key.get();
            options
                .iter()
                .find(|option| option.key() == key)
                .map(|option| option.value.clone())
                .ok_or_else(|| {
                    if field.required {
                        "required".to_owned()
                    } else {
                        "choose one, or leave it out".to_owned()
                    }
                })
        }
        (FieldKind::MultiChoice { options, .. }, Entry::MultiChoice(flags)) => {
            let chosen: Vec<Value> = options
                .iter()
                .zip(flags.get())
                .filter(|(_, on)| *on)
                .map(|(option, _)| option.value.clone())
                .collect();
            Ok(Value::Array(chosen))
        }
        _ => Err("this input does not fit its field".to_owned()),
    }
}

/// A number as typed, kept exact: `1` stays the integer 1, `0.1` the number 0.1, `1.0`
/// stays `1.0`. An integer field takes whole numbers only.
pub fn parse_number(text: &str, integer: bool) -> Result<Number, String> {
    // A number input also accepts `.5` and `-.5`, which JSON writes with a leading zero.
    let json = match text.strip_prefix('-') {
        Some(rest) if rest.starts_with('.') => format!("-0{rest}"),
        _ if text.starts_with('.') => format!("0{text}"),
        _ => text.to_owned(),
    };
    let number: Number = serde_json::from_str(&json).map_err(|_| "not a number".to_owned())?;
    if integer && !(number.is_i64() || number.is_u64()) {
        return Err("a whole number".to_owned());
    }
    if number.as_f64().is_none_or(|n| !n.is_finite()) {
        return Err("not a number".to_owned());
    }
    Ok(number)
}

/// Whether a form's entries still exist: a rebuilt form disposes the old ones, and a
/// handler or an effect that still holds them must not read them (a read would panic).
pub fn entries_alive(states: &[FieldState]) -> bool {
    states
        .iter()
        .all(|state| state.presence.try_get_untracked().is_some())
}

/// What is entered now, as JSON, valid or not yet: present fields as their values, a text
/// or number input that does not read yet as the text typed, left-out fields absent. A
/// starting point for editing as raw JSON, and what a rebuilt form (a draft) shows again.
pub fn draft_root(fields: &[Arc<FormField>], states: &[FieldState]) -> Value {
    Value::Object(draft_object(fields, states))
}

fn draft_object(fields: &[Arc<FormField>], states: &[FieldState]) -> Map<String, Value> {
    fields
        .iter()
        .zip(states)
        .filter_map(|(field, state)| draft(field, state).map(|value| (field.name.clone(), value)))
        .collect()
}

fn draft(field: &FormField, state: &FieldState) -> Option<Value> {
    match state.presence.get() {
        Presence::Omitted => None,
        Presence::Null => Some(Value::Null),
        Presence::Value => match (&field.kind, &state.entry) {
            (FieldKind::Object(fields), Entry::Object(states)) => {
                Some(Value::Object(draft_object(fields, states)))
            }
            (FieldKind::List { item, .. }, Entry::List(items)) => Some(Value::Array(
                items
                    .get()
                    .iter()
                    .map(|entry| draft(item, &entry.state).unwrap_or(Value::Null))
                    .collect(),
            )),
            (_, Entry::Text(entry)) => Some(
                leaf_value(field, &state.entry).unwrap_or_else(|_| Value::String(entry.text.get())),
            ),
            _ => leaf_value(field, &state.entry).ok(),
        },
    }
}

/// The string an input of this format sends: a date and time typed in local time is sent
/// in UTC, an address must read as one to the browser's URL parser; other text as typed.
/// The format itself is checked by the engine's form schema.
fn read_text(format: TextFormat, text: &str) -> Result<String, String> {
    match format {
        TextFormat::Uri => web_sys::Url::new(text)
            .map(|_| text.to_owned())
            .map_err(|_| "a full address, like https://example.com/".to_owned()),
        TextFormat::DateTime => local_to_iso(text).ok_or_else(|| "a date and time".to_owned()),
        _ => Ok(text.to_owned()),
    }
}

/// A `datetime-local` input's text (the user's local time) as RFC 3339 in UTC.
fn local_to_iso(local: &str) -> Option<String> {
    if local.is_empty() {
        return None;
    }
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
pub fn fits_root(fields: &[Arc<FormField>], value: &Value) -> Result<(), String> {
    fits_value(fields, value, false)
}

/// Whether `value` is a draft of this form ([`draft_root`]): as [`fits_root`], and a number
/// may be the text typed before it read as one.
pub fn fits_draft(fields: &[Arc<FormField>], value: &Value) -> Result<(), String> {
    fits_value(fields, value, true)
}

fn fits_value(fields: &[Arc<FormField>], value: &Value, typed: bool) -> Result<(), String> {
    let Value::Object(object) = value else {
        return Err("the arguments must be a JSON object".to_owned());
    };
    fits_object(fields, object, typed)
}

fn fits_object(
    fields: &[Arc<FormField>],
    object: &Map<String, Value>,
    typed: bool,
) -> Result<(), String> {
    for key in object.keys() {
        if !fields.iter().any(|field| &field.name == key) {
            return Err(format!("the form has no field `{key}`"));
        }
    }
    for field in fields {
        if let Some(value) = object.get(&field.name) {
            fits(field, value, typed).map_err(|why| format!("`{}`: {why}", field.name))?;
        }
    }
    Ok(())
}

fn fits(field: &FormField, value: &Value, typed: bool) -> Result<(), String> {
    if value.is_null() && !field.null_is_a_choice() {
        return if field.nullable {
            Ok(())
        } else {
            Err("null, which the schema does not allow here".to_owned())
        };
    }
    let ok = match &field.kind {
        FieldKind::Text { format, .. } => {
            let Some(text) = value.as_str() else {
                return Err("not a string".to_owned());
            };
            let endings = line_endings(text);
            if endings.len() > 1 {
                let kinds: Vec<&str> = endings.iter().map(|e| e.label()).collect();
                return Err(format!(
                    "its line breaks are of several kinds ({}); the form writes one kind",
                    kinds.join(", ")
                ));
            }
            if *format != TextFormat::Plain && !endings.is_empty() {
                return Err("line breaks in a one-line field".to_owned());
            }
            *format != TextFormat::DateTime || value_is_datetime(value)
        }
        FieldKind::Number { integer, .. } => {
            value.is_i64()
                || value.is_u64()
                || (!integer && value.is_f64())
                || (typed && value.is_string())
        }
        FieldKind::Boolean => value.is_boolean(),
        FieldKind::Choice(options) => options.iter().any(|option| &option.value == value),
        // The form sends the chosen options in their order, each once.
        FieldKind::MultiChoice { options, .. } => value.as_array().is_some_and(|values| {
            let in_order: Vec<&Value> = options
                .iter()
                .map(|option| &option.value)
                .filter(|option| values.contains(option))
                .collect();
            in_order.len() == values.len() && in_order.iter().zip(values).all(|(a, b)| *a == b)
        }),
        FieldKind::List { item, .. } => match value.as_array() {
            Some(values) => {
                for (index, value) in values.iter().enumerate() {
                    fits(item, value, typed).map_err(|why| format!("item {}: {why}", index + 1))?;
                }
                true
            }
            None => false,
        },
        FieldKind::Object(fields) => match value.as_object() {
            Some(object) => return fits_object(fields, object, typed),
            None => false,
        },
    };
    if ok {
        Ok(())
    } else {
        Err("does not fit the form's field".to_owned())
    }
}

/// A date-time the form's minute-precision local input gives back unchanged.
fn value_is_datetime(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|text| local_to_iso(&iso_to_local(text)).as_deref() == Some(text))
}
