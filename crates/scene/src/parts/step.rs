//! A step of the timeline: who it goes between, the part of the scene it concerns, and its
//! narration.

/// Who a timeline event goes between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    User,
    Client,
    Server,
}

/// A part of the scene a timeline event concerns (and that can be inspected). Serializable:
/// the lessons keep the part each reveal showed across a reload.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    /// A legacy session the server holds, by the exchange of its `initialize`.
    HeldSession(u64),
    /// A request the server sent the client, by its number ([`crate::ServerAsk::number`]).
    ServerAsk(u64),
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
