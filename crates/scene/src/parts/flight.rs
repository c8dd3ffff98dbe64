//! A flight on the conveyor: one HTTP exchange, with its answer as the engine decoded it.

use holdbay_engine::model::RequestId;
use holdbay_engine::{AnswerEvent, EndEvent, MethodId};
use serde_json::Value;

use crate::failure::{broke_off, failure_of};

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
    /// How the exchange ended, once it did: stopped by the client, or why it broke off.
    pub end: Option<EndEvent>,
    /// The request body as sent.
    pub request: Value,
    /// The notifications received on the exchange's stream, in order, as received (the
    /// newest ones, within a bound: a listen stream can run for hours).
    pub notifications: Vec<Value>,
    /// The JSON-RPC response, as the engine's reader decoded it, once it was read.
    pub answer: Option<AnswerEvent>,
}

impl Flight {
    /// How long the exchange took, once it ended (the real timing the scene labels).
    pub fn duration_ms(&self) -> Option<f64> {
        self.ended_at.map(|end| (end - self.sent_at).max(0.0))
    }

    /// The response was read (whatever it said).
    pub fn answered(&self) -> bool {
        self.answer.is_some()
    }

    /// The messages received, as received: the notifications, then the response.
    pub fn received(&self) -> Vec<&Value> {
        self.notifications.iter().chain(self.response()).collect()
    }

    /// How many messages were received (kept): the notifications, and the response.
    pub fn received_count(&self) -> usize {
        self.notifications.len() + usize::from(self.response().is_some())
    }

    /// The JSON-RPC response as received, when one was read (an answer that failed at the
    /// HTTP level has none).
    fn response(&self) -> Option<&Value> {
        let json = &self.answer.as_ref()?.json;
        (!json.is_null()).then_some(json)
    }

    /// The exchange failed: it broke off (not stopped by the client), or its answer is an
    /// error or could not be read ([`broke_off`], [`failure_of`]: the rules the timeline
    /// marks its steps by too).
    pub fn failed(&self) -> bool {
        self.end.as_ref().is_some_and(broke_off)
            || self
                .answer
                .as_ref()
                .is_some_and(|answer| failure_of(&answer.kind).is_some())
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
    /// `initialize`: opens a legacy session.
    Initialize,
    /// The GET of a legacy session's own stream.
    SessionStream,
    /// The client's answer to the server's request number `ask` (a legacy session).
    AnswersServer { ask: u64 },
    /// Discovery, lists and anything else.
    Other,
}
