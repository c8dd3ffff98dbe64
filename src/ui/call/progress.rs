//! The progress the server streams for a call, with the Stop button.

use leptos::prelude::*;

use holdbay_engine::{InputAnswer, ServerRequestEvent};

use super::server_asks::ServerAskCards;
use crate::calls::{Progress, Run, RunMethod};

/// While a request is on the wire: its latest `notifications/progress`, what a legacy
/// server asks on the open stream (one card each, answered at once), and Stop.
#[component]
pub fn InFlight<M: RunMethod>(run: Run<M>) -> impl IntoView {
    let progress = move || {
        run.progress()
            .get()
            .map(|update| view! { <ProgressBar update=update /> })
    };
    let answer = Callback::new(move |(asked, given): (ServerRequestEvent, InputAnswer)| {
        run.answer_server(&asked, &given);
    });
    view! {
        <div class="in-flight">
            <p class="pending" aria-live="polite">"Waiting for the server…"</p>
            {progress}
            <ServerAskCards
                asks=run.server_asks()
                heading="The server asks on the call's open stream (a legacy session): it waits for this answer"
                answer=answer
            />
            <button class="stop" on:click=move |_| run.stop()>"Stop"</button>
        </div>
    }
}

#[component]
fn ProgressBar(update: Progress) -> impl IntoView {
    let Progress {
        progress,
        total,
        message,
    } = update;
    let amount = match total {
        Some(total) => format!("{} of {}", number(progress), number(total)),
        None => number(progress),
    };
    let bar = match total.filter(|t| *t > 0.0) {
        Some(total) => {
            view! { <progress class="progress" max=total value=progress.min(total)></progress> }
                .into_any()
        }
        // Without a total the amount of work left is unknown: an indeterminate bar.
        None => view! { <progress class="progress"></progress> }.into_any(),
    };
    view! {
        <div class="progress-box" aria-live="polite">
            {bar}
            <span class="progress-amount">{amount}</span>
            {message.map(|m| view! { <p class="progress-message">{m}</p> })}
        </div>
    }
}

/// Whole numbers without a trailing ".0".
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value:.1}")
    }
}
