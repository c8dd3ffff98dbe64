//! Which notifications of one exchange a log keeps: the first
//! [`Limits::max_notifications_kept`]; past them each is passed on marked not kept (counted,
//! not stored), with one finding when the bound first acts. A server that floods a stream
//! costs the page a counter, not its memory.

use crate::vocabulary::events::{ExchangeEvent, NotificationEvent};
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::{Limits, grouped};

/// The notifications one exchange has carried so far.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NotificationKeep {
    seen: usize,
}

impl NotificationKeep {
    /// Queue `note` as the exchange's next event, kept or (past the bound) only counted.
    pub(crate) fn admit(
        &mut self,
        mut note: NotificationEvent,
        limits: &Limits,
        events: &mut Vec<ExchangeEvent>,
    ) {
        self.seen = self.seen.saturating_add(1);
        let over = self.seen > limits.max_notifications_kept;
        note.kept = !over;
        if over {
            // What it says stays in `kind` (a progress bar still moves); the JSON it came
            // in is not kept anywhere, so it goes now.
            note.json = serde_json::json!({ "method": note.method() });
        }
        events.push(ExchangeEvent::Notification(Box::new(note)));
        if over && self.seen == limits.max_notifications_kept + 1 {
            events.push(ExchangeEvent::Finding(Finding::new(
                Rule::TooManyNotifications,
                format!(
                    "more than {} notifications on one exchange (the bound \
                     Limits::max_notifications_kept): the first {} are kept in the wire log, \
                     the rest are counted and not kept",
                    grouped(limits.max_notifications_kept),
                    grouped(limits.max_notifications_kept)
                ),
                None,
            )));
        }
    }
}
