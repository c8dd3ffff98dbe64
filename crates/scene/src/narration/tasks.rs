//! A task's life in the magazine: its status lamp, polled or pushed, restored after a reload,
//! a broken seal, the input it needs.

use holdbay_engine::MethodId;
use holdbay_engine::model::TaskStatus;
use holdbay_engine::protocol::task_status_name;

use super::words::named;

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
