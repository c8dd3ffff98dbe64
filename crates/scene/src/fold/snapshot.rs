//! A task's state as one snapshot gave it (its creation, a poll, a push), typed, and where it
//! came from.

use holdbay_engine::InputAsk;
use holdbay_engine::model::{DetailedTask, Task};
use serde_json::Value;

/// Where a task snapshot came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SnapshotSource<'a> {
    Created,
    Poll,
    /// On a stream, without a poll; `method` is the notification's, as received.
    Push {
        method: &'a str,
    },
}

/// A task's state as one snapshot gave it, typed, with its JSON as received.
pub(crate) struct Snapshot<'a> {
    pub(crate) task: &'a Task,
    /// Its open input requests, in the server's order.
    pub(crate) asks: Vec<InputAsk>,
    pub(crate) json: &'a Value,
}

impl<'a> Snapshot<'a> {
    /// A task's seed state (a `task` answer): no payload yet.
    pub(crate) fn of_task(task: &'a Task, json: &'a Value) -> Self {
        Self {
            task,
            asks: Vec::new(),
            json,
        }
    }

    /// A task's full state (`tasks/get`, `notifications/tasks`); `json` is its `result` or
    /// `params` as received.
    pub(crate) fn of_detailed(task: &'a DetailedTask, json: &'a Value) -> Self {
        Self {
            task: &task.task,
            asks: InputAsk::of_task(task, json),
            json,
        }
    }
}
