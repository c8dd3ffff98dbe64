//! One task as the book keeps it: the tracker, the tool that made it, when its newest
//! snapshot came, why its last poll failed, and what became of the last request sent for it.

use serde::{Deserialize, Serialize};

use crate::machines::task::TaskTracker;

/// One followed task. Stored (all but `poll_problem` and `note`), so a reload resumes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackedTask {
    /// The tool whose call created it.
    tool: String,
    tracker: TaskTracker,
    /// When the newest snapshot arrived (local clock) and how.
    #[serde(default)]
    last_snapshot: Option<SnapshotSeen>,
    /// Why the last poll failed; cleared by the next snapshot. Not stored: a reload retries.
    #[serde(skip)]
    poll_problem: Option<PollProblem>,
    /// What became of the last answer or cancel sent for this task.
    #[serde(skip)]
    note: Option<String>,
}

/// A snapshot taken in: when (local clock), and whether a listen stream pushed it or a
/// `tasks/get` fetched it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotSeen {
    pub at_ms: u64,
    pub pushed: bool,
}

/// A failed `tasks/get`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PollProblem {
    /// No HTTP answer at all (server down, network, CORS), rather than an error reply.
    pub unreachable: bool,
    pub detail: String,
}

impl TrackedTask {
    pub fn new(tool: &str, tracker: TaskTracker) -> Self {
        Self {
            tool: tool.to_owned(),
            tracker,
            last_snapshot: None,
            poll_problem: None,
            note: None,
        }
    }

    pub fn id(&self) -> &str {
        &self.tracker.task_id
    }

    pub fn tool(&self) -> &str {
        &self.tool
    }

    pub fn tracker(&self) -> &TaskTracker {
        &self.tracker
    }

    pub fn last_snapshot(&self) -> Option<SnapshotSeen> {
        self.last_snapshot
    }

    pub fn poll_problem(&self) -> Option<&PollProblem> {
        self.poll_problem.as_ref()
    }

    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    pub(super) fn tracker_mut(&mut self) -> &mut TaskTracker {
        &mut self.tracker
    }

    pub(super) fn snapshot_seen(&mut self, at_ms: u64, pushed: bool) {
        self.poll_problem = None;
        self.last_snapshot = Some(SnapshotSeen { at_ms, pushed });
    }

    pub(super) fn set_poll_problem(&mut self, problem: Option<PollProblem>) {
        self.poll_problem = problem;
    }

    pub(super) fn set_note(&mut self, note: Option<String>) {
        self.note = note;
    }
}
