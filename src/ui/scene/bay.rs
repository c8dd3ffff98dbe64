//! The request holding bay: one tray per logical request (MRTR). The workpiece is the
//! request's arguments, tags hang on it for each pending input request, the latch is the
//! sealed `requestState`, and the rounds stack up against the client's bound.

use holdbay_engine::Shown;
use holdbay_scene::{Part, Traffic, Tray, TrayProgress, TrayState};
use leptos::prelude::*;

use super::parts::{TagView, fingerprint, summarize, truncate};
use super::pickable::Pickable;
use super::{SceneContext, TRAVEL_MS};

/// Closed trays kept in view after the occupied ones (newest first).
const CLOSED_SHOWN: usize = 3;
/// A round on its way, or its answer still travelling back.
const ON_THE_WIRE: &str = "on the wire";
/// Characters of a tray's state that fit its title line.
const STATE_TEXT_SHOWN: usize = 26;
/// Trays drawn at most.
const TRAYS_SHOWN: usize = 6;
/// The round stack's span in the tray's viewBox.
const STACK_X: f64 = 236.0;
const STACK_WIDTH: f64 = 170.0;

#[derive(Clone, PartialEq, Eq, Hash)]
struct LatchView {
    round: u32,
    value: String,
    changed: bool,
}

/// What one tray shows.
#[derive(Clone, PartialEq, Eq, Hash)]
struct TrayView {
    id: u64,
    title: String,
    state: &'static str,
    /// The server asked again after the last round the client allows.
    reached: bool,
    state_text: String,
    occupied: bool,
    workpiece: String,
    tags: Vec<TagView>,
    rounds: Vec<u32>,
    latches: Vec<LatchView>,
    max_rounds: u32,
    progress: Option<ProgressView>,
    /// The request declared the tasks extension.
    offers_task: bool,
    /// Sent in a legacy session: the server keeps it while it asks (no latch, no rounds).
    in_session: bool,
}

/// The server's newest progress report on the request's stream.
#[derive(Clone, PartialEq, Eq, Hash)]
struct ProgressView {
    /// Thousandths done, when the server gave a total.
    permille: Option<u32>,
    /// `2 of 6 · Computing totals`.
    text: String,
}

impl ProgressView {
    fn of(progress: &TrayProgress) -> Self {
        let how_far = progress.how_far();
        let text = match &progress.message {
            Some(message) => format!("{how_far} · {message}"),
            None => how_far,
        };
        Self {
            permille: progress.fraction().map(|f| (f * 1000.0).round() as u32),
            text,
        }
    }
}

/// When the answer to the tray's latest round arrives back on the conveyor (the piece's
/// trip out, then back). Until then the tray keeps showing the round on the wire, so it
/// changes when the response piece arrives, in wire order.
/// A round sent before the page reloaded arrives nowhere: that page is gone.
fn answer_arrives_at(traffic: &Traffic, tray: &Tray) -> Option<f64> {
    let round = tray.rounds.last()?;
    if traffic.before_reload(round.sent_at) {
        return None;
    }
    let flight = traffic.flight(round.exchange)?;
    let back = flight.responded_at.or(flight.ended_at)?;
    Some(back.max(round.sent_at + TRAVEL_MS) + TRAVEL_MS)
}

/// Pieces travel (no reduced-motion preference), so the bay waits for them. The query is
/// made once per page: the bay asks on every frame that traffic changes.
fn motion_allowed() -> bool {
    thread_local! {
        static REDUCED_MOTION: Option<web_sys::MediaQueryList> = web_sys::window().and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        });
    }
    !REDUCED_MOTION.with(|query| query.as_ref().is_some_and(web_sys::MediaQueryList::matches))
}

impl TrayView {
    /// The tray as it showed while its latest round was on the wire: no answer yet, so no
    /// new tags and no latch from that answer.
    fn on_the_wire(tray: &Tray) -> Self {
        let latest = tray.rounds.last().map_or(0, |r| r.number);
        let mut view = Self::of(tray);
        view.state = TrayState::InFlight.name();
        view.reached = false;
        view.state_text = ON_THE_WIRE.to_owned();
        view.occupied = true;
        view.tags = Vec::new();
        view.latches.retain(|latch| latch.round < latest);
        view
    }

    fn of(tray: &Tray) -> Self {
        let state_text = match &tray.state {
            TrayState::InFlight => ON_THE_WIRE.to_owned(),
            TrayState::Paused => "paused for input".to_owned(),
            TrayState::Held => "held by the server".to_owned(),
            TrayState::BoundReached => "round bound reached".to_owned(),
            TrayState::Completed { tool_error: false } => "completed with its result".to_owned(),
            TrayState::Completed { tool_error: true } => "completed (tool error)".to_owned(),
            TrayState::Failed { message } => format!("failed: {message}"),
            TrayState::Detached { task } => format!("became task {task}"),
            TrayState::Stopped => "stopped by the client".to_owned(),
            TrayState::Abandoned => "given up by the client".to_owned(),
        };
        let latches = tray
            .rounds
            .iter()
            .filter_map(|round| {
                let value = round.received_state.clone()?;
                let changed = tray
                    .rounds
                    .iter()
                    .find(|next| next.number == round.number + 1)
                    .is_some_and(|next| next.latch_changed);
                Some(LatchView {
                    round: round.number,
                    value,
                    changed,
                })
            })
            .collect();
        Self {
            id: tray.id,
            title: match &tray.name {
                Some(name) => format!("{} {}", tray.method, Shown::of(name)),
                None => tray.method.to_string(),
            },
            state: tray.state.name(),
            reached: tray.state == TrayState::BoundReached,
            state_text,
            occupied: tray.is_occupied(),
            workpiece: summarize(&tray.workpiece),
            tags: tray.open_tags().iter().map(TagView::of).collect(),
            rounds: tray.rounds.iter().map(|r| r.number).collect(),
            latches,
            max_rounds: tray.max_rounds,
            progress: tray.progress.as_ref().map(ProgressView::of),
            offers_task: tray.offers_task,
            in_session: tray.in_session,
        }
    }
}

#[component]
pub(super) fn Bay() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    // Bumped when a tray waiting for its answer's piece is due to change.
    let wake = RwSignal::new(0_u64);
    // The trays shown, and when the next one waiting for its piece changes.
    let drawn = Memo::new(move |_| {
        traffic.track();
        scene.tick.track();
        wake.track();
        // In a replay the scene shows the moment itself; live, a tray waits for its answer
        // to arrive on the conveyor.
        let wait_for_pieces = !traffic.is_replay() && motion_allowed();
        let now = scene.now();
        traffic.with(|t| {
            let occupied = t.scene_trays().rev().filter(|tray| tray.is_occupied());
            let closed = t
                .scene_trays()
                .rev()
                .filter(|tray| !tray.is_occupied())
                .take(CLOSED_SHOWN);
            let mut next_change: Option<f64> = None;
            let views = occupied
                .chain(closed)
                .take(TRAYS_SHOWN)
                .map(|tray| {
                    let arrives = answer_arrives_at(t, tray).filter(|at| *at > now);
                    match arrives {
                        Some(at) if wait_for_pieces => {
                            next_change = Some(next_change.map_or(at, |next| next.min(at)));
                            TrayView::on_the_wire(tray)
                        }
                        _ => TrayView::of(tray),
                    }
                })
                .collect::<Vec<_>>();
            (views, next_change.map(|at| at - now))
        })
    });
    let trays = Memo::new(move |_| drawn.with(|(views, _)| views.clone()));
    Effect::new(move |_| {
        if let Some(wait_ms) = drawn.with(|(_, wait)| *wait) {
            // A little after the piece lands, so the tray is drawn as it arrived.
            set_timeout(
                move || wake.try_update(|w| *w += 1).unwrap_or_default(),
                std::time::Duration::from_millis(wait_ms.max(0.0) as u64 + 20),
            );
        }
    });
    view! {
        <div class="bay" role="group" aria-label="Holding bay: logical requests paused for input">
            <h3 class="scene-part-title">"Holding bay " <small>"(MRTR)"</small></h3>
            <Show when=move || trays.with(Vec::is_empty)>
                <p class="quiet scene-empty">
                    "No request yet. A tools/call that asks for input waits here."
                </p>
            </Show>
            <div class="trays">
                <For each=move || trays.get() key=|tray| tray.clone() let(tray)>
                    <TrayDrawing tray=tray />
                </For>
            </div>
        </div>
    }
}

#[component]
fn TrayDrawing(tray: TrayView) -> impl IntoView {
    let part = Part::Tray(tray.id);
    let reached = tray.reached;
    let slots = tray.max_rounds.max(tray.rounds.len() as u32).max(1);
    let slot_width = STACK_WIDTH / f64::from(slots + 1);
    let round_x = move |number: u32| STACK_X + f64::from(number - 1) * slot_width;
    let bound_x = STACK_X + f64::from(tray.max_rounds) * slot_width - 1.0;
    let last_latch = tray.latches.last().map(|l| l.round);
    let mut label = format!(
        "Tray: {}, {}, round {} of at most {}",
        tray.title,
        tray.state_text,
        tray.rounds.len(),
        tray.max_rounds
    );
    if tray.offers_task {
        label.push_str(", offered a task");
    }
    if tray.in_session {
        label.push_str(", kept by the server in its session");
    }
    if let Some(progress) = &tray.progress {
        label.push_str(&format!(", progress {}", progress.text));
    }
    // The declaration drawn: this request told the server a task is an acceptable answer.
    let offer = tray.offers_task.then(|| {
        view! {
            <g class="task-offer" aria-hidden="true">
                <rect x="300" y="26" width="108" height="17" rx="8"></rect>
                <text x="354" y="38.5" text-anchor="middle">"task offered"</text>
            </g>
        }
    });
    // Where an MRTR tray carries its latch, a legacy session's says who keeps the request:
    // the server, with the call's stream open, until the client answers.
    let kept = tray.in_session.then(|| {
        let words = if tray.occupied {
            "server keeps it"
        } else {
            "server kept it"
        };
        view! {
            <g class="kept-by-server" aria-hidden="true">
                <rect x="194" y="26" width="102" height="17" rx="8"></rect>
                <text x="245" y="38.5" text-anchor="middle">{words}</text>
            </g>
        }
    });
    // MRTR's bound counts round trips; a legacy call makes none.
    let bound = (!tray.in_session).then(|| {
        view! {
            <g
                class="round-bound"
                data-max=tray.max_rounds
                data-reached=reached.to_string()
                aria-hidden="true"
            >
                <line x1=bound_x y1="60" x2=bound_x y2="96"></line>
                // Under the stack: the round latches above it never cover it.
                <text x=bound_x y="108" text-anchor="end">
                    {format!("bound {}", tray.max_rounds)}
                </text>
            </g>
        }
    });
    let progress = tray.progress.clone().map(|progress| {
        let width = progress
            .permille
            .map(|p| 178.0 * f64::from(p.min(1000)) / 1000.0);
        view! {
            <g class="tray-progress" data-permille=progress.permille aria-hidden="true">
                <rect class="progress-track" x="10" y="62" width="178" height="7" rx="3"></rect>
                {width.map(|w| view! { <rect class="progress-done" x="10" y="62" width=w height="7" rx="3"></rect> })}
                <text x="10" y="84">{truncate(&progress.text, 30)}</text>
            </g>
        }
    });
    let workpiece = tray.occupied.then(|| {
        let tags = tray
            .tags
            .iter()
            .take(3)
            .enumerate()
            .map(|(index, tag)| view! { <TrayTag tray=tray.id tag=tag.clone() index=index /> })
            .collect_view();
        view! {
            <g class="workpiece" aria-hidden="true">
                <rect x="10" y="28" width="178" height="26" rx="4"></rect>
                <text x="16" y="45">{truncate(&tray.workpiece, 23)}</text>
            </g>
            {tags}
        }
    });
    // A closed tray is empty: its outcome is said once, in the title line, and repeated
    // in the body only when that line cuts it short (a failure's message).
    let outcome =
        (!tray.occupied && tray.state_text.chars().count() > STATE_TEXT_SHOWN).then(|| {
            view! {
                <text class="tray-outcome" x="14" y="50">
                    {truncate(&tray.state_text, 40)}
                </text>
            }
        });
    let rounds = tray
        .rounds
        .iter()
        .map(|&number| {
            view! {
                <g class="round" data-round=number aria-hidden="true">
                    <rect x=round_x(number) y="70" width=slot_width - 2.0 height="22" rx="2"></rect>
                    <text x=round_x(number) + slot_width / 2.0 - 1.0 y="85" text-anchor="middle">
                        {number}
                    </text>
                </g>
            }
        })
        .collect_view();
    let latches = tray
        .latches
        .iter()
        .map(|latch| {
            let big = Some(latch.round) == last_latch;
            let x = if big {
                200.0
            } else {
                round_x(latch.round) + slot_width / 2.0 - 6.0
            };
            view! { <Latch tray=tray.id latch=latch.clone() big=big x=x /> }
        })
        .collect_view();

    view! {
        <svg class="scene-svg tray-svg" viewBox="0 0 420 114">
            <Pickable
                part=part
                class=if tray.occupied { "tray occupied" } else { "tray" }
                attr:data-in-session=tray.in_session.to_string()
                label=label
                attr:data-tray=tray.id
                attr:data-state=tray.state
                attr:data-occupied=tray.occupied.to_string()
                attr:data-rounds=tray.rounds.len()
            >
                <rect class="tray-frame" x="2" y="2" width="416" height="110" rx="8"></rect>
                <text class="tray-title" x="12" y="19">{truncate(&tray.title, 28)}</text>
                <text class="tray-state" x="408" y="19" text-anchor="end">
                    {truncate(&tray.state_text, STATE_TEXT_SHOWN)}
                </text>
                {offer}
                {kept}
                {workpiece}
                {outcome}
                {progress}
                <g class="round-stack">{rounds}</g>
                {bound}
                {latches}
            </Pickable>
        </svg>
    }
}

#[component]
fn TrayTag(tray: u64, tag: TagView, index: usize) -> impl IntoView {
    let part = Part::TrayTag {
        tray,
        key: tag.key.clone(),
    };
    let label = format!("Input request {} ({} {})", tag.key, tag.kind, tag.mode);
    let key_shown = truncate(&tag.key, 8);
    let x = 10.0 + index as f64 * 68.0;
    let kind = if tag.mode.is_empty() {
        tag.kind.split('/').next().unwrap_or_default().to_owned()
    } else {
        tag.mode.clone()
    };
    let kind_shown = truncate(&kind, 8);
    view! {
        <Pickable
            part=part
            class="tag"
            label=label
            attr:data-key=tag.key.clone()
            attr:data-kind=tag.kind.clone()
            attr:data-mode=tag.mode.clone()
        >
            <line class="tag-string" x1=x + 30.0 y1="54" x2=x + 30.0 y2="58"></line>
            <path d=format!("M{x} 58 h60 l6 14 l-6 14 h-60 z")></path>
            <text x=x + 4.0 y="70" class="tag-key">{key_shown}</text>
            <text x=x + 4.0 y="83" class="tag-kind">{kind_shown}</text>
        </Pickable>
    }
}

#[component]
fn Latch(tray: u64, latch: LatchView, big: bool, x: f64) -> impl IntoView {
    let part = Part::Latch {
        tray,
        round: latch.round,
    };
    let print = fingerprint(&latch.value);
    let label = if latch.changed {
        format!(
            "Latch of round {}: requestState {print}. Changed: the client sent back a different value",
            latch.round
        )
    } else {
        format!(
            "Latch of round {}: sealed requestState {print}",
            latch.round
        )
    };
    let (scale, y) = if big { (1.0, 26.0) } else { (0.5, 54.0) };
    let caption = big.then(|| {
        let text = if latch.changed {
            "changed!".to_owned()
        } else {
            format!("#{print}")
        };
        view! {
            <text class="latch-print" x="12" y="40" text-anchor="middle">{text}</text>
        }
    });
    view! {
        <Pickable
            part=part
            class=if latch.changed { "latch changed" } else { "latch" }
            label=label
            attr:data-tray=tray
            attr:data-round=latch.round
            attr:data-latch=latch.value.clone()
            attr:data-changed=latch.changed.to_string()
            transform=format!("translate({x} {y}) scale({scale})")
        >
            <path class="shackle" d="M5 11 v-4 a7 7 0 0 1 14 0 v4"></path>
            <rect class="lock-body" x="1" y="10" width="22" height="17" rx="3"></rect>
            <circle class="keyhole" cx="12" cy="18" r="2.5"></circle>
            {caption}
        </Pickable>
    }
}
