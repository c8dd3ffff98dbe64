//! The board's `subscriptions/listen` stream for its live tasks, when the server offers
//! pushed task snapshots. Polling goes on slowly while the stream is acknowledged and falls
//! back to the server's interval as soon as it ends or drops. When to open the next stream
//! is the engine's [`ListenSchedule`].

use holdbay_engine::{ListenEnding, ListenEvent, ListenFilter, ListenSchedule};
use leptos::prelude::*;
use web_sys::AbortController;

use super::polling::note_events;
use super::{SnapshotSeen, TaskBoard, now_ms};
use crate::link::Link;

/// While waiting for a task to follow (a new one wakes the loop).
const IDLE_MS: u64 = 30_000;
const DISCOVERY_CHECK_MS: u64 = 500;

/// The open stream, if any.
#[derive(Clone, Copy)]
pub struct PushState {
    /// A stream is open and acknowledged.
    pub active: RwSignal<bool>,
    controller: StoredValue<Option<AbortController>, LocalStorage>,
}

impl PushState {
    pub fn new() -> Self {
        Self {
            active: RwSignal::new(false),
            controller: StoredValue::new_local(None),
        }
    }

    /// Close the open stream (the loop then reopens it for the current live tasks).
    pub fn stop(&self) {
        if let Some(controller) = self.controller.try_update_value(Option::take).flatten() {
            controller.abort();
        }
    }
}

pub async fn run(board: TaskBoard, link: Link, offers_push: Signal<Option<bool>>) {
    let mut schedule = ListenSchedule::new();
    let mut server = link.connection_now().server;
    while link.is_alive() {
        // A new server (or a new connect) may take listening again.
        let now_server = link.connection_now().server;
        if now_server != server {
            server = now_server;
            schedule.reset();
        }
        let ids = board.live_ids.try_get_value().unwrap_or_default();
        let wait = match offers_push.try_get_untracked().flatten() {
            None => Some(DISCOVERY_CHECK_MS),
            Some(false) => Some(IDLE_MS),
            Some(true) if ids.is_empty() => Some(IDLE_MS),
            Some(true) => match schedule.next_open_at() {
                // Refused: polling alone serves this server until the next connect.
                None => Some(IDLE_MS),
                Some(at) => at.checked_sub(now_ms()).filter(|wait| *wait > 0),
            },
        };
        if let Some(wait) = wait {
            board.push_wakeup.sleep(wait).await;
            continue;
        }
        let ending = listen_once(board, link, ids, &mut schedule).await;
        schedule.ended(ending, now_ms());
    }
}

async fn listen_once(
    board: TaskBoard,
    link: Link,
    ids: Vec<String>,
    schedule: &mut ListenSchedule,
) -> ListenEnding {
    let Some(request) = link.build(|client| client.listen(ListenFilter::tasks(ids))) else {
        return ListenEnding::ClosedByClient;
    };
    let controller = AbortController::new().ok();
    let signal = controller.as_ref().map(AbortController::signal);
    board.push.controller.try_set_value(controller);
    let mut ending = ListenEnding::Broken;
    let _ = link
        .listen(&request, signal.as_ref(), &mut |event| {
            if let Some(how) = ListenEnding::announced_by(&event) {
                ending = how;
            }
            take_event(board, link, event, schedule);
            true
        })
        .await;
    let closed_on_purpose = signal.as_ref().is_some_and(|signal| signal.aborted());
    board.push.controller.try_set_value(None);
    board.push.active.try_set(false);
    // Polling takes over at once, at the server's interval.
    let now = now_ms();
    board.modify_all(|task| {
        if task.tracker.pushed {
            task.tracker.set_pushed(false, now);
        }
    });
    if closed_on_purpose {
        ListenEnding::ClosedByClient
    } else {
        ending
    }
}

fn take_event(board: TaskBoard, link: Link, event: ListenEvent, schedule: &mut ListenSchedule) {
    match event {
        ListenEvent::Acknowledged { filter } => {
            schedule.acknowledged();
            let granted = filter.task_ids.unwrap_or_default();
            let now = now_ms();
            board.modify_all(|task| {
                if granted.iter().any(|id| id == task.id()) && !task.tracker.is_terminal() {
                    task.tracker.set_pushed(true, now);
                }
            });
            board.push.active.try_set(true);
        }
        ListenEvent::TaskSnapshot { task, message } => {
            let task_id = task.task.task_id.clone();
            let events = board
                .modify(&task_id, |tracked| {
                    tracked.poll_problem = None;
                    tracked.last_snapshot = Some(SnapshotSeen {
                        at_ms: now_ms(),
                        pushed: true,
                    });
                    tracked.tracker.handle_snapshot(&task, Some(message))
                })
                .unwrap_or_default();
            note_events(link, events);
        }
        // The stream's findings arrive with its decoded events (the link keeps them).
        ListenEvent::Finding(_)
        | ListenEvent::Ended
        | ListenEvent::Dropped
        | ListenEvent::Failed(_)
        | ListenEvent::ToolsListChanged
        | ListenEvent::PromptsListChanged
        | ListenEvent::ResourcesListChanged
        | ListenEvent::ResourceUpdated { .. } => {}
    }
}
