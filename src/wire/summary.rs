//! What a wire-log row shows of an exchange: its JSON-RPC id, outcome, round or task, and the
//! messages its body carried, read from the typed events the engine decoded (never from the
//! text). Every wire word shown here (a method, a `resultType`, a task status) is the
//! engine's.

use holdbay_engine::protocol::task_status_name;
use holdbay_engine::{ExchangeEvent, NotificationEvent, NotificationKind};
use serde_json::Value;

use super::WireEntry;

/// The columns of one exchange's row.
#[derive(Debug, Clone, PartialEq)]
pub struct ExchangeSummary {
    /// The JSON-RPC id of the request, as sent (`None`: not a JSON-RPC request).
    pub rpc_id: Option<String>,
    /// The JSON-RPC method as sent.
    pub method: String,
    /// What `Mcp-Name` routed on: a tool, a prompt, a URI, a task id.
    pub name: Option<String>,
    /// The answer's `resultType` or error code (see `AnswerKind::label`), once decoded.
    pub outcome: Option<String>,
    /// The answer was an error, unreadable, or a tool error.
    pub outcome_failed: bool,
    /// Which round of its logical request the request was (MRTR).
    pub round: Option<u32>,
    /// The task the exchange concerns, if any.
    pub task_id: Option<String>,
    /// How many notifications its body carried (kept or only counted).
    pub notifications: usize,
    /// Of those, how many the engine's bound left uncounted in the log: counted, not kept.
    pub notifications_not_kept: u64,
}

impl ExchangeSummary {
    pub fn of(entry: &WireEntry) -> Self {
        let sent = entry.sent();
        let answer = entry.answer();
        Self {
            rpc_id: sent
                .and_then(|sent| sent.id.as_ref())
                .map(ToString::to_string),
            method: sent
                .map(|sent| sent.method_name.clone())
                .unwrap_or_else(|| entry.method.clone()),
            name: sent
                .and_then(|sent| sent.name.clone())
                .or_else(|| entry.name.clone()),
            outcome: answer.map(|answer| answer.kind.label()),
            outcome_failed: answer.is_some_and(|answer| answer.kind.is_failure()),
            round: sent.and_then(|sent| sent.round()).or(entry.round),
            task_id: entry.task_id().map(str::to_owned),
            notifications: entry
                .events
                .iter()
                .filter(|timed| matches!(timed.event, ExchangeEvent::Notification(_)))
                .count()
                .saturating_add(entry.notifications_not_kept as usize),
            notifications_not_kept: entry.notifications_not_kept,
        }
    }
}

/// One notification an exchange carried (on its own event stream, or a listen stream), as
/// a row of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteRow {
    /// Milliseconds after the request went out.
    pub after_ms: f64,
    /// The notification's method as received.
    pub method: String,
    /// What it says, in short: progress, a task's status, a log message.
    pub text: String,
    /// The task it is about (`notifications/tasks`).
    pub task_id: Option<String>,
}

impl NoteRow {
    /// The notifications of `entry`, in the order they arrived.
    pub fn of_entry(entry: &WireEntry) -> Vec<NoteRow> {
        entry
            .events
            .iter()
            .filter_map(|timed| match &timed.event {
                ExchangeEvent::Notification(note) => Some(Self::of(timed.after_ms, note)),
                _ => None,
            })
            .collect()
    }

    fn of(after_ms: f64, note: &NotificationEvent) -> Self {
        Self {
            after_ms,
            method: note.method().to_owned(),
            text: describe(&note.kind),
            task_id: note.kind.task_id().map(str::to_owned),
        }
    }
}

fn describe(kind: &NotificationKind) -> String {
    match kind {
        NotificationKind::Progress(progress) => {
            let amount = match progress.total {
                Some(total) => format!("{} / {}", progress.progress, total),
                None => progress.progress.to_string(),
            };
            match &progress.message {
                Some(message) => format!("{amount} · {message}"),
                None => amount,
            }
        }
        #[allow(deprecated)]
        NotificationKind::Message(message) => {
            let level = serde_json::to_value(message.level)
                .ok()
                .and_then(|level| level.as_str().map(str::to_owned))
                .unwrap_or_default();
            let logger = message
                .logger
                .as_deref()
                .map(|logger| format!(" {logger}:"))
                .unwrap_or_default();
            format!("{level}{logger} {}", plain(&message.data))
        }
        NotificationKind::Task(task) => task_summary(&task.task),
        NotificationKind::LegacyTaskStatus(task) => task_summary(task),
        NotificationKind::ResourceUpdated { uri } => uri.clone(),
        _ => String::new(),
    }
}

/// A JSON value as a person reads it: a string without its quotes, anything else compact.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// One JSON-RPC message of a response body: an SSE event's message (a notification, or the
/// answer), or the whole JSON body, as the engine decoded it.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageView {
    /// Milliseconds after the request went out.
    pub after_ms: f64,
    /// The notification's method, or the answer's label (`resultType` or error code).
    pub label: String,
    pub json: Value,
}

impl MessageView {
    /// The messages of `entry`'s response, in the order they arrived (an answer that was
    /// not a JSON message, such as an HTTP error page, has none: its raw body shows).
    pub fn of_entry(entry: &WireEntry) -> Vec<MessageView> {
        entry
            .events
            .iter()
            .filter_map(|timed| match &timed.event {
                ExchangeEvent::Notification(note) => Some(MessageView {
                    after_ms: timed.after_ms,
                    label: note.method().to_owned(),
                    json: note.json.clone(),
                }),
                ExchangeEvent::Answered(answer) if !answer.json.is_null() => Some(MessageView {
                    after_ms: timed.after_ms,
                    label: answer.kind.label(),
                    json: answer.json.clone(),
                }),
                _ => None,
            })
            .collect()
    }
}

/// The server column's short form of a server's URL: its scheme left out (the full URL is
/// the row's title and the filter's value).
pub fn server_label(server: &str) -> &str {
    server
        .strip_prefix("https://")
        .or_else(|| server.strip_prefix("http://"))
        .unwrap_or(server)
}

/// A task's id, status and message, on one line.
fn task_summary(task: &holdbay_engine::model::Task) -> String {
    let status = task_status_name(task.status);
    match &task.status_message {
        Some(message) => format!("{} {status} · {message}", task.task_id),
        None => format!("{} {status}", task.task_id),
    }
}
