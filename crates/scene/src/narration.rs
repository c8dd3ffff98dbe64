//! Every label and sentence of the scene, in one place. Wire names are formatted in from the
//! method and status types, never spelled here.

use holdbay_engine::model::{ResultType, TASKS_EXTENSION_ID, TaskStatus};
use holdbay_engine::protocol::task_status_name;
use holdbay_engine::{AnswerKind, InputAsk, MethodId};

use crate::parts::{Cartridge, Delivery, Tray, TrayProgress, TrayState};

/// ` book_table`: a name as it follows a method or a word, or nothing.
pub(crate) fn named(name: Option<&str>) -> String {
    name.map(|name| format!(" {name}")).unwrap_or_default()
}

// ---- requests ------------------------------------------------------------------------------

/// The arrow of a request: `tools/call book_table`.
pub(crate) fn request_label(method_name: &str, name: Option<&str>) -> String {
    format!("{method_name}{}", named(name))
}

pub(crate) fn opens(method: MethodId, name: Option<&str>) -> String {
    format!("{method}{} goes out with its arguments.", named(name))
}

pub(crate) fn retry_label(method: MethodId, name: Option<&str>, round: u32) -> String {
    format!("{method}{} (round {round})", named(name))
}

pub(crate) fn retry(name: Option<&str>, round: u32, latch_changed: bool) -> String {
    let name = named(name);
    if latch_changed {
        format!(
            "Round {round} of{name} goes back with a CHANGED latch: the requestState is not the \
             one the server sent. A careful server refuses it."
        )
    } else {
        format!(
            "Round {round} of{name}: the workpiece goes back with the answers and the latch \
             exactly as the server sent it."
        )
    }
}

pub(crate) fn answered_label(keys: &[&str]) -> String {
    format!("answered {}", keys.join(", "))
}

pub(crate) const ABANDONED: &str = "abandoned";

pub(crate) fn abandoned(name: Option<&str>) -> String {
    format!(
        "The client gave up the paused{} request and starts afresh. It tells the server \
         nothing: a paused request lives only in the client, with its latch.",
        named(name)
    )
}

pub(crate) fn update_label(answers: usize) -> String {
    format!("{} ({answers} answers)", MethodId::UpdateTask)
}

pub(crate) fn update(task: &str) -> String {
    format!(
        "The answers for task {task} go out with {}, not as a retry: the task keeps running \
         on the server.",
        MethodId::UpdateTask
    )
}

pub(crate) const CANCEL_ASKED: &str = "asked to cancel";

pub(crate) fn cancel(task: &str) -> String {
    format!(
        "A cancel request for task {task} goes out. It is a request: the server decides what \
         happens to the task."
    )
}

// ---- answers -------------------------------------------------------------------------------

pub(crate) const RESULT: &str = "result";
pub(crate) const ACKNOWLEDGED: &str = "acknowledged";
pub(crate) const LISTEN_ENDED: &str = "listen ended";

/// An answer's arrow label: `ok` for a result, else the error's code or why it failed.
pub(crate) fn reply_label(kind: &AnswerKind, status: Option<u16>, ok: &str) -> String {
    match kind {
        AnswerKind::Error { code, .. } => error_label(*code),
        AnswerKind::Invalid { .. } => invalid_label(status),
        _ => ok.to_owned(),
    }
}

pub(crate) fn error_label(code: i32) -> String {
    format!("error {code}")
}

/// An answer that could not be read: its status when it failed, else what it was.
pub(crate) fn invalid_label(status: Option<u16>) -> String {
    match status {
        Some(status) if status >= 400 => format!("HTTP {status}"),
        _ => "invalid answer".to_owned(),
    }
}

pub(crate) fn paused_label(keys: &[&str]) -> String {
    format!(
        "{}: {}",
        ResultType::INPUT_REQUIRED.as_str(),
        keys.join(", ")
    )
}

pub(crate) fn paused(
    method: MethodId,
    name: Option<&str>,
    round: u32,
    keys: &[&str],
    latch: bool,
) -> String {
    let latch = if latch {
        " and a sealed latch (requestState)"
    } else {
        ""
    };
    format!(
        "{method}{} pauses in the holding bay after round {round}: the server needs {}{latch}.",
        named(name),
        keys.join(", ")
    )
}

pub(crate) fn bound_label(max_rounds: u32) -> String {
    format!(
        "{} — bound of {max_rounds} rounds reached",
        ResultType::INPUT_REQUIRED.as_str()
    )
}

pub(crate) fn bound(round: u32) -> String {
    format!(
        "The server asked for input again after round {round}, the last one this client \
         allows. The request stops here, so a server that keeps asking cannot hold the client \
         forever."
    )
}

pub(crate) fn detached_label(task: &str) -> String {
    format!("{} {task}", ResultType::TASK.as_str())
}

pub(crate) fn detached(name: Option<&str>) -> String {
    format!(
        "The server chose to answer{} with a task: the work leaves the holding bay and runs on \
         its own in the magazine. The request asked for the tasks extension; the server \
         decided.",
        named(name)
    )
}

pub(crate) fn completed_label(tool_error: bool) -> String {
    if tool_error {
        format!("{RESULT} (isError)")
    } else {
        RESULT.to_owned()
    }
}

pub(crate) fn completed(
    method: MethodId,
    name: Option<&str>,
    round: u32,
    tool_error: bool,
) -> String {
    let what = if tool_error {
        "a tool error (isError)"
    } else {
        "its result"
    };
    format!(
        "{method}{} completed with {what} after {round} round(s); the tray is empty now, kept as a record.",
        named(name)
    )
}

pub(crate) fn refused(name: Option<&str>, round: u32, message: &str) -> String {
    format!(
        "The server refused{} in round {round}: {message}",
        named(name)
    )
}

pub(crate) fn exchange_failed(reason: &str) -> String {
    format!("The exchange failed: {reason}")
}

pub(crate) fn tag_label(tag: &InputAsk) -> String {
    format!("{} {}", tag.kind.method_name(), tag.key)
}

pub(crate) fn poll_failed(task: &str, message: &str) -> String {
    format!("{} for {task} failed: {message}", MethodId::GetTask)
}

pub(crate) fn update_refused(task: &str, message: &str) -> String {
    format!("{} for {task} was refused: {message}", MethodId::UpdateTask)
}

pub(crate) fn cancel_acknowledged(task: &str) -> String {
    format!(
        "The server acknowledged the cancel request for {task}. That guarantees nothing about \
         the outcome: watch the lamp for the status it really reaches."
    )
}

pub(crate) fn cancel_refused(task: &str, message: &str) -> String {
    format!("The cancel request for {task} was refused: {message}")
}

// ---- the end of an exchange ----------------------------------------------------------------

pub(crate) const STOPPED: &str = "stopped";

pub(crate) const STOPPED_TRAY: &str = "The client stopped waiting and closed the response \
    stream. Over HTTP, closing the stream is the cancellation (no cancel notification is \
    sent): the server should stop the work and send nothing more. The tray is empty now, with \
    no result.";

/// `progress 3/6`, or `progress 40` without a total.
pub(crate) fn progress_label(progress: &TrayProgress) -> String {
    match progress.total {
        Some(total) => format!("progress {}/{}", number(progress.progress), number(total)),
        None => format!("progress {}", number(progress.progress)),
    }
}

pub(crate) fn progress(method: MethodId, name: Option<&str>, progress: &TrayProgress) -> String {
    let how_far = progress.how_far();
    let message = progress
        .message
        .as_deref()
        .map(|m| format!(" ({m})"))
        .unwrap_or_default();
    format!(
        "The server reports progress on {method}{}: {how_far}{message}. It comes on the \
         request's own stream, before the result, because the request carried a \
         progressToken; the tray stays in flight.",
        named(name)
    )
}

impl TrayProgress {
    /// `2 of 6`, or `40` without a total: the figures as the narration writes them.
    pub fn how_far(&self) -> String {
        match self.total {
            Some(total) => format!("{} of {}", number(self.progress), number(total)),
            None => number(self.progress),
        }
    }
}

/// A progress figure as people write it: `3`, `2.5`.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

// ---- tasks ---------------------------------------------------------------------------------

pub(crate) fn restored_label(task: &str) -> String {
    format!("restored {task}")
}

/// A poll for a task whose creation is not in this log.
pub(crate) fn restored_by_poll(task: &str) -> String {
    format!(
        "Task {task} re-enters the magazine from durable storage: its handle outlived the page \
         that created it."
    )
}

/// A task handle the app read back from durable storage. Only a task still running is
/// followed again; a finished one was sealed before the reload.
pub(crate) fn restored(task: &str, status: TaskStatus) -> String {
    let name = task_status_name(status);
    if status.is_terminal() {
        format!(
            "Task {task} came back from durable storage after the reload, already {name}: \
             sealed, so there is nothing left to follow."
        )
    } else {
        format!(
            "Task {task} came back from durable storage after the reload, last seen {name}; \
             the client follows it again (pushed on a listen stream if the server offers one, \
             else polled with {}).",
            MethodId::GetTask
        )
    }
}

pub(crate) fn abandoned_by_reload(name: Option<&str>) -> String {
    format!(
        "The paused{} request went with the reload: its latch lived only in the page's memory. \
         The server was never told, and needs not be.",
        named(name)
    )
}

pub(crate) const RELOADED_LABEL: &str = "page reloaded";

pub(crate) const RELOADED: &str = "The page reloaded: everything the client held in memory is \
    gone, paused requests and their latches included. The wire log and the task handles came \
    back from durable storage.";

pub(crate) fn status_label(status: TaskStatus) -> String {
    task_status_name(status).to_owned()
}

/// A snapshot pushed on a listen stream: `notifications/tasks: working`.
pub(crate) fn pushed_label(method: &str, status: TaskStatus) -> String {
    format!("{method}: {}", task_status_name(status))
}

pub(crate) fn seal_broken_label(status: TaskStatus, sealed: TaskStatus) -> String {
    format!(
        "{} after {}",
        task_status_name(status),
        task_status_name(sealed)
    )
}

pub(crate) fn seal_broken(task: &str, status: TaskStatus, sealed: TaskStatus) -> String {
    format!(
        "The server reported task {task} as {} after it had ended {}. Terminal states never \
         change: the cartridge stays sealed.",
        task_status_name(status),
        task_status_name(sealed)
    )
}

pub(crate) const PUSHED: &str = " (pushed on the listen stream, no poll)";
/// How a polled snapshot came: ` (polled with tasks/get)`.
pub(crate) fn polled() -> String {
    format!(" (polled with {})", MethodId::GetTask)
}

/// A task's new status. `via`: how the snapshot came ([`polled`] or [`PUSHED`]).
pub(crate) fn task_status(
    task: &str,
    status: TaskStatus,
    keys: &[String],
    cancel_asked: bool,
    via: &str,
) -> String {
    let name = task_status_name(status);
    match status {
        TaskStatus::InputRequired => format!(
            "Task {task} needs input ({}): the client answers with {}{via}.",
            keys.join(", "),
            MethodId::UpdateTask
        ),
        TaskStatus::Cancelled => {
            format!("Task {task} ended {name}: the server honoured the request{via}.")
        }
        TaskStatus::Completed if cancel_asked => format!(
            "Task {task} {name} even though cancel was requested: the work won the race{via}."
        ),
        status if status.is_terminal() => {
            format!("Task {task} ended {name}: its cartridge is sealed and never changes{via}.")
        }
        _ => format!("Task {task} is {name}{via}."),
    }
}

pub(crate) fn input_label(key: &str) -> String {
    format!("input {key}")
}

impl Cartridge {
    /// How the client has learned of this task, for the inspector: counts by way, the
    /// newest snapshot's way, and the server's own polling interval (which a pushed task
    /// does not need): `3 polled, 5 pushed; newest pushed; the server's pollIntervalMs 1000`.
    pub fn delivery_summary(&self) -> String {
        delivery_summary(self)
    }
}

fn delivery_summary(cartridge: &Cartridge) -> String {
    let newest = match cartridge.last_delivery {
        Delivery::Created => format!("the {} answer that created it", MethodId::CallTool),
        Delivery::Polled => format!("a poll ({})", MethodId::GetTask),
        Delivery::Pushed => "a push on the listen stream".to_owned(),
        Delivery::Restored => "durable storage, after a reload".to_owned(),
    };
    let interval = match cartridge.poll_interval_ms {
        Some(ms) => format!("the server's pollIntervalMs is {ms}"),
        None => "the server gave no pollIntervalMs".to_owned(),
    };
    format!(
        "Snapshots so far: {} polled, {} pushed; the newest came from {newest}; {interval}.",
        cartridge.polls, cartridge.pushes
    )
}

impl Tray {
    /// What the wire told of this request beyond its drawing: whether it offered a task
    /// and what the server made of the offer, and how its rounds stand against the bound.
    pub fn facts(&self) -> String {
        tray_facts(self)
    }
}

/// The inspector's facts about a tray: the task offer and what came of it, then the rounds.
fn tray_facts(tray: &Tray) -> String {
    let mut facts = Vec::new();
    if tray.method.rules().may_create_task {
        let decided = match &tray.state {
            TrayState::Detached { .. } => "the server took it and answered with a task",
            TrayState::InFlight | TrayState::Paused => "the server has not decided yet",
            TrayState::Stopped | TrayState::Abandoned => {
                "the request ended before the server decided"
            }
            _ => "the server answered directly anyway",
        };
        facts.push(if tray.offers_task {
            format!(
                "This request declared the tasks extension ({TASKS_EXTENSION_ID} in _meta's \
                 clientCapabilities.extensions): it offered a task, and {decided}."
            )
        } else {
            "This request did not declare the tasks extension, so the server may not answer \
             it with a task."
                .to_owned()
        });
    }
    let rounds = tray.rounds.len();
    facts.push(if tray.state == TrayState::BoundReached {
        format!(
            "Rounds: {rounds} of at most {}; the server asked again after the last one, so the \
             client stopped.",
            tray.max_rounds
        )
    } else {
        format!("Rounds: {rounds} of at most {}.", tray.max_rounds)
    });
    facts.join(" ")
}
