//! The tasks panel: every task this page follows.

use leptos::prelude::*;

use super::session::Session;

#[component]
pub fn TasksPanel() -> impl IntoView {
    let session = Session::current();
    let tasks = session.tasks.tasks();
    view! {
        <section class="panel" id="tasks-panel">
            <h2>"Tasks"</h2>
            <ul class="task-list">
                {move || {
                    tasks
                        .get()
                        .into_iter()
                        .map(|task| {
                            view! {
                                <li class="task">
                                    <code>{task.tool}</code>
                                    " "
                                    <code class="task-id">{task.tracker.task_id.clone()}</code>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </section>
    }
}
