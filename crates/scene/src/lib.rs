//! Holdbay's teaching model: the parts of the Scene view (the conveyor's flights, the holding
//! bay's trays, the job magazine's cartridges), the timeline of what happened and the English
//! that narrates it for learners.
//!
//! It is built only from the engine's typed events ([`holdbay_engine::ExchangeEvent`]s, as the
//! engine's readers decoded each exchange once, live or from a recorded log) and `rmcp`'s
//! model types: it reads no JSON keys, decides nothing and sends nothing. See [`Traffic`].

mod failure;
mod fold;
mod narration;
mod parts;
mod traffic;

pub use failure::{broke_off, failure_of};
pub use fold::PROGRESS_STEPS_LISTED;
pub use parts::{
    CancelAsk, Cartridge, Delivery, Flight, FlightRole, HeldSession, Lane, Part, ServerAnswer,
    ServerAsk, SessionEnding, Tag, TrafficEvent, Tray, TrayProgress, TrayRound, TrayState,
};
pub use traffic::{MAX_EVENTS, MAX_FINISHED_FLIGHTS, MAX_FINISHED_TRAYS, Traffic};
