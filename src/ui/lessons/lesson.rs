//! The open lesson: its intro, numbered steps (a step with a call has a button for it), what
//! to watch, and its question.

use leptos::prelude::*;

use super::catalog::{Lesson, LessonStep};
use super::progress::LessonProgress;
use super::question::LessonQuestion;
use crate::session::Session;

#[component]
pub fn LessonView(
    session: Session,
    lesson: &'static Lesson,
    progress: RwSignal<LessonProgress>,
    run_step: Callback<&'static LessonStep>,
    close: Callback<()>,
    /// Offered at the end of the last lesson.
    open_recap: Callback<()>,
    /// The lesson the recap asked to show with its answer.
    review: RwSignal<Option<u8>>,
) -> impl IntoView {
    let last = super::catalog::LESSONS.last().map(|l| l.number) == Some(lesson.number);
    let recap = last.then(|| {
        view! {
            <button class="lesson-to-recap" on:click=move |_| open_recap.run(())>
                "Recap of all the lessons"
            </button>
        }
    });
    let heading_id = format!("lesson-{}-heading", lesson.number);
    let labelled_by = heading_id.clone();
    let steps = lesson
        .steps
        .iter()
        .enumerate()
        .map(|(index, step)| {
            // Step 1 is what Start does; later calls and connects get their own button.
            let acts = step.preset.is_some() || step.connect.is_some();
            let button = (acts && index > 0).then(|| {
                let label = format!("Run step {}", index + 1);
                view! {
                    <button
                        class="lesson-step-run"
                        data-step=index + 1
                        on:click=move |_| run_step.run(step)
                    >
                        {label}
                    </button>
                }
            });
            view! {
                <li class="lesson-step" data-step=index + 1>
                    <span>{step.text}</span>
                    " "
                    {button}
                </li>
            }
        })
        .collect_view();
    view! {
        <article class="lesson" data-lesson=lesson.number aria-labelledby=labelled_by>
            <header class="lesson-head">
                <h3 id=heading_id>{format!("Lesson {}: {}", lesson.number, lesson.title)}</h3>
                <button
                    class="lesson-close"
                    aria-label="Close the lesson"
                    on:click=move |_| close.run(())
                >
                    "×"
                </button>
            </header>
            <p class="lesson-intro">{lesson.intro}</p>
            <ol class="lesson-steps">{steps}</ol>
            <p class="lesson-watch">
                <strong>"Watch the scene: "</strong>
                {lesson.watch}
            </p>
            <LessonQuestion session=session lesson=lesson progress=progress review=review />
            {recap}
        </article>
    }
}
