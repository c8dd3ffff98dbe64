//! The timeline: every step of the sequence diagram, bounded.

use crate::parts::{Lane, Part, TrafficEvent};
use crate::traffic::{MAX_EVENTS, Traffic};

impl Traffic {
    /// Add a step; the oldest tenth goes when the timeline is full.
    pub(crate) fn event(
        &mut self,
        at: f64,
        from: Lane,
        to: Lane,
        label: String,
        narration: Option<String>,
        part: Part,
    ) {
        if self.events.len() >= MAX_EVENTS {
            let drop = MAX_EVENTS / 10;
            self.events.drain(..drop);
            self.dropped_events += drop as u64;
        }
        self.events.push(TrafficEvent {
            seq: self.next_seq,
            at,
            from,
            to,
            label,
            narration,
            part,
            failed: false,
            polls: None,
        });
        self.next_seq += 1;
    }

    /// Mark the step just added as a `tasks/get` of `task`.
    pub(crate) fn mark_poll(&mut self, task: &str) {
        if let Some(last) = self.events.last_mut() {
            last.polls = Some(task.to_owned());
        }
    }

    /// Mark the step just added as a failure when `failed`.
    pub(crate) fn mark_failed(&mut self, failed: bool) {
        if let Some(last) = self.events.last_mut() {
            last.failed |= failed;
        }
    }
}
