//! What [`Traffic`](super::Traffic) knows about a session: the parts of the teaching scene.
//!
//! Every field is read from an exchange's typed events; the JSON kept is the real JSON of the
//! wire.

use rmcp::model::{InputResponses, RequestId, TaskStatus};
use serde_json::Value;

use crate::vocabulary::events::InputAsk;
use crate::vocabulary::method::MethodId;

/// One HTTP exchange on the conveyor between client and server.
#[derive(Debug, Clone, PartialEq)]
pub struct Flight {
    /// The exchange's id in the wire log.
    pub exchange: u64,
    /// The request's JSON-RPC id (what the wire log numbers it by); `None` when the body was
    /// not a JSON-RPC request.
    pub rpc_id: Option<RequestId>,
    /// `None` for a method this client does not know (see `method_name`).
    pub method: Option<MethodId>,
    /// The JSON-RPC method as sent.
    pub method_name: String,
    /// The `Mcp-Name` header: tool, prompt, URI or task id.
    pub name: Option<String>,
    pub role: FlightRole,
    /// Caller's clock, milliseconds.
    pub sent_at: f64,
    pub responded_at: Option<f64>,
    pub status: Option<u16>,
    pub ended_at: Option<f64>,
    /// Why the exchange failed at the HTTP level.
    pub error: Option<String>,
    /// The request body as sent.
    pub request: Value,
    /// The JSON-RPC messages received, in order (notifications, then the response).
    pub messages: Vec<Value>,
    /// The response was read (whatever it said; see `messages` for its JSON).
    pub answered: bool,
}

impl Flight {
    /// How long the exchange took, once it ended (the real timing the scene labels).
    pub fn duration_ms(&self) -> Option<f64> {
        self.ended_at.map(|end| (end - self.sent_at).max(0.0))
    }

    /// The JSON-RPC response (the message with an `id` and a result or error), once here.
    pub fn response(&self) -> Option<&Value> {
        self.messages
            .iter()
            .rev()
            .find(|m| m.get("result").is_some() || m.get("error").is_some())
    }
}

/// What an exchange did in the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlightRole {
    /// The first round of a logical request (`tools/call`, `prompts/get`, `resources/read`).
    Opens { tray: u64 },
    /// A retry of a paused logical request, carrying answers and the latch.
    Retry { tray: u64, round: u32 },
    /// `tasks/get`: a poll pulse.
    Poll { task: String },
    /// `tasks/update`: answers for a task's input requests.
    Update { task: String },
    /// `tasks/cancel`: a request to cancel, not a cancellation.
    Cancel { task: String },
    /// `subscriptions/listen`: a stream that may push task snapshots.
    Listen,
    /// Discovery, lists and anything else.
    Other,
}

/// A tray in the holding bay: one logical request, while it runs and pauses for input.
#[derive(Debug, Clone, PartialEq)]
pub struct Tray {
    /// The exchange id of its first round.
    pub id: u64,
    /// One of the methods that may pause for input ([`MethodId::may_pause`]).
    pub method: MethodId,
    pub name: Option<String>,
    /// The workpiece: the request's data (`arguments` of a tool call, or the params).
    pub workpiece: Value,
    pub rounds: Vec<TrayRound>,
    pub state: TrayState,
    pub opened_at: f64,
    /// When it emptied (completed, failed, detached or stopped).
    pub closed_at: Option<f64>,
    /// The client's round bound.
    pub max_rounds: u32,
    /// The newest `notifications/progress` on the current round's stream, if any came.
    pub progress: Option<TrayProgress>,
    /// The JSON-RPC request of its first round, as sent (`_meta` and all).
    pub request: Value,
    /// The first round declared the tasks extension: it offered the server a task.
    pub offers_task: bool,
}

/// Progress a server reported on a request's own stream, before its result.
#[derive(Debug, Clone, PartialEq)]
pub struct TrayProgress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
    /// Progress notifications received so far for this request.
    pub notes: u32,
}

impl TrayProgress {
    /// `2 of 6`, or `40` without a total: the figures as the narration writes them.
    pub fn how_far(&self) -> String {
        super::narration::how_far(self)
    }

    /// The share done, 0 to 1, when the server gave a total.
    pub fn fraction(&self) -> Option<f64> {
        let total = self.total.filter(|t| t.is_finite() && *t > 0.0)?;
        self.progress
            .is_finite()
            .then(|| (self.progress / total).clamp(0.0, 1.0))
    }
}

impl Tray {
    /// What the wire told of this request beyond its drawing: whether it offered a task
    /// and what the server made of the offer, and how its rounds stand against the bound.
    pub fn facts(&self) -> String {
        super::narration::tray_facts(self)
    }

    /// Occupied while the request is in flight or paused.
    pub fn is_occupied(&self) -> bool {
        matches!(self.state, TrayState::InFlight | TrayState::Paused)
    }

    /// The latch the tray carries now: the last `requestState` the server returned.
    pub fn latch(&self) -> Option<&str> {
        self.rounds.last()?.received_state.as_deref()
    }

    /// Input requests of the latest round still waiting for the user (the hanging tags).
    pub fn open_tags(&self) -> &[Tag] {
        match (self.state.clone(), self.rounds.last()) {
            (TrayState::Paused | TrayState::BoundReached, Some(round)) => &round.tags,
            _ => &[],
        }
    }
}

/// One round of a logical request.
#[derive(Debug, Clone, PartialEq)]
pub struct TrayRound {
    /// 1 for the first request.
    pub number: u32,
    pub exchange: u64,
    pub sent_at: f64,
    /// The `requestState` this round carried back to the server (none on round 1).
    pub sent_state: Option<String>,
    /// True when `sent_state` differs from the latch the server gave in the round before:
    /// the client changed the latch (it must not; the server should refuse).
    pub latch_changed: bool,
    /// The `inputResponses` this round carried.
    pub answers: Option<InputResponses>,
    /// The server's `input_required` tags for this round.
    pub tags: Vec<Tag>,
    /// The `requestState` the server returned with them.
    pub received_state: Option<String>,
    /// The JSON-RPC result or error of this round, once it came.
    pub outcome: Option<Value>,
}

/// An input request hanging on a workpiece or a cartridge: the key, what it asks for
/// ([`crate::InputRequestKind`]: method, mode and message), and its JSON as sent.
pub type Tag = InputAsk;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrayState {
    /// A round is on the wire.
    InFlight,
    /// The server asked for input; the tray holds the request until the user answers.
    Paused,
    /// The server asked again after the last round the client allows.
    BoundReached,
    /// A final result (`isError: true` included; `tool_error` says so).
    Completed { tool_error: bool },
    /// A JSON-RPC error or an HTTP failure ended it.
    Failed { message: String },
    /// The server answered with a task: the work left the bay for the magazine.
    Detached { task: String },
    /// The client stopped waiting (aborted the exchange).
    Stopped,
    /// Paused, then never retried: the client started the same request afresh. Nothing
    /// needs to tell the server, which keeps no state for a paused request.
    Abandoned,
}

impl TrayState {
    /// A stable name for styles and data attributes: the bay's own words for how a request
    /// stands or ended, kept apart from the wire's task statuses.
    pub fn name(&self) -> &'static str {
        match self {
            Self::InFlight => "in_flight",
            Self::Paused => "paused",
            Self::BoundReached => "bound_reached",
            Self::Completed { .. } => "done",
            Self::Failed { .. } => "error",
            Self::Detached { .. } => "detached",
            Self::Stopped => "stopped",
            Self::Abandoned => "abandoned",
        }
    }
}

/// A cartridge in the job magazine: one task.
#[derive(Debug, Clone, PartialEq)]
pub struct Cartridge {
    pub task_id: String,
    /// Its slot, in order of arrival.
    pub slot: usize,
    /// The tray it came from, when its creation is in this log.
    pub from_tray: Option<u64>,
    /// The tool that created it, when known.
    pub tool: Option<String>,
    /// The status lamp.
    pub status: TaskStatus,
    pub status_message: Option<String>,
    pub poll_interval_ms: Option<u64>,
    /// The latest task JSON (creation result, poll result or pushed snapshot).
    pub snapshot: Value,
    /// Open input requests (`input_required`), minus keys already answered by `tasks/update`.
    pub tags: Vec<Tag>,
    /// Every input request the task ever raised (keys are unique over its lifetime).
    pub asked: Vec<Tag>,
    pub answered_keys: Vec<String>,
    pub polls: u32,
    /// Snapshots that arrived on a listen stream, without a poll.
    pub pushes: u32,
    /// How the newest snapshot came.
    pub last_delivery: Delivery,
    pub updates: u32,
    pub cancel: Option<CancelAsk>,
    /// First seen through `tasks/get` with no creation in this log: it came back from
    /// durable storage (a reload, or another session).
    pub restored: bool,
    /// Set when a terminal status arrived; the cartridge never changes after that.
    pub sealed_at: Option<f64>,
    /// Later snapshots that contradicted the sealed terminal status.
    pub broken_seal: u32,
    pub entered_at: f64,
    /// Bumped on every change a view would draw (not on an unchanged poll), so a view can
    /// redraw only the cartridges that changed.
    pub version: u64,
}

/// How a cartridge's newest snapshot reached the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// The `tools/call` answer that created the task.
    Created,
    /// A `tasks/get` answer.
    Polled,
    /// A notification on a listen stream, with no poll.
    Pushed,
    /// Read back from durable storage after a reload.
    Restored,
}

impl Cartridge {
    /// How the client has learned of this task, for the inspector: `3 polled, 5 pushed;
    /// newest pushed; the server's pollIntervalMs 1000`.
    pub fn delivery_summary(&self) -> String {
        super::narration::delivery_summary(self)
    }

    pub fn is_sealed(&self) -> bool {
        self.sealed_at.is_some()
    }
}

/// A `tasks/cancel` the client sent: a polite ask, and what came of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancelAsk {
    pub exchange: u64,
    pub asked_at_ms: u64,
    /// `Some(true)` once the server acknowledged, `Some(false)` if it answered an error.
    pub acknowledged: Option<bool>,
    /// The terminal status the task actually reached afterwards.
    pub outcome: Option<TaskStatus>,
}

/// Who a timeline event goes between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    User,
    Client,
    Server,
}

/// A part of the scene a timeline event concerns (and that can be inspected).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    Flight(u64),
    Tray(u64),
    /// The latch of a tray's round.
    Latch {
        tray: u64,
        round: u32,
    },
    TrayTag {
        tray: u64,
        key: String,
    },
    Cartridge(String),
    CartridgeTag {
        task: String,
        key: String,
    },
    /// The session as a whole (a page reload). It has no JSON of its own.
    Session,
}

/// One step of the sequence diagram, with its narration.
#[derive(Debug, Clone, PartialEq)]
pub struct TrafficEvent {
    /// Position in the session, from 0.
    pub seq: u64,
    pub at: f64,
    pub from: Lane,
    pub to: Lane,
    /// A short arrow label: `tools/call book_table`, `input_required (2 tags)`.
    pub label: String,
    /// A sentence for the live region. `None` for routine traffic (an unchanged poll),
    /// which would only drown the narration.
    pub narration: Option<String>,
    pub part: Part,
    /// The step is a failure: an error answer, an unreadable one, or an exchange cut off.
    pub failed: bool,
    /// A `tasks/get` going out: the task it polls. Kept on the step itself, so a view can
    /// tell routine polling long after the exchange's flight was let go.
    pub polls: Option<String>,
}
