//! The legacy era's own parts: the session the server holds, and the requests the server
//! sends the client on an open stream (2025-11-25: `initialize`, `Mcp-Session-Id`,
//! `elicitation/create` from the server), drawn beside MRTR's trays to compare.

use holdbay_engine::model::RequestId;
use serde_json::Value;

use super::tray::Tag;

/// A legacy session: opened by `initialize`, held by the server (which keeps what the
/// session needs in memory, named by `Mcp-Session-Id`) until it ends.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldSession {
    /// The exchange of the `initialize` that opened it (its part's id).
    pub opened_by: u64,
    /// When the server's answer opened it.
    pub opened_at: f64,
    /// The `initialize` request and the server's answer, as on the wire.
    pub initialize: Value,
    pub answer: Value,
    /// Requests the client sent in it, after `initialize`.
    pub requests: u32,
    /// Requests the server sent the client in it.
    pub asks: u32,
    /// The exchange of its own GET stream, while that is open.
    pub stream: Option<u64>,
    /// When and why it ended, once it did.
    pub ended: Option<SessionEnding>,
}

impl HeldSession {
    pub fn is_open(&self) -> bool {
        self.ended.is_none()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SessionEnding {
    pub at: f64,
    pub why: String,
}

/// A request the server sent the client on an open stream (a call's, or the session's own),
/// and the client's answer, a POST of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerAsk {
    /// Its part's id: asks are numbered from 1 in the order they came.
    pub number: u64,
    /// The exchange whose stream carried it.
    pub carried_by: u64,
    /// The JSON-RPC id the client's answer carries.
    pub id: RequestId,
    /// What it asks, read as an MRTR input request is (its JSON is the server's request).
    pub tag: Tag,
    pub asked_at: f64,
    /// The tray of the call whose stream carried it, when a call's did.
    pub tray: Option<u64>,
    /// The client's answer, once it went.
    pub answer: Option<ServerAnswer>,
}

/// The POST that carried the client's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerAnswer {
    pub exchange: u64,
    pub at: f64,
    /// The JSON-RPC response as sent.
    pub json: Value,
}
