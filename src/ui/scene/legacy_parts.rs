//! A legacy session's own parts on the conveyor (2025-11-25): the session the server holds,
//! drawn as a line held between client and server, and each request the server sends the
//! client, travelling *from* the server (where MRTR's pieces only ever leave the client).

use holdbay_scene::{HeldSession, Part, ServerAsk, Traffic};
use leptos::prelude::*;

use super::belt::{BELT_START, LANE_HEIGHT, LISTEN_Y as SESSION_Y, PIECE_WIDTH};
use super::parts::truncate;
use super::pickable::Pickable;
use super::{LINGER_MS, SceneContext, TRAVEL_MS};

/// Lanes a request from the server may take (the last lane is the polls').
const ASK_LANES: u64 = 3;

/// What one request from the server shows while it is on the belt.
#[derive(Clone, PartialEq)]
struct AskPiece {
    number: u64,
    method: String,
    answered: bool,
    asked_at: f64,
    /// When the client's answer went: the piece fades a moment after.
    answered_at: Option<f64>,
    lane: u64,
}

impl AskPiece {
    fn of(ask: &ServerAsk) -> Self {
        Self {
            number: ask.number,
            method: ask.tag.kind.method_name().to_owned(),
            answered: ask.answer.is_some(),
            asked_at: ask.asked_at,
            answered_at: ask.answer.as_ref().map(|answer| answer.at),
            // Beside the call it came on, not on top of it.
            lane: (ask.carried_by + 1) % ASK_LANES,
        }
    }

    /// On the belt while the client has not answered, and a moment after.
    fn is_visible(ask: &ServerAsk, now: f64) -> bool {
        ask.answer
            .as_ref()
            .is_none_or(|answer| now < answer.at + TRAVEL_MS + LINGER_MS)
    }
}

/// The requests from the server on the belt now (the newest few).
#[component]
pub(super) fn ServerAskPieces() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    let pieces = Memo::new(move |_| {
        traffic.track();
        scene.tick.track();
        let now = scene.now();
        traffic.with(|t: &Traffic| {
            let mut shown: Vec<AskPiece> = t
                .server_asks()
                .iter()
                .rev()
                .filter(|ask| !t.before_reload(ask.asked_at))
                .filter(|ask| AskPiece::is_visible(ask, now))
                .take(ASK_LANES as usize)
                .map(AskPiece::of)
                .collect();
            shown.reverse();
            shown
        })
    });
    view! {
        <For
            each=move || pieces.get()
            key=|piece| (piece.number, piece.answered)
            children=move |piece| view! { <AskPieceDrawing piece=piece /> }
        />
    }
}

/// A request from the server: it arrives at the client and waits there, marked, until the
/// client's answer goes (a POST of its own, on the belt as any request).
#[component]
fn AskPieceDrawing(piece: AskPiece) -> impl IntoView {
    let scene = SceneContext::current();
    // Started where the real elapsed time puts it, so a rebuilt piece goes on from there.
    let now = scene.now();
    let style = match piece.answered_at {
        None => format!("animation-delay: {:.0}ms", piece.asked_at - now),
        Some(answered) => format!(
            "animation-delay: {:.0}ms, {:.0}ms",
            piece.asked_at - now,
            answered + LINGER_MS - now
        ),
    };
    let state = if piece.answered {
        "answered by the client"
    } else {
        "waiting for the client's answer"
    };
    let label = format!(
        "Request {} from the server: {}, {state}",
        piece.number, piece.method
    );
    let shown = format!("← {}", piece.method);
    view! {
        <Pickable
            part=Part::ServerAsk(piece.number)
            class=if piece.answered { "flight server-ask answered" } else { "flight server-ask" }
            label=label
            attr:data-ask=piece.number
            attr:data-answered=piece.answered.to_string()
            transform=format!("translate({BELT_START} {})", 14.0 + piece.lane as f64 * LANE_HEIGHT)
        >
            <g class="piece" style=style>
                <rect width=PIECE_WIDTH height="22" rx="5"></rect>
                <text class="flight-label" x="8" y="15">{truncate(&shown, 22)}</text>
                <text class="flight-timing" x=PIECE_WIDTH - 8.0 y="15" text-anchor="end">
                    {if piece.answered { "answered" } else { "asks" }}
                </text>
            </g>
        </Pickable>
    }
}

/// What the held session's line says.
#[derive(Clone, PartialEq)]
struct SessionLine {
    opened_by: u64,
    open: bool,
    caption: String,
}

impl SessionLine {
    fn of(session: &HeldSession) -> Self {
        let count =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let state = match &session.ended {
            None => "held by the server",
            Some(_) => "ended",
        };
        Self {
            opened_by: session.opened_by,
            open: session.is_open(),
            caption: format!(
                "session {state}{} · {} · {} from the server",
                if session.stream.is_some() {
                    ", its stream open"
                } else {
                    ""
                },
                count(session.requests, "request", "requests"),
                session.asks
            ),
        }
    }
}

/// The newest legacy session, while it is open and a moment after it ended.
#[component]
pub(super) fn HeldSessionLine() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    let line = Memo::new(move |_| {
        traffic.track();
        scene.tick.track();
        let now = scene.now();
        traffic.with(|t| {
            let session = t.sessions().last()?;
            let recent = session
                .ended
                .as_ref()
                .is_none_or(|ended| now < ended.at + LINGER_MS);
            (recent && !t.before_reload(session.opened_at)).then(|| SessionLine::of(session))
        })
    });
    move || {
        line.get().map(|line| {
            let label = format!("Legacy session: {}", line.caption);
            view! {
                <Pickable
                    part=Part::HeldSession(line.opened_by)
                    class=if line.open { "held-session open" } else { "held-session" }
                    label=label
                    attr:data-open=line.open.to_string()
                >
                    <line x1="92" y1=SESSION_Y x2="708" y2=SESSION_Y></line>
                    <text x="400" y=SESSION_Y - 4.0 text-anchor="middle">{line.caption}</text>
                </Pickable>
            }
        })
    }
}
