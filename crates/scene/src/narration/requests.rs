//! The arrows and sentences of requests going out: a round, a retry with its latch, an
//! abandoned request, answers for a task, a cancel request.

use holdbay_engine::MethodId;

use super::words::named;

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
