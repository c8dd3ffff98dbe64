//! What the user does to a task: answer its input requests, ask to cancel it, forget it.

use holdbay_engine::{McpMethod, OutgoingRequest};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;

use super::TaskBoard;
use crate::transport::{ExchangeError, exchange};
use crate::ui::session::Session;

impl TaskBoard {
    /// Answer the task's request `key`; the answer goes out at once with `tasks/update`.
    pub fn answer(&self, session: Session, task_id: &str, key: &str, response: Value) {
        let board = *self;
        let request = self.modify(task_id, |task| {
            task.note = None;
            if let Err(error) = task.tracker.answer(key, response) {
                task.note = Some(error.to_string());
                return None;
            }
            session
                .build(|client| task.tracker.update(client))
                .flatten()
        });
        let Some(request) = request.flatten() else {
            return;
        };
        let task_id = task_id.to_owned();
        spawn_local(async move {
            let note = send(session, &request)
                .await
                .err()
                .map(|error| format!("tasks/update failed: {error}"));
            board.modify(&task_id, |task| task.note = note);
        });
    }

    /// Send `tasks/cancel`. Only a request: the task may still complete or fail.
    pub fn cancel(&self, session: Session, task_id: &str) {
        let board = *self;
        let request = self
            .modify(task_id, |task| {
                if task.tracker.is_terminal() {
                    return None;
                }
                task.note = Some("Cancel requested…".into());
                session.build(|client| task.tracker.cancel(client))
            })
            .flatten();
        let Some(request) = request else {
            return;
        };
        let task_id = task_id.to_owned();
        spawn_local(async move {
            let note = match send(session, &request).await {
                Ok(()) => "Cancel requested and acknowledged; the task ends however the server \
                           reports it next."
                    .to_owned(),
                Err(error) => format!("tasks/cancel failed: {error}"),
            };
            board.modify(&task_id, |task| task.note = Some(note));
        });
    }

    /// Drop an ended task from the board and from storage.
    pub fn forget(&self, task_id: &str) {
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
}

/// Send a task request over the current connection; its findings go to the session.
async fn send<M: McpMethod>(
    session: Session,
    request: &OutgoingRequest<M>,
) -> Result<(), ExchangeError> {
    let connection = session.connection_now();
    let how = session.exchange_with(&connection);
    let reply = exchange(&how, request).await?;
    session.note_findings(reply.findings);
    Ok(())
}
