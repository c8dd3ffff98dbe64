//! The conveyor: each HTTP exchange travels from the client to the server when it is sent
//! and back when its response arrives, labelled with its real duration.

use holdbay_engine::MethodId;
use holdbay_scene::{Flight, FlightRole, Part, Traffic};
use leptos::prelude::*;

use super::belt::{BELT_START, LANE_HEIGHT, LISTEN_Y, PIECE_WIDTH};
use super::legacy_parts::{HeldSessionLine, ServerAskPieces};
use super::parts::truncate;
use super::pickable::Pickable;
use super::{LINGER_MS, SceneContext, TRAVEL_MS, is_activation};

/// Pieces drawn at once (the newest); older ones are still in the timeline.
const MAX_PIECES: usize = 24;
const LANES: u64 = 4;
/// Above this many polls sent in the last second, polls stop travelling one by one and
/// share the poll lane: more than a person can follow, and a piece per `tasks/get` would cost
/// the page a redraw per poll. Each still rings its cartridge in the magazine.
const POLL_LANE_ABOVE: usize = 5;
/// The poll lane's place: the last lane (the other pieces keep the first three).
const POLL_LANE: u64 = LANES - 1;
/// The poll lane spans the belt.
const POLL_LANE_WIDTH: f64 = 604.0;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    Out,
    Back,
    Done,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Out => "out",
            Phase::Back => "back",
            Phase::Done => "done",
        }
    }
}

/// For a retry that carried a latch back: whether the client changed it.
fn carried_latch(flight: &Flight, traffic: &Traffic) -> Option<bool> {
    let FlightRole::Retry { tray, round } = flight.role else {
        return None;
    };
    let round = traffic
        .tray(tray)?
        .rounds
        .iter()
        .find(|r| r.number == round)?;
    round.sent_state.as_ref().map(|_| round.latch_changed)
}

/// What one piece on the belt shows.
#[derive(Clone, PartialEq)]
struct Piece {
    exchange: u64,
    method: String,
    label: String,
    timing: String,
    phase: Phase,
    failed: bool,
    listen: bool,
    pushed: usize,
    sent_at: f64,
    lane: u64,
    /// When the trip back begins: the response, but not before the trip out ended.
    back_at: Option<f64>,
    /// A retry carrying its tray's latch (`requestState`) back: whether it was changed.
    latch: Option<bool>,
}

impl Piece {
    /// `folded`: the poll lane is shown, so this piece keeps out of it.
    fn of(flight: &Flight, folded: bool, traffic: &Traffic) -> Self {
        let phase = match (flight.ended_at, flight.responded_at) {
            (Some(_), _) => Phase::Done,
            (None, Some(_)) => Phase::Back,
            (None, None) => Phase::Out,
        };
        let label = match &flight.name {
            Some(name) => format!("{} {name}", flight.method_name),
            None => flight.method_name.clone(),
        };
        Self {
            exchange: flight.exchange,
            method: flight.method_name.clone(),
            label,
            timing: flight
                .duration_ms()
                .map(crate::ui::format::duration)
                .unwrap_or_else(|| "…".into()),
            phase,
            // The scene's one failure rule, the timeline's too.
            failed: flight.failed(),
            listen: flight.role == FlightRole::Listen,
            pushed: flight.received_count(),
            sent_at: flight.sent_at,
            lane: if folded {
                flight.exchange % POLL_LANE
            } else {
                flight.exchange % LANES
            },
            back_at: flight
                .responded_at
                .or(flight.ended_at)
                .map(|at| at.max(flight.sent_at + TRAVEL_MS)),
            latch: carried_latch(flight, traffic),
        }
    }

    /// Still worth drawing at `now`: open, or finished a moment ago.
    fn is_visible(flight: &Flight, now: f64) -> bool {
        match (flight.ended_at, flight.responded_at.or(flight.ended_at)) {
            (Some(_), Some(back)) => {
                now < back.max(flight.sent_at + TRAVEL_MS) + TRAVEL_MS + LINGER_MS
            }
            _ => true,
        }
    }

    fn aria_label(&self) -> String {
        let state = match self.phase {
            Phase::Out => "sent, waiting for the server",
            Phase::Back => "the response is arriving",
            Phase::Done => "done",
        };
        format!(
            "Exchange {}: {}{}, {state}, {}",
            self.exchange,
            self.label,
            match self.latch {
                Some(false) => ", carrying the latch back",
                Some(true) => ", carrying a changed latch",
                None => "",
            },
            self.timing
        )
    }
}

#[component]
pub(super) fn Conveyor() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    // Polls share one lane while there are many of them (decided every frame, cheaply).
    let polls_folded = Memo::new(move |_| {
        traffic.track();
        scene.tick.track();
        let now = scene.now();
        traffic.with(|t| {
            t.flights()
                .rev()
                .filter(|f| matches!(f.role, FlightRole::Poll { .. }))
                .take_while(|f| now - f.sent_at < 1_000.0)
                .nth(POLL_LANE_ABOVE)
                .is_some()
        })
    });
    let pieces = Memo::new(move |_| {
        traffic.track();
        scene.tick.track();
        let now = scene.now();
        let folded = polls_folded.get();
        traffic.with(|t| {
            let mut pieces: Vec<Piece> = t
                .flights()
                .rev()
                .filter(|f| !(folded && matches!(f.role, FlightRole::Poll { .. })))
                // A legacy session's own stream is its held line, not a piece.
                .filter(|f| f.role != FlightRole::SessionStream)
                // The page that sent it is gone: its pieces are history, not on the belt.
                .filter(|f| !t.before_reload(f.sent_at))
                .filter(|f| Piece::is_visible(f, now))
                .take(MAX_PIECES)
                .map(|f| Piece::of(f, folded, t))
                .collect();
            pieces.reverse();
            pieces
        })
    });
    let travelling = move || {
        pieces
            .get()
            .into_iter()
            .filter(|p| !p.listen)
            .collect::<Vec<_>>()
    };
    let standing = move || {
        pieces
            .get()
            .into_iter()
            .filter(|p| p.listen)
            .collect::<Vec<_>>()
    };

    view! {
        <svg
            class="scene-svg conveyor"
            viewBox="0 0 800 138"
            role="group"
            aria-label="Conveyor: each HTTP exchange between the client and the server"
        >
            <g class="station client-station" aria-hidden="true">
                <rect x="2" y="6" width="86" height="128" rx="8"></rect>
                <text x="45" y="74" text-anchor="middle">"Client"</text>
            </g>
            <g class="station server-station" aria-hidden="true">
                <rect x="712" y="6" width="86" height="128" rx="8"></rect>
                <text x="755" y="74" text-anchor="middle">"Server"</text>
            </g>
            <g class="belt" aria-hidden="true">
                <line x1="92" y1="112" x2="708" y2="112"></line>
                <line x1="92" y1="8" x2="708" y2="8"></line>
            </g>
            <For
                each=travelling
                key=|p| (p.exchange, p.phase, p.timing.clone(), p.lane)
                children=move |piece| view! { <TravellingPiece piece=piece /> }
            />
            <Show when=move || polls_folded.get()>
                <PollLane />
            </Show>
            <For
                each=standing
                key=|p| (p.exchange, p.phase, p.pushed)
                children=move |piece| view! { <StandingLine piece=piece /> }
            />
            <HeldSessionLine />
            <ServerAskPieces />
        </svg>
    }
}

/// A request and its response, travelling on the belt. Its animation starts where the real
/// elapsed time puts it (a negative delay), so a rebuilt piece continues its trip.
#[component]
fn TravellingPiece(piece: Piece) -> impl IntoView {
    let scene = SceneContext::current();
    let now = scene.now();
    let lane = piece.lane as f64;
    let style = match (piece.phase, piece.back_at) {
        (Phase::Out, _) | (_, None) => {
            format!("animation-delay: {:.0}ms", piece.sent_at - now)
        }
        (Phase::Back, Some(back)) => {
            format!("animation-delay: {:.0}ms", back - TRAVEL_MS - now)
        }
        (Phase::Done, Some(back)) => format!(
            "animation-delay: {:.0}ms, {:.0}ms",
            back - TRAVEL_MS - now,
            back + TRAVEL_MS + LINGER_MS - 400.0 - now
        ),
    };
    view! {
        <Pickable
            part=Part::Flight(piece.exchange)
            class=if piece.failed { "flight failed" } else { "flight" }
            label=piece.aria_label()
            attr:data-exchange=piece.exchange
            attr:data-method=piece.method.clone()
            attr:data-phase=piece.phase.name()
            transform=format!("translate({BELT_START} {})", 14.0 + lane * LANE_HEIGHT)
        >
            <g class="piece" style=style>
                <rect width=PIECE_WIDTH height="22" rx="5"></rect>
                // The latch travels with the retry that carries it back.
                {piece.latch.map(|changed| view! {
                    <g
                        class="carried-latch"
                        class:changed=changed
                        transform="translate(-16 1) scale(0.7)"
                        aria-hidden="true"
                    >
                        <path class="shackle" d="M5 11 v-4 a7 7 0 0 1 14 0 v4"></path>
                        <rect class="lock-body" x="1" y="10" width="22" height="17" rx="3"></rect>
                    </g>
                })}
                <text class="flight-label" x="8" y="15">
                    {truncate(&piece.label, 22)}
                </text>
                <text class="flight-timing" x=PIECE_WIDTH - 8.0 y="15" text-anchor="end">
                    {piece.timing.clone()}
                </text>
            </g>
        </Pickable>
    }
}

/// A listen stream: a standing line while it is open, not a travelling piece.
#[component]
fn StandingLine(piece: Piece) -> impl IntoView {
    let open = piece.phase != Phase::Done;
    let caption = format!(
        "{} · {} {}",
        piece.label,
        piece.pushed,
        if piece.pushed == 1 {
            "message"
        } else {
            "messages"
        }
    );
    let label = format!("Listen stream {}: {caption}", piece.exchange);
    view! {
        <Pickable
            part=Part::Flight(piece.exchange)
            class=if open { "flight listen open" } else { "flight listen" }
            label=label
            attr:data-exchange=piece.exchange
            attr:data-method=piece.method.clone()
            attr:data-phase=piece.phase.name()
        >
            <line x1="92" y1=LISTEN_Y x2="708" y2=LISTEN_Y></line>
            <text x="400" y=LISTEN_Y - 4.0 text-anchor="middle">{caption}</text>
            <text class="flight-timing" x="704" y=LISTEN_Y - 4.0 text-anchor="end">
                {piece.timing.clone()}
            </text>
        </Pickable>
    }
}

/// What the poll lane says: the polls in flight, answered lately, and the newest one.
#[derive(Clone, PartialEq)]
struct PollSummary {
    in_flight: usize,
    answered_last_second: usize,
    /// The newest answered poll's exchange and how long it took.
    newest: Option<(u64, String)>,
}

impl PollSummary {
    fn of(traffic: &Traffic, now: f64) -> Self {
        let polls = || {
            traffic
                .flights()
                .rev()
                .filter(|f| matches!(f.role, FlightRole::Poll { .. }))
        };
        Self {
            in_flight: polls().filter(|f| f.ended_at.is_none()).count(),
            answered_last_second: polls()
                .filter(|f| f.ended_at.is_some_and(|end| now - end < 1_000.0))
                .count(),
            newest: polls().find(|f| f.ended_at.is_some()).and_then(|f| {
                let ms = f.duration_ms()?;
                Some((f.exchange, crate::ui::format::duration(ms)))
            }),
        }
    }

    fn caption(&self) -> String {
        format!(
            "{} × {} in flight",
            MethodId::GetTask.name(),
            self.in_flight
        )
    }

    fn rate(&self) -> String {
        let newest = self
            .newest
            .as_ref()
            .map(|(_, timing)| format!(" · the last took {timing}"))
            .unwrap_or_default();
        format!("{} answered in 1 s{newest}", self.answered_last_second)
    }
}

/// Many polls at once: one lane that counts them, redrawn calmly. The newest answered poll
/// is what inspecting the lane shows; every poll is in the timeline and the wire log.
#[component]
fn PollLane() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    let summary = Memo::new(move |_| {
        traffic.track_calm();
        scene.tick.track();
        let now = scene.now();
        traffic.with(|t| PollSummary::of(t, now))
    });
    let newest = move || summary.with(|s| s.newest.as_ref().map(|(exchange, _)| *exchange));
    let select = move || {
        if let Some(exchange) = summary.with_untracked(|s| s.newest.as_ref().map(|n| n.0)) {
            scene.select(Part::Flight(exchange));
        }
    };
    let selected =
        move || newest().is_some_and(|exchange| scene.is_selected(&Part::Flight(exchange)));
    let label = move || {
        summary.with(|s| {
            format!(
                "Poll lane: {}, {}; many polls at once share this lane, each pulses on its cartridge",
                s.caption(),
                s.rate()
            )
        })
    };
    view! {
        <g
            class="poll-lane"
            class:selected=selected
            data-method=MethodId::GetTask.name()
            data-in-flight=move || summary.with(|s| s.in_flight)
            transform=format!("translate({BELT_START} {})", 14.0 + POLL_LANE as f64 * LANE_HEIGHT)
            role="group"
            tabindex="0"
            aria-label=label
            on:click=move |_| select()
            on:focus=move |_| select()
            on:keydown=move |event: leptos::ev::KeyboardEvent| {
                if is_activation(&event) {
                    event.prevent_default();
                    select();
                }
            }
        >
            <rect width=POLL_LANE_WIDTH height="22" rx="5"></rect>
            <text class="flight-label" x="8" y="15">{move || summary.with(PollSummary::caption)}</text>
            <text class="flight-timing" x=POLL_LANE_WIDTH - 8.0 y="15" text-anchor="end">
                {move || summary.with(PollSummary::rate)}
            </text>
        </g>
    }
}
