//! How a call ended, or where it stands: the view for each phase.

use leptos::prelude::*;

use super::paused::{PausedCall, RoundHistory};
use super::progress::InFlight;
use super::result_findings::ResultFindings;
use super::tamper::TamperVerdict;
use crate::calls::{Phase, Run, RunMethod};
use crate::ui::ErrorNotice;
use crate::ui::content::ShowResult;

/// The live part of the panel under the Call button.
#[component]
pub fn CallOutcome<M: RunMethod>(run: Run<M>) -> impl IntoView
where
    M::Output: ShowResult,
{
    // Only a change of phase re-renders; progress and rounds update inside.
    let phase = run.phase();
    let phase = Memo::new(move |_| phase.get());
    let body = move || {
        let Some(phase) = phase.get() else {
            return ().into_any();
        };
        match phase {
            Phase::Sending => view! { <InFlight run=run /> }.into_any(),
            Phase::Paused => view! {
                <PausedCall run=run />
                <button class="cancel-call" on:click=move |_| run.cancel()>"Cancel the call"</button>
            }
            .into_any(),
            Phase::Complete(result) => {
                view! { {(*result).show()} <ResultFindings run=run /> }.into_any()
            }
            Phase::Task { id } => view! { <HandedToTask id=id /> }.into_any(),
            Phase::Failed {
                message,
                headline,
                cors,
            } => view! { <Failure run=run message=message headline=headline cors=cors /> }.into_any(),
            Phase::Ended { message } => view! {
                <div class="call-error">
                    <ErrorNotice title="The call was stopped" message=message />
                </div>
            }
            .into_any(),
            Phase::Stopped => view! { <p class="call-stopped" role="status">"Stopped"</p> }.into_any(),
            Phase::Cancelled => view! { <p class="call-cancelled" role="status">"Cancelled"</p> }
                .into_any(),
        }
    };
    let outcome = NodeRef::<leptos::html::Div>::new();
    // Bring each new stage of the call into view (the form above can be long); the
    // minimal scroll, so nothing jumps when it is already visible.
    Effect::new(move |_| {
        let Some(paused) = phase.with(|p| p.as_ref().map(|p| matches!(p, Phase::Paused))) else {
            return;
        };
        if let Some(element) = outcome.get() {
            // A paused call starts with its round counter: show that first.
            let block = if paused {
                web_sys::ScrollLogicalPosition::Start
            } else {
                web_sys::ScrollLogicalPosition::Nearest
            };
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(block);
            element.scroll_into_view_with_scroll_into_view_options(&options);
            // The button just pressed (Accept, Stop) may have gone with the old phase.
            crate::ui::focus::rescue_focus(&element);
        }
    });
    view! {
        <div class="call-outcome" node_ref=outcome tabindex="-1">
            {body}
            <TamperVerdict run=run />
            <RoundHistory run=run />
        </div>
    }
}

/// A protocol or transport error; when CORS may be the cause, one click retries via the relay.
#[component]
fn Failure<M: RunMethod>(
    run: Run<M>,
    message: String,
    headline: Option<&'static str>,
    cors: bool,
) -> impl IntoView {
    // Distinct from a tool's own isError result: here the request itself failed.
    let title = headline.unwrap_or("The request did not get an answer");
    view! {
        <div class="call-error">
            <ErrorNotice title=title message=message />
            {cors
                .then(|| {
                    view! {
                        <p class="call-cors-hint">
                            "This looks like the browser refusing a server that does not allow this page (CORS). "
                            "The relay of holdbay serve can carry the request instead."
                        </p>
                        <button class="use-relay" on:click=move |_| run.resend_via_relay()>
                            "Use the relay"
                        </button>
                    }
                })}
        </div>
    }
}

/// The call became a task: where it stands now (it may have ended since), said here too.
#[component]
fn HandedToTask(id: String) -> impl IntoView {
    let board = crate::session::Session::current().tasks();
    let status = {
        let id = id.clone();
        Memo::new(move |_| {
            board.watch(&id);
            board.task(&id).map(|task| task.tracker().status())
        })
    };
    let ended = move || status.get().filter(|status| status.is_terminal());
    let lead = move || {
        if ended().is_some() {
            "Ran as task "
        } else {
            "Running as task "
        }
    };
    let tail = move || {
        ended()
            .map(|status| {
                format!(
                    ", which ended {}",
                    holdbay_engine::protocol::task_status_name(status)
                )
            })
            .unwrap_or_default()
    };
    view! {
        <p class="call-task" role="status">
            {lead} <code class="task-id">{id}</code> {tail} " — see Tasks"
        </p>
    }
}
