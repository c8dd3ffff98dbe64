//! The recap after the last lesson: what each lesson showed, its question and the right
//! answer, and a link back to each lesson's reveal (the lesson opened with its answer shown
//! and its part selected, not run again).

use leptos::prelude::*;

use super::catalog::LESSONS;
use super::progress::LessonProgress;

#[component]
pub fn Recap(
    progress: RwSignal<LessonProgress>,
    review: RwSignal<Option<u8>>,
    close: Callback<()>,
) -> impl IntoView {
    let traffic = crate::session::Session::current().traffic();
    let open_reveal = move |number: u8| {
        // Back to now: the part is shown where it stands (on the Earlier strip if it is of
        // an earlier lesson), not at the moment the last reveal went back to.
        traffic.scrub_to(None);
        review.set(Some(number));
        progress.update(|p| {
            p.recap = false;
            p.active = Some(number);
        });
        progress.with_untracked(LessonProgress::save);
    };
    let done_count = move || progress.with(|p| p.done.len());
    let items = LESSONS
        .iter()
        .map(|lesson| {
            let number = lesson.number;
            let answer = lesson
                .question
                .choices
                .iter()
                .find(|choice| choice.correct)
                .map(|choice| choice.text)
                .unwrap_or_default();
            let done = move || progress.with(|p| p.is_done(number));
            view! {
                <li class="recap-item" data-lesson=number class:done=done>
                    <p class="recap-title">
                        <strong>{format!("{number}. {}", lesson.title)}</strong>
                        {move || done().then(|| view! { <span class="recap-done">" ✓ done"</span> })}
                    </p>
                    <p class="recap-question">{lesson.question.prompt}</p>
                    <p class="recap-answer">
                        <span class="quiet">"Answer: "</span>
                        {answer}
                    </p>
                    <button
                        type="button"
                        class="recap-review"
                        aria-label=format!("Show in the scene: lesson {number}'s answer")
                        on:click=move |_| open_reveal(number)
                    >
                        "Show in the scene"
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <article class="lesson lesson-recap" id="lesson-recap" aria-labelledby="recap-heading">
            <header class="lesson-head">
                <h3 id="recap-heading">"Recap: what the lessons showed"</h3>
                <button class="lesson-close" aria-label="Close the recap" on:click=move |_| close.run(())>
                    "×"
                </button>
            </header>
            <p class="lesson-intro">
                {move || format!("{} of {} lessons done.", done_count(), LESSONS.len())}
                " Each answer was shown in the scene: Show in the scene opens the lesson with its answer and selects its part again (nothing is run)."
            </p>
            <ol class="recap-list">{items}</ol>
        </article>
    }
}
