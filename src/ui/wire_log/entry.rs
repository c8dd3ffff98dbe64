//! One exchange in the wire log: a summary line that expands to headers and bodies.

use std::collections::BTreeSet;

use leptos::prelude::*;

use crate::wire::WireEntry;

/// Pretty JSON when the text is JSON, else the text as it is.
fn pretty(text: &str) -> String {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|value| serde_json::to_string_pretty(&value).ok())
        .unwrap_or_else(|| text.to_owned())
}

fn is_event_stream(entry: &WireEntry) -> bool {
    holdbay_engine::protocol::is_event_stream(entry.response_header("content-type"))
}

fn milliseconds(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{ms:.0} ms")
    }
}

#[component]
fn HeaderList(headers: Vec<(String, String)>) -> impl IntoView {
    view! {
        <dl class="wire-headers">
            {headers
                .into_iter()
                .map(|(name, value)| view! { <dt>{name}</dt> <dd>{value}</dd> })
                .collect_view()}
        </dl>
    }
}

#[component]
pub fn WireEntryRow(entry: WireEntry, open: RwSignal<BTreeSet<u64>>) -> impl IntoView {
    let id = entry.id;
    let status_text = match (entry.status, &entry.error) {
        (Some(status), _) => status.to_string(),
        (None, Some(_)) => "no answer".to_owned(),
        (None, None) => "…".to_owned(),
    };
    let failed = entry.error.is_some() || entry.status.is_some_and(|s| s >= 300);
    let duration = entry
        .finished_after
        .map(milliseconds)
        .unwrap_or_else(|| "open".to_owned());
    let is_open = move || open.with(|ids| ids.contains(&id));
    let toggle = move |_| {
        open.update(|ids| {
            if !ids.remove(&id) {
                ids.insert(id);
            }
        })
    };
    let details = StoredValue::new(entry.clone());
    let status_attribute = status_text.clone();
    let method = entry.method.clone();
    view! {
        <li
            class="wire-entry"
            // Rows out of view are neither laid out nor painted: a busy log changes every frame.
            style="content-visibility: auto; contain-intrinsic-size: auto 2rem"
            class:failed=failed
            data-method=method
            data-status=status_attribute
        >
            <button
                type="button"
                class="wire-summary"
                aria-expanded=move || is_open().to_string()
                on:click=toggle
            >
                <code class="wire-method">{entry.method.clone()}</code>
                <span class="wire-name">{entry.name.clone()}</span>
                <span class="wire-status" class:bad=failed>{status_text}</span>
                <span class="wire-duration">{duration}</span>
                {entry.relayed.then(|| view! { <span class="chip relayed" title="Sent through the relay">"relay"</span> })}
            </button>
            {move || is_open().then(|| details.with_value(|entry| view! { <WireDetails entry=entry.clone() /> }))}
        </li>
    }
}

#[component]
fn WireDetails(entry: WireEntry) -> impl IntoView {
    let streamed = is_event_stream(&entry) || entry.body.len() > 1;
    let body = if streamed {
        view! {
            <ol class="wire-chunks">
                {entry
                    .body
                    .iter()
                    .map(|chunk| {
                        view! {
                            <li>
                                <span class="chunk-after">"+" {milliseconds(chunk.after)}</span>
                                <pre>{chunk.text.clone()}</pre>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        }
        .into_any()
    } else {
        view! { <pre class="wire-body">{pretty(&entry.body_text())}</pre> }.into_any()
    };
    view! {
        <div class="wire-details">
            <div class="wire-side">
                <h3>"Request " <code>{entry.url.clone()}</code></h3>
                <HeaderList headers=entry.request_headers.clone() />
                <pre class="wire-body">{pretty(&entry.request_body)}</pre>
            </div>
            <div class="wire-side">
                <h3>
                    "Response "
                    {entry.status.map(|s| s.to_string()).unwrap_or_else(|| "(none)".to_owned())}
                </h3>
                {entry.error.clone().map(|e| view! { <p class="error-message">{e}</p> })}
                <HeaderList headers=entry.response_headers.clone() />
                {body}
            </div>
        </div>
    }
}
