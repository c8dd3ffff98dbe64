//! One polling loop per board: it asks the engine which `tasks/get`s are due (and when the
//! next one will be), sends them a few at a time and no faster than the page draws
//! ([`pacing`](super::pacing)), and hands what comes back to each task's tracker.

use std::collections::BTreeSet;

use holdbay_engine::{ClientEnding, MAX_POLLS_IN_FLIGHT, TaskEvent, due_polls};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::pacing::{self, NO_FRAME_MS, PollPace, page_now};
use super::{PollProblem, SnapshotSeen, TaskBoard, now_ms};
use crate::link::{ExchangeError, Link};
use crate::traffic::TrafficView;

/// The longest the loop sleeps without being woken (a safety net, not a schedule).
const IDLE_MS: u64 = 30_000;

pub async fn run(board: TaskBoard, link: Link, traffic: TrafficView) {
    let in_flight = StoredValue::new(BTreeSet::<String>::new());
    let mut pace = PollPace::default();
    while link.is_alive() {
        follow_server_changes(board, link, traffic);
        let now = now_ms();
        pace.accrue(page_now());
        let slots = MAX_POLLS_IN_FLIGHT.saturating_sub(in_flight.with_value(BTreeSet::len));
        let free = slots.min(pace.allowed());
        let due = in_flight.with_value(|busy| {
            board.read(|tasks| {
                due_polls(
                    tasks.iter().map(|task| &task.tracker),
                    |id| busy.contains(id),
                    now,
                    free,
                )
            })
        });
        let Some(due) = due else {
            return;
        };
        pace.set_steady_rate(due.steady_per_second);
        pace.spend(due.due.len());
        for task_id in due.due {
            in_flight.update_value(|ids| {
                ids.insert(task_id.clone());
            });
            spawn_local(async move {
                poll_once(board, link, &task_id).await;
                in_flight.try_update_value(|ids| ids.remove(&task_id));
                board.poll_wakeup.wake();
            });
        }
        if due.more_due && free < slots {
            // A burst beyond the steady rate, held back while it makes frames late: go on
            // at the next frame.
            pacing::next_frame(&mut pace).await;
            continue;
        }
        // Due polls waiting for a free slot go when a poll in flight ends (it wakes us).
        let wait = if due.more_due {
            IDLE_MS
        } else {
            due.next_at
                .map_or(IDLE_MS, |at| at.saturating_sub(now_ms()).min(IDLE_MS))
        };
        let slept_from = now_ms();
        board.poll_wakeup.sleep(wait.max(1)).await;
        if now_ms().saturating_sub(slept_from) >= NO_FRAME_MS as u64 {
            pace.rested();
        }
    }
}

/// Another server was chosen: show (and follow) its stored tasks instead.
fn follow_server_changes(board: TaskBoard, link: Link, traffic: TrafficView) {
    let server = link.connection_now().server;
    let shown = board.server.try_get_untracked().flatten();
    if !server.is_empty() && shown.as_deref() != Some(server.as_str()) {
        board.load(&server);
        board.announce_restored(traffic);
    }
}

async fn poll_once(board: TaskBoard, link: Link, task_id: &str) {
    let now = now_ms();
    let request = board
        .modify(task_id, |task| {
            link.build(|client| task.tracker.poll(client, now))
        })
        .flatten();
    let Some(request) = request else {
        return;
    };
    match link.exchange(&request).await {
        Ok(reply) => {
            let events = board
                .modify(task_id, |task| {
                    task.poll_problem = None;
                    task.last_snapshot = Some(SnapshotSeen {
                        at_ms: now_ms(),
                        pushed: false,
                    });
                    task.tracker
                        .handle_snapshot(&reply.result.task, Some(reply.raw_result))
                })
                .unwrap_or_default();
            note_events(link, events);
        }
        Err(error) => {
            let events = board
                .modify(task_id, |task| {
                    let events = match &error {
                        ExchangeError::Response(refused) => {
                            task.tracker.poll_refused(refused, now_ms())
                        }
                        _ => {
                            task.tracker.poll_failed(now_ms());
                            Vec::new()
                        }
                    };
                    // An ending says why on its own; a failure to retry says it here.
                    task.poll_problem = (!task.tracker.is_terminal()).then(|| problem(&error));
                    events
                })
                .unwrap_or_default();
            let refused = events
                .iter()
                .any(|event| matches!(event, TaskEvent::Ended(ClientEnding::Refused { .. })));
            note_events(link, events);
            if refused {
                board.cancel_refused_now(link, task_id);
            }
        }
    }
}

fn problem(error: &ExchangeError) -> PollProblem {
    PollProblem {
        unreachable: error.is_unanswered(),
        detail: error.to_string(),
    }
}

/// The trackers' findings join the link's; the other events show through the board.
pub(super) fn note_events(link: Link, events: Vec<TaskEvent>) {
    link.note_findings(events.into_iter().filter_map(|event| match event {
        TaskEvent::Finding(finding) => Some(finding),
        _ => None,
    }));
}
