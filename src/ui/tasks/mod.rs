//! The tasks panel: every task this page follows, live.

mod clock;
mod outcome;
mod row;

use leptos::prelude::*;

use super::session::Session;
use row::TaskRow;

#[component]
pub fn TasksPanel() -> impl IntoView {
    let session = Session::current();
    let board = session.tasks;
    // The panel is always mounted with the session: it restores and follows the stored tasks.
    board.start(session);
    let now = clock::ticking_now();
    let tasks = board.tasks();
    let ids = Memo::new(move |_| {
        tasks.with(|tasks| {
            tasks
                .iter()
                .map(|task| task.id().to_owned())
                .collect::<Vec<_>>()
        })
    });
    let pushing = board.is_pushing();
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
            <ul class="task-list">
                <For each=move || ids.get() key=|id| id.clone() let:task_id>
                    <TaskRow task_id=task_id now=now />
                </For>
            </ul>
        </section>
    }
}
