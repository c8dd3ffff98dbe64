//! What of the book must reach storage, and how soon: a new, answered, cancelled or ended
//! task at once; a routine change (a poll's snapshot) whenever the caller next saves.

use super::TrackedTask;

/// The book changed since the last save; `urgent` when it must be saved now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveNeeded {
    pub urgent: bool,
}

impl SaveNeeded {
    /// Two changes not saved yet need one save, as soon as the more pressing of them.
    pub(super) fn merge(self, other: Option<Self>) -> Self {
        Self {
            urgent: self.urgent || other.is_some_and(|other| other.urgent),
        }
    }
}

/// What of a task must be durable at once when it changes: a change to any of these is
/// urgent, anything else routine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DurableMark {
    /// The client follows it no more (terminal and settled, or ended by the client).
    pub terminal: bool,
    pub cancel_requested: bool,
    pub answered: usize,
    pub staged: usize,
    /// The server's status is terminal (its outcome may still have to be fetched).
    pub status_terminal: bool,
}

impl DurableMark {
    pub(super) fn of(task: &TrackedTask) -> Self {
        let tracker = task.tracker();
        Self {
            terminal: tracker.is_terminal(),
            cancel_requested: tracker.cancel_requested,
            answered: tracker.answered.len(),
            staged: tracker.staged.len(),
            status_terminal: tracker.status.is_terminal(),
        }
    }
}
