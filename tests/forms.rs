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

use dom::fresh_host;

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

/// Lets signals, effects and the DOM update (render effects run after a macrotask).
async fn settle() {
    leptos::task::tick().await;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 5);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

fn fire(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

async fn type_into(host: &Element, selector: &str, text: &str) {
    let field = input(host, selector);
    field.set_value(text);
    fire(&field, "input");
    fire(&field, "blur");
    settle().await;
}

async fn choose(host: &Element, selector: &str, value: &str) {
    let select: HtmlSelectElement = find(host, selector).unchecked_into();
    select.set_value(value);
    fire(&select, "change");
    settle().await;
}

async fn click(host: &Element, selector: &str) {
    button(host, selector).click();
    settle().await;
}

async fn toggle(host: &Element, selector: &str) {
    let checkbox = input(host, selector);
    checkbox.set_checked(!checkbox.checked());
    fire(&checkbox, "change");
    settle().await;
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
    settle().await;
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
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"restaurant": "Chez Holdbay", "records": 500, "ratio": 0.5, "notify": true}))
    );
    assert_eq!(
        input(&host, "input[name=restaurant]").value(),
        "Chez Holdbay"
    );
    assert_eq!(input(&host, "input[name=records]").type_(), "number");
    assert_eq!(input(&host, "input[name=contact]").type_(), "email");
    assert_eq!(input(&host, "input[name=site]").type_(), "url");
    assert_eq!(input(&host, "input[name=day]").type_(), "date");
    assert_eq!(input(&host, "input[name=at]").type_(), "datetime-local");
    assert!(input(&host, "input[name=notify]").checked());
    // Labels point at their inputs, and help text is there.
    let label = find(&host, "label[for='form-types-restaurant']");
    assert!(
        label
            .text_content()
            .unwrap_or_default()
            .contains("Restaurant")
    );
    assert_eq!(input(&host, "#form-types-restaurant").name(), "restaurant");
    assert!(
        host.text_content()
            .unwrap_or_default()
            .contains("Where to book.")
    );

    // Out of range and badly formatted values are errors next to the field and in `value`.
    type_into(&host, "input[name=records]", "5000").await;
    assert!(value.get_untracked().is_err());
    assert!(
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
    assert!(value.get_untracked().is_err());
    type_into(&host, "input[name=contact]", "dev@example.com").await;
    type_into(&host, "input[name=day]", "2026-07-28").await;
    toggle(&host, "input[name=notify]").await;
    assert_eq!(
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
    let status = value.get_untracked();
    assert!(
        matches!(&status, Err(why) if why.contains("Name")),
        "{status:?}"
    );
    assert!(exists(&host, ".required-mark"));
    type_into(&host, "input[name=name]", "x").await;
    assert!(value.get_untracked().is_err(), "too short");
    type_into(&host, "input[name=name]", "Ada").await;
    assert!(value.get_untracked().is_err(), "region is still missing");
    choose(&host, "select[name=region]", "eu-production").await;
    choose(&host, "select[name=size]", "6").await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"name": "Ada", "region": "eu-production", "size": 6}))
    );
    // enumNames are the labels, the enum values are what is sent.
    let tier = find(&host, "select[name=tier]");
    assert!(tier.text_content().unwrap_or_default().contains("Beta"));
    choose(&host, "select[name=tier]", "b").await;
    assert_eq!(value.get_untracked().expect("valid")["tier"], json!("b"));
    // Emptying a required field makes it an error again.
    type_into(&host, "input[name=name]", "").await;
    assert!(value.get_untracked().is_err());
    assert!(
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
    assert!(
        find(&host, "fieldset.form-object legend")
            .text_content()
            .unwrap_or_default()
            .contains("Address")
    );
    assert_eq!(
        value.get_untracked(),
        Ok(json!({})),
        "an empty optional object is left out"
    );
    type_into(&host, "input[name='address.zip']", "69001").await;
    assert!(
        value.get_untracked().is_err(),
        "once started, its required city is needed"
    );
    type_into(&host, "input[name='address.city']", "").await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"address": {"city": "", "zip": 69001}})),
        "a city typed into and emptied is an empty string"
    );
    type_into(&host, "input[name='address.zip']", "").await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"address": {"city": ""}})),
        "an emptied optional number is left out"
    );
    type_into(&host, "input[name='address.city']", "Lyon").await;
    click(&host, "#form-arrays-tags .add-item").await;
    type_into(&host, "input[name='tags.0']", "red").await;
    click(&host, "#form-arrays-tags .add-item").await;
    type_into(&host, "input[name='tags.1']", "blue").await;
    assert!(
        button(&host, "#form-arrays-tags .add-item").disabled(),
        "maxItems reached"
    );
    let ui: HtmlInputElement = find(&host, "input[name=labels][value=ui]").unchecked_into();
    ui.set_checked(true);
    fire(&ui, "change");
    settle().await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"tags": ["red", "blue"], "labels": ["ui"], "address": {"city": "Lyon"}}))
    );
    click(&host, "#form-arrays-tags .remove-item").await;
    assert_eq!(
        value.get_untracked().expect("valid")["tags"],
        json!(["blue"])
    );
    assert_eq!(input(&host, "input[name='tags.0']").value(), "blue");
    // An empty new item is an error until filled.
    click(&host, "#form-arrays-tags .add-item").await;
    assert!(value.get_untracked().is_err());
    // Removing every item still sends the list, empty; leaving it out is a choice.
    click(&host, "#form-arrays-tags .remove-item").await;
    click(&host, "#form-arrays-tags .remove-item").await;
    assert_eq!(value.get_untracked().expect("valid")["tags"], json!([]));
    click(&host, "#form-arrays-tags .presence-omit").await;
    assert!(value.get_untracked().expect("valid").get("tags").is_none());
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
    let text: HtmlTextAreaElement = find(&host, "textarea").unchecked_into();
    let shown: Value = serde_json::from_str(&text.value()).expect("the textarea shows JSON");
    assert_eq!(shown, json!({"service": "web"}));
    text.set_value(r#"{"service": "api", "replicas": 3}"#);
    fire(&text, "input");
    settle().await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"service": "api", "replicas": 3}))
    );
    click(&host, ".raw-toggle").await;
    assert!(!exists(&host, "textarea"), "back to the form");
    assert_eq!(input(&host, "input[name=service]").value(), "api");
    assert_eq!(input(&host, "input[name=replicas]").value(), "3");
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"service": "api", "replicas": 3}))
    );

    // JSON that does not fit stays raw, with the reason.
    click(&host, ".raw-toggle").await;
    let text: HtmlTextAreaElement = find(&host, "textarea").unchecked_into();
    text.set_value(r#"{"service": "api", "extra": true}"#);
    fire(&text, "input");
    settle().await;
    click(&host, ".raw-toggle").await;
    assert!(exists(&host, "textarea"));
    assert!(host.text_content().unwrap_or_default().contains("extra"));
    text.set_value("[1]");
    fire(&text, "input");
    settle().await;
    assert!(value.get_untracked().is_err());

    let (host, value) = editor(
        "form-ref",
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/X"}}, "$defs": {"X": {"type": "string"}}}),
    )
    .await;
    assert!(
        exists(&host, "textarea"),
        "a $ref schema is edited as raw JSON"
    );
    assert!(!exists(&host, ".raw-toggle"));
    assert_eq!(value.get_untracked(), Ok(json!({})));
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
    settle().await;
}

#[wasm_bindgen_test]
async fn optional_fields_are_left_out_nulls_and_empty_strings_are_sent() {
    let (host, value) = editor("form-exact", note_schema()).await;
    // Optional fields without a default start left out; a required string is needed.
    let status = value.get_untracked();
    assert!(
        matches!(&status, Err(why) if why == "Note: required"),
        "{status:?}"
    );
    assert!(!field_has(&host, "text", ".empty-string"));
    // Typed into and emptied, it is an empty string, and sent.
    type_into(&host, "input[name=text]", "x").await;
    type_into(&host, "input[name=text]", "").await;
    assert_eq!(value.get_untracked(), Ok(json!({"text": ""})));
    assert_eq!(
        wire_arguments(&value.get_untracked().expect("valid")),
        r#"{"text":""}"#
    );
    assert!(
        field_has(&host, "text", ".empty-string"),
        "says it sends \"\""
    );
    assert_eq!(presence(&host, "uppercase"), "omitted");
    assert!(input(&host, "input[name=uppercase]").indeterminate());
    // Controls only where the schema allows them.
    assert!(!field_has(&host, "text", ".presence-omit"));
    assert!(!field_has(&host, "text", ".presence-null"));
    assert!(field_has(&host, "title", ".presence-null"));
    assert!(
        field_has(&host, "subtitle", ".presence-null"),
        "anyOf with null"
    );
    assert!(!field_has(&host, "uppercase", ".presence-null"));

    press(&host, "title", ".presence-null").await;
    press(&host, "subtitle", ".presence-null").await;
    assert_eq!(presence(&host, "title"), "null");
    assert_eq!(
        wire_arguments(&value.get_untracked().expect("valid")),
        r#"{"text":"","title":null,"subtitle":null}"#
    );
    // Typing into a null field sends the text instead; an emptied one sends "".
    type_into(&host, "input[name=subtitle]", "x").await;
    type_into(&host, "input[name=subtitle]", "").await;
    assert_eq!(value.get_untracked().expect("valid")["subtitle"], json!(""));

    // An optional boolean: left out, then true, then false, then left out again.
    toggle(&host, "input[name=uppercase]").await;
    assert_eq!(
        value.get_untracked().expect("valid")["uppercase"],
        json!(true)
    );
    toggle(&host, "input[name=uppercase]").await;
    assert_eq!(
        value.get_untracked().expect("valid")["uppercase"],
        json!(false)
    );
    press(&host, "uppercase", ".presence-omit").await;
    assert!(
        value
            .get_untracked()
            .expect("valid")
            .get("uppercase")
            .is_none()
    );
    // Pressing "Leave out" again sends the value shown.
    press(&host, "uppercase", ".presence-omit").await;
    assert_eq!(
        value.get_untracked().expect("valid")["uppercase"],
        json!(false)
    );
    press(&host, "uppercase", ".presence-omit").await;

    // Numbers go out as typed: an integer stays an integer, no float formatting.
    type_into(&host, "input[name=ratio]", "1").await;
    type_into(&host, "input[name=count]", "7").await;
    assert_eq!(
        wire_arguments(&value.get_untracked().expect("valid")),
        r#"{"text":"","title":null,"subtitle":"","count":7,"ratio":1}"#
    );
    type_into(&host, "input[name=ratio]", "0.1").await;
    assert!(wire_body(&value.get_untracked().expect("valid")).contains(r#""ratio":0.1"#));
    type_into(&host, "input[name=ratio]", "1.0").await;
    assert!(wire_body(&value.get_untracked().expect("valid")).contains(r#""ratio":1.0"#));
    type_into(&host, "input[name=count]", "7.5").await;
    let status = value.get_untracked();
    assert!(
        matches!(&status, Err(why) if why.contains("whole")),
        "{status:?}"
    );
    // Emptying an optional number leaves it out.
    type_into(&host, "input[name=count]", "").await;
    type_into(&host, "input[name=ratio]", "").await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"text": "", "title": null, "subtitle": ""}))
    );
}

#[wasm_bindgen_test]
async fn multi_line_strings_keep_their_line_breaks_byte_for_byte() {
    let (host, value) = editor("form-lines", note_schema()).await;
    // Spaces and tabs at either end are kept in a one-line input.
    type_into(&host, "input[name=text]", "\tindented ").await;
    assert_eq!(
        value.get_untracked().expect("valid")["text"],
        json!("\tindented ")
    );

    press(&host, "text", ".multiline-toggle").await;
    let area: HtmlTextAreaElement = find(&host, "textarea[name=text]").unchecked_into();
    choose(&host, "#form-lines-text-ending", "CRLF").await;
    area.set_value("line one\nline two");
    fire(&area, "input");
    settle().await;
    assert_eq!(
        value.get_untracked().expect("valid")["text"],
        json!("line one\r\nline two")
    );
    // The element itself only ever holds \n: the exact text is the form's, not the element's.
    assert_eq!(area.value(), "line one\nline two");
    assert!(
        wire_body(&value.get_untracked().expect("valid"))
            .contains(r#""text":"line one\r\nline two""#)
    );
    choose(&host, "#form-lines-text-ending", "CR").await;
    assert_eq!(
        value.get_untracked().expect("valid")["text"],
        json!("line one\rline two")
    );
    choose(&host, "#form-lines-text-ending", "LF").await;
    assert_eq!(
        value.get_untracked().expect("valid")["text"],
        json!("line one\nline two")
    );
    assert!(
        button(&host, ".multiline-toggle").disabled(),
        "a text with line breaks cannot go back to one line"
    );

    // From raw JSON: a CRLF text opens multi-line with CRLF chosen, and is kept exactly.
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = find(&host, "textarea.arguments-json").unchecked_into();
    raw.set_value(r#"{"text": "a\r\n\r\nb\r\n"}"#);
    fire(&raw, "input");
    settle().await;
    assert!(exists(&host, ".raw-fit[data-fits=true]"));
    click(&host, ".raw-toggle").await;
    assert!(exists(&host, "textarea[name=text]"));
    let ending: HtmlSelectElement = find(&host, "#form-lines-text-ending").unchecked_into();
    assert_eq!(ending.value(), "CRLF");
    assert_eq!(value.get_untracked(), Ok(json!({"text": "a\r\n\r\nb\r\n"})));

    // Mixed line breaks cannot be shown by one choice: the raw JSON stays, and is sent.
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = find(&host, "textarea.arguments-json").unchecked_into();
    raw.set_value(r#"{"text": "a\r\nb\nc"}"#);
    fire(&raw, "input");
    settle().await;
    assert!(exists(&host, ".raw-only"));
    click(&host, ".raw-toggle").await;
    assert!(exists(&host, "textarea.arguments-json"), "kept as raw JSON");
    assert!(
        host.text_content()
            .unwrap_or_default()
            .contains("several kinds")
    );
    assert!(wire_body(&value.get_untracked().expect("valid")).contains(r#""text":"a\r\nb\nc""#));
}

#[wasm_bindgen_test]
async fn raw_json_and_the_form_carry_left_out_null_and_empty_both_ways() {
    let (host, value) = editor("form-sync", note_schema()).await;
    type_into(&host, "input[name=text]", "").await;
    press(&host, "title", ".presence-null").await;
    toggle(&host, "input[name=uppercase]").await;
    toggle(&host, "input[name=uppercase]").await;
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = find(&host, "textarea.arguments-json").unchecked_into();
    let shown: Value = serde_json::from_str(&raw.value()).expect("JSON");
    assert_eq!(
        shown,
        json!({"text": "", "title": null, "uppercase": false})
    );
    assert!(
        !raw.value().contains("subtitle"),
        "a left-out field is absent"
    );

    raw.set_value(r#"{"text": "x", "subtitle": null, "count": 3}"#);
    fire(&raw, "input");
    settle().await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"text": "x", "subtitle": null, "count": 3}))
    );
    click(&host, ".raw-toggle").await;
    assert!(
        !exists(&host, "textarea.arguments-json"),
        "back to the form"
    );
    assert_eq!(presence(&host, "title"), "omitted");
    assert_eq!(presence(&host, "subtitle"), "null");
    assert_eq!(presence(&host, "uppercase"), "omitted");
    assert_eq!(input(&host, "input[name=count]").value(), "3");
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"text": "x", "subtitle": null, "count": 3}))
    );

    // What the form cannot show keeps the raw JSON authoritative, sent as written.
    for (json, why) in [
        (r#"{"text": "x", "count": 1.0}"#, "count"),
        (r#"{"text": "x", "uppercase": null}"#, "null"),
    ] {
        click(&host, ".raw-toggle").await;
        let raw: HtmlTextAreaElement = find(&host, "textarea.arguments-json").unchecked_into();
        raw.set_value(json);
        fire(&raw, "input");
        settle().await;
        let note = find(&host, ".raw-only").text_content().unwrap_or_default();
        assert!(note.contains(why), "{note}");
        click(&host, ".raw-toggle").await;
        assert!(exists(&host, "textarea.arguments-json"), "{json} stays raw");
        let sent = wire_body(&value.get_untracked().expect("valid"));
        let written: Value = serde_json::from_str(json).expect("JSON");
        assert!(
            sent.contains(&serde_json::to_string(&written).expect("JSON")),
            "{sent}"
        );
        raw.set_value(r#"{"text": "y"}"#);
        fire(&raw, "input");
        settle().await;
        click(&host, ".raw-toggle").await;
    }
    assert_eq!(value.get_untracked(), Ok(json!({"text": "y"})));
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
    settle().await;
    press(&host, "title", ".presence-null").await;
    type_into(&host, "input[name=text]", "").await;
    toggle(&host, "input[name=uppercase]").await;
    // Not a whole number: kept as typed in the draft, not sent.
    type_into(&host, "input[name=count]", "7.5").await;
    assert_eq!(
        draft.get_untracked(),
        Some(json!({"text": "", "title": null, "uppercase": true, "count": "7.5"})),
        "the draft keeps what was typed, valid or not"
    );
    shown.set(false);
    settle().await;
    shown.set(true);
    settle().await;
    assert_eq!(presence(&host, "title"), "null");
    assert_eq!(presence(&host, "subtitle"), "omitted");
    assert_eq!(input(&host, "input[name=count]").value(), "7.5");
    type_into(&host, "input[name=count]", "12").await;
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"text": "", "title": null, "uppercase": true, "count": 12}))
    );

    // Raw JSON the form cannot show: still raw, as typed, after the rebuild.
    click(&host, ".raw-toggle").await;
    let raw: HtmlTextAreaElement = find(&host, "textarea.arguments-json").unchecked_into();
    let typed = "{\"text\": \"x\", \"extra\": [1]}";
    raw.set_value(typed);
    fire(&raw, "input");
    settle().await;
    shown.set(false);
    settle().await;
    shown.set(true);
    settle().await;
    let raw: HtmlTextAreaElement = find(&host, "textarea.arguments-json").unchecked_into();
    assert_eq!(raw.value(), typed);
    assert_eq!(
        value.get_untracked(),
        Ok(json!({"text": "x", "extra": [1]}))
    );
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
    settle().await;
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
    settle().await;
    (host, answer)
}

/// What the card shows under "Answer sent": the JSON that went on the wire.
fn answer_sent(host: &Element) -> Value {
    let shown = find(host, ".answer-sent .answer-json")
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
    assert_eq!(
        find(&host, ".input-request")
            .get_attribute("data-key")
            .as_deref(),
        Some("party")
    );
    assert!(
        host.text_content()
            .unwrap_or_default()
            .contains("for how many people")
    );
    assert!(button(&host, ".accept").disabled(), "size is required");
    choose(&host, "select[name=size]", "6").await;
    type_into(&host, "input[name=notes]", "too long").await;
    assert!(button(&host, ".accept").disabled(), "notes are too long");
    type_into(&host, "input[name=notes]", "").await;
    assert!(
        !button(&host, ".accept").disabled(),
        "an empty string is valid"
    );
    // Emptied, the notes are an empty string; left out, they are not sent.
    click(
        &host,
        "#card-form .presence-omit[aria-label='Leave out notes']",
    )
    .await;
    click(&host, ".accept").await;
    assert_eq!(
        answers.get_untracked(),
        vec![InputAnswer::Accept(Some(object(
            json!({"size": "6", "time": "19:30"})
        )))]
    );
    // The card now shows what it sent, and cannot answer twice.
    assert_eq!(
        answer_sent(&host),
        json!({"action": "accept", "content": {"size": "6", "time": "19:30"}})
    );
    button(&host, ".decline").click();
    settle().await;
    assert_eq!(answers.get_untracked().len(), 1);
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
    assert!(accept_disabled());
    assert_eq!(
        field_error(&host, "crates").as_deref(),
        Some("expected more than 0, got 0")
    );
    assert_eq!(
        field_error(&host, "weight").as_deref(),
        Some("expected a multiple of 0.5, got 2.25")
    );
    assert_eq!(
        field_error(&host, "code").as_deref(),
        Some("expected text matching /^[A-Z]{3}$/")
    );
    assert!(
        field_error(&host, "port").is_some(),
        "lower case is no capital letter"
    );
    type_into(&host, "input[name=crates]", "1").await;
    assert_eq!(field_error(&host, "crates"), None);
    type_into(&host, "input[name=weight]", "2.5").await;
    assert_eq!(field_error(&host, "weight"), None);
    type_into(&host, "input[name=code]", "ABCD").await;
    assert!(
        field_error(&host, "code").is_some(),
        "anchored at both ends"
    );
    type_into(&host, "input[name=code]", "ABC").await;
    assert!(accept_disabled(), "the port still breaks its pattern");
    type_into(&host, "input[name=port]", "ÉTAPLES").await;
    assert_eq!(field_error(&host, "port"), None);
    assert!(!accept_disabled());
    type_into(&host, "input[name=tag]", "two words").await;
    assert!(field_error(&host, "tag").is_some() && accept_disabled());
    type_into(&host, "input[name=tag]", "north-2").await;
    assert_eq!(field_error(&host, "tag"), None);
    click(&host, ".accept").await;
    assert_eq!(
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
    assert_eq!(answers.get_untracked(), vec![InputAnswer::Decline]);
    assert_eq!(answer_sent(&host), json!({"action": "decline"}));
    let (host, answers) = card("card-cancel", form_ask("party", book_table_request())).await;
    click(&host, ".cancel").await;
    assert_eq!(answers.get_untracked(), vec![InputAnswer::Cancel]);
    assert_eq!(answer_sent(&host), json!({"action": "cancel"}));
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
    assert_eq!(
        find(&host, ".url-site").text_content().as_deref(),
        Some("https://auth.example.com")
    );
    assert!(
        host.text_content()
            .unwrap_or_default()
            .contains("/connect/github?req=7f3a")
    );
    assert!(!exists(&host, "a[href]"), "no link before consent");
    assert!(!exists(&host, "iframe"));
    assert!(button(&host, ".open-page").disabled());
    assert!(button(&host, ".consent-finished").disabled());
    button(&host, ".open-page").click();
    settle().await;
    assert!(opened().is_empty(), "nothing opens without consent");

    toggle(&host, ".url-consent").await;
    click(&host, ".open-page").await;
    assert_eq!(
        opened(),
        vec![vec![
            url.to_owned(),
            "_blank".to_owned(),
            "noopener,noreferrer".to_owned()
        ]]
    );
    assert!(
        answers.get_untracked().is_empty(),
        "opening is not an answer"
    );
    click(&host, ".consent-finished").await;
    // Consent only: accepted without content.
    assert_eq!(answers.get_untracked(), vec![InputAnswer::Accept(None)]);
    assert_eq!(answer_sent(&host), json!({"action": "accept"}));
}

#[wasm_bindgen_test]
async fn url_elicitation_refuses_other_schemes() {
    record_window_open();
    let (host, answers) = card(
        "card-js",
        url_ask("consent", "Click me", "javascript:alert(1)"),
    )
    .await;
    assert!(exists(&host, ".url-refused"));
    assert!(!exists(&host, ".open-page"));
    assert!(!exists(&host, ".url-consent"));
    assert!(
        host.text_content()
            .unwrap_or_default()
            .contains("javascript:")
    );
    click(&host, ".decline").await;
    assert_eq!(answers.get_untracked(), vec![InputAnswer::Decline]);
    assert!(opened().is_empty());
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
    assert!(
        host.text_content()
            .unwrap_or_default()
            .contains("Deprecated")
    );
    click(&host, ".decline").await;
    assert_eq!(answers.get_untracked(), vec![InputAnswer::Refuse]);
    assert_eq!(answer_sent(&host), json!({"roots": []}));

    let (host, answers) = card("card-unknown", unknown_ask()).await;
    assert!(!exists(&host, ".accept"));
    click(&host, ".decline").await;
    assert_eq!(answers.get_untracked(), vec![InputAnswer::Refuse]);
    assert_eq!(answer_sent(&host)["code"], json!(-32601));
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
    assert!(
        !exists(&host, "textarea"),
        "the editor only after opting in"
    );
    toggle(&host, ".enable-deprecated").await;
    let editor: HtmlTextAreaElement = find(&host, "textarea").unchecked_into();
    editor.set_value(
        r#"{"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "me"}"#,
    );
    fire(&editor, "input");
    settle().await;
    click(&host, ".accept").await;
    let written =
        json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "me"});
    assert_eq!(
        answers.get_untracked(),
        vec![InputAnswer::Written(object(written.clone()))]
    );
    assert_eq!(answer_sent(&host), written);
}

#[wasm_bindgen_test]
async fn a_gathered_form_card_keeps_the_forms_content_as_its_answer() {
    let (host, answer) =
        gathered_card("gathered-form", form_ask("party", book_table_request())).await;
    assert!(!exists(&host, ".accept"), "Submit sends it, not the card");
    assert_eq!(answer.get_untracked(), None, "size is required");
    choose(&host, "select[name=size]", "6").await;
    assert_eq!(
        answer.get_untracked(),
        Some(InputAnswer::Accept(Some(object(
            json!({"size": "6", "time": "19:30"})
        ))))
    );
    // The answer follows the form.
    choose(&host, "select[name=time]", "21:00").await;
    assert_eq!(
        answer.get_untracked(),
        Some(InputAnswer::Accept(Some(object(
            json!({"size": "6", "time": "21:00"})
        ))))
    );
    type_into(&host, "input[name=notes]", "too long").await;
    assert_eq!(answer.get_untracked(), None, "invalid content is not ready");
    assert!(!exists(&host, ".answer-sent"), "nothing was sent");
}

#[wasm_bindgen_test]
async fn a_gathered_decline_is_taken_back_by_a_second_click() {
    let (host, answer) =
        gathered_card("gathered-decline", form_ask("party", book_table_request())).await;
    choose(&host, "select[name=size]", "4").await;
    let accepted = Some(InputAnswer::Accept(Some(object(
        json!({"size": "4", "time": "19:30"}),
    ))));
    assert_eq!(answer.get_untracked(), accepted);

    click(&host, ".decline").await;
    assert_eq!(answer.get_untracked(), Some(InputAnswer::Decline));
    assert_eq!(
        find(&host, ".decline")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    click(&host, ".decline").await;
    assert_eq!(
        answer.get_untracked(),
        accepted,
        "back to the form's content"
    );
    assert_eq!(
        find(&host, ".decline")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("false")
    );
    assert!(!exists(&host, ".answer-sent"), "nothing was sent");
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
    assert_eq!(answer.get_untracked(), None, "opening is not an answer");
    click(&host, ".consent-finished").await;
    assert_eq!(answer.get_untracked(), Some(InputAnswer::Accept(None)));
}

#[wasm_bindgen_test]
async fn a_gathered_card_of_an_undeclared_kind_is_refused_by_default() {
    let (_host, answer) = gathered_card("gathered-unknown", unknown_ask()).await;
    assert_eq!(answer.get_untracked(), Some(InputAnswer::Refuse));
    let (_host, answer) = gathered_card("gathered-roots", roots_ask()).await;
    assert_eq!(answer.get_untracked(), Some(InputAnswer::Refuse));
}
