//! What the user does to a task: answer its input requests (all of a snapshot's together,
//! in one `tasks/update`), ask to cancel it, forget it.

use holdbay_engine::{InputAnswer, McpMethod, OutgoingRequest};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::TaskBoard;
use crate::link::{ExchangeError, Link};
use crate::split::{ChunkMissing, chunk, engine_work};

impl TaskBoard {
    /// Choose the answer to the task's request `key` (not sent yet: see `send_answers`).
    pub fn choose(&self, task_id: &str, key: &str, answer: InputAnswer) {
        self.modify(task_id, |task| {
            task.note = None;
            if let Err(error) = task.tracker.answer(key, answer) {
                task.note = Some(error.to_string());
            }
        });
    }

    /// Send the chosen answers in one `tasks/update`, once every outstanding request of
    /// the task's snapshot has one (the engine decides); returns whether it went out.
    pub fn send_answers(&self, link: Link, task_id: &str) -> bool {
        let board = *self;
        let request = self
            .modify(task_id, |task| {
                link.build(|client| task.tracker.update(client)).flatten()
            })
            .flatten();
        let Some(request) = request else {
            return false;
        };
        let task_id = task_id.to_owned();
        spawn_local(async move {
            let note = send(link, &request)
                .await
                .err()
                .map(|error| format!("tasks/update failed: {error}"));
            board.modify(&task_id, |task| task.note = note);
        });
        true
    }

    /// Take back the answer chosen for `key` before it was sent.
    pub fn unanswer(&self, task_id: &str, key: &str) {
        self.modify(task_id, |task| task.tracker.unstage(key));
    }

    /// Send `tasks/cancel`. Only a request: the task may still complete or fail. (From the
    /// engine-work chunk, like the rest of following: see [`TaskBoard::start`].)
    pub fn cancel(&self, link: Link, task_id: &str) {
        let (board, task_id) = (*self, task_id.to_owned());
        spawn_local(async move {
            if let Err(missing) = chunk!(cancel_task(board, link, task_id.clone())) {
                board.set_note(&task_id, format!("tasks/cancel was not sent: {missing}"));
            }
        });
    }

    /// Drop an ended task from the board and from storage.
    pub fn forget(&self, task_id: &str) {
        let (board, task_id) = (*self, task_id.to_owned());
        spawn_local(async move {
            if let Err(missing) = chunk!(forget_task(board, task_id.clone())) {
                board.set_note(&task_id, format!("not forgotten: {missing}"));
            }
        });
    }

    fn cancel_now(&self, link: Link, task_id: &str) {
        let board = *self;
        let request = self
            .modify(task_id, |task| {
                if task.tracker.is_terminal() {
                    return None;
                }
                task.note = Some("Cancel requested…".into());
                link.build(|client| task.tracker.cancel(client))
            })
            .flatten();
        let Some(request) = request else {
            return;
        };
        let task_id = task_id.to_owned();
        spawn_local(async move {
            let note = match send(link, &request).await {
                Ok(()) => "Cancel requested and acknowledged; the task ends however the server \
                           reports it next."
                    .to_owned(),
                Err(error) => format!("tasks/cancel failed: {error}"),
            };
            board.modify(&task_id, |task| task.note = Some(note));
        });
    }

    /// The client refused to follow `task_id` (a snapshot over one of its bounds), but it
    /// still runs on the server: ask, once, that it be stopped, and say so on its row.
    pub(super) fn cancel_refused_now(&self, link: Link, task_id: &str) {
        let board = *self;
        let request = self
            .modify(task_id, |task| {
                link.build(|client| task.tracker.cancel_refused(client))
            })
            .flatten()
            .flatten();
        let Some(request) = request else {
            return;
        };
        self.set_note(
            task_id,
            "Refused; sending tasks/cancel so the server stops it…".into(),
        );
        let task_id = task_id.to_owned();
        spawn_local(async move {
            let note = match send(link, &request).await {
                Ok(()) => "Refused; tasks/cancel was sent and acknowledged, so the server \
                           should stop it."
                    .to_owned(),
                Err(error) => format!("Refused; tasks/cancel failed: {error}"),
            };
            board.set_note(&task_id, note);
        });
    }

    fn forget_now(&self, task_id: &str) {
        let removed = self
            .tasks
            .try_update(|tasks| {
                let before = tasks.len();
                tasks.retain(|task| task.id() != task_id || !task.tracker.is_terminal());
                tasks.len() != before
            })
            .unwrap_or(false);
        if removed {
            self.refresh_ids();
            self.changed(super::Change {
                urgent: true,
                live_set: true,
                sooner: false,
            });
        }
    }

    /// Show `note` on the task's row (a note is not stored, so nothing is saved).
    fn set_note(&self, task_id: &str, note: String) {
        let found = self
            .tasks
            .try_update(|tasks| {
                let task = tasks.iter_mut().find(|t| t.id() == task_id)?;
                task.note = Some(note);
                Some(())
            })
            .flatten();
        if found.is_some() {
            self.notify(task_id);
        }
    }
}

engine_work! {
    fn cancel_task(board: TaskBoard, link: Link, task_id: String) -> Result<(), ChunkMissing> {
        board.cancel_now(link, &task_id);
        Ok(())
    }
}

engine_work! {
    fn forget_task(board: TaskBoard, task_id: String) -> Result<(), ChunkMissing> {
        board.forget_now(&task_id);
        Ok(())
    }
}

/// Send a task request over the link (its findings arrive with its decoded events).
async fn send<M: McpMethod>(link: Link, request: &OutgoingRequest<M>) -> Result<(), ExchangeError> {
    link.exchange(request).await.map(|_| ())
}
