//! The tasks that ask for input, with their forms, where a form has room: above the call in
//! the call column (the Workbench's and the Scene's), newest request first. Their rows in the
//! tasks panel only point here.

use holdbay_engine::{MethodId, Shown};
use leptos::prelude::*;

use super::inputs::InputRequests;
use crate::session::Session;
use crate::split::{ChunkMissing, chunk, engine_work};
use crate::ui::chunks::when_loaded;
use crate::ui::dom_id::id_part;

/// The id of a task's asking card, for the row's link to it.
pub fn asking_card_id(task_id: &str) -> String {
    format!("task-asking-{}", id_part(task_id))
}

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
pub fn TasksAsking() -> impl IntoView {
    let asking = Session::current().tasks().asking();
    // Newest first: the task that just asked is the one the user is looking for.
    let newest_first = move || asking.with(|ids| ids.iter().rev().cloned().collect::<Vec<_>>());
    let heading = move || match asking.with(Vec::len) {
        1 => "A task asks for input".to_owned(),
        count => format!("{count} tasks ask for input"),
    };
    move || {
        asking.with(|ids| !ids.is_empty()).then(|| {
            view! {
                <section class="panel" id="task-asking" aria-labelledby="task-asking-heading">
                    <h2 id="task-asking-heading">{heading}</h2>
                    <For each=newest_first key=|id| id.clone() let:task_id>
                        <AskingCardFromChunk task_id=task_id />
                    </For>
                </section>
            }
        })
    }
}

/// The card's code comes with the task rows' (the engine-work chunk), which following the
/// tasks has fetched already: no task asks before that.
#[component]
fn AskingCardFromChunk(task_id: String) -> impl IntoView {
    when_loaded(async move {
        match chunk!(asking_card(task_id)) {
            Ok(card) => card,
            Err(missing) => view! { <p class="error-message">{missing.to_string()}</p> }.into_any(),
        }
    })
}

engine_work! {
    fn asking_card(task_id: String) -> Result<AnyView, ChunkMissing> {
        Ok(view! { <AskingCard task_id=task_id /> }.into_any())
    }
}

#[component]
fn AskingCard(task_id: String) -> impl IntoView {
    let board = Session::current().tasks();
    let id = task_id.clone();
    let task = Memo::new(move |_| {
        board.watch(&id);
        board.task(&id)
    });
    let tool = task.with_untracked(|task| {
        task.as_ref()
            .map(|t| Shown::of(t.tool()).text())
            .unwrap_or_default()
    });
    let message = move || {
        task.with(|task| {
            task.as_ref()
                .and_then(|t| t.tracker().status_message().map(str::to_owned))
                .map(|message| view! { <p class="task-message">{message}</p> })
        })
    };
    let card_id = asking_card_id(&task_id);
    let label = format!("Task {task_id} ({tool}) asks for input");
    view! {
        <article
            class="task-asking"
            id=card_id
            data-task-id=task_id.clone()
            tabindex="-1"
            aria-label=label
        >
            <p class="task-asking-head">
                "Task "
                <code class="task-tool">{tool.clone()}</code>
                " "
                <code class="task-id" title=task_id.clone()>{short_id(&task_id)}</code>
                {format!(
                    " asks for input. The answers go back in a {}; the task goes on where it was.",
                    MethodId::UpdateTask,
                )}
            </p>
            {message}
            <InputRequests task=task task_id=task_id.clone() />
        </article>
    }
}
