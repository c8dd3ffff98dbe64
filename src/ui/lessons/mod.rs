//! The guided lessons against the demo server: one click starts each (it sets up the call
//! panel and runs the call), numbered steps say what to do and what to watch in the scene,
//! and a question ends each, answered live in the scene.

pub mod catalog;
mod lesson;
mod progress;
mod question;
mod recap;
pub mod reveal;

use leptos::prelude::*;

use crate::catalog::Loaded;
use crate::connection::Connection;
use crate::session::Session;
use crate::ui::UiState;
pub use catalog::{LESSONS, Lesson, LessonStep, Preset};
use lesson::LessonView;
pub use progress::LessonProgress;

#[component]
pub fn LessonsPanel() -> impl IntoView {
    let session = Session::current();
    let progress = RwSignal::new(LessonProgress::load());
    let active = Memo::new(move |_| progress.with(|p| p.active));
    // Why the last Start could not run its call, if it could not.
    let problem = RwSignal::new(None::<String>);
    // A lesson needs the height for its steps, the scene and the evidence: the dock folds
    // to its tab bar whenever one starts (or is open on load); Show brings it back.
    let ui = UiState::current();
    let dock = ui.dock();
    Effect::new(move |previous: Option<Option<u8>>| {
        let now = active.get();
        if now.is_some() && previous.flatten() != now {
            dock.fold_for_now();
        }
        now
    });

    let review = RwSignal::new(None::<u8>);
    let open_recap = Callback::new(move |()| {
        progress.update(|p| {
            p.active = None;
            p.recap = true;
        });
        progress.with_untracked(LessonProgress::save);
    });
    let start = move |number: u8| {
        // A lesson starts from now: the scene live (not the moment an earlier reveal went
        // back to), the earlier lessons' requests and tasks folded away, nothing inspected.
        session.traffic().start_scene();
        ui.inspected().set(None);
        progress.update(|p| {
            p.active = Some(number);
            p.recap = false;
        });
        progress.with_untracked(LessonProgress::save);
        let lesson = catalog::lesson(number);
        if let Some(path) = lesson.and_then(|lesson| lesson.endpoint) {
            // A lesson of its own endpoint starts with the connect: its first step is what
            // the server answers to it.
            problem.set(connect_to(session, ui, path).err());
            return;
        }
        let first = lesson
            .and_then(|lesson| lesson.steps.first())
            .and_then(|step| step.preset);
        problem.set(first.and_then(|preset| run_preset(session, preset).err()));
    };
    // The list is one Tab stop (the arrow keys move within it): the open lesson's button,
    // else the next lesson not done yet. Tab then reaches the lesson's own controls, and
    // the call's form after them, without crossing twelve buttons.
    let recap_shown = Memo::new(move |_| progress.with(|p| p.recap));
    let tab_stop = Memo::new(move |_| {
        if recap_shown.get() {
            return None;
        }
        progress.with(|p| {
            p.active.or_else(|| {
                LESSONS
                    .iter()
                    .map(|lesson| lesson.number)
                    .find(|number| !p.is_done(*number))
            })
        })
    });
    let buttons = LESSONS
        .iter()
        .map(|lesson| {
            let number = lesson.number;
            let current = move || active.get() == Some(number);
            let done = move || progress.with(|p| p.is_done(number));
            let title = lesson.title;
            let label = move || {
                let done = if done() { " (done)" } else { "" };
                format!("Start lesson {number}: {title}{done}")
            };
            view! {
                <li>
                    <button
                        class="lesson-start"
                        data-lesson=number
                        tabindex=move || if tab_stop.get() == Some(number) { "0" } else { "-1" }
                        aria-label=label
                        aria-current=move || current().then_some("step")
                        class:active=current
                        class:done=done
                        on:click=move |_| start(number)
                    >
                        <span class="lesson-number">{number}</span>
                        <span class="lesson-title">{lesson.title}</span>
                        <span class="lesson-done" aria-hidden="true">
                            {move || if done() { "✓" } else { "" }}
                        </span>
                    </button>
                </li>
            }
        })
        .collect_view();
    let body = move || {
        if recap_shown.get() {
            let close = Callback::new(move |()| {
                progress.update(|p| p.recap = false);
                progress.with_untracked(LessonProgress::save);
            });
            return Some(
                view! { <recap::Recap progress=progress review=review close=close /> }.into_any(),
            );
        }
        let lesson = catalog::lesson(active.get()?)?;
        let run_step = Callback::new(move |step: &'static LessonStep| {
            let outcome = match (step.connect, step.preset) {
                (Some(path), _) => connect_to(session, ui, path),
                (None, Some(preset)) => run_preset(session, preset),
                (None, None) => Ok(()),
            };
            problem.set(outcome.err());
        });
        let close = Callback::new(move |()| {
            progress.update(|p| p.active = None);
            progress.with_untracked(LessonProgress::save);
            problem.set(None);
        });
        Some(
            view! {
                <LessonView
                    session=session
                    lesson=lesson
                    progress=progress
                    run_step=run_step
                    close=close
                    open_recap=open_recap
                    review=review
                />
            }
            .into_any(),
        )
    };
    view! {
        <section class="panel" id="lessons" aria-labelledby="lessons-heading">
            <h2 id="lessons-heading">"Lessons"</h2>
            <p class="quiet lessons-hint">
                "Against the demo server. Start sets up the call and runs it; watch the scene."
            </p>
            <ol class="lesson-list" on:keydown=move_in_list>
                {buttons}
                <li>
                    <button
                        class="lesson-start lesson-recap-open"
                        tabindex=move || if tab_stop.get().is_none() { "0" } else { "-1" }
                        aria-label="Recap of all the lessons"
                        aria-current=move || recap_shown.get().then_some("step")
                        class:active=move || recap_shown.get()
                        on:click=move |_| open_recap.run(())
                    >
                        <span class="lesson-number" aria-hidden="true">"∑"</span>
                        <span class="lesson-title">"Recap"</span>
                    </button>
                </li>
            </ol>
            {move || {
                problem
                    .get()
                    .map(|why| view! { <p class="lesson-problem" role="alert">{why}</p> })
            }}
            {body}
        </section>
    }
}

/// The arrow keys, Home and End move the focus between the list's buttons.
fn move_in_list(event: leptos::ev::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let Some(list) = event
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let Ok(buttons) = list.query_selector_all("button.lesson-start") else {
        return;
    };
    let count = buttons.length();
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let at = (0..count).find(|&i| {
        buttons
            .item(i)
            .zip(focused.as_ref())
            .is_some_and(|(button, focused)| button.is_same_node(Some(focused)))
    });
    let Some(at) = at else {
        return;
    };
    let next = match event.key().as_str() {
        "ArrowRight" | "ArrowDown" => (at + 1) % count,
        "ArrowLeft" | "ArrowUp" => (at + count - 1) % count,
        "Home" => 0,
        "End" => count - 1,
        _ => return,
    };
    if let Some(button) = buttons
        .item(next)
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
    {
        event.prevent_default();
        let _ = button.focus();
    }
}

/// Connect anew to the endpoint at `path` on the page's own origin (the `holdbay serve` that
/// served the app), even when it is the current one: the lesson starts from the server's first
/// answer. The page URL names it, as any connect does.
fn connect_to(session: Session, ui: UiState, path: &str) -> Result<(), String> {
    let href = web_sys::window()
        .and_then(|window| window.location().href().ok())
        .ok_or_else(|| "This lesson cannot read the page's address.".to_owned())?;
    let server = crate::endpoint::resolve(Some(path), &href)?;
    crate::ui::reconnect(session, ui, Connection::restore(server));
    Ok(())
}

/// Set the call of `preset` up (its tool shown, its arguments in the form) and start it,
/// when the connected server has the tool.
fn run_preset(session: Session, preset: Preset) -> Result<(), String> {
    let tools = session.catalog_untracked().tools();
    let has_tool = match tools.with_untracked(|tools| match tools {
        Loaded::Ready(toolbox) => Some(toolbox.tools.items.iter().any(|t| t.name == preset.tool)),
        Loaded::Loading => None,
        _ => Some(false),
    }) {
        Some(has_tool) => has_tool,
        None => return Err("Still connecting to the server: try again in a moment.".to_owned()),
    };
    if !has_tool {
        return Err(format!(
            "This lesson needs the demo server's tool {}: connect to the /mcp of holdbay serve.",
            preset.tool
        ));
    }
    let arguments = match serde_json::from_str(preset.arguments) {
        Ok(serde_json::Value::Object(arguments)) => arguments,
        _ => Default::default(),
    };
    let ui = UiState::current();
    let draft = ui.draft(preset.tool);
    draft.replace_arguments(serde_json::Value::Object(arguments.clone()));
    draft.accept_task.set(preset.accept_task);
    let shown = serde_json::to_string(&arguments).unwrap_or_default();
    let task = if preset.accept_task {
        "accepting a task"
    } else {
        "not accepting a task"
    };
    if ui.selected_tool().get_untracked().as_deref() != Some(preset.tool) {
        ui.selected_tool().set(Some(preset.tool.to_owned()));
    }
    let started = session.call(preset.tool).start(
        arguments,
        preset.accept_task,
        draft.report_progress.get_untracked(),
    );
    draft.note.set(Some(match &started {
        Ok(()) => format!("Started by a lesson, {task}, with arguments {shown}"),
        Err(why) => why.clone(),
    }));
    started
}
