//! The board's one driver loop: it moves bytes and time for the engine's [`TaskBook`] and
//! decides nothing. Each turn it asks the book what to send (polls as they fall due, no
//! faster than the page draws: [`pacing`](super::pacing); the user's answers and cancels;
//! the listen stream to open or close), sends it, hands back what came, and sleeps until the
//! book's timeout or until woken (a reply, a new task, discovery's word on pushed snapshots).

use holdbay_engine::{
    ExchangeEvent, Fetched, Listen, NotificationKind, Outcome, OutgoingMessage, OutgoingRequest,
    PollProblem, TaskBook, TaskResult, TaskTransmit, TransmitKind,
};
use leptos::prelude::*;
use leptos::task::spawn_local;
use web_sys::AbortController;

use super::pacing::{self, NO_FRAME_MS, PollPace, page_now};
use super::{TaskBoard, now_ms};
use crate::link::{ExchangeError, Link};
use crate::traffic::TrafficView;

/// The longest the loop sleeps without being woken (a safety net, not a schedule).
const IDLE_MS: u64 = 30_000;

pub async fn run(
    board: TaskBoard,
    link: Link,
    traffic: TrafficView,
    offers_push: Signal<Option<bool>>,
) {
    let mut pace = PollPace::default();
    // A 2025-11-25 server pushes its tasks' states on the session's own stream.
    let watching = link.watch_stream(std::rc::Rc::new(move |event: &ExchangeEvent| {
        if let ExchangeEvent::Notification(note) = event
            && let NotificationKind::LegacyTaskStatus(task) = &note.kind
        {
            board.with_book(|book| {
                book.handle_pushed_status(task, Some(note.json.clone()), now_ms());
            });
        }
    }));
    while link.is_alive() {
        follow_server_changes(board, link, traffic);
        let offered = offers_push.try_get_untracked().flatten();
        board.with_book(|book| book.set_push_offered(offered));
        let now = now_ms();
        pace.accrue(page_now());
        if board.with_book(TaskBook::poll_listen_close) == Some(true)
            && let Some(controller) = board.listen_abort.try_update_value(Option::take).flatten()
        {
            controller.abort();
        }
        if let Some(request) = build(board, link, |book, client| book.poll_listen(now, client)) {
            open_listen(board, link, request);
        }
        let allowed = pace.allowed();
        let mut polls = 0;
        while let Some(transmit) = build(board, link, |book, client| {
            book.poll_transmit(now, client, allowed.saturating_sub(polls))
        }) {
            if matches!(transmit, TaskTransmit::Poll { .. }) {
                polls += 1;
            }
            spawn_local(send(board, link, transmit));
        }
        pace.spend(polls);
        pace.set_steady_rate(board.read(TaskBook::steady_per_second).unwrap_or(0.0));
        let timeout = board.read(|book| book.poll_timeout(now)).flatten();
        if timeout.is_some_and(|at| at <= now) {
            // Polls due beyond the pace, held back while they make frames late: go on at
            // the next frame.
            pacing::next_frame(&mut pace).await;
            continue;
        }
        let wait = timeout.map_or(IDLE_MS, |at| at.saturating_sub(now_ms()).min(IDLE_MS));
        let slept_from = now_ms();
        board.wakeup.sleep(wait.max(1)).await;
        if now_ms().saturating_sub(slept_from) >= NO_FRAME_MS as u64 {
            pace.rested();
        }
    }
    link.unwatch_stream(watching);
}

/// Ask the book for something to send, built with the link's client.
fn build<T>(
    board: TaskBoard,
    link: Link,
    make: impl FnOnce(&mut TaskBook, &mut holdbay_engine::Client) -> Option<T>,
) -> Option<T> {
    link.build(|client| board.with_book(|book| make(book, client)))
        .flatten()
        .flatten()
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

/// Send one request the book asked for and hand back what came of it.
async fn send(board: TaskBoard, link: Link, transmit: TaskTransmit) {
    match transmit {
        TaskTransmit::Poll { task_id, request } => match link.exchange(&request).await {
            Ok(reply) => {
                board.with_book(|book| {
                    let raw = Some(reply.raw_result);
                    book.handle_poll_snapshot(&task_id, &reply.result.task, raw, now_ms());
                });
            }
            Err(error) => poll_failed(board, &task_id, &error),
        },
        TaskTransmit::Update { task_id, request } => {
            reported(board, link, TransmitKind::Update, &task_id, &request).await;
        }
        TaskTransmit::Cancel {
            task_id,
            kind,
            request,
        } => reported(board, link, kind, &task_id, &request).await,
        TaskTransmit::LegacyPoll { task_id, request } => match link.exchange(&request).await {
            Ok(reply) => {
                board.with_book(|book| {
                    let raw = Some(reply.raw_result);
                    book.handle_status_poll(&task_id, &reply.result, raw, now_ms());
                });
            }
            Err(error) => poll_failed(board, &task_id, &error),
        },
        TaskTransmit::LegacyCancel {
            task_id,
            kind,
            request,
        } => reported(board, link, kind, &task_id, &request).await,
        TaskTransmit::Fetch { task_id, request } => fetch(board, link, task_id, request).await,
        TaskTransmit::Answers { task_id, messages } => {
            let mut outcome = Ok(());
            for message in &messages {
                let refused = match link.post_message(message).await {
                    Ok(status) => OutgoingMessage::refusal(status),
                    Err(error) => Some(error.to_string()),
                };
                if let Some(why) = refused {
                    outcome = Err(why);
                }
            }
            board.with_book(|book| book.handle_sent(TransmitKind::Update, &task_id, outcome));
        }
    }
}

/// A 2025-11-25 `tasks/result`: the requests its stream carries go to the task's asks as
/// they come (a `ping` is answered at once), its end to the book.
async fn fetch(
    board: TaskBoard,
    link: Link,
    task_id: String,
    request: OutgoingRequest<TaskResult>,
) {
    let asking = task_id.clone();
    let on_event = move |event: &ExchangeEvent| {
        if let ExchangeEvent::ServerRequest(asked) = event {
            if asked.is_ping() {
                link.answer_ping(asked);
            } else {
                board.with_book(|book| book.handle_fetch_ask(&asking, (**asked).clone()));
            }
        }
    };
    let outcome = link.exchange_outcome(&request, None, Some(&on_event)).await;
    board.with_book(|book| {
        let now = now_ms();
        match &outcome {
            Ok(reply) => match &reply.result {
                Outcome::Complete(result) => {
                    book.handle_fetched(
                        &task_id,
                        Fetched::Result(result.clone(), &reply.raw_result),
                        now,
                    );
                }
                // tasks/result never pauses or makes a task: the engine refuses those.
                _ => book.handle_fetched(&task_id, Fetched::Unanswered, now),
            },
            Err(ExchangeError::Response(refused)) => {
                book.handle_fetched(&task_id, Fetched::Refused(refused), now);
            }
            Err(_) => book.handle_fetched(&task_id, Fetched::Unanswered, now),
        }
    });
}

/// A poll got no snapshot: say why on the task, which backs off or ends as the book decides.
fn poll_failed(board: TaskBoard, task_id: &str, error: &ExchangeError) {
    let problem = PollProblem {
        unreachable: error.is_unanswered(),
        detail: error.to_string(),
    };
    let refusal = match error {
        ExchangeError::Response(refused) => Some(refused),
        _ => None,
    };
    board.with_book(|book| book.handle_poll_failure(task_id, refusal, problem, now_ms()));
}

/// Send a request the user asked for and tell the book whether it went through (its
/// findings arrive with its decoded events).
async fn reported<M: holdbay_engine::McpMethod>(
    board: TaskBoard,
    link: Link,
    kind: TransmitKind,
    task_id: &str,
    request: &OutgoingRequest<M>,
) {
    let outcome = link
        .exchange(request)
        .await
        .map(|_| ())
        .map_err(|error| error.to_string());
    board.with_book(|book| book.handle_sent(kind, task_id, outcome));
}

/// Open the listen stream the book asked for: its events go to the book as they come, and
/// the book hears when it ends (it knows whether it asked for the close).
fn open_listen(board: TaskBoard, link: Link, request: OutgoingRequest<Listen>) {
    let controller = AbortController::new().ok();
    let signal = controller.as_ref().map(AbortController::signal);
    board.listen_abort.try_set_value(controller);
    spawn_local(async move {
        let _ = link
            .listen(&request, signal.as_ref(), &mut |event| {
                board.with_book(|book| book.handle_listen(event, now_ms()));
                true
            })
            .await;
        board.listen_abort.try_set_value(None);
        board.with_book(|book| book.listen_ended(now_ms()));
    });
}
