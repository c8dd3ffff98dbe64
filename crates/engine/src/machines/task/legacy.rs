//! A 2025-11-25 task. Its `tasks/get` says only the state; `tasks/result` waits for the
//! outcome, and while it waits its stream carries the task's own requests to the client (an
//! elicitation, marked with the task in `_meta`), each answered by a JSON-RPC response of
//! its own. The client calls `tasks/result` when the task asks for input and once it has
//! ended (2025-11-25 tasks, "Input Required Status" and "Result Retrieval").

use std::collections::BTreeMap;

use rmcp::model::{CallToolResult, ErrorCode, ErrorData, InputRequest, Task, TaskStatus};
use serde_json::{Value, json};

use super::{ClientEnding, TaskEvent, TaskTracker};
use crate::builders::answer::InputAnswer;
use crate::builders::client::Client;
use crate::builders::legacy::OutgoingMessage;
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::response::ResponseError;
use crate::vocabulary::events::ServerRequestEvent;
use crate::vocabulary::method::{LegacyCancelTask, LegacyGetTask, TaskResult};

/// The task's `tasks/result`: whether one is open, and what its stream asked.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Fetch {
    pub(crate) open: bool,
    /// Not before this local time (a fetch that got no answer is tried again later).
    pub(crate) not_before_ms: u64,
    /// The server's requests on the open stream, keyed by their JSON-RPC id.
    pub(crate) asked: BTreeMap<String, ServerRequestEvent>,
}

/// How a `tasks/result` ended.
#[derive(Debug)]
pub enum Fetched<'a> {
    /// The task's result (what its `tools/call` would have answered), and as received.
    Result(CallToolResult, &'a Value),
    /// The server answered with an error.
    Refused(&'a ResponseError),
    /// No answer came (the stream broke, the network): asked again later.
    Unanswered,
}

impl TaskTracker {
    /// Start tracking the task a 2025-11-25 `tools/call` created.
    pub fn from_legacy_created(created: &rmcp::model::CreateTaskResult, now_ms: u64) -> Self {
        let mut tracker = Self::from_created(created, now_ms);
        tracker.legacy = true;
        tracker
    }

    /// Created by a 2025-11-25 server (its own `tasks/get`, `tasks/result`, `tasks/cancel`).
    pub fn is_legacy(&self) -> bool {
        self.legacy
    }

    /// The 2025-11-25 `tasks/get` to send now; schedules the one after it.
    pub fn poll_legacy(
        &mut self,
        client: &mut Client,
        now_ms: u64,
    ) -> OutgoingRequest<LegacyGetTask> {
        self.next_poll_at_ms = self.poll_after(now_ms, self.poll_interval());
        client.get_legacy_task(&self.task_id)
    }

    /// The 2025-11-25 `tasks/cancel`; like 2026-07-28's, only a request.
    pub fn cancel_legacy(&mut self, client: &mut Client) -> OutgoingRequest<LegacyCancelTask> {
        self.cancel_requested = true;
        client.cancel_legacy_task(&self.task_id)
    }

    /// Take in a 2025-11-25 snapshot (`tasks/get`, `tasks/cancel`): the state, no outcome.
    pub fn handle_status(&mut self, task: &Task, message: Option<Value>) -> Vec<TaskEvent> {
        let mut events = Vec::new();
        if self.take_task(task, &message, &mut events, false)
            && task.status == TaskStatus::Cancelled
        {
            self.forget_stream();
            events.push(TaskEvent::Cancelled);
        }
        events
    }

    /// When `tasks/result` is due (local clock): while the task asks for input, and once it
    /// has ended until its outcome is in. `None`: not now.
    pub fn fetch_due_at(&self) -> Option<u64> {
        let wanted = matches!(
            self.status,
            TaskStatus::InputRequired | TaskStatus::Completed | TaskStatus::Failed
        );
        (self.legacy && wanted && !self.fetch.open && !self.settled && self.ended.is_none())
            .then_some(self.fetch.not_before_ms)
    }

    /// The `tasks/result` to send now.
    pub fn fetch_result(&mut self, client: &mut Client) -> OutgoingRequest<TaskResult> {
        self.forget_stream();
        self.fetch.open = true;
        client.task_result(&self.task_id)
    }

    /// A request of the server's on the `tasks/result` stream. A kind this client cannot
    /// show is refused with the others' answers (see [`TaskTracker::legacy_answers`]).
    pub fn asked_on_stream(&mut self, asked: ServerRequestEvent) -> Vec<TaskEvent> {
        let key = asked.id.to_string();
        if !self.fetch.open || self.fetch.asked.contains_key(&key) {
            return Vec::new();
        }
        let bare = json!({"method": asked.method, "params": asked.json.get("params")});
        let mut events = Vec::new();
        if let Ok(request) = serde_json::from_value::<InputRequest>(bare) {
            self.input_requests.insert(key.clone(), request);
            self.input_order.push(key.clone());
            self.shown.insert(key.clone());
            events.push(TaskEvent::InputRequested {
                keys: vec![key.clone()],
            });
        }
        self.fetch.asked.insert(key, asked);
        events
    }

    /// Whether the stream asked something this client cannot show: it is refused at once.
    pub fn asks_unshowable(&self) -> bool {
        self.fetch
            .asked
            .keys()
            .any(|key| !self.input_requests.contains_key(key) && !self.answered.contains(key))
    }

    /// One JSON-RPC response per request the stream asked and not yet answered, once each
    /// has a staged answer (what cannot be shown is refused); empty until then.
    pub fn legacy_answers(&mut self, client: &Client) -> Vec<OutgoingMessage> {
        let keys: Vec<String> = self
            .fetch
            .asked
            .keys()
            .filter(|key| !self.answered.contains(*key))
            .cloned()
            .collect();
        let ready = keys
            .iter()
            .all(|key| self.staged.contains_key(key) || !self.input_requests.contains_key(key));
        if !ready || self.is_terminal() {
            return Vec::new();
        }
        let mut messages = Vec::new();
        for key in keys {
            let answer = self.staged.remove(&key).unwrap_or(InputAnswer::Refuse);
            if let Some(asked) = self.fetch.asked.get(&key)
                && let Ok(message) = client.answer_server_request(asked, &answer)
            {
                messages.push(message);
            }
            self.answered.insert(key);
        }
        messages
    }

    /// What became of the `tasks/result`. Its answer comes only once the task has ended:
    /// a result completes it (fails it, with `isError`), an error is its failure, unless
    /// it says the server does not know the task.
    pub fn fetched(&mut self, fetched: Fetched<'_>, now_ms: u64) -> Vec<TaskEvent> {
        self.fetch.open = false;
        self.forget_stream();
        let mut events = Vec::new();
        if self.is_terminal() {
            return events;
        }
        match fetched {
            Fetched::Unanswered => {
                self.fetch.not_before_ms = now_ms.saturating_add(self.poll_interval());
            }
            Fetched::Result(result, raw) => {
                let failed = result.is_error == Some(true);
                self.end_with(
                    if failed {
                        TaskStatus::Failed
                    } else {
                        TaskStatus::Completed
                    },
                    &mut events,
                );
                self.result = Some(result);
                events.push(TaskEvent::Completed {
                    result: raw.as_object().cloned().unwrap_or_default(),
                });
            }
            Fetched::Refused(ResponseError::Rpc { code, message, .. })
                if *code == ErrorCode::INVALID_PARAMS.0 && self.status != TaskStatus::Failed =>
            {
                let ending = ClientEnding::Unknown {
                    message: message.clone(),
                };
                self.ended = Some(ending.clone());
                events.push(TaskEvent::Ended(ending));
            }
            Fetched::Refused(ResponseError::Rpc { error, .. }) => {
                self.end_with(TaskStatus::Failed, &mut events);
                let error: ErrorData = (**error).clone();
                events.push(TaskEvent::Failed {
                    error: serde_json::to_value(&error)
                        .ok()
                        .and_then(|value| value.as_object().cloned())
                        .unwrap_or_default(),
                });
                self.error = Some(error);
            }
            // Not an answer about the task (a refusal of the request itself): asked again
            // after an interval, as after no answer.
            Fetched::Refused(_) => {
                self.fetch.not_before_ms = now_ms.saturating_add(self.poll_interval());
            }
        }
        events
    }

    /// The outcome is in: the task ends with `status` (the one a poll reported, if it had).
    fn end_with(&mut self, status: TaskStatus, events: &mut Vec<TaskEvent>) {
        if !self.status.is_terminal() {
            events.push(TaskEvent::StatusChanged {
                from: self.status,
                to: status,
            });
            self.status = status;
        }
        self.settled = true;
    }

    /// The stream's requests can no longer be answered once it is over; their keys are its
    /// JSON-RPC ids, which a later stream may use again.
    fn forget_stream(&mut self) {
        self.fetch.asked.clear();
        self.clear_input_requests();
        self.answered.clear();
        self.shown.clear();
    }
}
