//! A tray in the holding bay: one logical request (`tools/call`, `prompts/get`,
//! `resources/read`), its rounds joined by their latch, and how it stands or ended.

use holdbay_engine::model::InputResponses;
use holdbay_engine::{InputAsk, MethodId};
use serde_json::Value;

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
    /// Sent in a legacy session: the server keeps the call (and its stream) while it asks,
    /// where MRTR hands the client a latch and forgets.
    pub in_session: bool,
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
    /// The share done, 0 to 1, when the server gave a total.
    pub fn fraction(&self) -> Option<f64> {
        let total = self.total.filter(|t| t.is_finite() && *t > 0.0)?;
        self.progress
            .is_finite()
            .then(|| (self.progress / total).clamp(0.0, 1.0))
    }
}

impl Tray {
    /// Occupied while the request is in flight, paused, or held by the server.
    pub fn is_occupied(&self) -> bool {
        matches!(
            self.state,
            TrayState::InFlight | TrayState::Paused | TrayState::Held
        )
    }

    /// The latch the tray carries now: the last `requestState` the server returned.
    pub fn latch(&self) -> Option<&str> {
        self.rounds.last()?.received_state.as_deref()
    }

    /// Input requests of the latest round still waiting for the user (the hanging tags).
    pub fn open_tags(&self) -> &[Tag] {
        match (self.state.clone(), self.rounds.last()) {
            (TrayState::Paused | TrayState::BoundReached | TrayState::Held, Some(round)) => {
                &round.tags
            }
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
    /// The server's `input_required` tags for this round (in a legacy session: the requests
    /// the server sent on this round's open stream that the client has not answered yet).
    pub tags: Vec<Tag>,
    /// The `requestState` the server returned with them.
    pub received_state: Option<String>,
    /// The JSON-RPC result or error of this round, once it came.
    pub outcome: Option<Value>,
}

/// An input request hanging on a workpiece or a cartridge: the key, what it asks for
/// ([`holdbay_engine::InputRequestKind`]: method, mode and message), and its JSON as sent.
pub type Tag = InputAsk;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrayState {
    /// A round is on the wire.
    InFlight,
    /// The server asked for input; the tray holds the request until the user answers.
    Paused,
    /// The server asked again after the last round the client allows.
    BoundReached,
    /// A legacy session's call: the server keeps it open and sent the client a request of
    /// its own on its stream; it waits there, connection and all, for the client's answer.
    Held,
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
            Self::Held => "held",
            Self::Completed { .. } => "done",
            Self::Failed { .. } => "error",
            Self::Detached { .. } => "detached",
            Self::Stopped => "stopped",
            Self::Abandoned => "abandoned",
        }
    }
}
