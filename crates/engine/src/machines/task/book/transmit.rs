//! What the book sends and when: `tasks/get` polls as they fall due (a few in flight at a
//! time), the `tasks/update` and `tasks/cancel` the user asked for, and what their replies
//! mean for each task.

use rmcp::model::DetailedTask;
use serde_json::Value;

use super::{PollProblem, TaskBook};
use crate::builders::client::Client;
use crate::builders::legacy::OutgoingMessage;
use crate::builders::outgoing::OutgoingRequest;
use crate::machines::task::{ClientEnding, MAX_POLLS_IN_FLIGHT, TaskEvent, due_polls};
use crate::readers::response::ResponseError;
use crate::vocabulary::method::{
    CancelTask, GetTask, LegacyCancelTask, LegacyGetTask, TaskResult, UpdateTask,
};

/// Which request went out for a task, to say what became of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransmitKind {
    Poll,
    /// The answers to every outstanding input request, together.
    Update,
    /// The user asked to cancel.
    Cancel,
    /// The client refused to follow the task (a snapshot over its bounds): the server is
    /// asked, once, to stop it.
    CancelRefused,
}

/// A request the caller must send, then report back (see [`TaskBook::handle_sent`] and the
/// poll handlers).
#[derive(Debug)]
pub enum TaskTransmit {
    Poll {
        task_id: String,
        request: OutgoingRequest<GetTask>,
    },
    Update {
        task_id: String,
        request: OutgoingRequest<UpdateTask>,
    },
    Cancel {
        task_id: String,
        kind: TransmitKind,
        request: OutgoingRequest<CancelTask>,
    },
    /// 2025-11-25's `tasks/get` (report with [`TaskBook::handle_status_poll`]).
    LegacyPoll {
        task_id: String,
        request: OutgoingRequest<LegacyGetTask>,
    },
    /// 2025-11-25's `tasks/cancel` (report with [`TaskBook::handle_sent`]).
    LegacyCancel {
        task_id: String,
        kind: TransmitKind,
        request: OutgoingRequest<LegacyCancelTask>,
    },
    /// 2025-11-25's `tasks/result`: hand its stream's requests to
    /// [`TaskBook::handle_fetch_ask`] as they come, and its end to [`TaskBook::handle_fetched`].
    Fetch {
        task_id: String,
        request: OutgoingRequest<TaskResult>,
    },
    /// 2025-11-25: the answers to the requests a `tasks/result` stream carried, each POSTed
    /// on its own (report with [`TaskBook::handle_sent`], kind `Update`).
    Answers {
        task_id: String,
        messages: Vec<OutgoingMessage>,
    },
}

impl TaskBook {
    /// The next request to send at `now_ms`, built with `client`: first what the user asked
    /// for, then the polls due, most overdue first, at most `polls_allowed` of them (the
    /// caller's pace) and never more than [`MAX_POLLS_IN_FLIGHT`] in flight. `None`: nothing
    /// more now (see [`TaskBook::poll_timeout`]).
    pub fn poll_transmit(
        &mut self,
        now_ms: u64,
        client: &mut Client,
        polls_allowed: usize,
    ) -> Option<TaskTransmit> {
        while let Some(queued) = self.queued.pop_front() {
            if let Some(transmit) = self.build(queued.kind, &queued.task_id, client) {
                return Some(transmit);
            }
        }
        if let Some(fetch) = self.fetch_transmit(now_ms, client) {
            return Some(fetch);
        }
        if polls_allowed == 0 || self.in_flight.len() >= MAX_POLLS_IN_FLIGHT {
            return None;
        }
        let due = due_polls(
            self.tasks.iter().map(|task| task.tracker()),
            |id| self.in_flight.contains(id),
            now_ms,
            1,
        );
        let task_id = due.due.into_iter().next()?;
        let owned = task_id.clone();
        let transmit = self.modify(&task_id, |task| {
            let tracker = task.tracker_mut();
            if tracker.is_legacy() {
                let request = tracker.poll_legacy(client, now_ms);
                TaskTransmit::LegacyPoll {
                    task_id: owned,
                    request,
                }
            } else {
                let request = tracker.poll(client, now_ms);
                TaskTransmit::Poll {
                    task_id: owned,
                    request,
                }
            }
        })?;
        self.in_flight.insert(task_id);
        Some(transmit)
    }

    fn build(
        &mut self,
        kind: TransmitKind,
        task_id: &str,
        client: &mut Client,
    ) -> Option<TaskTransmit> {
        let owned = task_id.to_owned();
        let legacy = self
            .task(task_id)
            .is_some_and(|task| task.tracker().is_legacy());
        if legacy {
            return self.build_legacy(kind, task_id, client);
        }
        match kind {
            TransmitKind::Update => self
                .modify(task_id, |task| task.tracker_mut().update(client))
                .flatten()
                .map(|request| TaskTransmit::Update {
                    task_id: owned,
                    request,
                }),
            TransmitKind::Cancel => self
                .modify(task_id, |task| {
                    (!task.tracker().is_terminal()).then(|| task.tracker_mut().cancel(client))
                })
                .flatten()
                .map(|request| TaskTransmit::Cancel {
                    task_id: owned,
                    kind,
                    request,
                }),
            TransmitKind::CancelRefused => self
                .modify(task_id, |task| {
                    let request = task.tracker_mut().cancel_refused(client)?;
                    task.set_note(Some(
                        "Refused; sending tasks/cancel so the server stops it…".into(),
                    ));
                    Some(request)
                })
                .flatten()
                .map(|request| TaskTransmit::Cancel {
                    task_id: owned,
                    kind,
                    request,
                }),
            TransmitKind::Poll => None,
        }
    }

    /// When to look again (local clock): the earliest poll due among the tasks not in flight,
    /// the next listen stream, or now when a request waits. A time at or before now means
    /// polls are due that the caller's pace held back. `None`: nothing is scheduled.
    pub fn poll_timeout(&self, now_ms: u64) -> Option<u64> {
        if !self.queued.is_empty() || self.listening.must_close() {
            return Some(now_ms);
        }
        let polls = (self.in_flight.len() < MAX_POLLS_IN_FLIGHT)
            .then(|| {
                self.tasks
                    .iter()
                    .filter(|task| !self.in_flight.contains(task.id()))
                    .filter_map(|task| task.tracker().next_poll_at())
                    .min()
            })
            .flatten();
        let listen = self.listen_open_at();
        [polls, listen, self.fetch_due_at()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Polls a second that following every task at its interval takes (the rate a pace must
    /// not hold the polls below).
    pub fn steady_per_second(&self) -> f64 {
        due_polls(self.tasks.iter().map(|task| task.tracker()), |_| true, 0, 0).steady_per_second
    }

    /// A `tasks/get` answered with a snapshot (and the raw result, for findings).
    pub fn handle_poll_snapshot(
        &mut self,
        task_id: &str,
        snapshot: &DetailedTask,
        message: Option<Value>,
        now_ms: u64,
    ) {
        self.in_flight.remove(task_id);
        self.changes.wake = true;
        self.take_snapshot(task_id, snapshot, message, now_ms, false);
    }

    /// A snapshot from a poll or a listen stream.
    pub(super) fn take_snapshot(
        &mut self,
        task_id: &str,
        snapshot: &DetailedTask,
        message: Option<Value>,
        now_ms: u64,
        pushed: bool,
    ) {
        let events = self
            .modify(task_id, |task| {
                task.snapshot_seen(now_ms, pushed);
                task.tracker_mut().handle_snapshot(snapshot, message)
            })
            .unwrap_or_default();
        self.note_events(events);
    }

    /// A `tasks/get` failed: `refusal` is the server's error reply, if it answered one
    /// (`None`: no answer at all); `problem` says so on the task while it is retried.
    pub fn handle_poll_failure(
        &mut self,
        task_id: &str,
        refusal: Option<&ResponseError>,
        problem: PollProblem,
        now_ms: u64,
    ) {
        self.in_flight.remove(task_id);
        self.changes.wake = true;
        let events = self
            .modify(task_id, |task| {
                let events = match refusal {
                    Some(refused) => task.tracker_mut().poll_refused(refused, now_ms),
                    None => {
                        task.tracker_mut().poll_failed(now_ms);
                        Vec::new()
                    }
                };
                // An ending says why on its own; a failure to retry says it here.
                let retried = !task.tracker().is_terminal();
                task.set_poll_problem(retried.then_some(problem));
                events
            })
            .unwrap_or_default();
        let refused = events
            .iter()
            .any(|event| matches!(event, TaskEvent::Ended(ClientEnding::Refused { .. })));
        self.note_events(events);
        if refused {
            self.queue(TransmitKind::CancelRefused, task_id);
        }
    }

    /// What became of a `tasks/update` or `tasks/cancel` sent for `task_id` (`Err`: why it
    /// failed); the task says so.
    pub fn handle_sent(&mut self, kind: TransmitKind, task_id: &str, outcome: Result<(), String>) {
        let legacy = self
            .task(task_id)
            .is_some_and(|task| task.tracker().is_legacy());
        let note = match (kind, outcome) {
            (TransmitKind::Poll, _) | (TransmitKind::Update, Ok(())) => None,
            (TransmitKind::Update, Err(error)) if legacy => Some(format!(
                "The answer to the server's request could not be sent: {error}"
            )),
            (TransmitKind::Update, Err(error)) => Some(format!("tasks/update failed: {error}")),
            (TransmitKind::Cancel, Ok(())) => Some(
                "Cancel requested and acknowledged; the task ends however the server reports \
                 it next."
                    .to_owned(),
            ),
            (TransmitKind::Cancel, Err(error)) => Some(format!("tasks/cancel failed: {error}")),
            (TransmitKind::CancelRefused, Ok(())) => Some(
                "Refused; tasks/cancel was sent and acknowledged, so the server should stop it."
                    .to_owned(),
            ),
            (TransmitKind::CancelRefused, Err(error)) => {
                Some(format!("Refused; tasks/cancel failed: {error}"))
            }
        };
        self.modify(task_id, |task| task.set_note(note));
    }

    /// Say on the task why a request the user asked for could not go out.
    pub fn note_unsent(&mut self, task_id: &str, why: String) {
        self.modify(task_id, |task| task.set_note(Some(why)));
    }
}
