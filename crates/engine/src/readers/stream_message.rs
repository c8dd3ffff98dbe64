//! One JSON-RPC message read off an event stream, the same on a request's stream and on a
//! legacy session's own GET stream: a request from the server becomes its event (and, in
//! the 2026-07-28 era, which has no such requests, a finding), a notification is admitted
//! within the bounds, and a response is handed back to the caller.

use serde_json::Value;

use crate::readers::notification_keep::NotificationKeep;
use crate::vocabulary::era::Era;
use crate::vocabulary::events::{ExchangeEvent, NotificationEvent, ServerRequestEvent};
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::Limits;

/// Where a stream's messages go as they are read.
pub(crate) struct StreamMessages<'a> {
    pub era: Era,
    pub limits: &'a Limits,
    pub notes: &'a mut NotificationKeep,
    pub events: &'a mut Vec<ExchangeEvent>,
}

impl StreamMessages<'_> {
    /// Read `message`: `Some(message)` back when it is a response (no method), which only
    /// the caller can place; requests and notifications become events.
    pub(crate) fn read(&mut self, message: Value) -> Option<Value> {
        if message.get("method").is_none() {
            return Some(message);
        }
        if message.get("id").is_some() {
            match ServerRequestEvent::read(message) {
                Ok(asked) => self.server_asked(asked),
                // An id that is neither a string nor a number: not a request to answer.
                Err(message) => self.admit(message),
            }
        } else {
            self.admit(message);
        }
        None
    }

    fn admit(&mut self, message: Value) {
        let note = NotificationEvent::decode_on_request_stream(message);
        self.notes.admit(note, self.limits, self.events);
    }

    fn server_asked(&mut self, asked: ServerRequestEvent) {
        let finding = (self.era == Era::Modern).then(|| {
            Finding::new(
                Rule::ServerRequestInModernEra,
                format!(
                    "the server sent a {} request on a 2026-07-28 stream; servers of this \
                     revision ask through input_required, so it is not answered",
                    asked.method
                ),
                Some(asked.json.clone()),
            )
        });
        self.events
            .push(ExchangeEvent::ServerRequest(Box::new(asked)));
        self.events.extend(finding.map(ExchangeEvent::Finding));
    }
}
