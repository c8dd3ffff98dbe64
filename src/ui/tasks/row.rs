//! One task on the board: its status, times, input requests, and how it ended.

use holdbay_engine::Shown;
use holdbay_engine::model::{CallToolResult, ErrorData, TaskStatus};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::asking::{asking_card_id, short_id};
use super::clock::seconds_until;
use super::following::{following_text, last_snapshot_text};
use super::outcome::{TaskError, TaskResult};
use crate::session::Session;
use crate::tasks::TrackedTask;
use crate::ui::chunks::{chunk, when_loaded};
use crate::ui::format::{duration, exact_duration};

#[component]
pub fn TaskRow(task_id: String, now: Signal<u64>) -> impl IntoView {
    let session = Session::current();
    let board = session.tasks();
    let id = task_id.clone();
    // Only this task's changes re-run it, however many tasks the board follows.
    let task = Memo::new(move |_| {
        board.watch(&id);
        board.task(&id)
    });
    let with_task = move |read: fn(&TrackedTask) -> Option<AnyView>| {
        move || task.with(|task| task.as_ref().and_then(read))
    };
    // What the row shows, each a memo of its own: a poll that changes nothing a row shows
    // (its time of arrival aside) leaves the rest of the row alone.
    let status = Memo::new(move |_| {
        task.with(|task| {
            task.as_ref()
                .map(|task| task.tracker().status_name())
                .unwrap_or_default()
        })
    });
    let pushed =
        Memo::new(move |_| task.with(|t| t.as_ref().is_some_and(|t| t.tracker().pushed())));
    let message = Memo::new(move |_| {
        task.with(|t| {
            t.as_ref()
                .and_then(|t| t.tracker().status_message().map(str::to_owned))
        })
    });
    let live =
        Memo::new(move |_| task.with(|t| t.as_ref().is_some_and(|t| !t.tracker().is_terminal())));
    let terminal =
        Memo::new(move |_| task.with(|t| t.as_ref().is_some_and(|t| t.tracker().is_terminal())));
    let note =
        Memo::new(move |_| task.with(|t| t.as_ref().and_then(|t| t.note().map(str::to_owned))));
    // The tool's name as the catalog shows it (hidden characters as markers).
    let tool = task.with_untracked(|task| {
        task.as_ref()
            .map(|t| Shown::of(t.tool()).text())
            .unwrap_or_default()
    });
    let cancel_id = task_id.clone();
    let forget_id = task_id.clone();
    view! {
        // Rows out of view are neither laid out nor painted while their polls update them.
        <li
            class="task-row"
            style="content-visibility: auto; contain-intrinsic-size: auto 10rem"
            data-task-id=task_id.clone()
            data-status=status
        >
            <div class="task-head">
                <span class="task-lamp" data-status=status aria-hidden="true"></span>
                <span class="task-status">{status}</span>
                <code class="task-tool">{tool}</code>
                <code class="task-id" title=task_id.clone()>{short_id(&task_id)}</code>
                {move || {
                    pushed
                        .get()
                        .then(|| {
                            view! {
                                <span
                                    class="task-pushed"
                                    title="A subscriptions/listen stream pushes this task's snapshots; polling continues slowly as a safety net."
                                >
                                    "pushed"
                                </span>
                            }
                        })
                }}
            </div>
            {move || message.get().map(|message| view! { <p class="task-message">{message}</p> })}
            <TaskTimes task=task now=now />
            <Unreachable task=task now=now />
            <AsksAbove task=task task_id=task_id.clone() />
            {move || {
                let id = cancel_id.clone();
                live.get().then(|| {
                    view! {
                        <div class="task-cancel-box">
                            <button
                                class="task-cancel"
                                on:click=move |_| session.cancel_task(&id)
                            >
                                "Cancel"
                            </button>
                            <span class="quiet">
                                "Cancel is a request, not a guarantee: the task may still complete or fail."
                            </span>
                        </div>
                    }
                })
            }}
            {move || note.get().map(|note| view! { <p class="task-note" role="status">{note}</p> })}
            {with_task(ending)}
            {move || {
                let id = forget_id.clone();
                terminal
                    .get()
                    .then(|| {
                        view! {
                            <button
                                class="task-forget"
                                title="Remove this ended task from the board and from this browser's storage"
                                on:click=move |_| session.forget_task(&id)
                            >
                                "Forget"
                            </button>
                        }
                    })
            }}
        </li>
    }
}

/// A task's result (its content views are a chunk of their own).
#[cfg_attr(holdbay_split, leptos::lazy)]
fn task_result(result: CallToolResult) -> AnyView {
    view! { <TaskResult result=result /> }.into_any()
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn task_error(error: ErrorData) -> AnyView {
    view! { <TaskError error=error /> }.into_any()
}

/// The outcome once the task has ended (or that it is being fetched).
fn ending(task: &TrackedTask) -> Option<AnyView> {
    let tracker = task.tracker();
    if let Some(result) = tracker.result().cloned() {
        return Some(when_loaded(async move { chunk!(task_result(result)) }).into_any());
    }
    if let Some(error) = tracker.error().cloned() {
        return Some(when_loaded(async move { chunk!(task_error(error)) }).into_any());
    }
    if let Some(why) = tracker.unreadable_outcome().map(str::to_owned) {
        return Some(
            view! { <p class="task-ended error-message" role="status">{why}</p> }.into_any(),
        );
    }
    if let Some(ended) = &tracker.ended() {
        return Some(
            view! { <p class="task-ended error-message" role="status">{ended.explanation()}</p> }
                .into_any(),
        );
    }
    match tracker.status() {
        TaskStatus::Cancelled => {
            Some(view! { <p class="task-cancelled">"Cancelled."</p> }.into_any())
        }
        status if status.is_terminal() && !tracker.settled() => {
            Some(view! { <p class="quiet">"Fetching the outcome…"</p> }.into_any())
        }
        _ => None,
    }
}

/// Age, TTL countdown, how the task is followed, and its newest snapshot. Each text is its
/// own memo: a poll or a tick of the clock touches only the texts it changed.
#[component]
fn TaskTimes(task: Memo<Option<TrackedTask>>, now: Signal<u64>) -> impl IntoView {
    let text = move |read: fn(&TrackedTask, u64) -> String| {
        Memo::new(move |_| {
            let now = now.get();
            task.with(|task| task.as_ref().map(|task| read(task, now)))
                .unwrap_or_default()
        })
    };
    let age = text(|task, now| {
        duration(now.saturating_sub(task.tracker().created_locally_at_ms()) as f64)
    });
    let ttl = text(|task, now| {
        let tracker = task.tracker();
        match tracker.ttl_ms() {
            None => "no TTL".to_owned(),
            Some(ttl) if tracker.is_terminal() => format!("TTL {}", exact_duration(ttl)),
            Some(_) if tracker.is_expired(now) => {
                "TTL passed: the server may have purged it".to_owned()
            }
            Some(ttl) => {
                let ends = tracker.created_locally_at_ms().saturating_add(ttl);
                format!("expires in {}", duration(ends.saturating_sub(now) as f64))
            }
        }
    });
    let following = Memo::new(move |_| {
        task.with(|task| {
            task.as_ref()
                .map(|task| following_text(task.tracker().following()))
        })
        .unwrap_or_default()
    });
    let last = text(|task, now| last_snapshot_text(task.last_snapshot(), now));
    let present = Memo::new(move |_| task.with(Option::is_some));
    move || {
        present.get().then(|| {
            view! {
                <p class="task-times">
                    <span class="task-age">"age " {age}</span>
                    <span class="task-ttl">{ttl}</span>
                    <span class="task-poll">{following}</span>
                    <span class="task-last-snapshot">{last}</span>
                </p>
            }
        })
    }
}

/// The last poll failed: say so, and when the engine's backoff retries.
#[component]
fn Unreachable(task: Memo<Option<TrackedTask>>, now: Signal<u64>) -> impl IntoView {
    move || {
        let now = now.get();
        task.with(|task| {
            let task = task.as_ref()?;
            let problem = task.poll_problem()?;
            let retry = task
                .tracker()
                .next_poll_at()
                .map(|at| format!(" — retrying in {}s", seconds_until(at, now)))
                .unwrap_or_default();
            let what = if problem.unreachable {
                "unreachable"
            } else {
                "tasks/get failed"
            };
            Some(view! {
                <p class="task-unreachable" role="status" title=problem.detail.clone()>
                    {what}
                    {retry}
                </p>
            })
        })
    }
}

/// A task that asks for input is answered in the call column, where its form has room
/// (`asking.rs`): the row says so and takes the user there.
#[component]
fn AsksAbove(task: Memo<Option<TrackedTask>>, task_id: String) -> impl IntoView {
    let asking =
        Memo::new(move |_| task.with(|t| t.as_ref().is_some_and(|t| t.tracker().is_asking())));
    let go = move |_| {
        let card = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&asking_card_id(&task_id)));
        if let Some(card) = card {
            card.scroll_into_view();
            if let Ok(card) = card.dyn_into::<web_sys::HtmlElement>() {
                let _ = card.focus();
            }
        }
    };
    move || {
        asking.get().then(|| {
            view! {
                <p class="task-asks-above">
                    "Asks for input: its form is above the call. "
                    <button type="button" class="task-answer-link" on:click=go.clone()>
                        "Answer it"
                    </button>
                </p>
            }
        })
    }
}
