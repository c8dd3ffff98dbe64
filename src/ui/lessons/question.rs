//! A lesson's closing question: choices with feedback, then the reveal, which shows the
//! answer and selects the part of the scene where it happens (as soon as it exists).

use holdbay_scene::Part;
use leptos::prelude::*;

use super::catalog::{Lesson, Reveal};
use super::progress::LessonProgress;
use super::reveal::{Within, part_for};
use crate::session::Session;
use crate::ui::UiState;

#[component]
pub fn LessonQuestion(
    session: Session,
    lesson: &'static Lesson,
    progress: RwSignal<LessonProgress>,
    /// Set by the recap's link: open this lesson with its answer shown, wherever its part is.
    review: RwSignal<Option<u8>>,
) -> impl IntoView {
    let question = &lesson.question;
    let chosen = RwSignal::new(None::<usize>);
    let revealed = RwSignal::new(false);
    // Set by the reveal while the part it shows is not in the scene yet.
    let waiting = RwSignal::new(false);
    let shown = RwSignal::new(None::<Part>);
    let traffic = session.traffic();
    let inspected = UiState::current().inspected();
    let reveal_kind = question.reveal;

    let went_back = RwSignal::new(false);
    // Show `part`: a part that is only drawn for a moment (a tag on a paused tray, a
    // request on the conveyor) is shown by scrubbing the scene back to that moment.
    let show = move |part: Part, go_back: bool| {
        if go_back && reveal_kind.is_momentary() {
            // The part's last step on the timeline; an exchange that stands for a tray's
            // round (a retry) has none of its own, so the moment its answer came.
            let moment = traffic.with_whole(|t| {
                t.events()
                    .iter()
                    .rev()
                    .find(|event| event.part == part)
                    .map(|event| event.at)
                    .or_else(|| match &part {
                        Part::Flight(exchange) => t
                            .flight(*exchange)
                            .map(|flight| flight.responded_at.unwrap_or(flight.sent_at)),
                        _ => None,
                    })
            });
            if moment.is_some() {
                traffic.scrub_to(moment);
                went_back.set(true);
            }
        }
        waiting.set(false);
        if go_back {
            progress.update(|p| {
                p.revealed.insert(lesson.number, part.clone());
            });
            progress.with_untracked(LessonProgress::save);
        }
        shown.set(Some(part.clone()));
        inspected.set(Some(part));
    };

    // Select the part once it exists: the answer happens live, not from a script.
    Effect::new(move |_| {
        if !waiting.get() {
            return;
        }
        traffic.track();
        if let Some(part) = traffic.with(|t| part_for(t, reveal_kind, Within::Scene)) {
            show(part, true);
        }
    });

    let choose = move |index: usize| {
        chosen.set(Some(index));
        if question.choices.get(index).is_some_and(|c| c.correct) {
            progress.update(|p| p.mark_done(lesson.number));
            progress.with_untracked(LessonProgress::save);
        }
    };
    let reveal = move |_| {
        revealed.set(true);
        // Answered, then shown the answer: the lesson is done, even after a wrong first try.
        if chosen.get_untracked().is_some() {
            progress.update(|p| p.mark_done(lesson.number));
            progress.with_untracked(LessonProgress::save);
        }
        match traffic.with(|t| part_for(t, reveal_kind, Within::Scene)) {
            Some(part) => show(part, true),
            None => {
                shown.set(None);
                waiting.set(true);
            }
        }
    };
    // Opened from the recap: the answer at once, and its part wherever it is now (an
    // earlier lesson's part sits on the earlier strip; the scene stays where it is).
    let reviewed = review.get_untracked() == Some(lesson.number);
    if reviewed {
        review.set(None);
        revealed.set(true);
        // The part the lesson's reveal showed, if the scene still has it; else the latest
        // that shows the answer.
        let part = progress
            .with_untracked(|p| p.revealed.get(&lesson.number).cloned())
            .filter(|part| traffic.with_whole(|t| t.json_of(part).is_some()))
            .or_else(|| traffic.with_whole(|t| part_for(t, reveal_kind, Within::Whole)));
        if let Some(part) = part {
            show(part, false);
        }
    }
    let choices = question
        .choices
        .iter()
        .enumerate()
        .map(|(index, choice)| {
            let pressed = move || chosen.get() == Some(index);
            view! {
                <li>
                    <button
                        class="lesson-choice"
                        data-choice=index
                        data-correct=choice.correct.to_string()
                        aria-pressed=move || pressed().to_string()
                        on:click=move |_| choose(index)
                    >
                        {choice.text}
                    </button>
                </li>
            }
        })
        .collect_view();
    let feedback = move || {
        let choice = question.choices.get(chosen.get()?)?;
        let verdict = if choice.correct {
            "Correct. "
        } else {
            "Not quite. "
        };
        Some(view! {
            <p class="lesson-feedback" data-correct=choice.correct.to_string() role="status">
                <strong>{verdict}</strong>
                {choice.feedback}
            </p>
        })
    };
    let where_shown = move || {
        if reviewed && shown.get().is_none() {
            let text = "This page's session does not hold this lesson's run any more: Start runs \
                        it again."
                .to_owned();
            return Some(view! { <p class="lesson-reveal-status" data-found="false">{text}</p> });
        }
        if waiting.get() {
            let text = format!("Not in the scene yet. {}", question.missing);
            return Some(view! { <p class="lesson-reveal-status" data-found="false">{text}</p> });
        }
        let part = shown.get()?;
        let moment = if went_back.get() {
            " The scene went back to that moment; Follow live in the timeline returns to now."
        } else {
            ""
        };
        let text = format!(
            "Shown in the scene: {}.{moment}",
            describe(&part, reveal_kind)
        );
        Some(view! { <p class="lesson-reveal-status" data-found="true">{text}</p> })
    };
    // The answer appears below the question: bring it into the lesson's view.
    let answer = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(element) = answer.get() {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            element.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
    view! {
        <div class="lesson-question">
            <p class="lesson-prompt">
                <strong>"Question: "</strong>
                {question.prompt}
            </p>
            <ul class="lesson-choices">{choices}</ul>
            {feedback}
            <button class="lesson-reveal" on:click=reveal>
                "Reveal the answer in the scene"
            </button>
            {move || {
                revealed
                    .get()
                    .then(|| {
                        view! {
                            <div class="lesson-answer" role="status" node_ref=answer>
                                <p>{question.answer}</p>
                                {where_shown}
                            </div>
                        }
                    })
            }}
        </div>
    }
}

/// The part, in the lesson's words.
fn describe(part: &Part, reveal: Reveal) -> String {
    match (part, reveal) {
        (Part::Latch { round, .. }, Reveal::ChangedLatch) => {
            format!("the latch of round {round}, sent back changed")
        }
        (Part::Latch { round, .. }, _) => format!("the latch of round {round}"),
        (Part::Tray(_), Reveal::BoundReached { tool }) => {
            format!("the {tool} tray at the round bound")
        }
        (Part::Tray(_), Reveal::DirectAnswer { tool }) => {
            format!("the {tool} tray, completed directly (no cartridge)")
        }
        (Part::Tray(_), Reveal::Stopped { tool }) => {
            format!("the {tool} tray, stopped by the client at its last progress")
        }
        (Part::Tray(id), _) => format!("tray {id}"),
        (Part::TrayTag { key, .. }, _) => format!("the URL-mode tag {key}"),
        (Part::Flight(_), Reveal::Declined { tool }) => {
            format!("the retry of {tool}, with the client's refusals")
        }
        (Part::Flight(_), Reveal::Refused { tool, status }) => {
            format!("the tools/call {tool} the server refused with {status}, before the step-up")
        }
        (Part::Flight(_), _) => "the tasks/update that answered the task".to_owned(),
        (Part::CartridgeTag { key, .. }, _) => {
            format!("the open tag {key} (answer it above the call)")
        }
        (Part::Cartridge(task), Reveal::CancelOutcome { .. }) => {
            format!("task {task}, its cancel ask and the status it reached")
        }
        (Part::Cartridge(task), Reveal::Restored { .. }) => {
            format!("task {task}, restored from storage")
        }
        (Part::Cartridge(task), _) => format!("task {task}"),
        (Part::Session, _) => "the page's reload".to_owned(),
        (Part::ServerAsk(_), Reveal::ServerAsk { tool }) => {
            format!("the server's own request on the open {tool} call, and the client's answer")
        }
        (Part::ServerAsk(number), _) => format!("request {number} from the server"),
        (Part::HeldSession(_), _) => "the session the server held".to_owned(),
    }
}
