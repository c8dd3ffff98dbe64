//! The input-gathering components in headless Chromium: the schema form for tool arguments
//! and the input request cards (form elicitation, URL consent, other kinds), answering at
//! once or keeping their answer for a common Submit.
#![cfg(target_arch = "wasm32")]

use std::sync::Arc;

use holdbay::ui::forms::{ArgumentsEditor, Delivery, InputRequestCard};
use holdbay_engine::model::JsonObject;
use holdbay_engine::{Client, InputAnswer, InputAsk, InputRequestKind, RequestOptions};
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{
    Element, Event, EventInit, HtmlButtonElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    HtmlTextAreaElement,
};

mod dom;

use dom::{fresh_host, wait_for, wait_until};

wasm_bindgen_test_configure!(run_in_browser);

fn find(host: &Element, selector: &str) -> Element {
    host.query_selector(selector)
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("{selector} is not on the page"))
}

fn exists(host: &Element, selector: &str) -> bool {
    host.query_selector(selector).ok().flatten().is_some()
}

fn input(host: &Element, selector: &str) -> HtmlInputElement {
    find(host, selector).unchecked_into()
}

fn button(host: &Element, selector: &str) -> HtmlButtonElement {
    find(host, selector).unchecked_into()
}

fn fire(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

/// Wait (up to 10 s) until `condition` holds: what an action changes shows a moment later
/// (Leptos runs effects and redraws in tasks of their own). An optional message says why.
macro_rules! eventually {
    ($condition:expr $(,)?) => {
        wait_until(|| $condition, stringify!($condition)).await
    };
    ($condition:expr, $($why:tt)+) => {
        wait_until(|| $condition, &format!("{} ({})", stringify!($condition), format!($($why)+)))
            .await
    };
}

/// Wait (up to 10 s) until `left == right`; fails with the last `left` seen.
macro_rules! eventually_eq {
    ($left:expr, $right:expr $(,)?) => {
        eventually_eq!($left, $right, "")
    };
    ($left:expr, $right:expr, $($why:tt)+) => {{
        let expected = $right;
        dom::wait_some(
            || ($left == expected).then_some(()),
            &format!("{} == {:?} {}", stringify!($left), expected, format!($($why)+)),
            || format!("it is {:?}", $left),
        )
        .await
    }};
}

// The actions below wait for the control they use, not for time: what an action changes is
// waited for where the test looks at it.

async fn type_into(host: &Element, selector: &str, text: &str) {
    let field: HtmlInputElement = wait_for(host, selector).await.unchecked_into();
    field.set_value(text);
    fire(&field, "input");
    fire(&field, "blur");
}

async fn choose(host: &Element, selector: &str, value: &str) {
    let select: HtmlSelectElement = wait_for(host, selector).await.unchecked_into();
    select.set_value(value);
    fire(&select, "change");
}

/// Click the button once it is enabled, as a person would.
async fn click(host: &Element, selector: &str) {
    wait_until(
        || exists(host, selector) && !button(host, selector).disabled(),
        &format!("{selector} enabled"),
    )
    .await;
    button(host, selector).click();
}

async fn toggle(host: &Element, selector: &str) {
    let checkbox: HtmlInputElement = wait_for(host, selector).await.unchecked_into();
    checkbox.set_checked(!checkbox.checked());
    fire(&checkbox, "change");
}

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(object) => Arc::new(object),
        _ => panic!("a schema object"),
    }
}

/// Mounts an arguments editor for `schema` and returns its host and value signal.
async fn editor(id: &str, schema_json: Value) -> (HtmlElement, RwSignal<Result<Value, String>>) {
    let host = fresh_host(id);
    let value = RwSignal::new(Ok::<Value, String>(json!({})));
    let schema = schema(schema_json);
    let prefix = id.to_owned();
    leptos::mount::mount_to(host.clone(), move || {
        view! { <ArgumentsEditor schema=schema.clone() value=value id_prefix=prefix.clone() /> }
    })
    .forget();
    (host, value)
}

#[wasm_bindgen_test]
async fn defaults_fill_the_form_and_types_pick_inputs() {
    let (host, value) = editor(
        "form-types",
        json!({
            "type": "object",
            "properties": {
                "restaurant": { "type": "string", "title": "Restaurant", "description": "Where to book.", "default": "Chez Holdbay" },
                "records": { "type": "integer", "minimum": 1, "maximum": 1000, "default": 500 },
                "ratio": { "type": "number", "default": 0.5 },
                "notify": { "type": "boolean", "default": true },
                "contact": { "type": "string", "format": "email" },
                "site": { "type": "string", "format": "uri" },
                "day": { "type": "string", "format": "date" },
                "at": { "type": "string", "format": "date-time" }
            }
        }),
    )
    .await;
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"restaurant": "Chez Holdbay", "records": 500, "ratio": 0.5, "notify": true}))
    );
    eventually_eq!(
        input(&host, "input[name=restaurant]").value(),
        "Chez Holdbay"
    );
    eventually_eq!(input(&host, "input[name=records]").type_(), "number");
    eventually_eq!(input(&host, "input[name=contact]").type_(), "email");
    eventually_eq!(input(&host, "input[name=site]").type_(), "url");
    eventually_eq!(input(&host, "input[name=day]").type_(), "date");
    eventually_eq!(input(&host, "input[name=at]").type_(), "datetime-local");
    eventually!(input(&host, "input[name=notify]").checked());
    // Labels point at their inputs, and help text is there.
    let label = find(&host, "label[for='form-types-restaurant']");
    eventually!(
        label
            .text_content()
            .unwrap_or_default()
            .contains("Restaurant")
    );
    eventually_eq!(input(&host, "#form-types-restaurant").name(), "restaurant");
    eventually!(
        host.text_content()
            .unwrap_or_default()
            .contains("Where to book.")
    );

    // Out of range and badly formatted values are errors next to the field and in `value`.
    type_into(&host, "input[name=records]", "5000").await;
    eventually!(value.get_untracked().is_err());
    eventually!(
        find(&host, "input[name=records]")
            .closest(".form-field")
            .ok()
            .flatten()
            .expect("field")
            .query_selector(".field-error")
            .ok()
            .flatten()
            .is_some()
    );
    type_into(&host, "input[name=records]", "12").await;
    type_into(&host, "input[name=contact]", "not-an-address").await;
    eventually!(value.get_untracked().is_err());
    type_into(&host, "input[name=contact]", "dev@example.com").await;
    type_into(&host, "input[name=day]", "2026-07-28").await;
    toggle(&host, "input[name=notify]").await;
    eventually_eq!(
        value.get_untracked(),
        Ok(
            json!({"restaurant": "Chez Holdbay", "records": 12, "ratio": 0.5, "notify": false,
                  "contact": "dev@example.com", "day": "2026-07-28"})
        )
    );
}

#[wasm_bindgen_test]
async fn required_fields_are_enforced_and_enums_give_their_values() {
    let (host, value) = editor(
        "form-required",
        json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "title": "Name", "minLength": 2 },
                "region": { "type": "string", "enum": ["staging", "eu-production"] },
                "size": { "type": "integer", "title": "Party", "oneOf": [ {"const": 4, "title": "Four"}, {"const": 6, "title": "Six"} ] },
                "tier": { "type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"] }
            },
            "required": ["name", "region"]
        }),
    )
    .await;
    eventually!(matches!(&value.get_untracked(), Err(why) if why.contains("Name")));
    eventually!(exists(&host, ".required-mark"));
    type_into(&host, "input[name=name]", "x").await;
    eventually!(value.get_untracked().is_err(), "too short");
    type_into(&host, "input[name=name]", "Ada").await;
    eventually!(value.get_untracked().is_err(), "region is still missing");
    choose(&host, "select[name=region]", "eu-production").await;
    choose(&host, "select[name=size]", "6").await;
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"name": "Ada", "region": "eu-production", "size": 6}))
    );
    // enumNames are the labels, the enum values are what is sent.
    let tier = find(&host, "select[name=tier]");
    eventually!(tier.text_content().unwrap_or_default().contains("Beta"));
    choose(&host, "select[name=tier]", "b").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["tier"].clone()),
        Ok(json!("b"))
    );
    // Emptying a required field makes it an error again.
    type_into(&host, "input[name=name]", "").await;
    eventually!(value.get_untracked().is_err());
    eventually!(
        find(&host, "#form-required-name")
            .get_attribute("aria-invalid")
            .is_some()
    );
}

#[wasm_bindgen_test]
async fn arrays_add_and_remove_items_and_objects_nest() {
    let (host, value) = editor(
        "form-arrays",
        json!({
            "type": "object",
            "properties": {
                "tags": { "type": "array", "items": { "type": "string" }, "maxItems": 2 },
                "labels": { "type": "array", "items": { "type": "string", "enum": ["bug", "ui"] } },
                "address": {
                    "type": "object",
                    "title": "Address",
                    "properties": { "city": { "type": "string" }, "zip": { "type": "integer" } },
                    "required": ["city"]
                }
            }
        }),
    )
    .await;
    eventually!(
        find(&host, "fieldset.form-object legend")
            .text_content()
            .unwrap_or_default()
            .contains("Address")
    );
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({})),
        "an empty optional object is left out"
    );
    type_into(&host, "input[name='address.zip']", "69001").await;
    eventually!(
        value.get_untracked().is_err(),
        "once started, its required city is needed"
    );
    type_into(&host, "input[name='address.city']", "").await;
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"address": {"city": "", "zip": 69001}})),
        "a city typed into and emptied is an empty string"
    );
    type_into(&host, "input[name='address.zip']", "").await;
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"address": {"city": ""}})),
        "an emptied optional number is left out"
    );
    type_into(&host, "input[name='address.city']", "Lyon").await;
    click(&host, "#form-arrays-tags .add-item").await;
    type_into(&host, "input[name='tags.0']", "red").await;
    click(&host, "#form-arrays-tags .add-item").await;
    type_into(&host, "input[name='tags.1']", "blue").await;
    eventually!(
        button(&host, "#form-arrays-tags .add-item").disabled(),
        "maxItems reached"
    );
    let ui: HtmlInputElement = find(&host, "input[name=labels][value=ui]").unchecked_into();
    ui.set_checked(true);
    fire(&ui, "change");
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"tags": ["red", "blue"], "labels": ["ui"], "address": {"city": "Lyon"}}))
    );
    click(&host, "#form-arrays-tags .remove-item").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["tags"].clone()),
        Ok(json!(["blue"]))
    );
    eventually_eq!(input(&host, "input[name='tags.0']").value(), "blue");
    // An empty new item is an error until filled.
    click(&host, "#form-arrays-tags .add-item").await;
    eventually!(value.get_untracked().is_err());
    // Removing every item still sends the list, empty; leaving it out is a choice.
    click(&host, "#form-arrays-tags .remove-item").await;
    eventually_eq!(dom::count(&host, "#form-arrays-tags .remove-item"), 1);
    click(&host, "#form-arrays-tags .remove-item").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["tags"].clone()),
        Ok(json!([]))
    );
    click(&host, "#form-arrays-tags .presence-omit").await;
    eventually!(value.get_untracked().is_ok_and(|v| v.get("tags").is_none()));
}

#[wasm_bindgen_test]
async fn raw_json_round_trips_and_unrepresentable_schemas_fall_back() {
    let (host, value) = editor(
        "form-raw",
        json!({
            "type": "object",
            "properties": {
                "service": { "type": "string", "default": "web" },
                "replicas": { "type": "integer" }
            }
        }),
    )
    .await;
    click(&host, ".raw-toggle").await;
    let text: HtmlTextAreaElement = wait_for(&host, "textarea").await.unchecked_into();
    let shown: Value = serde_json::from_str(&text.value()).expect("the textarea shows JSON");
    eventually_eq!(shown, json!({"service": "web"}));
    text.set_value(r#"{"service": "api", "replicas": 3}"#);
    fire(&text, "input");
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"service": "api", "replicas": 3}))
    );
    click(&host, ".raw-toggle").await;
    eventually!(!exists(&host, "textarea"), "back to the form");
    eventually_eq!(input(&host, "input[name=service]").value(), "api");
    eventually_eq!(input(&host, "input[name=replicas]").value(), "3");
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"service": "api", "replicas": 3}))
    );

    // JSON that does not fit stays raw, with the reason.
    click(&host, ".raw-toggle").await;
    let text: HtmlTextAreaElement = wait_for(&host, "textarea").await.unchecked_into();
    text.set_value(r#"{"service": "api", "extra": true}"#);
    fire(&text, "input");
    wait_for(&host, ".raw-only").await;
    click(&host, ".raw-toggle").await;
    eventually!(exists(&host, "textarea"));
    eventually!(host.text_content().unwrap_or_default().contains("extra"));
    text.set_value("[1]");
    fire(&text, "input");
    eventually!(value.get_untracked().is_err());

    let (host, value) = editor(
        "form-ref",
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/X"}}, "$defs": {"X": {"type": "string"}}}),
    )
    .await;
    eventually!(
        exists(&host, "textarea"),
        "a $ref schema is edited as raw JSON"
    );
    eventually!(!exists(&host, ".raw-toggle"));
    eventually_eq!(value.get_untracked(), Ok(json!({})));
}

/// The JSON body the engine puts on the wire for `tools/call note(arguments)`.
fn wire_body(arguments: &Value) -> String {
    let mut client = Client::default();
    client
        .call_tool(
            "note",
            arguments.as_object().cloned(),
            &RequestOptions::default(),
        )
        .expect("a request")
        .body()
        .to_owned()
}

/// The `arguments` object of that body, as JSON text exactly as sent (keys in order).
fn wire_arguments(arguments: &Value) -> String {
    let body = wire_body(arguments);
    let parsed: Value = serde_json::from_str(&body).expect("JSON");
    let sent = &parsed["params"]["arguments"];
    assert_eq!(sent, arguments, "the body carries the form's arguments");
    let text = serde_json::to_string(sent).expect("JSON");
    assert!(body.contains(&text), "{body} holds {text} as written");
    text
}

/// The body of [`wire_body`] for the form's value, while it is valid.
fn sent_body(value: &RwSignal<Result<Value, String>>) -> Option<String> {
    value
        .get_untracked()
        .ok()
        .map(|arguments| wire_body(&arguments))
}

/// The `arguments` of [`wire_arguments`] for the form's value, while it is valid.
fn sent_arguments(value: &RwSignal<Result<Value, String>>) -> Option<String> {
    value
        .get_untracked()
        .ok()
        .map(|arguments| wire_arguments(&arguments))
}

fn note_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "text": { "type": "string", "title": "Note" },
            "title": { "type": ["string", "null"], "title": "Title" },
            "subtitle": { "anyOf": [{ "type": "string" }, { "type": "null" }] },
            "uppercase": { "type": "boolean", "title": "Upper case" },
            "count": { "type": "integer" },
            "ratio": { "type": "number" }
        },
        "required": ["text"]
    })
}

fn presence(host: &Element, field: &str) -> String {
    find(host, &format!("#{}-{field}", host.id()))
        .closest("[data-presence]")
        .ok()
        .flatten()
        .and_then(|element| element.get_attribute("data-presence"))
        .unwrap_or_default()
}

fn field_has(host: &Element, field: &str, selector: &str) -> bool {
    find(host, &format!("#{}-{field}", host.id()))
        .closest("[data-presence]")
        .ok()
        .flatten()
        .and_then(|element| element.query_selector(selector).ok().flatten())
        .is_some()
}

async fn press(host: &Element, field: &str, chip: &str) {
    let id = host.id();
    let head = find(host, &format!("#{id}-{field}"))
        .closest("[data-presence]")
        .ok()
        .flatten()
        .expect("the field");
    let chip: HtmlButtonElement = head
        .query_selector(chip)
        .ok()
        .flatten()
        .expect("the control")
        .unchecked_into();
    chip.click();
}

#[wasm_bindgen_test]
async fn optional_fields_are_left_out_nulls_and_empty_strings_are_sent() {
    let (host, value) = editor("form-exact", note_schema()).await;
    // Optional fields without a default start left out; a required string is needed.
    eventually!(matches!(&value.get_untracked(), Err(why) if why == "Note: required"));
    eventually!(!field_has(&host, "text", ".empty-string"));
    // Typed into and emptied, it is an empty string, and sent.
    type_into(&host, "input[name=text]", "x").await;
    type_into(&host, "input[name=text]", "").await;
    eventually_eq!(value.get_untracked(), Ok(json!({"text": ""})));
    eventually_eq!(sent_arguments(&value).as_deref(), Some(r#"{"text":""}"#));
    eventually!(
        field_has(&host, "text", ".empty-string"),
        "says it sends \"\""
    );
    eventually_eq!(presence(&host, "uppercase"), "omitted");
    eventually!(input(&host, "input[name=uppercase]").indeterminate());
    // Controls only where the schema allows them.
    eventually!(!field_has(&host, "text", ".presence-omit"));
    eventually!(!field_has(&host, "text", ".presence-null"));
    eventually!(field_has(&host, "title", ".presence-null"));
    eventually!(
        field_has(&host, "subtitle", ".presence-null"),
        "anyOf with null"
    );
    eventually!(!field_has(&host, "uppercase", ".presence-null"));

    press(&host, "title", ".presence-null").await;
    press(&host, "subtitle", ".presence-null").await;
    eventually_eq!(presence(&host, "title"), "null");
    eventually_eq!(
        sent_arguments(&value).as_deref(),
        Some(r#"{"text":"","title":null,"subtitle":null}"#)
    );
    // Typing into a null field sends the text instead; an emptied one sends "".
    type_into(&host, "input[name=subtitle]", "x").await;
    type_into(&host, "input[name=subtitle]", "").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["subtitle"].clone()),
        Ok(json!(""))
    );

    // An optional boolean: left out, then true, then false, then left out again.
    toggle(&host, "input[name=uppercase]").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["uppercase"].clone()),
        Ok(json!(true))
    );
    toggle(&host, "input[name=uppercase]").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["uppercase"].clone()),
        Ok(json!(false))
    );
    press(&host, "uppercase", ".presence-omit").await;
    eventually!(
        value
            .get_untracked()
            .is_ok_and(|v| v.get("uppercase").is_none())
    );
    // Pressing "Leave out" again sends the value shown.
    press(&host, "uppercase", ".presence-omit").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["uppercase"].clone()),
        Ok(json!(false))
    );
    press(&host, "uppercase", ".presence-omit").await;

    // Numbers go out as typed: an integer stays an integer, no float formatting.
    type_into(&host, "input[name=ratio]", "1").await;
    type_into(&host, "input[name=count]", "7").await;
    eventually_eq!(
        sent_arguments(&value).as_deref(),
        Some(r#"{"text":"","title":null,"subtitle":"","count":7,"ratio":1}"#)
    );
    type_into(&host, "input[name=ratio]", "0.1").await;
    eventually!(sent_body(&value).is_some_and(|body| body.contains(r#""ratio":0.1"#)));
    type_into(&host, "input[name=ratio]", "1.0").await;
    eventually!(sent_body(&value).is_some_and(|body| body.contains(r#""ratio":1.0"#)));
    type_into(&host, "input[name=count]", "7.5").await;
    eventually!(matches!(&value.get_untracked(), Err(why) if why.contains("whole")));
    // Emptying an optional number leaves it out.
    type_into(&host, "input[name=count]", "").await;
    type_into(&host, "input[name=ratio]", "").await;
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"text": "", "title": null, "subtitle": ""}))
    );
}

#[wasm_bindgen_test]
async fn multi_line_strings_keep_their_line_breaks_byte_for_byte() {
    let (host, value) = editor("form-lines", note_schema()).await;
    // Spaces and tabs at either end are kept in a one-line input.
    type_into(&host, "input[name=text]", "\tindented ").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["text"].clone()),
        Ok(json!("\tindented "))
    );

    press(&host, "text", ".multiline-toggle").await;
    let area: HtmlTextAreaElement = wait_for(&host, "textarea[name=text]")
        .await
        .unchecked_into();
    choose(&host, "#form-lines-text-ending", "CRLF").await;
    area.set_value("line one\nline two");
    fire(&area, "input");
    eventually_eq!(
        value.get_untracked().map(|v| v["text"].clone()),
        Ok(json!("line one\r\nline two"))
    );
    // The element itself only ever holds \n: the exact text is the form's, not the element's.
    eventually_eq!(area.value(), "line one\nline two");
    eventually!(
        sent_body(&value).is_some_and(|body| body.contains(r#""text":"line one\r\nline two""#))
    );
    choose(&host, "#form-lines-text-ending", "CR").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["text"].clone()),
        Ok(json!("line one\rline two"))
    );
    choose(&host, "#form-lines-text-ending", "LF").await;
    eventually_eq!(
        value.get_untracked().map(|v| v["text"].clone()),
        Ok(json!("line one\nline two"))
    );
    eventually!(
        button(&host, ".multiline-toggle").disabled(),
        "a text with line breaks cannot go back to one line"
    );

    // From raw JSON: a CRLF text opens multi-line with CRLF chosen, and is kept exactly.
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = wait_for(&host, "textarea.arguments-json")
        .await
        .unchecked_into();
    raw.set_value(r#"{"text": "a\r\n\r\nb\r\n"}"#);
    fire(&raw, "input");
    eventually!(exists(&host, ".raw-fit[data-fits=true]"));
    click(&host, ".raw-toggle").await;
    eventually!(exists(&host, "textarea[name=text]"));
    let ending: HtmlSelectElement = find(&host, "#form-lines-text-ending").unchecked_into();
    eventually_eq!(ending.value(), "CRLF");
    eventually_eq!(value.get_untracked(), Ok(json!({"text": "a\r\n\r\nb\r\n"})));

    // Mixed line breaks cannot be shown by one choice: the raw JSON stays, and is sent.
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = wait_for(&host, "textarea.arguments-json")
        .await
        .unchecked_into();
    raw.set_value(r#"{"text": "a\r\nb\nc"}"#);
    fire(&raw, "input");
    eventually!(exists(&host, ".raw-only"));
    click(&host, ".raw-toggle").await;
    eventually!(exists(&host, "textarea.arguments-json"), "kept as raw JSON");
    eventually!(
        host.text_content()
            .unwrap_or_default()
            .contains("several kinds")
    );
    eventually!(sent_body(&value).is_some_and(|body| body.contains(r#""text":"a\r\nb\nc""#)));
}

#[wasm_bindgen_test]
async fn raw_json_and_the_form_carry_left_out_null_and_empty_both_ways() {
    let (host, value) = editor("form-sync", note_schema()).await;
    type_into(&host, "input[name=text]", "").await;
    press(&host, "title", ".presence-null").await;
    toggle(&host, "input[name=uppercase]").await;
    toggle(&host, "input[name=uppercase]").await;
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = wait_for(&host, "textarea.arguments-json")
        .await
        .unchecked_into();
    let shown: Value = serde_json::from_str(&raw.value()).expect("JSON");
    eventually_eq!(
        shown,
        json!({"text": "", "title": null, "uppercase": false})
    );
    eventually!(
        !raw.value().contains("subtitle"),
        "a left-out field is absent"
    );

    raw.set_value(r#"{"text": "x", "subtitle": null, "count": 3}"#);
    fire(&raw, "input");
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"text": "x", "subtitle": null, "count": 3}))
    );
    click(&host, ".raw-toggle").await;
    eventually!(
        !exists(&host, "textarea.arguments-json"),
        "back to the form"
    );
    eventually_eq!(presence(&host, "title"), "omitted");
    eventually_eq!(presence(&host, "subtitle"), "null");
    eventually_eq!(presence(&host, "uppercase"), "omitted");
    eventually_eq!(input(&host, "input[name=count]").value(), "3");
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"text": "x", "subtitle": null, "count": 3}))
    );

    // What the form cannot show keeps the raw JSON authoritative, sent as written.
    for (json, why) in [
        (r#"{"text": "x", "count": 1.0}"#, "count"),
        (r#"{"text": "x", "uppercase": null}"#, "null"),
    ] {
        click(&host, ".raw-toggle").await;
        let raw: HtmlTextAreaElement = wait_for(&host, "textarea.arguments-json")
            .await
            .unchecked_into();
        raw.set_value(json);
        fire(&raw, "input");
        dom::wait_for_text(&host, ".raw-only", why).await;
        click(&host, ".raw-toggle").await;
        eventually!(exists(&host, "textarea.arguments-json"), "{json} stays raw");
        let written: Value = serde_json::from_str(json).expect("JSON");
        let written = serde_json::to_string(&written).expect("JSON");
        eventually!(
            sent_body(&value).is_some_and(|sent| sent.contains(&written)),
            "{json} sent as written"
        );
        raw.set_value(r#"{"text": "y"}"#);
        fire(&raw, "input");
        eventually_eq!(value.get_untracked(), Ok(json!({"text": "y"})));
        click(&host, ".raw-toggle").await;
        eventually!(
            !exists(&host, "textarea.arguments-json"),
            "back to the form"
        );
    }
    eventually_eq!(value.get_untracked(), Ok(json!({"text": "y"})));
}

#[wasm_bindgen_test]
async fn a_rebuilt_form_shows_its_draft_exactly_and_reopens_raw_json() {
    let schema_json = note_schema();
    let host = fresh_host("form-draft");
    let value = RwSignal::new(Ok::<Value, String>(json!({})));
    let draft = RwSignal::new(None::<Value>);
    let raw_draft = RwSignal::new(None::<String>);
    let shown = RwSignal::new(true);
    let schema_arc = schema(schema_json);
    leptos::mount::mount_to(host.clone(), move || {
        let schema_arc = schema_arc.clone();
        move || {
            shown.get().then(|| {
                // As the call panel does: the form starts from the draft.
                let seed = RwSignal::new(draft.get_untracked());
                view! {
                    <ArgumentsEditor
                        schema=schema_arc.clone()
                        value=value
                        id_prefix="form-draft"
                        seed=seed
                        draft=draft
                        raw_draft=raw_draft
                    />
                }
            })
        }
    })
    .forget();
    press(&host, "title", ".presence-null").await;
    type_into(&host, "input[name=text]", "").await;
    toggle(&host, "input[name=uppercase]").await;
    // Not a whole number: kept as typed in the draft, not sent.
    type_into(&host, "input[name=count]", "7.5").await;
    eventually_eq!(
        draft.get_untracked(),
        Some(json!({"text": "", "title": null, "uppercase": true, "count": "7.5"})),
        "the draft keeps what was typed, valid or not"
    );
    remount(&host, shown).await;
    eventually_eq!(presence(&host, "title"), "null");
    eventually_eq!(presence(&host, "subtitle"), "omitted");
    eventually_eq!(input(&host, "input[name=count]").value(), "7.5");
    type_into(&host, "input[name=count]", "12").await;
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"text": "", "title": null, "uppercase": true, "count": 12}))
    );

    // Raw JSON the form cannot show: still raw, as typed, after the rebuild.
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = wait_for(&host, "textarea.arguments-json")
        .await
        .unchecked_into();
    let typed = "{\"text\": \"x\", \"extra\": [1]}";
    raw.set_value(typed);
    fire(&raw, "input");
    eventually_eq!(raw_draft.get_untracked().as_deref(), Some(typed));
    remount(&host, shown).await;
    let raw: HtmlTextAreaElement = wait_for(&host, "textarea.arguments-json")
        .await
        .unchecked_into();
    eventually_eq!(raw.value(), typed);
    eventually_eq!(
        value.get_untracked(),
        Ok(json!({"text": "x", "extra": [1]}))
    );
}

/// Dispose the form `shown` shows, then build it again.
async fn remount(host: &Element, shown: RwSignal<bool>) {
    shown.set(false);
    wait_until(|| host.child_element_count() == 0, "the form disposed").await;
    shown.set(true);
    wait_for(host, ".arguments-editor").await;
}

/// An input request as the engine hands it to a card: its key, its kind, its JSON.
fn ask(key: &str, kind: InputRequestKind, json: Value) -> InputAsk {
    InputAsk {
        key: key.to_owned(),
        kind,
        json,
    }
}

/// A form-mode `elicitation/create`, as the server sent it.
fn form_ask(key: &str, request: Value) -> InputAsk {
    let params = &request["params"];
    let kind = InputRequestKind::Form {
        message: params["message"].as_str().unwrap_or_default().to_owned(),
        schema: params["requestedSchema"]
            .as_object()
            .cloned()
            .unwrap_or_default(),
    };
    ask(key, kind, request)
}

/// A URL-mode `elicitation/create`.
fn url_ask(key: &str, message: &str, url: &str) -> InputAsk {
    let request = json!({"method": "elicitation/create",
        "params": {"mode": "url", "message": message, "url": url}});
    let kind = InputRequestKind::Url {
        message: message.to_owned(),
        url: url.to_owned(),
    };
    ask(key, kind, request)
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => panic!("a JSON object"),
    }
}

/// Mounts a card that answers at once; returns its host and the answers it gave.
async fn card(id: &str, ask: InputAsk) -> (HtmlElement, RwSignal<Vec<InputAnswer>>) {
    let host = fresh_host(id);
    let answers = RwSignal::new(Vec::<InputAnswer>::new());
    leptos::mount::mount_to(host.clone(), move || {
        let on_answer = Callback::new(move |answer| answers.update(|all| all.push(answer)));
        view! { <InputRequestCard ask=ask delivery=Delivery::Immediate(on_answer) /> }
    })
    .forget();
    (host, answers)
}

/// Mounts a card whose answer is gathered; returns its host and the card's current answer.
async fn gathered_card(id: &str, ask: InputAsk) -> (HtmlElement, RwSignal<Option<InputAnswer>>) {
    let host = fresh_host(id);
    let answer = RwSignal::new(None::<InputAnswer>);
    leptos::mount::mount_to(host.clone(), move || {
        view! { <InputRequestCard ask=ask delivery=Delivery::Gathered(answer) /> }
    })
    .forget();
    (host, answer)
}

/// What the card shows under "Answer sent": the JSON that went on the wire.
async fn answer_sent(host: &Element) -> Value {
    let shown = wait_for(host, ".answer-sent .answer-json")
        .await
        .text_content()
        .unwrap_or_default();
    serde_json::from_str(&shown).unwrap_or_else(|_| panic!("not JSON: {shown}"))
}

fn book_table_request() -> Value {
    json!({"method": "elicitation/create", "params": {
        "message": "Booking at Chez Holdbay: for how many people, and when?",
        "requestedSchema": {"type": "object", "properties": {
            "size": {"type": "string", "title": "Party size", "oneOf": [{"const": "4", "title": "4 people"}, {"const": "6", "title": "6 people"}]},
            "time": {"type": "string", "title": "Time", "enum": ["18:00", "19:30", "21:00"], "default": "19:30"},
            "notes": {"type": "string", "maxLength": 5}
        }, "required": ["size", "time"]}}})
}

#[wasm_bindgen_test]
async fn form_elicitation_accepts_only_valid_content() {
    let (host, answers) = card("card-form", form_ask("party", book_table_request())).await;
    eventually_eq!(
        find(&host, ".input-request")
            .get_attribute("data-key")
            .as_deref(),
        Some("party")
    );
    eventually!(
        host.text_content()
            .unwrap_or_default()
            .contains("for how many people")
    );
    eventually!(button(&host, ".accept").disabled(), "size is required");
    choose(&host, "select[name=size]", "6").await;
    type_into(&host, "input[name=notes]", "too long").await;
    eventually!(button(&host, ".accept").disabled(), "notes are too long");
    type_into(&host, "input[name=notes]", "").await;
    eventually!(
        !button(&host, ".accept").disabled(),
        "an empty string is valid"
    );
    // Emptied, the notes are an empty string; left out, they are not sent.
    let omit = "#card-form .presence-omit[aria-label='Leave out notes']";
    click(&host, omit).await;
    eventually_eq!(
        find(&host, omit)
            .closest("[data-presence]")
            .ok()
            .flatten()
            .and_then(|field| field.get_attribute("data-presence")),
        Some("omitted".to_owned())
    );
    click(&host, ".accept").await;
    eventually_eq!(
        answers.get_untracked(),
        vec![InputAnswer::Accept(Some(object(
            json!({"size": "6", "time": "19:30"})
        )))]
    );
    // The card now shows what it sent, and cannot answer twice.
    assert_eq!(
        answer_sent(&host).await,
        json!({"action": "accept", "content": {"size": "6", "time": "19:30"}})
    );
    button(&host, ".decline").click();
    eventually_eq!(answers.get_untracked().len(), 1);
}

/// The text under the field named `name` saying what is wrong, if anything.
fn field_error(host: &Element, name: &str) -> Option<String> {
    let field = find(host, &format!("[name={name}]"));
    let error = field
        .closest(".form-field")
        .ok()
        .flatten()?
        .query_selector(".field-error")
        .ok()??;
    error.text_content()
}

#[wasm_bindgen_test]
async fn form_elicitation_refuses_what_the_engine_refuses_exclusive_bounds_multiples_patterns() {
    let request = json!({"method": "elicitation/create", "params": {
        "message": "Order crates",
        "requestedSchema": {"type": "object", "properties": {
            "crates": {"type": "integer", "title": "Crates", "exclusiveMinimum": 0},
            "weight": {"type": "number", "title": "Weight", "multipleOf": 0.5},
            "code": {"type": "string", "title": "Code", "pattern": "^[A-Z]{3}$"},
            // `\p{Lu}` reads only with the `u` flag: the browser's RegExp, as JSON Schema says.
            "port": {"type": "string", "title": "Port", "pattern": "^\\p{Lu}+$"},
            // A needless escape (`\-` outside a class) throws under `u`: read without it then.
            "tag": {"type": "string", "title": "Tag", "pattern": "^[a-z]+\\-[0-9]+$"}
        }, "required": ["crates", "weight", "code", "port"]}}});
    let (host, answers) = card("card-bounds", form_ask("order", request)).await;
    let accept_disabled = || button(&host, ".accept").disabled();
    type_into(&host, "input[name=crates]", "0").await;
    type_into(&host, "input[name=weight]", "2.25").await;
    type_into(&host, "input[name=code]", "abc").await;
    type_into(&host, "input[name=port]", "le havre").await;
    eventually!(accept_disabled());
    eventually_eq!(
        field_error(&host, "crates").as_deref(),
        Some("expected more than 0, got 0")
    );
    eventually_eq!(
        field_error(&host, "weight").as_deref(),
        Some("expected a multiple of 0.5, got 2.25")
    );
    eventually_eq!(
        field_error(&host, "code").as_deref(),
        Some("expected text matching /^[A-Z]{3}$/")
    );
    eventually!(
        field_error(&host, "port").is_some(),
        "lower case is no capital letter"
    );
    type_into(&host, "input[name=crates]", "1").await;
    eventually_eq!(field_error(&host, "crates"), None);
    type_into(&host, "input[name=weight]", "2.5").await;
    eventually_eq!(field_error(&host, "weight"), None);
    type_into(&host, "input[name=code]", "ABCD").await;
    eventually!(
        field_error(&host, "code").is_some(),
        "anchored at both ends"
    );
    type_into(&host, "input[name=code]", "ABC").await;
    eventually!(accept_disabled(), "the port still breaks its pattern");
    type_into(&host, "input[name=port]", "ÉTAPLES").await;
    eventually_eq!(field_error(&host, "port"), None);
    eventually!(!accept_disabled());
    type_into(&host, "input[name=tag]", "two words").await;
    eventually!(field_error(&host, "tag").is_some() && accept_disabled());
    type_into(&host, "input[name=tag]", "north-2").await;
    eventually_eq!(field_error(&host, "tag"), None);
    click(&host, ".accept").await;
    eventually_eq!(
        answers.get_untracked(),
        vec![InputAnswer::Accept(Some(object(
            json!({"crates": 1, "weight": 2.5, "code": "ABC", "port": "ÉTAPLES", "tag": "north-2"})
        )))]
    );
}

#[wasm_bindgen_test]
async fn form_elicitation_declines_and_cancels() {
    let (host, answers) = card("card-decline", form_ask("party", book_table_request())).await;
    click(&host, ".decline").await;
    eventually_eq!(answers.get_untracked(), vec![InputAnswer::Decline]);
    assert_eq!(answer_sent(&host).await, json!({"action": "decline"}));
    let (host, answers) = card("card-cancel", form_ask("party", book_table_request())).await;
    click(&host, ".cancel").await;
    eventually_eq!(answers.get_untracked(), vec![InputAnswer::Cancel]);
    assert_eq!(answer_sent(&host).await, json!({"action": "cancel"}));
}

/// Replaces `window.open` with a recorder, so tests see what would be opened.
fn record_window_open() {
    let recorder = js_sys::Function::new_with_args(
        "url, target, features",
        "window.__opened = (window.__opened || []).concat([[url, target, features]]); return null;",
    );
    let window = web_sys::window().expect("window");
    js_sys::Reflect::set(
        &window,
        &JsValue::from_str("__opened"),
        &js_sys::Array::new(),
    )
    .expect("set");
    js_sys::Reflect::set(&window, &JsValue::from_str("open"), &recorder).expect("set open");
}

fn opened() -> Vec<Vec<String>> {
    let window = web_sys::window().expect("window");
    let list = js_sys::Reflect::get(&window, &JsValue::from_str("__opened")).expect("get");
    js_sys::Array::from(&list)
        .iter()
        .map(|call| {
            js_sys::Array::from(&call)
                .iter()
                .map(|part| part.as_string().unwrap_or_default())
                .collect()
        })
        .collect()
}

#[wasm_bindgen_test]
async fn url_elicitation_opens_only_after_consent() {
    record_window_open();
    let url = "https://auth.example.com/connect/github?req=7f3a";
    let (host, answers) = card("card-url", url_ask("consent", "Connect your account.", url)).await;
    eventually_eq!(
        find(&host, ".url-site").text_content().as_deref(),
        Some("https://auth.example.com")
    );
    eventually!(
        host.text_content()
            .unwrap_or_default()
            .contains("/connect/github?req=7f3a")
    );
    eventually!(!exists(&host, "a[href]"), "no link before consent");
    eventually!(!exists(&host, "iframe"));
    eventually!(button(&host, ".open-page").disabled());
    eventually!(button(&host, ".consent-finished").disabled());
    button(&host, ".open-page").click();
    eventually!(opened().is_empty(), "nothing opens without consent");

    toggle(&host, ".url-consent").await;
    click(&host, ".open-page").await;
    eventually_eq!(
        opened(),
        vec![vec![
            url.to_owned(),
            "_blank".to_owned(),
            "noopener,noreferrer".to_owned()
        ]]
    );
    eventually!(
        answers.get_untracked().is_empty(),
        "opening is not an answer"
    );
    click(&host, ".consent-finished").await;
    // Consent only: accepted without content.
    eventually_eq!(answers.get_untracked(), vec![InputAnswer::Accept(None)]);
    assert_eq!(answer_sent(&host).await, json!({"action": "accept"}));
}

#[wasm_bindgen_test]
async fn url_elicitation_refuses_other_schemes() {
    record_window_open();
    let (host, answers) = card(
        "card-js",
        url_ask("consent", "Click me", "javascript:alert(1)"),
    )
    .await;
    eventually!(exists(&host, ".url-refused"));
    eventually!(!exists(&host, ".open-page"));
    eventually!(!exists(&host, ".url-consent"));
    eventually!(
        host.text_content()
            .unwrap_or_default()
            .contains("javascript:")
    );
    click(&host, ".decline").await;
    eventually_eq!(answers.get_untracked(), vec![InputAnswer::Decline]);
    eventually!(opened().is_empty());
}

fn roots_ask() -> InputAsk {
    ask(
        "roots",
        InputRequestKind::Roots,
        json!({"method": "roots/list"}),
    )
}

fn unknown_ask() -> InputAsk {
    ask(
        "x",
        InputRequestKind::Unknown {
            method: "mystery/ask".to_owned(),
        },
        json!({"method": "mystery/ask"}),
    )
}

#[wasm_bindgen_test]
async fn deprecated_and_unknown_kinds_are_refused() {
    let (host, answers) = card("card-roots", roots_ask()).await;
    eventually!(
        host.text_content()
            .unwrap_or_default()
            .contains("Deprecated")
    );
    click(&host, ".decline").await;
    eventually_eq!(answers.get_untracked(), vec![InputAnswer::Refuse]);
    assert_eq!(answer_sent(&host).await, json!({"roots": []}));

    let (host, answers) = card("card-unknown", unknown_ask()).await;
    eventually!(!exists(&host, ".accept"));
    click(&host, ".decline").await;
    eventually_eq!(answers.get_untracked(), vec![InputAnswer::Refuse]);
    assert_eq!(answer_sent(&host).await["code"], json!(-32601));
}

#[wasm_bindgen_test]
async fn a_deprecated_kind_is_answered_with_a_written_result_only_after_opting_in() {
    let request = json!({"method": "sampling/createMessage",
        "params": {"messages": [], "maxTokens": 10}});
    let (host, answers) = card(
        "card-sampling",
        ask("llm", InputRequestKind::Sampling, request),
    )
    .await;
    eventually!(
        !exists(&host, "textarea"),
        "the editor only after opting in"
    );
    toggle(&host, ".enable-deprecated").await;
    let editor: HtmlTextAreaElement = wait_for(&host, "textarea").await.unchecked_into();
    editor.set_value(
        r#"{"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "me"}"#,
    );
    fire(&editor, "input");
    click(&host, ".accept").await;
    let written =
        json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "me"});
    eventually_eq!(
        answers.get_untracked(),
        vec![InputAnswer::Written(object(written.clone()))]
    );
    assert_eq!(answer_sent(&host).await, written);
}

#[wasm_bindgen_test]
async fn a_gathered_form_card_keeps_the_forms_content_as_its_answer() {
    let (host, answer) =
        gathered_card("gathered-form", form_ask("party", book_table_request())).await;
    eventually!(!exists(&host, ".accept"), "Submit sends it, not the card");
    eventually_eq!(answer.get_untracked(), None, "size is required");
    choose(&host, "select[name=size]", "6").await;
    eventually_eq!(
        answer.get_untracked(),
        Some(InputAnswer::Accept(Some(object(
            json!({"size": "6", "time": "19:30"})
        ))))
    );
    // The answer follows the form.
    choose(&host, "select[name=time]", "21:00").await;
    eventually_eq!(
        answer.get_untracked(),
        Some(InputAnswer::Accept(Some(object(
            json!({"size": "6", "time": "21:00"})
        ))))
    );
    type_into(&host, "input[name=notes]", "too long").await;
    eventually_eq!(answer.get_untracked(), None, "invalid content is not ready");
    eventually!(!exists(&host, ".answer-sent"), "nothing was sent");
}

#[wasm_bindgen_test]
async fn a_gathered_decline_is_taken_back_by_a_second_click() {
    let (host, answer) =
        gathered_card("gathered-decline", form_ask("party", book_table_request())).await;
    choose(&host, "select[name=size]", "4").await;
    let accepted = Some(InputAnswer::Accept(Some(object(
        json!({"size": "4", "time": "19:30"}),
    ))));
    eventually_eq!(answer.get_untracked(), accepted.clone());

    click(&host, ".decline").await;
    eventually_eq!(answer.get_untracked(), Some(InputAnswer::Decline));
    eventually_eq!(
        find(&host, ".decline")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    click(&host, ".decline").await;
    eventually_eq!(
        answer.get_untracked(),
        accepted,
        "back to the form's content"
    );
    eventually_eq!(
        find(&host, ".decline")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("false")
    );
    eventually!(!exists(&host, ".answer-sent"), "nothing was sent");
}

#[wasm_bindgen_test]
async fn a_gathered_url_card_is_ready_once_the_page_is_finished() {
    record_window_open();
    let (host, answer) = gathered_card(
        "gathered-url",
        url_ask(
            "consent",
            "Connect your account.",
            "https://auth.example.com/go",
        ),
    )
    .await;
    toggle(&host, ".url-consent").await;
    click(&host, ".open-page").await;
    eventually_eq!(answer.get_untracked(), None, "opening is not an answer");
    click(&host, ".consent-finished").await;
    eventually_eq!(answer.get_untracked(), Some(InputAnswer::Accept(None)));
}

#[wasm_bindgen_test]
async fn a_gathered_card_of_an_undeclared_kind_is_refused_by_default() {
    let (_host, answer) = gathered_card("gathered-unknown", unknown_ask()).await;
    eventually_eq!(answer.get_untracked(), Some(InputAnswer::Refuse));
    let (_host, answer) = gathered_card("gathered-roots", roots_ask()).await;
    eventually_eq!(answer.get_untracked(), Some(InputAnswer::Refuse));
}
