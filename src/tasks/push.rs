//! The board's `subscriptions/listen` stream for its live tasks, when the server offers
//! pushed task snapshots. Polling goes on slowly while the stream is acknowledged and falls
//! back to the server's interval as soon as it ends or drops.

use holdbay_engine::{ListenEvent, ListenFilter};
use leptos::prelude::*;
use web_sys::AbortController;

use super::polling::note_events;
use super::{TaskBoard, alive, now_ms};
use crate::transport::listen;
use crate::ui::session::{Session, Step};

/// How long to wait before retrying a stream that dropped, at first and at most.
const RETRY_FIRST_MS: u64 = 1_000;
const RETRY_MAX_MS: u64 = 30_000;
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

/// How one stream ended, and so how soon to open the next.
enum Ending {
    /// Closed here because the live tasks changed: open the next one at once.
    Reopen,
    /// The server ended it gracefully.
    Settled,
    /// It broke: retry later.
    Broken,
    /// The server does not take `subscriptions/listen`: poll until the next connect.
    Refused,
}

pub async fn run(board: TaskBoard, session: Session) {
    let mut retry_ms = RETRY_FIRST_MS;
    // The server that refused listening; polling alone serves it until another connect.
    let mut refused_by: Option<String> = None;
    while alive(&session) {
        let server = session.connection.try_with_untracked(|c| c.server.clone());
        if refused_by.is_some() && refused_by == server {
            board.push_wakeup.sleep(IDLE_MS).await;
            continue;
        }
        let offered = session.discovery.try_with_untracked(|step| match step {
            Step::Done(discovered) => Some(ListenFilter::server_offers_task_push(discovered)),
            _ => None,
        });
        let ids = board.live_ids.try_get_value().unwrap_or_default();
        match offered.flatten() {
            None => {
                board.push_wakeup.sleep(DISCOVERY_CHECK_MS).await;
                continue;
            }
            Some(true) if !ids.is_empty() => {}
            Some(_) => {
                board.push_wakeup.sleep(IDLE_MS).await;
                continue;
            }
        }
        match listen_once(board, session, ids, &mut retry_ms).await {
            Ending::Reopen => retry_ms = RETRY_FIRST_MS,
            Ending::Settled => board.push_wakeup.sleep(RETRY_FIRST_MS).await,
            Ending::Broken => {
                board.push_wakeup.sleep(retry_ms).await;
                retry_ms = (retry_ms * 2).min(RETRY_MAX_MS);
            }
            Ending::Refused => refused_by = server,
        }
    }
}

async fn listen_once(
    board: TaskBoard,
    session: Session,
    ids: Vec<String>,
    retry_ms: &mut u64,
) -> Ending {
    let Some(request) = session.build(|client| client.listen(ListenFilter::tasks(ids))) else {
        return Ending::Reopen;
    };
    let controller = AbortController::new().ok();
    let signal = controller.as_ref().map(AbortController::signal);
    board.push.controller.try_set_value(controller);
    let connection = session.connection_now();
    let mut how = session.exchange_with(&connection);
    how.abort = signal.as_ref();
    let mut ending = Ending::Broken;
    let outcome = listen(&how, &request, |subscription, chunk| {
        for event in subscription.handle_chunk(chunk) {
            take_event(board, &session, event, &mut ending, retry_ms);
        }
        !subscription.is_over()
    })
    .await;
    let closed_on_purpose = signal.as_ref().is_some_and(|signal| signal.aborted());
    if let Ok(mut subscription) = outcome {
        for event in subscription.handle_end() {
            take_event(board, &session, event, &mut ending, retry_ms);
        }
    }
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
        Ending::Reopen
    } else {
        ending
    }
}

fn take_event(
    board: TaskBoard,
    session: &Session,
    event: ListenEvent,
    ending: &mut Ending,
    retry_ms: &mut u64,
) {
    match event {
        ListenEvent::Acknowledged { filter } => {
            *retry_ms = RETRY_FIRST_MS;
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
                    tracked.tracker.handle_snapshot(&task, Some(message))
                })
                .unwrap_or_default();
            note_events(session, events);
        }
        ListenEvent::Finding(finding) => session.note_findings([finding]),
        ListenEvent::Ended => *ending = Ending::Settled,
        refusal @ ListenEvent::Failed(_) if refusal.is_refusal() => *ending = Ending::Refused,
        ListenEvent::Dropped | ListenEvent::Failed(_) => *ending = Ending::Broken,
        ListenEvent::ToolsListChanged
        | ListenEvent::PromptsListChanged
        | ListenEvent::ResourcesListChanged
        | ListenEvent::ResourceUpdated { .. } => {}
    }
}
