//! The teaching model of a session's traffic, folded from recorded exchanges.
//!
//! [`Traffic`] is told what happened on the wire (a request sent, a response's status, each
//! body chunk, the end), in order, on the caller's clock. From that alone it keeps the parts
//! of Holdbay's scene: the conveyor's [`Flight`]s, the holding bay's [`Tray`]s (logical
//! requests paused by MRTR, with their latch, `requestState`) and the job magazine's
//! [`Cartridge`]s (tasks, with their status lamp), plus a timeline of [`TrafficEvent`]s.
//!
//! It decides nothing and sends nothing: the same fold serves the live page and the replay of
//! an exported log, so both draw the same scene.

mod fold;
mod model;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

pub use model::{
    CancelAsk, Cartridge, Flight, FlightRole, Lane, Part, Tag, TrafficEvent, Tray, TrayRound,
    TrayState,
};

use crate::sse::SseDecoder;

/// Timeline events kept; older ones are dropped (and counted) so a long session stays light.
pub const MAX_EVENTS: usize = 5_000;
/// Finished flights kept for inspection; the oldest go first.
pub const MAX_FINISHED_FLIGHTS: usize = 400;
/// Messages kept per flight (a listen stream can run for hours).
const MAX_MESSAGES_PER_FLIGHT: usize = 64;

/// The scene's model of one session. See the module documentation.
#[derive(Debug)]
pub struct Traffic {
    max_rounds: u32,
    flights: BTreeMap<u64, Flight>,
    bodies: HashMap<u64, Body>,
    trays: Vec<Tray>,
    cartridges: Vec<Cartridge>,
    slot_of: HashMap<String, usize>,
    events: Vec<TrafficEvent>,
    next_seq: u64,
    dropped_events: u64,
    revision: u64,
}

/// How a response body is being read.
enum Body {
    Json(String),
    Sse(SseDecoder),
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Body::Json(text) => write!(f, "Json({} bytes)", text.len()),
            Body::Sse(_) => f.write_str("Sse"),
        }
    }
}

impl Traffic {
    /// `max_rounds` is the client's MRTR bound ([`crate::Bounds::max_rounds`]), drawn as
    /// the limit of every tray.
    pub fn new(max_rounds: u32) -> Self {
        Self {
            max_rounds,
            flights: BTreeMap::new(),
            bodies: HashMap::new(),
            trays: Vec::new(),
            cartridges: Vec::new(),
            slot_of: HashMap::new(),
            events: Vec::new(),
            next_seq: 0,
            dropped_events: 0,
            revision: 0,
        }
    }

    /// A request went out. `body` is the JSON-RPC request as sent.
    pub fn sent(&mut self, exchange: u64, at: f64, method: &str, name: Option<&str>, body: &str) {
        let request = serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.into()));
        self.on_sent(exchange, at, method, name, request);
        self.revision += 1;
    }

    /// The response's status line and content type arrived.
    pub fn responded(&mut self, exchange: u64, at: f64, status: u16, content_type: Option<&str>) {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return;
        };
        flight.responded_at = Some(at);
        flight.status = Some(status);
        let is_sse = content_type.is_some_and(|t| t.trim_start().starts_with("text/event-stream"));
        let body = if is_sse {
            Body::Sse(SseDecoder::new())
        } else {
            Body::Json(String::new())
        };
        self.bodies.insert(exchange, body);
        self.revision += 1;
    }

    /// A piece of the response body arrived.
    pub fn chunk(&mut self, exchange: u64, at: f64, text: &str) {
        let messages = match self.bodies.get_mut(&exchange) {
            Some(Body::Json(buffer)) => {
                buffer.push_str(text);
                return;
            }
            Some(Body::Sse(decoder)) => decoder.push(text.as_bytes()).unwrap_or_default(),
            None => return,
        };
        for data in messages {
            self.on_message_text(exchange, at, &data);
        }
        self.revision += 1;
    }

    /// The exchange ended: the body is complete, or `error` says why it broke off.
    pub fn ended(&mut self, exchange: u64, at: f64, error: Option<&str>) {
        let messages = match self.bodies.remove(&exchange) {
            Some(Body::Json(buffer)) if !buffer.trim().is_empty() => vec![buffer],
            Some(Body::Sse(mut decoder)) => decoder.finish().unwrap_or_default(),
            _ => Vec::new(),
        };
        for data in messages {
            self.on_message_text(exchange, at, &data);
        }
        self.on_ended(exchange, at, error);
        self.prune_flights();
        self.revision += 1;
    }

    /// A task handle came back from durable storage (after a reload): it re-enters its slot
    /// with its last known `status` before the first poll. `stored` is the record as
    /// storage holds it (what inspecting the cartridge shows until a poll answers).
    pub fn restored(&mut self, task_id: &str, at: f64, status: &str, stored: Value) {
        if self.slot_of.contains_key(task_id) {
            return;
        }
        let slot = self.cartridge_slot(task_id, at, true, None);
        let cartridge = &mut self.cartridges[slot];
        cartridge.status = status.to_owned();
        cartridge.snapshot = stored;
        if fold::is_terminal(status) {
            cartridge.sealed_at = Some(at);
        }
        self.touch(slot);
        self.event(
            at,
            Lane::Client,
            Lane::Client,
            format!("restored {task_id}"),
            Some(format!(
                "Task {task_id} came back from durable storage after the reload, last seen \
                 {status}; polling resumes."
            )),
            Part::Cartridge(task_id.to_owned()),
        );
        self.revision += 1;
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

    /// The real JSON of a part, as it is now.
    pub fn json_of(&self, part: &Part) -> Option<Value> {
        match part {
            Part::Flight(exchange) => self.flight(*exchange).map(|flight| {
                serde_json::json!({ "request": flight.request, "received": flight.messages })
            }),
            Part::Tray(id) => self.tray(*id).map(|tray| tray.workpiece.clone()),
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
                let tag = tray.rounds.iter().rev().flat_map(|r| &r.tags).find(|t| &t.key == key)?;
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
        }
    }
}

/// Where a task snapshot came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SnapshotSource {
    Created,
    Poll,
    Push,
}
