//! The book's 2025-11-25 tasks: adopted from a legacy `tools/call`, polled with their own
//! `tasks/get`, their outcome and their questions fetched with `tasks/result`, answered by
//! JSON-RPC responses instead of `tasks/update`.

use rmcp::model::{CreateTaskResult, Task};
use serde_json::Value;

use super::{TaskBook, TaskTransmit, TrackedTask, TransmitKind};
use crate::builders::client::Client;
use crate::machines::task::TaskTracker;
use crate::machines::task::legacy::Fetched;
use crate::vocabulary::era::Era;
use crate::vocabulary::events::ServerRequestEvent;

impl TaskBook {
    /// Follow a task a call in `era` just created; `false` when it is followed already.
    pub fn adopt_in(
        &mut self,
        created: &CreateTaskResult,
        tool: &str,
        era: Era,
        now_ms: u64,
    ) -> bool {
        if era == Era::Modern {
            return self.adopt(created, tool, now_ms);
        }
        if self.task(&created.task.task_id).is_some() {
            return false;
        }
        let tracker = TaskTracker::from_legacy_created(created, now_ms);
        self.add(TrackedTask::new(tool, tracker));
        true
    }

    /// The earliest `tasks/result` due among the tasks (local clock).
    pub(super) fn fetch_due_at(&self) -> Option<u64> {
        self.tasks
            .iter()
            .filter_map(|task| task.tracker().fetch_due_at())
            .min()
    }

    /// A `tasks/result` due at `now_ms`, if one is.
    pub(super) fn fetch_transmit(
        &mut self,
        now_ms: u64,
        client: &mut Client,
    ) -> Option<TaskTransmit> {
        let task_id = self
            .tasks
            .iter()
            .find(|task| task.tracker().fetch_due_at().is_some_and(|at| at <= now_ms))?
            .id()
            .to_owned();
        let request = self.modify(&task_id, |task| task.tracker_mut().fetch_result(client))?;
        Some(TaskTransmit::Fetch { task_id, request })
    }

    /// What the user asked for, for a 2025-11-25 task.
    pub(super) fn build_legacy(
        &mut self,
        kind: TransmitKind,
        task_id: &str,
        client: &mut Client,
    ) -> Option<TaskTransmit> {
        let owned = task_id.to_owned();
        match kind {
            TransmitKind::Update => {
                let messages =
                    self.modify(task_id, |task| task.tracker_mut().legacy_answers(client))?;
                (!messages.is_empty()).then_some(TaskTransmit::Answers {
                    task_id: owned,
                    messages,
                })
            }
            TransmitKind::Cancel | TransmitKind::CancelRefused => self
                .modify(task_id, |task| {
                    let due = match kind {
                        TransmitKind::Cancel => !task.tracker().is_terminal(),
                        _ => task.tracker().cancel_refused_due(),
                    };
                    due.then(|| task.tracker_mut().cancel_legacy(client))
                })
                .flatten()
                .map(|request| TaskTransmit::LegacyCancel {
                    task_id: owned,
                    kind,
                    request,
                }),
            TransmitKind::Poll => None,
        }
    }

    /// A 2025-11-25 `tasks/get` answered with the task's state (and the raw result).
    pub fn handle_status_poll(
        &mut self,
        task_id: &str,
        task: &Task,
        message: Option<Value>,
        now_ms: u64,
    ) {
        self.in_flight.remove(task_id);
        self.changes.wake = true;
        self.take_status(task_id, task, message, now_ms, false);
    }

    /// A 2025-11-25 `notifications/tasks/status` (the session's stream): the state of one
    /// of the book's tasks, pushed; another's is not this book's.
    pub fn handle_pushed_status(&mut self, task: &Task, message: Option<Value>, now_ms: u64) {
        self.take_status(&task.task_id, task, message, now_ms, true);
    }

    /// A 2025-11-25 state from a poll or a push.
    fn take_status(
        &mut self,
        task_id: &str,
        task: &Task,
        message: Option<Value>,
        now_ms: u64,
        pushed: bool,
    ) {
        let events = self
            .modify(task_id, |tracked| {
                tracked.snapshot_seen(now_ms, pushed);
                tracked.tracker_mut().handle_status(task, message)
            })
            .unwrap_or_default();
        self.note_events(events);
    }

    /// A request of the server's on the task's `tasks/result` stream: shown with the
    /// task's asks; one this client cannot show is refused at once.
    pub fn handle_fetch_ask(&mut self, task_id: &str, asked: ServerRequestEvent) {
        let unshowable = self.modify(task_id, |task| {
            let events = task.tracker_mut().asked_on_stream(asked);
            (events, task.tracker().asks_unshowable())
        });
        if let Some((events, unshowable)) = unshowable {
            self.note_events(events);
            if unshowable {
                self.queue(TransmitKind::Update, task_id);
            }
        }
    }

    /// The task's `tasks/result` ended as `fetched` says.
    pub fn handle_fetched(&mut self, task_id: &str, fetched: Fetched<'_>, now_ms: u64) {
        self.changes.wake = true;
        let events = self
            .modify(task_id, |task| task.tracker_mut().fetched(fetched, now_ms))
            .unwrap_or_default();
        self.note_events(events);
    }
}

#[cfg(test)]
mod tests;
