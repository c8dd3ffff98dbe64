//! When to open the next `subscriptions/listen` stream after one ends, without a clock: the
//! caller says when a stream ended and asks when the next may open.

use crate::machines::listen::ListenEvent;

/// The first wait after a broken stream, and the wait after a graceful end.
pub const LISTEN_RETRY_FIRST_MS: u64 = 1_000;
/// Waits after broken streams double up to this.
pub const LISTEN_RETRY_MAX_MS: u64 = 30_000;

/// How a listen stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListenEnding {
    /// The client closed it on purpose (the set of tasks to follow changed): reopen at once.
    ClosedByClient,
    /// The server ended it with its result (§6.7): reopen after a short pause.
    Graceful,
    /// It closed without the result, or failed: reopen later, backing off.
    Broken,
    /// The server does not take `subscriptions/listen` ([`ListenEvent::is_refusal`]): asking
    /// again cannot help until the next connect.
    Refused,
}

impl ListenEnding {
    /// The ending an event announces, if it ends the stream.
    pub fn announced_by(event: &ListenEvent) -> Option<Self> {
        match event {
            ListenEvent::Ended => Some(Self::Graceful),
            refusal @ ListenEvent::Failed(_) if refusal.is_refusal() => Some(Self::Refused),
            ListenEvent::Failed(_) | ListenEvent::Dropped => Some(Self::Broken),
            // Notifications and findings: the stream goes on. (A stream that stops with
            // nothing announced counts as broken, see `of`.)
            _ => None,
        }
    }

    /// How a stream ended, from all its events in order: closing it on purpose says it all;
    /// otherwise the last event that announced an end; a stream that just stopped is broken.
    pub fn of<'a>(
        events: impl IntoIterator<Item = &'a ListenEvent>,
        closed_by_client: bool,
    ) -> Self {
        if closed_by_client {
            return Self::ClosedByClient;
        }
        events
            .into_iter()
            .filter_map(Self::announced_by)
            .last()
            .unwrap_or(Self::Broken)
    }
}

/// When the next listen stream may open. One per connection; [`ListenSchedule::reset`] on a
/// new connect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListenSchedule {
    /// The wait after the next broken stream.
    backoff_ms: u64,
    /// `None` once the server refused listening.
    next_open_at_ms: Option<u64>,
}

impl Default for ListenSchedule {
    fn default() -> Self {
        Self::new()
    }
}

impl ListenSchedule {
    /// A fresh connection: the first stream may open at once.
    pub fn new() -> Self {
        Self {
            backoff_ms: LISTEN_RETRY_FIRST_MS,
            next_open_at_ms: Some(0),
        }
    }

    /// The server acknowledged a stream: it works, so the backoff starts over.
    pub fn acknowledged(&mut self) {
        self.backoff_ms = LISTEN_RETRY_FIRST_MS;
    }

    /// A stream ended at `now_ms`, this way.
    pub fn ended(&mut self, ending: ListenEnding, now_ms: u64) {
        if self.next_open_at_ms.is_none() {
            // Refused stays refused until the next connect.
            return;
        }
        self.next_open_at_ms = match ending {
            ListenEnding::ClosedByClient => {
                self.backoff_ms = LISTEN_RETRY_FIRST_MS;
                Some(now_ms)
            }
            ListenEnding::Graceful => Some(now_ms.saturating_add(LISTEN_RETRY_FIRST_MS)),
            ListenEnding::Broken => {
                let wait = self.backoff_ms;
                self.backoff_ms = wait.saturating_mul(2).min(LISTEN_RETRY_MAX_MS);
                Some(now_ms.saturating_add(wait))
            }
            ListenEnding::Refused => None,
        };
    }

    /// When the next stream may open (local clock; at once when not after now), or `None`:
    /// the server refused listening, so poll until the next connect.
    pub fn next_open_at(&self) -> Option<u64> {
        self.next_open_at_ms
    }

    /// Whether a stream may open at `now_ms`.
    pub fn may_open(&self, now_ms: u64) -> bool {
        self.next_open_at_ms.is_some_and(|at| now_ms >= at)
    }

    /// A new connect: listening may be tried again, at once.
    pub fn reset(&mut self) {
        *self = Self::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readers::response::ResponseError;

    fn rpc_failure(code: i32) -> ListenEvent {
        ListenEvent::Failed(ResponseError::rpc(
            200,
            rmcp::model::ErrorData::new(rmcp::model::ErrorCode(code), "m", None),
        ))
    }

    #[test]
    fn the_first_stream_opens_at_once() {
        let schedule = ListenSchedule::new();
        assert!(schedule.may_open(0));
    }

    #[test]
    fn broken_streams_back_off_from_one_second_doubling_to_thirty() {
        let mut schedule = ListenSchedule::new();
        let mut waits = Vec::new();
        for _ in 0..7 {
            schedule.ended(ListenEnding::Broken, 100_000);
            waits.push(schedule.next_open_at().expect("retried") - 100_000);
        }
        assert_eq!(waits, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    }

    #[test]
    fn an_acknowledgement_resets_the_backoff() {
        let mut schedule = ListenSchedule::new();
        schedule.ended(ListenEnding::Broken, 0);
        schedule.ended(ListenEnding::Broken, 0);
        schedule.acknowledged();
        schedule.ended(ListenEnding::Broken, 10_000);
        assert_eq!(schedule.next_open_at(), Some(11_000));
    }

    #[test]
    fn a_graceful_end_reopens_after_one_second() {
        let mut schedule = ListenSchedule::new();
        schedule.ended(ListenEnding::Graceful, 5_000);
        assert!(!schedule.may_open(5_999));
        assert!(schedule.may_open(6_000));
    }

    #[test]
    fn a_stream_closed_by_the_client_reopens_at_once() {
        let mut schedule = ListenSchedule::new();
        schedule.ended(ListenEnding::Broken, 0);
        schedule.ended(ListenEnding::ClosedByClient, 7_000);
        assert_eq!(schedule.next_open_at(), Some(7_000));
    }

    #[test]
    fn a_refusal_stops_listening_until_the_next_connect() {
        let mut schedule = ListenSchedule::new();
        schedule.ended(ListenEnding::Refused, 0);
        assert_eq!(schedule.next_open_at(), None);
        schedule.ended(ListenEnding::ClosedByClient, 1_000);
        assert!(!schedule.may_open(u64::MAX), "refused stays refused");
        schedule.reset();
        assert!(schedule.may_open(0));
    }

    #[test]
    fn the_servers_result_is_a_graceful_end() {
        assert_eq!(
            ListenEnding::of(&[ListenEvent::Ended], false),
            ListenEnding::Graceful
        );
    }

    #[test]
    fn a_stream_closed_without_its_result_is_broken() {
        assert_eq!(
            ListenEnding::of(&[ListenEvent::Dropped], false),
            ListenEnding::Broken
        );
        assert_eq!(ListenEnding::of(&[], false), ListenEnding::Broken);
    }

    #[test]
    fn method_not_found_is_a_refusal_and_other_errors_are_breaks() {
        assert_eq!(
            ListenEnding::of(&[rpc_failure(-32601)], false),
            ListenEnding::Refused
        );
        assert_eq!(
            ListenEnding::of(&[rpc_failure(-32603)], false),
            ListenEnding::Broken
        );
    }

    #[test]
    fn closing_on_purpose_outweighs_how_the_stream_ended() {
        assert_eq!(
            ListenEnding::of(&[ListenEvent::Dropped], true),
            ListenEnding::ClosedByClient
        );
    }

    #[test]
    fn the_last_ending_event_decides() {
        let malformed = ListenEvent::Failed(ResponseError::MalformedJson {
            detail: "in a listen event".into(),
        });
        assert_eq!(
            ListenEnding::of(&[malformed, ListenEvent::Ended], false),
            ListenEnding::Graceful
        );
    }
}
