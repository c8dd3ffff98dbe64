//! A call paused by the server (MRTR `input_required`): which round, the sealed state the
//! client carries back, one card per input request, and the rounds so far.

use holdbay_engine::{InputAnswer, InputAsk, LogicalRequest, McpMethod, Round};
use leptos::prelude::*;
use serde_json::Value;

use super::tamper::TamperLatch;
use crate::calls::{Run, RunMethod};
use crate::ui::format::duration;
use crate::ui::forms::{Delivery, InputRequestCard};
use crate::ui::tasks::clock::ticking_now;

/// One pending input request of the latest round.
#[derive(Clone, PartialEq)]
struct Pending {
    round: u32,
    ask: InputAsk,
}

/// What the paused view needs from the logical request.
#[derive(Clone, PartialEq)]
struct PauseFacts {
    round: u32,
    max_rounds: u32,
    started_at_ms: u64,
    max_elapsed_ms: u64,
    request_state: Option<String>,
    pending: Vec<Pending>,
}

fn facts<M: McpMethod>(logical: &LogicalRequest<M>) -> PauseFacts {
    let latest = logical.rounds().last();
    let round = latest.map_or(0, |r| r.number);
    PauseFacts {
        round,
        max_rounds: logical.bounds().max_rounds,
        started_at_ms: logical.started_at_ms(),
        max_elapsed_ms: logical.bounds().max_elapsed_ms,
        request_state: latest.and_then(|r| r.request_state.clone()),
        pending: logical
            .unanswered_asks()
            .into_iter()
            .map(|ask| Pending { round, ask })
            .collect(),
    }
}

/// The paused call: answer every card and the next round goes out by itself.
#[component]
pub fn PausedCall<M: RunMethod>(run: Run<M>) -> impl IntoView {
    let facts = Memo::new(move |_| run.with_logical(|l| l.map(facts)));
    let now = ticking_now();
    // Both bounds of the logical request, side by side: rounds and elapsed time.
    let counter = move || {
        facts.get().map(|f| {
            let elapsed = now.get().saturating_sub(f.started_at_ms);
            format!(
                "Round {} of at most {} · {} of at most {} elapsed",
                f.round,
                f.max_rounds,
                duration(elapsed.min(f.max_elapsed_ms) as f64),
                duration(f.max_elapsed_ms as f64)
            )
        })
    };
    let state = move || facts.get().and_then(|f| f.request_state);
    let pending = move || facts.get().map(|f| f.pending).unwrap_or_default();
    view! {
        <div class="paused-call">
            <p class="round-counter">{counter}</p>
            <p class="paused-note">"The server needs input before it can finish this call."</p>
            <For
                each=pending
                key=|pending| (pending.round, pending.ask.key.clone())
                children=move |pending| {
                    let key = pending.ask.key.clone();
                    let on_answer = Callback::new(move |answer: InputAnswer| run.answer(&key, answer));
                    view! {
                        <InputRequestCard ask=pending.ask delivery=Delivery::Immediate(on_answer) />
                    }
                }
            />
            // After the questions: the form comes first in reading and tab order.
            {move || {
                let round = facts.get().map_or(0, |f| f.round);
                state()
                    .map(|token| {
                        view! {
                            <RequestState token=token.clone() />
                            <TamperLatch run=run round=round token=token />
                        }
                    })
            }}
        </div>
    }
}

/// The sealed `requestState`: shown short, never interpreted.
#[component]
fn RequestState(token: String) -> impl IntoView {
    let length = token.chars().count();
    let short = shorten(&token);
    let summary = format!("{length} characters");
    view! {
        <div class="request-state-box">
            <span class="label">"requestState"</span>
            <code class="request-state" title=token>{short}</code>
            <span class="quiet">{summary}</span>
            <p class="quiet note">
                "Sealed by the server. The client cannot read it and carries it back unchanged with the answers."
            </p>
        </div>
    }
}

/// The first and last few characters of a long opaque token.
pub fn shorten(token: &str) -> String {
    let chars: Vec<char> = token.chars().collect();
    if chars.len() <= 28 {
        return token.to_owned();
    }
    let head: String = chars[..16].iter().collect();
    let tail: String = chars[chars.len() - 8..].iter().collect();
    format!("{head}…{tail}")
}

/// The rounds that asked for input, with the keys asked and the answers given.
#[component]
pub fn RoundHistory<M: RunMethod>(run: Run<M>) -> impl IntoView {
    let rows = Memo::new(move |_| {
        run.with_logical(|l| {
            l.map(|l| {
                l.rounds()
                    .iter()
                    .filter_map(history_row)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
        })
    });
    move || {
        let rows = rows.get();
        // A long history starts folded so the outcome above it stays in view.
        let open = rows.len() <= 3;
        let summary = format!("Rounds so far ({})", rows.len());
        (!rows.is_empty()).then(|| {
            view! {
                <details class="round-history" open=open>
                    <summary>{summary}</summary>
                    <ol>
                        {rows
                            .into_iter()
                            .map(|row| {
                                view! {
                                    <li class="history-round">
                                        <span class="history-number">{format!("Round {}", row.number)}</span>
                                        " asked "
                                        <code>{row.keys}</code>
                                        " → "
                                        <span class="history-answer">{row.answers}</span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                </details>
            }
        })
    }
}

#[derive(Clone, PartialEq)]
struct HistoryRow {
    number: u32,
    keys: String,
    /// The answers given, or a note that there are none yet.
    answers: String,
}

fn history_row(round: &Round) -> Option<HistoryRow> {
    let requests = round.input_requests.as_ref()?;
    let keys = requests.keys().cloned().collect::<Vec<_>>().join(", ");
    let answers = round
        .choices
        .iter()
        .map(|(key, answer)| format!("{key}: {}", answer_summary(answer)))
        .collect::<Vec<_>>();
    let answers = if answers.is_empty() {
        "not answered yet".to_owned()
    } else {
        answers.join("; ")
    };
    Some(HistoryRow {
        number: round.number,
        keys,
        answers,
    })
}

/// An answer in a few words: what the user chose and, when accepted, the content.
fn answer_summary(answer: &InputAnswer) -> String {
    match answer {
        InputAnswer::Accept(Some(content)) => format!("accept {}", Value::Object(content.clone())),
        InputAnswer::Accept(None) => "accept".to_owned(),
        InputAnswer::Decline => "decline".to_owned(),
        InputAnswer::Cancel => "cancel".to_owned(),
        InputAnswer::Refuse => "declined as not supported".to_owned(),
        InputAnswer::Written(result) => format!("written {}", Value::Object(result.clone())),
    }
}
