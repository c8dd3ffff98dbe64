//! A legacy session (2025-11-25) in the scene: the session the server holds from
//! `initialize` on, the requests the server sends on a call's open stream (the call's tray
//! is held, its tags hanging, until the client answers), and the client's answers, each a
//! POST of its own.

use holdbay_engine::model::RequestId;
use holdbay_engine::{AnswerKind, ServerRequestEvent};
use serde_json::Value;

use super::conveyor::Reply;
use crate::narration;
use crate::parts::{
    FlightRole, HeldSession, Lane, Part, ServerAnswer, ServerAsk, SessionEnding, TrayState,
};
use crate::traffic::Traffic;

/// Requests from the server kept for inspection; the oldest go first.
pub(crate) const MAX_SERVER_ASKS: usize = 400;

impl Traffic {
    /// The session open now, if one is.
    pub(crate) fn open_session(&mut self) -> Option<&mut HeldSession> {
        self.sessions.last_mut().filter(|session| session.is_open())
    }

    /// A request goes out: counted in the open session, if there is one.
    pub(crate) fn count_in_session(&mut self) {
        if let Some(session) = self.open_session() {
            session.requests += 1;
        }
    }

    /// `initialize` goes out.
    pub(crate) fn initialize_sent(&mut self, exchange: u64, at: f64, label: String) -> FlightRole {
        self.event(
            at,
            Lane::Client,
            Lane::Server,
            label,
            Some(narration::initialize()),
            Part::Flight(exchange),
        );
        FlightRole::Initialize
    }

    /// `initialize` answered: a result opens the session (ending one still open: a client
    /// initializes again only when the old one is gone).
    pub(crate) fn initialize_answered(&mut self, reply: Reply<'_>, request: Value) {
        if !matches!(reply.answer.kind, AnswerKind::Complete { .. }) {
            self.answer_step(reply, narration::SESSION_OPENED_LABEL, |_| None);
            return;
        }
        self.end_session(reply.at, &narration::session_replaced());
        self.sessions.push(HeldSession {
            opened_by: reply.exchange,
            opened_at: reply.at,
            initialize: request,
            answer: reply.answer.json.clone(),
            requests: 0,
            asks: 0,
            stream: None,
            ended: None,
        });
        self.reply_event(
            reply,
            narration::SESSION_OPENED_LABEL.to_owned(),
            Some(narration::SESSION_OPENED.to_owned()),
            Part::HeldSession(reply.exchange),
        );
    }

    /// The session's own GET stream goes out.
    pub(crate) fn session_stream_sent(
        &mut self,
        exchange: u64,
        at: f64,
        label: String,
    ) -> FlightRole {
        let part = match self.open_session() {
            Some(session) => {
                session.stream = Some(exchange);
                Part::HeldSession(session.opened_by)
            }
            None => Part::Flight(exchange),
        };
        self.event(at, Lane::Client, Lane::Server, label, None, part);
        FlightRole::SessionStream
    }

    /// The session's GET stream ended (closed, refused, broken off).
    pub(crate) fn session_stream_ended(&mut self, exchange: u64) {
        for session in &mut self.sessions {
            if session.stream == Some(exchange) {
                session.stream = None;
            }
        }
    }

    /// The session ended (`why`: the client's DELETE, the server's 404, a new `initialize`).
    pub(crate) fn end_session(&mut self, at: f64, why: &str) {
        let Some(session) = self.open_session() else {
            return;
        };
        session.ended = Some(SessionEnding {
            at,
            why: why.to_owned(),
        });
        session.stream = None;
        let part = Part::HeldSession(session.opened_by);
        self.event(
            at,
            Lane::Server,
            Lane::Client,
            narration::SESSION_ENDED_LABEL.to_owned(),
            Some(narration::session_ended(why)),
            part,
        );
    }

    /// The server sent the client a request on exchange `exchange`'s stream. On a call's
    /// stream, the call's tray is held with the request hanging on it as a tag.
    pub(crate) fn on_server_request(
        &mut self,
        exchange: u64,
        at: f64,
        asked: &ServerRequestEvent,
    ) -> bool {
        let Some(flight) = self.flights.get(&exchange) else {
            return false;
        };
        let tray = match flight.role {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => Some(tray),
            _ => None,
        };
        let carrier = flight.method_name.clone();
        let carrier_name = flight.name.clone();
        let tag = asked.ask();
        let number = self.server_asks.last().map_or(1, |ask| ask.number + 1);
        if let Some(session) = self.open_session() {
            session.asks += 1;
        }
        // A ping is the client's own business: answered at once, nothing to hold.
        if !asked.is_ping()
            && let Some(tray) = tray.and_then(|id| self.trays.iter_mut().find(|t| t.id == id))
            && tray.is_occupied()
        {
            tray.state = TrayState::Held;
            if let Some(round) = tray.rounds.last_mut() {
                round.tags.push(tag.clone());
            }
        }
        self.server_asks.push(ServerAsk {
            number,
            carried_by: exchange,
            id: asked.id.clone(),
            tag,
            asked_at: at,
            tray,
            answer: None,
        });
        if self.server_asks.len() > MAX_SERVER_ASKS {
            self.server_asks.remove(0);
        }
        self.event(
            at,
            Lane::Server,
            Lane::Client,
            narration::server_asks_label(asked.method()),
            Some(narration::server_asks(
                asked.method(),
                &carrier,
                carrier_name.as_deref(),
                tray.is_some(),
            )),
            Part::ServerAsk(number),
        );
        true
    }

    /// The client's answer to the server's request `asked` goes out: the newest request
    /// with that id not answered yet is answered, and its tray runs again once nothing
    /// else hangs on it.
    pub(crate) fn server_answer_sent(
        &mut self,
        exchange: u64,
        at: f64,
        asked: &RequestId,
        json: &Value,
    ) -> FlightRole {
        let Some(ask) = self
            .server_asks
            .iter_mut()
            .rev()
            .find(|ask| &ask.id == asked && ask.answer.is_none())
        else {
            self.event(
                at,
                Lane::Client,
                Lane::Server,
                narration::ANSWER_TO_UNKNOWN_LABEL.to_owned(),
                None,
                Part::Flight(exchange),
            );
            return FlightRole::Other;
        };
        ask.answer = Some(ServerAnswer {
            exchange,
            at,
            json: json.clone(),
        });
        let (number, key, tray, method) = (
            ask.number,
            ask.tag.key.clone(),
            ask.tray,
            ask.tag.kind.method_name().to_owned(),
        );
        if let Some(tray) = tray.and_then(|id| self.trays.iter_mut().find(|t| t.id == id))
            && let Some(round) = tray.rounds.last_mut()
        {
            round.tags.retain(|tag| tag.key != key);
            if round.tags.is_empty() && tray.state == TrayState::Held {
                tray.state = TrayState::InFlight;
            }
        }
        self.event(
            at,
            Lane::Client,
            Lane::Server,
            narration::server_answer_label(&method),
            Some(narration::server_answer(&method, tray.is_some())),
            Part::ServerAsk(number),
        );
        FlightRole::AnswersServer { ask: number }
    }

    /// Every request the server sent the client, oldest first.
    pub fn server_asks(&self) -> &[ServerAsk] {
        &self.server_asks
    }

    pub fn server_ask(&self, number: u64) -> Option<&ServerAsk> {
        self.server_asks.iter().find(|ask| ask.number == number)
    }

    /// Every legacy session, oldest first.
    pub fn sessions(&self) -> &[HeldSession] {
        &self.sessions
    }

    pub fn held_session(&self, opened_by: u64) -> Option<&HeldSession> {
        self.sessions
            .iter()
            .find(|session| session.opened_by == opened_by)
    }
}
