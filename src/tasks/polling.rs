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
/// At most this many `tasks/get` in flight at once: with many tasks due together (after a
/// reload, say) they go out a few at a time, most overdue first, and never before they are
/// due. Browsers allow about six connections per host anyway.
pub const MAX_IN_FLIGHT: usize = 6;

pub async fn run(board: TaskBoard, session: Session) {
    let in_flight = StoredValue::new(BTreeSet::<String>::new());
    while alive(&session) {
        follow_server_changes(board, &session);
        let now = now_ms();
        let free = MAX_IN_FLIGHT.saturating_sub(in_flight.with_value(BTreeSet::len));
        let (send, more_due, next) = in_flight
            .with_value(|busy| {
                board.read(|tasks| {
                    let mut due: Vec<(u64, &str)> = Vec::new();
                    let mut next: Option<u64> = None;
                    for task in tasks.iter().filter(|t| !busy.contains(t.id())) {
                        match task.tracker.next_poll_at() {
                            Some(at) if at <= now => due.push((at, task.id())),
                            Some(at) => next = Some(next.map_or(at, |n| n.min(at))),
                            None => {}
                        }
                    }
                    let more_due = due.len() > free;
                    if more_due {
                        due.select_nth_unstable(free);
                        due.truncate(free);
                    }
                    let send: Vec<String> = due.iter().map(|(_, id)| (*id).to_owned()).collect();
                    (send, more_due, next)
                })
            })
            .unwrap_or_default();
        for task_id in send {
            in_flight.update_value(|ids| {
                ids.insert(task_id.clone());
            });
            spawn_local(async move {
                poll_once(board, session, &task_id).await;
                in_flight.try_update_value(|ids| ids.remove(&task_id));
                board.poll_wakeup.wake();
            });
        }
        // Due polls waiting for a free slot go when a poll in flight ends (it wakes us).
        let wait = if more_due {
            IDLE_MS
        } else {
            next.map_or(IDLE_MS, |at| at.saturating_sub(now_ms()).min(IDLE_MS))
        };
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
        board.announce_restored(session.traffic);
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
