//! Tracking one task of the tasks extension: its state, when to poll, the input it asks
//! for, and how it ends. Serializable, so the app can persist it and resume after a reload.

use std::collections::{BTreeMap, BTreeSet};

use rmcp::model::{
    CallToolResult, CreateTaskResult, DetailedTask, ErrorData, InputRequests, InputResponses,
    JsonObject, Task, TaskPayload, TaskStatus,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::builders::answer::{AnswerError, InputAnswer};
use crate::builders::client::Client;
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::input_asks::{received_input_requests, server_order};
use crate::vocabulary::events::{InputAsk, InputRequestKind};
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::method::{CancelTask, GetTask, UpdateTask};

mod book;
mod following;
mod legacy;
mod outcome;
mod polls;

pub use book::{
    PollProblem, SaveNeeded, SnapshotSeen, TaskBook, TaskChanges, TaskTransmit, TrackedTask,
    TransmitKind,
};
pub use following::Following;
pub use legacy::Fetched;
pub use polls::{DuePolls, MAX_POLLS_IN_FLIGHT, due_polls};

/// Polls never come faster than this, whatever the server asks.
pub const MIN_POLL_MS: u64 = 250;
/// Polls never wait longer than this, whatever the server asks.
pub const MAX_POLL_MS: u64 = 60_000;
/// When the server gives no `pollIntervalMs`.
pub const DEFAULT_POLL_MS: u64 = 1_000;

/// What changed when the tracker took in a snapshot.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskEvent {
    StatusChanged {
        from: TaskStatus,
        to: TaskStatus,
    },
    /// New keys to answer (never a key already answered or shown), in the server's order.
    InputRequested {
        keys: Vec<String>,
    },
    Completed {
        result: JsonObject,
    },
    Failed {
        error: JsonObject,
    },
    Cancelled,
    /// The client stopped following the task (see [`ClientEnding`]).
    Ended(ClientEnding),
    Finding(Finding),
}

/// How the client ended a task the server can no longer report on. The wire has no status
/// for these; the client names them ([`TaskTracker::status_name`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ClientEnding {
    /// Past `createdAt + ttlMs`, `tasks/get` answered `-32602`: the server forgot it, as
    /// the tasks extension allows once the TTL has passed.
    Expired,
    /// `tasks/get` answered `-32602` before the TTL passed: the server no longer knows the
    /// task (purged early, or restarted without it).
    Unknown { message: String },
    /// `tasks/get` answered with another task's snapshot, so this task's state cannot be
    /// known from it.
    Mismatched { reported: String },
    /// A snapshot went over one of the client's bounds (thousands of inputs asked at once):
    /// the client stopped following the task and asks the server to cancel it.
    Refused { reason: String },
}

impl ClientEnding {
    /// The name the task's row shows instead of a wire status.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Expired => "expired",
            Self::Unknown { .. } => "unknown",
            Self::Mismatched { .. } => "mismatched",
            Self::Refused { .. } => "refused",
        }
    }

    /// One line for the task's row.
    pub fn explanation(&self) -> String {
        match self {
            Self::Expired => "Expired: its TTL passed and the server no longer knows it \
                              (tasks/get answered -32602). Polling stopped."
                .to_owned(),
            Self::Unknown { message } => format!(
                "The server no longer knows this task, before its TTL passed (tasks/get \
                 answered -32602: {message}). Polling stopped."
            ),
            Self::Mismatched { reported } => format!(
                "tasks/get for this task answered with a snapshot of task {reported:?}: its \
                 state cannot be known. Polling stopped."
            ),
            Self::Refused { reason } => {
                format!(
                    "Refused: {reason}. Polling stopped; tasks/cancel asks the server to stop it."
                )
            }
        }
    }
}

/// Misuse of the tracker by the caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    #[error("the task is not asking for {key:?} (answer with the keys of the latest tasks/get)")]
    UnknownKey { key: String },
    #[error("{key:?} was already answered; a key is never answered twice")]
    AlreadyAnswered { key: String },
    #[error("the task has ended ({status:?})")]
    Ended { status: TaskStatus },
    #[error(transparent)]
    Answer(#[from] AnswerError),
}

/// The client's record of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskTracker {
    pub(crate) task_id: String,
    pub(crate) status: TaskStatus,
    pub(crate) status_message: Option<String>,
    pub(crate) created_at: String,
    pub(crate) last_updated_at: String,
    /// From creation; `None` means unlimited.
    pub(crate) ttl_ms: Option<u64>,
    pub(crate) poll_interval_ms: Option<u64>,
    /// Local clock when the task was created here (TTL is counted from it).
    pub(crate) created_locally_at_ms: u64,
    /// When the next `tasks/get` is due (local clock).
    pub(crate) next_poll_at_ms: u64,
    /// Transport failures in a row, for backoff.
    pub(crate) consecutive_failures: u32,
    /// The latest snapshot's outstanding requests, keyed exactly as the server sent them.
    pub(crate) input_requests: InputRequests,
    /// The keys of `input_requests` in the order the server wrote them.
    #[serde(default)]
    pub(crate) input_order: Vec<String>,
    /// The user's answers, held until every outstanding key has one: then they all go in
    /// one `tasks/update` (answering one key at a time makes the server ask again for the
    /// others).
    #[serde(default)]
    pub(crate) staged: BTreeMap<String, InputAnswer>,
    /// Keys answered and sent, or shown already: never answered or shown again.
    pub(crate) answered: BTreeSet<String>,
    pub(crate) shown: BTreeSet<String>,
    /// A completed task's result, read as the tool call's result.
    #[serde(default, deserialize_with = "outcome::lenient")]
    pub(crate) result: Option<CallToolResult>,
    /// A failed task's JSON-RPC error.
    #[serde(default, deserialize_with = "outcome::lenient")]
    pub(crate) error: Option<ErrorData>,
    /// The terminal snapshot's result or error could not be read (the finding says why).
    #[serde(default)]
    pub(crate) unreadable_outcome: Option<String>,
    pub(crate) cancel_requested: bool,
    /// A listen stream pushes this task's snapshots; polling only as a slow safety net.
    #[serde(default)]
    pub(crate) pushed: bool,
    /// The terminal snapshot (with its result or error) has been taken in. A task created
    /// already `completed` or `failed` still needs one `tasks/get` to fetch its outcome.
    #[serde(default)]
    pub(crate) settled: bool,
    /// The client stopped following the task without a terminal status from the server.
    #[serde(default)]
    pub(crate) ended: Option<ClientEnding>,
    /// Created by a 2025-11-25 server: polled with its own `tasks/get`, its outcome fetched
    /// with `tasks/result`, its input asked on that request's stream.
    #[serde(default)]
    pub(crate) legacy: bool,
    /// 2025-11-25: what the open `tasks/result` stream has asked, not stored (the stream
    /// ends with the page).
    #[serde(skip)]
    pub(crate) fetch: legacy::Fetch,
}

/// What a followed task is now, read-only: the book alone changes it.
impl TaskTracker {
    pub fn task_id(&self) -> &str {
        &self.task_id
    }

    pub fn status(&self) -> TaskStatus {
        self.status
    }

    pub fn status_message(&self) -> Option<&str> {
        self.status_message.as_deref()
    }

    pub fn created_at(&self) -> &str {
        &self.created_at
    }

    pub fn last_updated_at(&self) -> &str {
        &self.last_updated_at
    }

    pub fn ttl_ms(&self) -> Option<u64> {
        self.ttl_ms
    }

    pub fn poll_interval_ms(&self) -> Option<u64> {
        self.poll_interval_ms
    }

    pub fn created_locally_at_ms(&self) -> u64 {
        self.created_locally_at_ms
    }

    pub fn next_poll_at_ms(&self) -> u64 {
        self.next_poll_at_ms
    }

    pub fn result(&self) -> Option<&CallToolResult> {
        self.result.as_ref()
    }

    pub fn error(&self) -> Option<&ErrorData> {
        self.error.as_ref()
    }

    pub fn unreadable_outcome(&self) -> Option<&str> {
        self.unreadable_outcome.as_deref()
    }

    pub fn cancel_requested(&self) -> bool {
        self.cancel_requested
    }

    pub fn pushed(&self) -> bool {
        self.pushed
    }

    pub fn settled(&self) -> bool {
        self.settled
    }

    pub fn ended(&self) -> Option<ClientEnding> {
        self.ended.clone()
    }

    pub fn answered(&self) -> &BTreeSet<String> {
        &self.answered
    }

    pub fn input_requests(&self) -> &InputRequests {
        &self.input_requests
    }
}

impl TaskTracker {
    /// Start tracking the task a `tools/call` created.
    pub fn from_created(created: &CreateTaskResult, now_ms: u64) -> Self {
        let task = &created.task;
        let mut tracker = Self {
            task_id: task.task_id.clone(),
            status: task.status,
            status_message: task.status_message.clone(),
            created_at: task.created_at.clone(),
            last_updated_at: task.last_updated_at.clone(),
            ttl_ms: task.ttl_ms,
            poll_interval_ms: task.poll_interval_ms,
            created_locally_at_ms: now_ms,
            next_poll_at_ms: now_ms,
            consecutive_failures: 0,
            input_requests: InputRequests::new(),
            input_order: Vec::new(),
            staged: BTreeMap::new(),
            answered: BTreeSet::new(),
            shown: BTreeSet::new(),
            result: None,
            error: None,
            unreadable_outcome: None,
            cancel_requested: false,
            pushed: false,
            // A cancelled task has nothing left to fetch.
            settled: task.status == TaskStatus::Cancelled,
            ended: None,
            legacy: false,
            fetch: legacy::Fetch::default(),
        };
        tracker.next_poll_at_ms = now_ms.saturating_add(tracker.poll_interval());
        tracker
    }

    /// The server's interval, clamped to [`MIN_POLL_MS`, `MAX_POLL_MS`] (the maximum while a
    /// listen stream pushes the task's snapshots).
    pub fn poll_interval(&self) -> u64 {
        if self.pushed {
            return MAX_POLL_MS;
        }
        self.poll_interval_ms
            .unwrap_or(DEFAULT_POLL_MS)
            .clamp(MIN_POLL_MS, MAX_POLL_MS)
    }

    /// Ended, and its outcome known (or ended by the client): nothing more will change or
    /// be polled.
    pub fn is_terminal(&self) -> bool {
        self.ended.is_some() || (self.status.is_terminal() && self.settled)
    }

    /// The status the task shows: the wire's, or the client's ending.
    pub fn status_name(&self) -> &'static str {
        self.ended.as_ref().map_or_else(
            || crate::vocabulary::protocol::task_status_name(self.status),
            ClientEnding::name,
        )
    }

    /// `tasks/get` failed with `error`: a `-32602` means the server does not know the task
    /// (expired past its TTL, or unknown before it) and ends it; anything else backs off
    /// and polls again.
    pub fn poll_refused(
        &mut self,
        error: &crate::readers::response::ResponseError,
        now_ms: u64,
    ) -> Vec<TaskEvent> {
        match error {
            // The same snapshot would come back on every poll: stop following it.
            over if over.is_over_bound() && !self.is_terminal() => {
                let ending = ClientEnding::Refused {
                    reason: over.to_string(),
                };
                self.clear_input_requests();
                self.ended = Some(ending.clone());
                vec![TaskEvent::Ended(ending)]
            }
            crate::readers::response::ResponseError::Rpc { code, message, .. }
                if *code == rmcp::model::ErrorCode::INVALID_PARAMS.0 && !self.is_terminal() =>
            {
                let ending = if self.is_expired(now_ms) {
                    ClientEnding::Expired
                } else {
                    ClientEnding::Unknown {
                        message: message.clone(),
                    }
                };
                self.clear_input_requests();
                self.ended = Some(ending.clone());
                vec![TaskEvent::Ended(ending)]
            }
            _ => {
                self.poll_failed(now_ms);
                Vec::new()
            }
        }
    }

    /// Past `createdAt + ttlMs` without resolution: the server may have purged it.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        !self.is_terminal() && self.expires_at().is_some_and(|at| now_ms >= at)
    }

    /// When to poll next, or `None` when polling is over.
    pub fn next_poll_at(&self) -> Option<u64> {
        (!self.is_terminal()).then_some(self.next_poll_at_ms)
    }

    pub fn is_poll_due(&self, now_ms: u64) -> bool {
        self.next_poll_at().is_some_and(|at| now_ms >= at)
    }

    /// The `tasks/get` to send now; schedules the one after it.
    pub fn poll(&mut self, client: &mut Client, now_ms: u64) -> OutgoingRequest<GetTask> {
        self.next_poll_at_ms = self.poll_after(now_ms, self.poll_interval());
        client.get_task(&self.task_id)
    }

    /// When the TTL runs out (local clock), if the task has one.
    pub fn expires_at(&self) -> Option<u64> {
        self.ttl_ms
            .map(|ttl| self.created_locally_at_ms.saturating_add(ttl))
    }

    /// `wait` after `now_ms`, but no later than the moment the TTL runs out: a task whose
    /// polls are slow (a listen stream pushes it) is asked once then, and a server that
    /// has forgotten it says so (see [`TaskTracker::poll_refused`]).
    fn poll_after(&self, now_ms: u64, wait: u64) -> u64 {
        let next = now_ms.saturating_add(wait);
        match self.expires_at() {
            Some(at) if at > now_ms => next.min(at),
            _ => next,
        }
    }

    /// A listen stream now covers this task (`true`), or it dropped (`false`): polling falls
    /// back to the server's interval at once.
    pub fn set_pushed(&mut self, pushed: bool, now_ms: u64) {
        self.pushed = pushed;
        self.next_poll_at_ms = if pushed {
            self.poll_after(now_ms, MAX_POLL_MS)
        } else {
            now_ms
        };
    }

    /// A poll failed in transport: back off (doubling, capped at [`MAX_POLL_MS`]).
    pub fn poll_failed(&mut self, now_ms: u64) {
        self.consecutive_failures = self.consecutive_failures.saturating_add(1);
        let factor = 1u64 << self.consecutive_failures.min(8);
        let wait = self.poll_interval().saturating_mul(factor).min(MAX_POLL_MS);
        self.next_poll_at_ms = now_ms.saturating_add(wait);
    }

    /// Take in a snapshot (a `tasks/get` result or a `notifications/tasks`).
    pub fn handle_snapshot(
        &mut self,
        snapshot: &DetailedTask,
        message: Option<Value>,
    ) -> Vec<TaskEvent> {
        let mut events = Vec::new();
        let task = &snapshot.task;
        if !self.take_task(task, &message, &mut events, true) {
            return events;
        }
        let raw_requests = message.as_ref().and_then(received_input_requests);
        match &snapshot.payload {
            TaskPayload::InputRequired { input_requests } => {
                self.input_requests = input_requests.clone();
                self.input_order = server_order(input_requests, raw_requests);
                // An answer staged for a key the server no longer asks is moot.
                self.staged
                    .retain(|key, _| input_requests.contains_key(key));
                let fresh: Vec<String> = self
                    .input_order
                    .iter()
                    .filter(|key| !self.answered.contains(*key) && !self.shown.contains(*key))
                    .cloned()
                    .collect();
                self.shown.extend(fresh.iter().cloned());
                if !fresh.is_empty() {
                    events.push(TaskEvent::InputRequested { keys: fresh });
                }
            }
            TaskPayload::Completed { result } => {
                self.clear_input_requests();
                match outcome::read_result(result, &self.task_id, message.clone()) {
                    Ok(read) => self.result = Some(read),
                    Err(finding) => self.unreadable(finding, &mut events),
                }
                events.push(TaskEvent::Completed {
                    result: result.clone(),
                });
            }
            TaskPayload::Failed { error } => {
                self.clear_input_requests();
                match outcome::read_error(error, &self.task_id, message.clone()) {
                    Ok(read) => self.error = Some(read),
                    Err(finding) => self.unreadable(finding, &mut events),
                }
                events.push(TaskEvent::Failed {
                    error: error.clone(),
                });
            }
            TaskPayload::Cancelled => {
                self.clear_input_requests();
                events.push(TaskEvent::Cancelled);
            }
            _ => self.clear_input_requests(),
        }
        events
    }

    /// What every snapshot says of the task, in either era: its status, message, TTL and
    /// interval. `false` when the rest of the snapshot is not for this task to read (another
    /// task's, or a task already ended). `outcome_inline`: a terminal snapshot carries the
    /// outcome (2026-07-28); in 2025-11-25 `tasks/result` fetches it.
    fn take_task(
        &mut self,
        task: &Task,
        message: &Option<Value>,
        events: &mut Vec<TaskEvent>,
        outcome_inline: bool,
    ) -> bool {
        if task.task_id != self.task_id {
            events.push(TaskEvent::Finding(Finding::new(
                Rule::TaskMismatch,
                format!(
                    "a snapshot for task {:?} arrived for task {:?}",
                    task.task_id, self.task_id
                ),
                message.clone(),
            )));
            if !self.is_terminal() {
                let ending = ClientEnding::Mismatched {
                    reported: task.task_id.clone(),
                };
                self.clear_input_requests();
                self.ended = Some(ending.clone());
                events.push(TaskEvent::Ended(ending));
            }
            return false;
        }
        self.consecutive_failures = 0;
        // Ended but its outcome not yet taken in: a snapshot must agree on the status.
        let unsettled_terminal = self.status.is_terminal() && !self.settled;
        if self.is_terminal() || (unsettled_terminal && task.status != self.status) {
            // Inline, the disagreeing snapshot settles it; fetched, the fetch still does.
            self.settled |= outcome_inline;
            if task.status != self.status {
                events.push(TaskEvent::Finding(Finding::new(
                    Rule::TerminalTaskChanged,
                    format!(
                        "task {} was {:?} and then reported {:?}; kept {:?}",
                        self.task_id, self.status, task.status, self.status
                    ),
                    message.clone(),
                )));
            }
            return false;
        }
        self.settled = if outcome_inline {
            task.status.is_terminal()
        } else {
            task.status == TaskStatus::Cancelled
        };
        if task.status != self.status {
            events.push(TaskEvent::StatusChanged {
                from: self.status,
                to: task.status,
            });
        }
        self.status = task.status;
        self.status_message = task.status_message.clone();
        self.last_updated_at = task.last_updated_at.clone();
        self.ttl_ms = task.ttl_ms;
        if task.poll_interval_ms.is_some() {
            self.poll_interval_ms = task.poll_interval_ms;
        }
        true
    }

    /// The terminal snapshot's outcome is not its wire type: say so, on the row and as a
    /// finding.
    fn unreadable(&mut self, finding: Finding, events: &mut Vec<TaskEvent>) {
        self.unreadable_outcome = Some(finding.explanation.clone());
        events.push(TaskEvent::Finding(finding));
    }

    /// The snapshot asks nothing: nothing is outstanding, and nothing staged can be sent.
    fn clear_input_requests(&mut self) {
        self.input_requests.clear();
        self.input_order.clear();
        self.staged.clear();
    }

    /// The keys of the latest snapshot not yet answered (staged ones included), keyed as
    /// the server sent them and in its order.
    pub fn outstanding(&self) -> Vec<String> {
        self.ordered_keys()
            .filter(|key| !self.answered.contains(*key))
            .cloned()
            .collect()
    }

    /// Whether the latest snapshot asks for input not answered yet (cheap: nothing copied).
    pub fn is_asking(&self) -> bool {
        self.ordered_keys().any(|key| !self.answered.contains(key))
    }

    /// What to show the user: the latest snapshot's requests not yet answered (staged ones
    /// included, see [`TaskTracker::staged`]), typed by kind, in the server's order.
    pub fn outstanding_asks(&self) -> Vec<InputAsk> {
        self.outstanding()
            .iter()
            .filter_map(|key| InputAsk::of_key(&self.input_requests, key, None))
            .collect()
    }

    /// How many outstanding keys still have no staged answer: the `tasks/update` goes out
    /// when this reaches 0.
    pub fn awaiting(&self) -> usize {
        self.ordered_keys()
            .filter(|key| !self.answered.contains(*key) && !self.staged.contains_key(*key))
            .count()
    }

    /// The answer staged for `key`, not sent yet.
    pub fn staged(&self, key: &str) -> Option<&InputAnswer> {
        self.staged.get(key)
    }

    /// Take back the answer staged for `key` (the user changed their mind before sending).
    pub fn unstage(&mut self, key: &str) -> Option<InputAnswer> {
        self.staged.remove(key)
    }

    /// Stage the answer to one outstanding key; the engine checks it fits the kind asked. A
    /// staged answer may be replaced until it is sent with [`TaskTracker::update`].
    pub fn answer(&mut self, key: &str, answer: InputAnswer) -> Result<(), TaskError> {
        if self.is_terminal() {
            return Err(TaskError::Ended {
                status: self.status,
            });
        }
        if self.answered.contains(key) {
            return Err(TaskError::AlreadyAnswered {
                key: key.to_owned(),
            });
        }
        let Some(request) = self.input_requests.get(key) else {
            return Err(TaskError::UnknownKey {
                key: key.to_owned(),
            });
        };
        answer.to_response(&InputRequestKind::of(request))?;
        self.staged.insert(key.to_owned(), answer);
        Ok(())
    }

    /// The one `tasks/update` carrying an answer for every outstanding key, once each has a
    /// staged answer; `None` until then (and when nothing is outstanding). The keys count
    /// as answered from here on.
    pub fn update(&mut self, client: &mut Client) -> Option<OutgoingRequest<UpdateTask>> {
        let keys = self.outstanding();
        if keys.is_empty() || self.awaiting() > 0 || self.is_terminal() {
            return None;
        }
        let mut responses = InputResponses::new();
        for key in &keys {
            let request = self.input_requests.get(key)?;
            let answer = self.staged.get(key)?;
            // Checked when staged; the kind under a key never changes (§9.5).
            let response = answer.to_response(&InputRequestKind::of(request)).ok()?;
            responses.insert(key.clone(), response);
        }
        for key in &keys {
            self.staged.remove(key);
        }
        self.answered.extend(keys);
        Some(client.update_task(&self.task_id, responses))
    }

    /// The keys of `input_requests`, in the server's order when it is known.
    fn ordered_keys(&self) -> impl Iterator<Item = &String> {
        let ordered = self.input_order.len() == self.input_requests.len()
            && self
                .input_order
                .iter()
                .all(|key| self.input_requests.contains_key(key));
        let (server, keyed) = if ordered {
            (Some(self.input_order.iter()), None)
        } else {
            // A tracker saved before the order was kept: key order.
            (None, Some(self.input_requests.keys()))
        };
        server
            .into_iter()
            .flatten()
            .chain(keyed.into_iter().flatten())
    }

    /// The `tasks/cancel` for a task the client refused to follow ([`ClientEnding::Refused`]),
    /// once: it still runs on the server, which should be asked to stop it.
    pub fn cancel_refused(&mut self, client: &mut Client) -> Option<OutgoingRequest<CancelTask>> {
        self.cancel_refused_due().then(|| self.cancel(client))
    }

    /// Refused by the client and not yet asked to stop.
    pub(crate) fn cancel_refused_due(&self) -> bool {
        matches!(self.ended, Some(ClientEnding::Refused { .. })) && !self.cancel_requested
    }

    /// The `tasks/cancel` to send. It is only a request: the task ends however the server
    /// reports it next (it may still complete or fail).
    pub fn cancel(&mut self, client: &mut Client) -> OutgoingRequest<CancelTask> {
        self.cancel_requested = true;
        client.cancel_task(&self.task_id)
    }
}

#[cfg(test)]
mod tests;
