//! A cartridge in the job magazine: one task, its status lamp, and how the client learned
//! of it.

use holdbay_engine::model::TaskStatus;
use serde_json::Value;

use super::tray::Tag;

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
