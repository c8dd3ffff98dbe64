//! The book's `subscriptions/listen` stream for its live tasks, when the server offers pushed
//! snapshots: when to open one (the [`ListenSchedule`]), which tasks its acknowledgement
//! granted (polled slowly from then on), when it must close (the live tasks changed), and
//! how it ended (closed on purpose, or as the server announced), after which polling takes
//! over at once.

use crate::builders::client::Client;
use crate::builders::outgoing::OutgoingRequest;
use crate::machines::listen::ListenEvent;
use crate::machines::listen_schedule::{ListenEnding, ListenSchedule};
use crate::vocabulary::listen_params::ListenFilter;
use crate::vocabulary::method::Listen;

use super::TaskBook;

/// The book's side of listening.
#[derive(Debug, Clone, Default)]
pub(super) struct Listening {
    /// Whether the server offers pushed task snapshots (`None`: not known yet).
    offered: Option<bool>,
    schedule: ListenSchedule,
    stream: Option<Stream>,
}

/// The stream that is open.
#[derive(Debug, Clone, Default)]
struct Stream {
    /// Acknowledged: the server pushes the granted tasks' snapshots.
    acknowledged: bool,
    /// The book wants it closed (the live tasks changed)…
    close_wanted: bool,
    /// … and told the caller so.
    close_told: bool,
    /// The last ending one of its events announced.
    announced: Option<ListenEnding>,
}

impl Listening {
    pub(super) fn reset(&mut self) {
        self.schedule.reset();
    }

    pub(super) fn live_set_changed(&mut self) {
        if let Some(stream) = &mut self.stream {
            stream.close_wanted = true;
        }
    }

    /// The caller has yet to close the stream the book wants closed.
    pub(super) fn must_close(&self) -> bool {
        self.stream
            .as_ref()
            .is_some_and(|stream| stream.close_wanted && !stream.close_told)
    }
}

impl TaskBook {
    /// Whether the server offers pushed task snapshots, as its discovery said (`None`: not
    /// known yet; no stream opens until it is).
    pub fn set_push_offered(&mut self, offered: Option<bool>) {
        if self.listening.offered != offered {
            self.listening.offered = offered;
            self.changes.wake = true;
        }
    }

    /// Whether a listen stream is open and acknowledged.
    pub fn is_pushing(&self) -> bool {
        self.listening
            .stream
            .as_ref()
            .is_some_and(|stream| stream.acknowledged)
    }

    /// When the next stream may open, if one should: the server offers it, there are live
    /// tasks, none is open, and the server has not refused listening.
    pub(super) fn listen_open_at(&self) -> Option<u64> {
        let wanted = self.listening.offered == Some(true)
            && !self.live_ids.is_empty()
            && self.listening.stream.is_none();
        wanted
            .then(|| self.listening.schedule.next_open_at())
            .flatten()
    }

    /// The `subscriptions/listen` to open now for the live tasks, if it is time; the caller
    /// feeds its events to [`TaskBook::handle_listen`] and says when it ends
    /// ([`TaskBook::listen_ended`]).
    pub fn poll_listen(
        &mut self,
        now_ms: u64,
        client: &mut Client,
    ) -> Option<OutgoingRequest<Listen>> {
        let at = self.listen_open_at()?;
        if at > now_ms {
            return None;
        }
        self.listening.stream = Some(Stream::default());
        Some(client.listen(ListenFilter::tasks(self.live_ids.clone())))
    }

    /// Whether the caller must close the open stream now (once): the live tasks changed, and
    /// a stream for the new set opens after it.
    pub fn poll_listen_close(&mut self) -> bool {
        let must = self.listening.must_close();
        if let Some(stream) = self.listening.stream.as_mut().filter(|_| must) {
            stream.close_told = true;
        }
        must
    }

    /// An event of the open stream.
    pub fn handle_listen(&mut self, event: ListenEvent, now_ms: u64) {
        if let Some(ending) = ListenEnding::announced_by(&event)
            && let Some(stream) = &mut self.listening.stream
        {
            stream.announced = Some(ending);
        }
        match event {
            ListenEvent::Acknowledged { filter } => {
                self.listening.schedule.acknowledged();
                if let Some(stream) = &mut self.listening.stream {
                    stream.acknowledged = true;
                }
                let granted = filter.task_ids.unwrap_or_default();
                for task_id in granted {
                    self.modify(&task_id, |task| {
                        if !task.tracker().is_terminal() {
                            task.tracker_mut().set_pushed(true, now_ms);
                        }
                    });
                }
                self.changes.pushing = true;
            }
            ListenEvent::TaskSnapshot { task, message } => {
                let task_id = task.task.task_id.clone();
                self.take_snapshot(&task_id, &task, Some(message), now_ms, true);
            }
            // The stream's findings arrive with its decoded events (the caller's link keeps
            // them); the other notifications are not the book's.
            ListenEvent::Finding(_)
            | ListenEvent::Ended
            | ListenEvent::Dropped
            | ListenEvent::Failed(_)
            | ListenEvent::ToolsListChanged
            | ListenEvent::PromptsListChanged
            | ListenEvent::ResourcesListChanged
            | ListenEvent::ResourceUpdated { .. } => {}
        }
    }

    /// The open stream ended (closed, dropped or refused): polling takes over at once, at
    /// each task's interval, and the schedule says when the next stream may open.
    pub fn listen_ended(&mut self, now_ms: u64) {
        let Some(stream) = self.listening.stream.take() else {
            return;
        };
        let ending = if stream.close_wanted {
            ListenEnding::ClosedByClient
        } else {
            stream.announced.unwrap_or(ListenEnding::Broken)
        };
        self.listening.schedule.ended(ending, now_ms);
        let pushed: Vec<String> = self
            .tasks
            .iter()
            .filter(|task| task.tracker().pushed)
            .map(|task| task.id().to_owned())
            .collect();
        for task_id in pushed {
            self.modify(&task_id, |task| {
                task.tracker_mut().set_pushed(false, now_ms)
            });
        }
        self.changes.pushing |= stream.acknowledged;
        self.changes.wake = true;
    }
}
