//! A JSON value drawn as a pretty-printed, collapsible tree of text nodes (never HTML).
//! A closed object or array draws none of its children, and a long one draws them a page at
//! a time, so a large body costs nothing until someone opens it.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

/// A value larger than this (serialized) starts with only its top level shown.
pub const LARGE_JSON_BYTES: usize = 16 * 1024;
/// Levels open at first for a value smaller than [`LARGE_JSON_BYTES`].
const OPEN_LEVELS: usize = 4;
/// Children drawn per "show more".
const CHILDREN_PER_PAGE: usize = 100;

/// `value` as a tree. `size`: its serialized length, when the caller knows it.
#[component]
pub fn JsonTree(value: Value, #[prop(optional)] size: Option<usize>) -> impl IntoView {
    let size = size.unwrap_or_else(|| serde_json::to_string(&value).map_or(0, |s| s.len()));
    let large = size > LARGE_JSON_BYTES;
    let open_levels = if large { 0 } else { OPEN_LEVELS };
    view! {
        <div class="json-tree" class:large=large>
            {large.then(|| view! {
                <p class="quiet json-large">
                    {format!("{}: opened one level at a time.", crate::ui::format::bytes(size))}
                </p>
            })}
            {node(None, Arc::new(value), 0, open_levels, false)}
        </div>
    }
}

/// One member (`key` for an object's) and its value; `comma` after it.
fn node(
    key: Option<String>,
    value: Arc<Value>,
    depth: usize,
    open_levels: usize,
    comma: bool,
) -> AnyView {
    let key_view = key.map(|key| {
        view! {
            <span class="json-key">{json_text(&Value::String(key))}</span>
            <span class="json-punct">": "</span>
        }
    });
    let comma = comma.then_some(",");
    let (open_mark, close_mark, count) = match value.as_ref() {
        Value::Object(map) => ("{", "}", map.len()),
        Value::Array(items) => ("[", "]", items.len()),
        scalar => {
            let class = match scalar {
                Value::String(_) => "json-string",
                Value::Number(_) => "json-number",
                Value::Bool(_) => "json-bool",
                _ => "json-null",
            };
            return view! {
                <div class="json-line">
                    {key_view}
                    <span class=class>{json_text(scalar)}</span>
                    <span class="json-punct">{comma}</span>
                </div>
            }
            .into_any();
        }
    };
    if count == 0 {
        return view! {
            <div class="json-line">
                {key_view}
                <span class="json-punct">{open_mark} {close_mark} {comma}</span>
            </div>
        }
        .into_any();
    }
    let open = RwSignal::new(depth < open_levels);
    let unit = if value.is_object() { "keys" } else { "items" };
    let shown = RwSignal::new(CHILDREN_PER_PAGE);
    let children = {
        let value = Arc::clone(&value);
        move || {
            open.get().then(|| {
                let limit = shown.get();
                let rows: Vec<(Option<String>, Arc<Value>)> = match value.as_ref() {
                    Value::Object(map) => map
                        .iter()
                        .take(limit)
                        .map(|(k, v)| (Some(k.clone()), Arc::new(v.clone())))
                        .collect(),
                    Value::Array(items) => items
                        .iter()
                        .take(limit)
                        .map(|v| (None, Arc::new(v.clone())))
                        .collect(),
                    _ => Vec::new(),
                };
                let drawn = rows.len();
                let more = count.saturating_sub(drawn);
                view! {
                    <div class="json-children">
                        {rows
                            .into_iter()
                            .enumerate()
                            .map(|(i, (k, v))| node(k, v, depth + 1, open_levels, i + 1 < count))
                            .collect_view()}
                        {(more > 0).then(|| view! {
                            <button
                                type="button"
                                class="json-more"
                                on:click=move |_| shown.update(|n| *n += CHILDREN_PER_PAGE)
                            >
                                {format!("show {} more of {more}", more.min(CHILDREN_PER_PAGE))}
                            </button>
                        })}
                    </div>
                }
            })
        }
    };
    view! {
        <div class="json-node">
            <div class="json-line">
                <button
                    type="button"
                    class="json-toggle"
                    aria-expanded=move || open.get().to_string()
                    aria-label=move || if open.get() { "Collapse" } else { "Expand" }
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    {move || if open.get() { "▾" } else { "▸" }}
                </button>
                {key_view}
                <span class="json-punct">{open_mark}</span>
                {move || (!open.get()).then(|| view! {
                    <span class="json-summary">{format!(" {count} {unit} ")}</span>
                    <span class="json-punct">{close_mark} {comma}</span>
                })}
            </div>
            {children}
            {move || open.get().then(|| view! {
                <div class="json-line"><span class="json-punct">{close_mark} {comma}</span></div>
            })}
        </div>
    }
    .into_any()
}

/// A scalar as JSON writes it (a string quoted and escaped).
fn json_text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
