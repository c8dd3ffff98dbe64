//! The scene's model of one session, folded from the exchanges' typed events.
//!
//! [`Traffic`] is told what happened on the wire, exchange by exchange, as the engine's
//! readers decoded it ([`ExchangeEvent`]s: a request sent, the status, each notification, the
//! answer, the end), in order, on the caller's clock. From that alone it keeps the parts of
//! Holdbay's scene: the conveyor's [`Flight`]s, the holding bay's [`Tray`]s (logical requests
//! paused by MRTR, with their latch, `requestState`) and the job magazine's [`Cartridge`]s
//! (tasks, with their status lamp), plus a timeline of [`TrafficEvent`]s.
//!
//! It decides nothing, sends nothing and parses nothing: the live page and the replay of an
//! exported log ([`holdbay_engine::decode_recorded`]) feed it the same events, so both draw
//! the same scene.

use std::collections::{BTreeMap, HashMap};

use holdbay_engine::ExchangeEvent;
use holdbay_engine::model::TaskStatus;
use serde_json::Value;

use crate::narration;
use crate::parts::{Cartridge, Flight, HeldSession, Lane, Part, ServerAsk, TrafficEvent, Tray};

/// Timeline events kept; older ones are dropped (and counted) so a long session stays light.
pub const MAX_EVENTS: usize = 5_000;
/// Finished flights kept for inspection; the oldest go first.
pub const MAX_FINISHED_FLIGHTS: usize = 400;
/// Finished trays (logical requests that completed, failed, stopped or detached) kept; the
/// oldest go first, so thousands of calls leave the bay as light as a few hundred.
pub const MAX_FINISHED_TRAYS: usize = 400;
/// Notifications kept per flight (a listen stream can run for hours).
pub(crate) const MAX_NOTIFICATIONS_PER_FLIGHT: usize = 64;

/// The scene's model of one session. See the module documentation.
#[derive(Debug)]
pub struct Traffic {
    pub(crate) max_rounds: u32,
    pub(crate) flights: BTreeMap<u64, Flight>,
    pub(crate) trays: Vec<Tray>,
    pub(crate) cartridges: Vec<Cartridge>,
    pub(crate) slot_of: HashMap<String, usize>,
    /// Legacy sessions, oldest first (the last may be open).
    pub(crate) sessions: Vec<HeldSession>,
    /// Requests the server sent the client (legacy sessions), oldest first.
    pub(crate) server_asks: Vec<ServerAsk>,
    pub(crate) events: Vec<TrafficEvent>,
    pub(crate) next_seq: u64,
    pub(crate) dropped_events: u64,
    revision: u64,
    /// When the page last reloaded, if the log goes back past a reload.
    reloaded_at: Option<f64>,
    /// Where the scene starts (a lesson began, or the learner reset it): what came before
    /// is "earlier", kept and inspectable but drawn apart.
    scene_start: Option<f64>,
    /// Cartridges before this slot entered before the scene started.
    cartridge_base: usize,
}

impl Traffic {
    /// `max_rounds` is the client's MRTR bound ([`holdbay_engine::Bounds::max_rounds`]), drawn as
    /// the limit of every tray.
    pub fn new(max_rounds: u32) -> Self {
        Self {
            max_rounds,
            flights: BTreeMap::new(),
            trays: Vec::new(),
            cartridges: Vec::new(),
            slot_of: HashMap::new(),
            sessions: Vec::new(),
            server_asks: Vec::new(),
            events: Vec::new(),
            next_seq: 0,
            dropped_events: 0,
            revision: 0,
            reloaded_at: None,
            scene_start: None,
            cartridge_base: 0,
        }
    }

    /// Start the scene at `at`: the logical requests opened and the tasks first seen before
    /// it become earlier ones. A task of an earlier lesson that still changes stays earlier.
    pub fn start_scene_at(&mut self, at: f64) {
        self.scene_start = Some(at);
        self.cartridge_base = self
            .cartridges
            .iter()
            .take_while(|cartridge| cartridge.entered_at < at)
            .count();
        self.revision += 1;
    }

    /// Where the scene starts, if it was started anew.
    pub fn scene_start(&self) -> Option<f64> {
        self.scene_start
    }

    /// The logical requests opened since the scene started, oldest first.
    pub fn scene_trays(&self) -> impl DoubleEndedIterator<Item = &Tray> {
        let start = self.scene_start;
        self.trays
            .iter()
            .filter(move |tray| start.is_none_or(|start| tray.opened_at >= start))
    }

    /// The logical requests opened before the scene started, oldest first.
    pub fn earlier_trays(&self) -> impl DoubleEndedIterator<Item = &Tray> {
        let start = self.scene_start;
        self.trays
            .iter()
            .filter(move |tray| start.is_some_and(|start| tray.opened_at < start))
    }

    /// The tasks first seen since the scene started, in slot order: the magazine's.
    /// `slot - cartridge_base()` is a cartridge's place in it.
    pub fn scene_cartridges(&self) -> &[Cartridge] {
        &self.cartridges[self.cartridge_base..]
    }

    /// The tasks first seen before the scene started.
    pub fn earlier_cartridges(&self) -> &[Cartridge] {
        &self.cartridges[..self.cartridge_base]
    }

    /// The slot of the scene's first cartridge.
    pub fn cartridge_base(&self) -> usize {
        self.cartridge_base
    }

    /// Something happened on exchange `exchange` (the wire log's id) at `at` (the caller's
    /// clock, ms). Events of an exchange must come in the order its reader produced them;
    /// events of an exchange whose `Sent` was never applied are ignored.
    pub fn apply(&mut self, exchange: u64, at: f64, event: &ExchangeEvent) {
        let changed = match event {
            ExchangeEvent::Sent(sent) => {
                self.on_sent(exchange, at, sent);
                true
            }
            ExchangeEvent::Responded { status, .. } => self.on_responded(exchange, at, *status),
            ExchangeEvent::Notification(note) => self.on_notification(exchange, at, note),
            ExchangeEvent::Answered(answer) => self.on_answered(exchange, at, answer),
            // Findings belong to the report card, not to the scene.
            ExchangeEvent::Finding(_) => false,
            ExchangeEvent::ServerRequest(asked) => self.on_server_request(exchange, at, asked),
            ExchangeEvent::Ended(end) => {
                let known = self.on_ended(exchange, at, end);
                self.prune_flights();
                self.prune_trays();
                known
            }
        };
        if changed {
            self.revision += 1;
        }
    }

    /// A task handle came back from durable storage (after a reload) with its last known
    /// `status`; `stored` is the record as storage holds it. A task the scene does not know
    /// re-enters its slot with that status (and `stored` is what inspecting it shows until a
    /// poll answers); a known one (its creation may be in a wire log that survived the
    /// reload too) keeps what the wire said. Either way it is marked restored, and the
    /// timeline says so, once per call.
    pub fn restored(&mut self, task_id: &str, at: f64, status: TaskStatus, stored: Value) {
        self.restore(task_id, at, status, stored);
        self.revision += 1;
    }

    /// The page reloaded: what the client held in memory is gone; the wire log and the task
    /// handles came back from storage (call [`Traffic::restored`] for each handle).
    pub fn reloaded(&mut self, at: f64) {
        self.reloaded_at = Some(self.reloaded_at.map_or(at, |before| before.max(at)));
        self.abandon_all_paused(at);
        self.event(
            at,
            Lane::Client,
            Lane::Client,
            narration::RELOADED_LABEL.to_owned(),
            Some(narration::RELOADED.to_owned()),
            Part::Session,
        );
        self.revision += 1;
    }

    /// `at` is before the page last reloaded: what was on the wire then belonged to a page
    /// that is gone, so the scene shows how it ended rather than pieces still travelling.
    pub fn before_reload(&self, at: f64) -> bool {
        self.reloaded_at.is_some_and(|reload| at < reload)
    }

    /// Changes with every call that changed anything (a cheap "redraw?" check).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// Exchanges in flight and the most recently finished ones, oldest first.
    pub fn flights(&self) -> impl DoubleEndedIterator<Item = &Flight> {
        self.flights.values()
    }

    pub fn flight(&self, exchange: u64) -> Option<&Flight> {
        self.flights.get(&exchange)
    }

    /// Every logical request of the session, oldest first.
    pub fn trays(&self) -> &[Tray] {
        &self.trays
    }

    pub fn tray(&self, id: u64) -> Option<&Tray> {
        self.trays.iter().find(|tray| tray.id == id)
    }

    /// Every task of the session, in slot order.
    pub fn cartridges(&self) -> &[Cartridge] {
        &self.cartridges
    }

    pub fn cartridge(&self, task_id: &str) -> Option<&Cartridge> {
        self.slot_of
            .get(task_id)
            .map(|&slot| &self.cartridges[slot])
    }

    /// The timeline, oldest first (the oldest may have been dropped: see
    /// [`Traffic::dropped_events`]).
    pub fn events(&self) -> &[TrafficEvent] {
        &self.events
    }

    pub fn dropped_events(&self) -> u64 {
        self.dropped_events
    }

    /// The real JSON of a part, as it is now (`None` for the session, which has none).
    pub fn json_of(&self, part: &Part) -> Option<Value> {
        match part {
            Part::Flight(exchange) => self.flight(*exchange).map(|flight| {
                serde_json::json!({ "request": flight.request, "received": flight.received() })
            }),
            // The request as first sent: its arguments and the capabilities it declared.
            Part::Tray(id) => self.tray(*id).map(|tray| match &tray.request {
                Value::Null => tray.workpiece.clone(),
                request => request.clone(),
            }),
            Part::Latch { tray, round } => {
                let tray = self.tray(*tray)?;
                let round = tray.rounds.iter().find(|r| r.number == *round)?;
                Some(serde_json::json!({
                    "received": round.received_state,
                    "sentBack": tray.rounds.iter().find(|r| r.number == round.number + 1)
                        .map(|next| next.sent_state.clone()),
                }))
            }
            Part::TrayTag { tray, key } => {
                let tray = self.tray(*tray)?;
                let tag = tray
                    .rounds
                    .iter()
                    .rev()
                    .flat_map(|r| &r.tags)
                    .find(|t| &t.key == key)?;
                Some(tag.json.clone())
            }
            Part::Cartridge(task) => self.cartridge(task).map(|c| c.snapshot.clone()),
            Part::CartridgeTag { task, key } => {
                let cartridge = self.cartridge(task)?;
                cartridge
                    .asked
                    .iter()
                    .find(|t| &t.key == key)
                    .map(|t| t.json.clone())
            }
            Part::Session => None,
            Part::HeldSession(opened_by) => self.held_session(*opened_by).map(|session| {
                serde_json::json!({
                    "request": session.initialize,
                    "answer": session.answer,
                    "requestsInSession": session.requests,
                    "requestsFromServer": session.asks,
                })
            }),
            Part::ServerAsk(number) => self.server_ask(*number).map(|ask| {
                serde_json::json!({
                    "fromServer": ask.tag.json,
                    "clientAnswer": ask.answer.as_ref().map(|answer| &answer.json),
                })
            }),
        }
    }
}
