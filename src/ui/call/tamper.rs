//! Lesson 8's deliberate fault, as the paused call shows it: change one character of the
//! sealed `requestState` the next retry carries, to watch the server refuse it. A teaching
//! and debugging action, clearly labelled.

use leptos::prelude::*;

use crate::calls::{Phase, Run, RunMethod};

/// The tamper control of a paused call: a labelled button, then the latch before and after.
#[component]
pub fn TamperLatch<M: RunMethod>(run: Run<M>, round: u32, token: String) -> impl IntoView {
    let chosen = run.tamper();
    let current = move || chosen.get().filter(|t| t.round == round);
    let before = token.clone();
    let tamper = move |_| run.tamper_latch(round, &before);
    let undo = move |_| run.untamper();
    view! {
        <div class="tamper-box">
            {move || match current() {
                None => view! {
                    <button class="tamper-latch" on:click=tamper.clone()>
                        "Tamper with the latch"
                    </button>
                    <span class="quiet">
                        " Teaching action: the next retry carries a changed requestState."
                    </span>
                }
                .into_any(),
                Some(change) => {
                    let note = format!(
                        "Character {} changed. Answer the input: the retry carries this latch, and the server should refuse it.",
                        change.position + 1,
                    );
                    view! {
                        <p class="tamper-warning" role="status">
                            <strong>"Latch tampered (teaching action)."</strong>
                            " "
                            {note}
                        </p>
                        <dl class="tamper-diff">
                            <dt>"Sealed by the server"</dt>
                            <dd>
                                <code class="tamper-before" title=change.before.clone()>
                                    {shorten_around(&change.before, change.position)}
                                </code>
                            </dd>
                            <dt>"Sent back instead"</dt>
                            <dd>
                                <code class="tamper-after" title=change.after.clone()>
                                    {shorten_around(&change.after, change.position)}
                                </code>
                            </dd>
                        </dl>
                        <button class="tamper-undo" on:click=undo>
                            "Put the server's latch back"
                        </button>
                    }
                    .into_any()
                }
            }}
        </div>
    }
}

/// A long token shown around the character at `position`, so the change is visible.
fn shorten_around(token: &str, position: usize) -> String {
    let chars: Vec<char> = token.chars().collect();
    if chars.len() <= 28 {
        return token.to_owned();
    }
    let start = position.saturating_sub(8);
    let end = (position + 9).min(chars.len());
    let middle: String = chars[start..end].iter().collect();
    let head = if start > 0 { "…" } else { "" };
    let tail = if end < chars.len() { "…" } else { "" };
    format!("{head}{middle}{tail}")
}

/// What the outcome of a tampered call says.
#[component]
pub fn TamperVerdict<M: RunMethod>(run: Run<M>) -> impl IntoView {
    move || {
        let change = run.tamper().get()?;
        let phase = run.phase().get()?;
        // Only once the retry that carried it went out.
        let sent = run.with_logical(|l| {
            l.is_some_and(|l| l.rounds().last().is_some_and(|r| r.number > change.round))
        });
        if !sent {
            return None;
        }
        let (class, text) = match phase {
            Phase::Failed {
                headline: Some(_), ..
            } => (
                "tamper-refused",
                format!(
                    "This retry carried a tampered latch (round {}, character {}). The server \
                     refused it, as it must: requestState is sealed, the client carries it but \
                     cannot change it.",
                    change.round,
                    change.position + 1
                ),
            ),
            Phase::Complete(_) | Phase::Paused => (
                "tamper-accepted",
                "This retry carried a tampered latch and the server accepted it: this server \
                 does not check its requestState."
                    .to_owned(),
            ),
            _ => return None,
        };
        Some(view! { <p class=class role="status">{text}</p> })
    }
}
