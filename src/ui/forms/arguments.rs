//! A tool's arguments, as a form built from its input schema.

use std::sync::Arc;

use holdbay_engine::model::JsonObject;
use leptos::prelude::*;
use serde_json::Value;

use super::schema_form::{FormSignals, fresh_prefix, schema_form};

/// Edits a tool's arguments exactly: any optional field can be left out, `null` sent where
/// the schema allows it, strings sent as typed (empty, or over several lines with the line
/// break chosen). `value` holds `Ok(arguments object)` while the input is valid (starting
/// from the schema's defaults), else `Err(why not)`. `id_prefix` makes the element ids
/// predictable; by default each editor gets a fresh one. Setting `seed` (e.g. a lesson's
/// preset) rebuilds the form showing those arguments. `draft` follows what is entered,
/// valid or not yet; `raw_draft` the raw JSON editor's text while it is open.
#[component]
pub fn ArgumentsEditor(
    schema: Arc<JsonObject>,
    value: RwSignal<Result<Value, String>>,
    #[prop(optional, into)] id_prefix: Option<String>,
    #[prop(optional)] seed: Option<RwSignal<Option<Value>>>,
    #[prop(optional)] draft: Option<RwSignal<Option<Value>>>,
    #[prop(optional)] raw_draft: Option<RwSignal<Option<String>>>,
) -> impl IntoView {
    let prefix = id_prefix.unwrap_or_else(|| fresh_prefix("args"));
    let signals = FormSignals {
        value,
        seed: seed.unwrap_or_else(|| RwSignal::new(None)),
        draft,
        raw_draft,
        preview: true,
    };
    view! { <div class="arguments-editor">{schema_form(&schema, prefix, signals)}</div> }
}
