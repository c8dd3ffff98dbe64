//! One polling loop per board: it wakes at the earliest `next_poll_at` of any task, sends
//! the `tasks/get`s that are due, and hands what comes back to each task's tracker.

use std::collections::BTreeSet;

use holdbay_engine::TaskEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::{PollProblem, TaskBoard, alive, now_ms};
use crate::transport::{ExchangeError, exchange};
use crate::ui::session::Session;

/// The longest the loop sleeps without being woken (a safety net, not a schedule).
const IDLE_MS: u64 = 30_000;

pub async fn run(board: TaskBoard, session: Session) {
    let in_flight = StoredValue::new(BTreeSet::<String>::new());
    while alive(&session) {
        follow_server_changes(board, &session);
        let now = now_ms();
        let busy = in_flight.try_get_value().unwrap_or_default();
        let (due, next) = board
            .read(|tasks| {
                let waiting = tasks.iter().filter(|t| !busy.contains(t.id()));
                let due: Vec<String> = waiting
                    .clone()
                    .filter(|t| t.tracker.is_poll_due(now))
                    .map(|t| t.id().to_owned())
                    .collect();
                let next = waiting.filter_map(|t| t.tracker.next_poll_at()).min();
                (due, next)
            })
            .unwrap_or_default();
        for task_id in due {
            in_flight.update_value(|ids| {
                ids.insert(task_id.clone());
            });
            spawn_local(async move {
                poll_once(board, session, &task_id).await;
                in_flight.try_update_value(|ids| ids.remove(&task_id));
                board.poll_wakeup.wake();
            });
        }
        let wait = next.map_or(IDLE_MS, |at| at.saturating_sub(now_ms()).min(IDLE_MS));
        board.poll_wakeup.sleep(wait.max(1)).await;
    }
}

/// Another server was chosen: show (and follow) its stored tasks instead.
fn follow_server_changes(board: TaskBoard, session: &Session) {
    let Some(server) = session.connection.try_with_untracked(|c| c.server.clone()) else {
        return;
    };
    let shown = board.server.try_get_untracked().flatten();
    if !server.is_empty() && shown.as_deref() != Some(server.as_str()) {
        board.load(&server);
    }
}

async fn poll_once(board: TaskBoard, session: Session, task_id: &str) {
    let now = now_ms();
    let request = board
        .modify(task_id, |task| {
            task.last_polled_at_ms = Some(now);
            session.build(|client| task.tracker.poll(client, now))
        })
        .flatten();
    let Some(request) = request else {
        return;
    };
    let connection = session.connection_now();
    let how = session.exchange_with(&connection);
    match exchange(&how, &request).await {
        Ok(reply) => {
            session.note_findings(reply.findings);
            let events = board
                .modify(task_id, |task| {
                    task.poll_problem = None;
                    task.tracker
                        .handle_snapshot(&reply.result.task, Some(reply.raw_result))
                })
                .unwrap_or_default();
            note_events(&session, events);
        }
        Err(error) => {
            board.modify(task_id, |task| {
                task.tracker.poll_failed(now_ms());
                task.poll_problem = Some(problem(&error));
            });
        }
    }
}

fn problem(error: &ExchangeError) -> PollProblem {
    PollProblem {
        unreachable: matches!(
            error,
            ExchangeError::Unreachable { .. } | ExchangeError::BodyInterrupted { .. }
        ),
        detail: error.to_string(),
    }
}

/// The trackers' findings join the session's; the other events show through the board.
pub(super) fn note_events(session: &Session, events: Vec<TaskEvent>) {
    session.note_findings(events.into_iter().filter_map(|event| match event {
        TaskEvent::Finding(finding) => Some(finding),
        _ => None,
    }));
}
