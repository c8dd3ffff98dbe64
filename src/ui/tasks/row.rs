//! One task on the board: its status, times, input requests, and how it ended.

use holdbay_engine::model::{CallToolResult, ErrorData, TaskStatus};
use holdbay_engine::{InputAnswer, InputAsk, MethodId, Shown};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::clock::{seconds_until, span};
use super::following::{following_text, last_snapshot_text};
use super::outcome::{TaskError, TaskResult};
use crate::owner::KeepingOwner;
use crate::session::Session;
use crate::tasks::TrackedTask;
use crate::ui::chunks::{chunk, when_loaded};
use crate::ui::forms::{Delivery, InputRequestCard};

/// Enough of the id to tell tasks apart; the full one is in the tooltip.
pub(super) fn short_id(task_id: &str) -> String {
    let short: String = task_id.chars().take(8).collect();
    if short.len() < task_id.len() {
        format!("{short}…")
    } else {
        short
    }
}

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
    let pushed = Memo::new(move |_| task.with(|t| t.as_ref().is_some_and(|t| t.tracker().pushed)));
    let message = Memo::new(move |_| {
        task.with(|t| t.as_ref().and_then(|t| t.tracker().status_message.clone()))
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
    if let Some(result) = tracker.result.clone() {
        return Some(when_loaded(async move { chunk!(task_result(result)) }).into_any());
    }
    if let Some(error) = tracker.error.clone() {
        return Some(when_loaded(async move { chunk!(task_error(error)) }).into_any());
    }
    if let Some(why) = tracker.unreadable_outcome.clone() {
        return Some(
            view! { <p class="task-ended error-message" role="status">{why}</p> }.into_any(),
        );
    }
    if let Some(ended) = &tracker.ended {
        return Some(
            view! { <p class="task-ended error-message" role="status">{ended.explanation()}</p> }
                .into_any(),
        );
    }
    match tracker.status {
        TaskStatus::Cancelled => {
            Some(view! { <p class="task-cancelled">"Cancelled."</p> }.into_any())
        }
        status if status.is_terminal() && !tracker.settled => {
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
    let age = text(|task, now| span(now.saturating_sub(task.tracker().created_locally_at_ms)));
    let ttl = text(|task, now| {
        let tracker = task.tracker();
        match tracker.ttl_ms {
            None => "no TTL".to_owned(),
            Some(ttl) if tracker.is_terminal() => format!("TTL {}", span(ttl)),
            Some(_) if tracker.is_expired(now) => {
                "TTL passed: the server may have purged it".to_owned()
            }
            Some(ttl) => {
                let ends = tracker.created_locally_at_ms.saturating_add(ttl);
                format!("expires in {}", span(ends.saturating_sub(now)))
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
            .and_then(|d| d.get_element_by_id(&super::asking::asking_card_id(&task_id)));
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

/// The requests still waiting for an answer. One is answered at once; several are
/// answered together, by one Submit, in one `tasks/update` (the engine sends it only when
/// every outstanding request of the snapshot has an answer).
#[component]
pub(super) fn InputRequests(task: Memo<Option<TrackedTask>>, task_id: String) -> impl IntoView {
    let asks = Memo::new(move |_| {
        task.with(|task| {
            task.as_ref()
                .map(|task| task.tracker().outstanding_asks())
                .unwrap_or_default()
        })
    });
    let asking = Memo::new(move |_| asks.with(|asks| !asks.is_empty()));
    // The forms are a chunk of their own, fetched when a task first asks for input.
    move || {
        let task_id = task_id.clone();
        asking
            .get()
            .then(|| when_loaded(async move { chunk!(input_cards(asks, task_id)) }))
    }
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn input_cards(asks: Memo<Vec<InputAsk>>, task_id: String) -> AnyView {
    let session = Session::current();
    let keys = Memo::new(move |_| {
        asks.with(|asks| asks.iter().map(|ask| ask.key.clone()).collect::<Vec<_>>())
    });
    let gathered = Memo::new(move |_| keys.with(Vec::len) > 1);
    (move || {
        let task_id = task_id.clone();
        if !gathered.get() {
            let view = view! {
                <div class="task-inputs">
                    <For each=move || asks.get() key=|ask| ask.key.clone() let:ask>
                        {
                            let (task_id, key) = (task_id.clone(), ask.key.clone());
                            let on_answer = Callback::new(move |answer: InputAnswer| {
                                session.answer_task(&task_id, &key, answer);
                            });
                            view! { <InputRequestCard ask=ask delivery=Delivery::Immediate(on_answer) /> }
                        }
                    </For>
                </div>
            };
            return view.into_any();
        }
        view! { <GatheredInputs asks=asks task_id=task_id /> }.into_any()
    })
    .into_any()
}

/// Several requests of one snapshot: one card each, one Submit for all of them.
#[component]
fn GatheredInputs(asks: Memo<Vec<InputAsk>>, task_id: String) -> impl IntoView {
    let session = Session::current();
    // Each card's current answer, by key (`None`: not ready). Made under this form's owner,
    // not a card's: a card can go and come back while the form stays.
    let answers: StoredValue<Vec<(String, RwSignal<Option<InputAnswer>>)>> =
        StoredValue::new(Vec::new());
    let owner = KeepingOwner::here();
    let slot = move |key: &str| {
        answers
            .try_with_value(|all| all.iter().find(|(k, _)| k == key).map(|(_, s)| *s))
            .flatten()
            .unwrap_or_else(|| {
                let made = owner.make(|| RwSignal::new(None));
                answers.try_update_value(|all| all.push((key.to_owned(), made)));
                made
            })
    };
    let ready =
        move || asks.with(|asks| asks.iter().all(|ask| slot(&ask.key).with(Option::is_some)));
    let count = move || asks.with(Vec::len);
    let submit_id = task_id.clone();
    let submit = move |_| {
        let chosen: Vec<(String, InputAnswer)> = asks.with_untracked(|asks| {
            asks.iter()
                .filter_map(|ask| Some((ask.key.clone(), slot(&ask.key).get_untracked()?)))
                .collect()
        });
        session.answer_task_together(&submit_id, chosen);
    };
    view! {
        <form
            class="task-inputs gathered"
            on:submit=move |event: leptos::ev::SubmitEvent| event.prevent_default()
        >
            <p class="gathered-intro">
                {move || format!("The task asks for {} inputs at once: answer them, then submit them together.", count())}
            </p>
            <For each=move || asks.get() key=|ask| ask.key.clone() let:ask>
                {
                    let answer = slot(&ask.key);
                    view! { <InputRequestCard ask=ask delivery=Delivery::Gathered(answer) /> }
                }
            </For>
            <div class="input-actions gathered-actions">
                <button
                    type="button"
                    class="submit-answers primary"
                    disabled=move || !ready()
                    on:click=submit
                >
                    {move || format!("Submit {} answers", count())}
                </button>
                <span class="quiet">
                    {format!("They go out together in one {}.", MethodId::UpdateTask)}
                </span>
            </div>
        </form>
    }
}
