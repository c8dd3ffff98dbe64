//! The arrows and sentences of answers coming back: a result, a pause for input, the round
//! bound, a task, an error, an answer that could not be read.

use holdbay_engine::model::ResultType;
use holdbay_engine::{AnswerKind, InputAsk, MethodId};

use super::words::named;

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
