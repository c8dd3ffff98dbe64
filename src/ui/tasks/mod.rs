//! The tasks panel: every task this page follows, live.

mod asking;
pub(crate) mod clock;
mod following;
mod inputs;
mod outcome;
mod row;

use leptos::prelude::*;

use crate::session::Session;
use crate::split::{ChunkMissing, chunk, engine_work};
use crate::ui::chunks::when_loaded;
pub use asking::TasksAsking;
use row::TaskRow;

/// A task's row. Its code is in the engine-work chunk (`crate::split`), which following the
/// tasks has fetched already: there is no task before that.
#[component]
fn TaskRowFromChunk(task_id: String, now: Signal<u64>) -> impl IntoView {
    when_loaded(async move {
        match chunk!(task_row(task_id, now)) {
            Ok(row) => row,
            Err(missing) => {
                view! { <li class="task-row error-message">{missing.to_string()}</li> }.into_any()
            }
        }
    })
}

engine_work! {
    fn task_row(task_id: String, now: Signal<u64>) -> Result<AnyView, ChunkMissing> {
        Ok(view! { <TaskRow task_id=task_id now=now /> }.into_any())
    }
}

/// Rows drawn at most; the rest are counted (the scene's magazine shows every task).
pub const ROWS_SHOWN: usize = 50;
/// Above this many tasks the lamps stop pulsing (`.task-list.many`).
pub const STILL_LAMPS_ABOVE: usize = 24;

#[component]
pub fn TasksPanel() -> impl IntoView {
    let board = Session::current().tasks();
    let now = clock::ticking_now();
    let ids = board.ids();
    // Newest first: the task just started (or just asking) is on top, the long-finished
    // ones below it.
    let shown_ids = move || {
        ids.with(|ids| {
            ids.iter()
                .rev()
                .take(ROWS_SHOWN)
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let hidden = move || ids.with(Vec::len).saturating_sub(ROWS_SHOWN);
    let pushing = board.is_pushing();
    let many = move || ids.with(Vec::len) > STILL_LAMPS_ABOVE;
    view! {
        <section class="panel" id="tasks-panel" aria-labelledby="tasks-heading">
            <h2 id="tasks-heading">
                "Tasks"
                {move || {
                    let count = ids.with(Vec::len);
                    (count > 0).then(|| view! { <span class="task-count">{count}</span> })
                }}
            </h2>
            {move || {
                pushing
                    .get()
                    .then(|| {
                        view! {
                            <p class="task-stream" role="status">
                                "Listening: the server pushes these tasks' snapshots."
                            </p>
                        }
                    })
            }}
            {move || {
                board
                    .storage_problem()
                    .get()
                    .map(|problem| view! { <p class="task-storage-problem" role="alert">{problem}</p> })
            }}
            {move || {
                ids.with(Vec::is_empty)
                    .then(|| {
                        view! {
                            <p class="quiet task-empty">
                                "No tasks yet. When the server runs a tool call as a task, it appears here and is followed until it ends, across reloads too."
                            </p>
                        }
                    })
            }}
            <ul class="task-list" class:many=many>
                <For each=shown_ids key=|id| id.clone() let:task_id>
                    <TaskRowFromChunk task_id=task_id now=now />
                </For>
            </ul>
            {move || {
                let hidden = hidden();
                (hidden > 0)
                    .then(|| {
                        view! {
                            <p class="quiet task-more">
                                {hidden}
                                " older tasks are followed but not listed here (the newest "
                                {ROWS_SHOWN}
                                " are)."
                            </p>
                        }
                    })
            }}
        </section>
    }
}
