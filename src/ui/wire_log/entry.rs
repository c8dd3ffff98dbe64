//! One exchange in the wire log: a row of columns (JSON-RPC id, method and name, outcome,
//! round or task, status, time), the notifications it carried as rows of their own, and,
//! opened, its headers and its messages as pretty JSON trees.

use std::collections::BTreeSet;

use holdbay_engine::Shown;
use holdbay_engine::relay::RELAY_TOKEN_HEADER;
use leptos::prelude::*;

use super::clipboard::CopyButton;
use super::json_tree::JsonTree;
use crate::session::Session;
use crate::ui::chunks::{chunk, when_loaded};
use crate::ui::format;
use crate::wire::budget::{BODY_KEPT_BYTES, REFUSED_BODY_KEPT_BYTES};
use crate::wire::curl::curl_command;
use crate::wire::{ExchangeSummary, MessageView, NoteRow, WireEntry, server_label};

/// Notification rows drawn under one exchange (a listen stream can carry thousands): the
/// newest; the opened exchange lists them all as messages.
pub const NOTES_DRAWN: usize = 20;

/// How the rows render what they share: which are open, whether notifications show, and
/// whether a copied curl command carries the connection's real credentials.
#[derive(Debug, Clone, Copy)]
pub struct RowOptions {
    pub open: RwSignal<BTreeSet<u64>>,
    pub show_notes: RwSignal<bool>,
    pub curl_credentials: RwSignal<bool>,
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
pub fn WireEntryRow(entry: WireEntry, options: RowOptions) -> impl IntoView {
    let id = entry.id;
    let open = options.open;
    let summary = ExchangeSummary::of(&entry);
    // The name as the catalog shows it (hidden characters as markers).
    let shown_name = summary.name.as_deref().map(|name| Shown::of(name).text());
    let status_text = match (entry.status, &entry.error) {
        (Some(status), _) => status.to_string(),
        (None, Some(_)) if entry.stopped => "stopped".to_owned(),
        (None, Some(_)) => "no answer".to_owned(),
        (None, None) => "…".to_owned(),
    };
    let failed = entry.error.is_some() || entry.status.is_some_and(|s| s >= 300);
    let duration = entry
        .finished_after
        .map(format::duration)
        .unwrap_or_else(|| "open".to_owned());
    let is_open = move || open.with(|ids| ids.contains(&id));
    let toggle = move |_| {
        open.update(|ids| {
            if !ids.remove(&id) {
                ids.insert(id);
            }
        })
    };
    let notes = NoteRow::of_entry(&entry);
    let not_kept = entry.notifications_not_kept;
    let (server, relayed) = (entry.server.clone(), entry.relayed);
    // Kept for opening the row (the row itself needs only its summary).
    let details = StoredValue::new(entry);
    let round_or_task = [
        summary.round.map(|round| format!("round {round}")),
        summary.task_id.as_ref().map(|task| format!("task {task}")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let outcome_title = summary.outcome.clone().unwrap_or_default();
    let status_attribute = status_text.clone();
    view! {
        <li
            class="wire-entry"
            // Rows out of view are neither laid out nor painted: a busy log changes every frame.
            style="content-visibility: auto; contain-intrinsic-size: auto 2rem"
            class:failed=failed
            data-method=summary.method.clone()
            data-status=status_attribute
            data-rpc-id=summary.rpc_id.clone()
            data-round=summary.round.map(|r| r.to_string())
        >
            <button
                type="button"
                class="wire-summary"
                aria-expanded=move || is_open().to_string()
                on:click=toggle
            >
                <span class="wire-rpc-id" title="JSON-RPC id">
                    {summary.rpc_id.clone().map(|id| format!("#{id}"))}
                </span>
                <span class="wire-server" title=server.clone()>
                    {server_label(&server).to_owned()}
                </span>
                <code class="wire-method">{summary.method.clone()}</code>
                <span class="wire-name shown-name" title=shown_name.clone()>{shown_name.clone()}</span>
                <span class="wire-outcome" class:bad=summary.outcome_failed title=outcome_title>
                    {summary.outcome.clone()}
                </span>
                <span class="wire-round" title=round_or_task.clone()>{round_or_task.clone()}</span>
                <span class="wire-status" class:bad=failed>{status_text}</span>
                <span class="wire-duration">{duration}</span>
                <span class="wire-flags">
                    {(summary.notifications > 0).then(|| view! {
                        <span class="chip notes" title=notes_title(&summary)>
                            {format!("{} notif.", summary.notifications)}
                        </span>
                    })}
                    {relayed.then(|| view! { <span class="chip relayed" title="Sent through the relay">"relay"</span> })}
                </span>
            </button>
            {move || options.show_notes.get().then(|| view! { <NoteRows notes=notes.clone() not_kept=not_kept /> })}
            {move || {
                is_open()
                    .then(|| {
                        let entry = details.get_value();
                        when_loaded(async move { chunk!(wire_details(entry, options)) })
                    })
            }}
        </li>
    }
}

/// What the notifications chip says on hover: how many the log kept, when not all.
fn notes_title(summary: &ExchangeSummary) -> String {
    if summary.notifications_not_kept == 0 {
        return "Notifications on this exchange".to_owned();
    }
    format!(
        "Notifications on this exchange: the first {} are kept, {} more were counted and not \
         kept (the engine's bound on one exchange)",
        summary.notifications as u64 - summary.notifications_not_kept,
        summary.notifications_not_kept
    )
}

/// The notifications an exchange carried, each on a row of its own (the newest
/// [`NOTES_DRAWN`]).
#[component]
fn NoteRows(notes: Vec<NoteRow>, not_kept: u64) -> impl IntoView {
    if notes.is_empty() {
        return ().into_any();
    }
    let kept = notes.len();
    let hidden = notes.len().saturating_sub(NOTES_DRAWN);
    let rows: Vec<NoteRow> = notes.into_iter().skip(hidden).collect();
    view! {
        <ol class="wire-notes" aria-label="Notifications">
            {(hidden > 0).then(|| view! {
                <li class="wire-note quiet">{format!("{hidden} earlier notifications: open the exchange to see them all")}</li>
            })}
            {rows
                .into_iter()
                .map(|note| {
                    let method = note.method.clone();
                    view! {
                        <li class="wire-note" data-method=method data-task=note.task_id>
                            <span class="wire-note-after">"+" {format::duration(note.after_ms)}</span>
                            <code class="wire-note-method">{note.method}</code>
                            <span class="wire-note-text">{note.text}</span>
                        </li>
                    }
                })
                .collect_view()}
            {(not_kept > 0).then(|| view! {
                <li class="wire-note quiet wire-notes-not-kept">
                    {format!("{not_kept} later notifications were counted, not kept: the log keeps the first {kept} of one exchange")}
                </li>
            })}
        </ol>
    }
    .into_any()
}

/// An opened exchange: a chunk of its own (the log's rows do not need the viewer).
#[cfg_attr(holdbay_split, leptos::lazy)]
fn wire_details(entry: WireEntry, options: RowOptions) -> AnyView {
    view! { <WireDetails entry=entry options=options /> }.into_any()
}

#[component]
fn WireDetails(entry: WireEntry, options: RowOptions) -> impl IntoView {
    let session = Session::current();
    let request = entry.sent().map(|sent| sent.request.clone());
    let messages = MessageView::of_entry(&entry);
    let streamed = holdbay_engine::protocol::is_event_stream(entry.response_header("content-type"));
    let body_text = entry.body_text();
    let body_size = body_text.len();
    let entry = StoredValue::new(entry);
    let request_json = {
        let request = request.clone();
        move || {
            request
                .as_ref()
                .and_then(|value| serde_json::to_string_pretty(value).ok())
                .unwrap_or_else(|| entry.with_value(|e| e.request_body.clone()))
        }
    };
    let curl = move || {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        let connection = session.connection_now();
        entry.with_value(|entry| {
            // Opted in: the connection's own headers, and for a relayed exchange this page's
            // relay token (the relay refuses a command without it).
            let own = (options.curl_credentials.get_untracked()
                && connection.server == entry.server)
                .then(|| {
                    let mut headers = connection.headers.clone();
                    if entry.relayed
                        && let Some(token) = crate::link::relay_token::from_page()
                    {
                        headers.push((RELAY_TOKEN_HEADER.to_owned(), token));
                    }
                    headers
                });
            curl_command(entry, &origin, own.as_deref())
        })
    };
    let request_view = match request {
        Some(serde_json::Value::String(text)) => {
            view! { <pre class="wire-body">{text}</pre> }.into_any()
        }
        Some(value) => view! { <JsonTree value=value /> }.into_any(),
        None => {
            view! { <pre class="wire-body">{entry.with_value(|e| e.request_body.clone())}</pre> }
                .into_any()
        }
    };
    let message_count = messages.len();
    let raw_open = RwSignal::new(false);
    let response_view = if messages.is_empty() {
        (!body_text.is_empty())
            .then(|| view! { <pre class="wire-body">{body_text.clone()}</pre> })
            .into_any()
    } else {
        view! {
            <ol class="wire-messages">
                {messages
                    .into_iter()
                    .map(|message| {
                        let json = message.json.clone();
                        let copied = StoredValue::new(json.clone());
                        view! {
                            <li class="wire-message">
                                <div class="wire-message-head">
                                    <span class="chunk-after">"+" {format::duration(message.after_ms)}</span>
                                    <code class="wire-message-label">{message.label}</code>
                                    <CopyButton
                                        label="Copy JSON"
                                        class="copy-message"
                                        text=move || copied.with_value(|v| serde_json::to_string_pretty(v).unwrap_or_default())
                                    />
                                </div>
                                <JsonTree value=json />
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        }
        .into_any()
    };
    view! {
        <div class="wire-details">
            <div class="wire-side">
                <h3>"Request " <code>{entry.with_value(|e| e.url.clone())}</code></h3>
                <div class="wire-actions">
                    <CopyButton label="Copy JSON" class="copy-request" text=request_json />
                    <CopyButton label="Copy as curl" class="copy-curl" text=curl />
                </div>
                <HeaderList headers=entry.with_value(|e| e.request_headers.clone()) />
                {request_view}
            </div>
            <div class="wire-side">
                <h3>
                    "Response "
                    {entry.with_value(|e| e.status.map(|s| s.to_string()).unwrap_or_else(|| "(none)".to_owned()))}
                    {streamed.then(|| format!(" · {message_count} SSE events"))}
                </h3>
                {entry.with_value(|e| e.error.clone()).map(|e| view! { <p class="error-message">{e}</p> })}
                {entry.with_value(|e| e.body_dropped).gt(&0).then(|| view! {
                    <p class="quiet wire-body-dropped">{entry.with_value(|e| body_dropped_text(body_size, e.body_dropped, e.body_refused))}</p>
                })}
                <HeaderList headers=entry.with_value(|e| e.response_headers.clone()) />
                {response_view}
                {(body_size > 0).then(|| view! {
                    <button
                        type="button"
                        class="wire-raw-toggle"
                        aria-expanded=move || raw_open.get().to_string()
                        on:click=move |_| raw_open.update(|o| *o = !*o)
                    >
                        {move || if raw_open.get() { "Hide the raw body" } else { "Show the raw body" }}
                        {format!(" ({body_size} bytes)")}
                    </button>
                })}
                {move || raw_open.get().then(|| view! { <RawBody entry=entry.get_value() /> })}
            </div>
        </div>
    }
}

/// Why the body shown is shorter than the one received.
fn body_dropped_text(kept: usize, dropped: usize, refused: bool) -> String {
    if refused {
        return format!(
            "Only the first {} of this body are kept; {} more were received and not kept (the engine refused the body, over one of its bounds, and the log keeps at most {} of a refused body).",
            format::bytes(kept),
            format::bytes(dropped),
            format::bytes(REFUSED_BODY_KEPT_BYTES),
        );
    }
    format!(
        "Only the first {} of this body are kept; {} more were received and not kept (the log keeps at most {} of a body).",
        format::bytes(kept),
        format::bytes(dropped),
        format::bytes(BODY_KEPT_BYTES),
    )
}

/// The body as it arrived, piece by piece.
#[component]
fn RawBody(entry: WireEntry) -> impl IntoView {
    view! {
        <ol class="wire-chunks">
            {entry
                .body
                .into_iter()
                .map(|chunk| {
                    view! {
                        <li>
                            <span class="chunk-after">"+" {format::duration(chunk.after)}</span>
                            <pre>{chunk.text}</pre>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}
