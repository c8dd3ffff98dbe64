//! Tracking one task of the tasks extension: its state, when to poll, the input it asks
//! for, and how it ends. Serializable, so the app can persist it and resume after a reload.

use std::collections::BTreeSet;

use rmcp::model::{
    CreateTaskResult, DetailedTask, InputRequests, InputResponses, JsonObject, TaskPayload,
    TaskStatus,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::client::Client;
use crate::findings::{Finding, Rule};
use crate::method::{CancelTask, GetTask, UpdateTask};
use crate::outgoing::OutgoingRequest;

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
    /// New keys to answer (never a key already answered or shown).
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
    Finding(Finding),
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
}

/// The client's record of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskTracker {
    pub task_id: String,
    pub status: TaskStatus,
    pub status_message: Option<String>,
    pub created_at: String,
    pub last_updated_at: String,
    /// From creation; `None` means unlimited.
    pub ttl_ms: Option<u64>,
    pub poll_interval_ms: Option<u64>,
    /// Local clock when the task was created here (TTL is counted from it).
    pub created_locally_at_ms: u64,
    /// When the next `tasks/get` is due (local clock).
    pub next_poll_at_ms: u64,
    /// Transport failures in a row, for backoff.
    pub consecutive_failures: u32,
    /// The latest snapshot's outstanding requests, keyed exactly as the server sent them.
    pub input_requests: InputRequests,
    /// Answers given but not yet sent with `tasks/update`.
    pub pending_answers: InputResponses,
    /// Keys answered and sent, or shown already: never answered or shown again.
    pub answered: BTreeSet<String>,
    pub shown: BTreeSet<String>,
    pub result: Option<JsonObject>,
    pub error: Option<JsonObject>,
    pub cancel_requested: bool,
    /// A listen stream pushes this task's snapshots; polling only as a slow safety net.
    #[serde(default)]
    pub pushed: bool,
    /// The terminal snapshot (with its result or error) has been taken in. A task created
    /// already `completed` or `failed` still needs one `tasks/get` to fetch its outcome.
    #[serde(default)]
    pub settled: bool,
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
            pending_answers: InputResponses::new(),
            answered: BTreeSet::new(),
            shown: BTreeSet::new(),
            result: None,
            error: None,
            cancel_requested: false,
            pushed: false,
            // A cancelled task has nothing left to fetch.
            settled: task.status == TaskStatus::Cancelled,
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

    /// Ended, and its outcome known: nothing more will change or be polled.
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal() && self.settled
    }

    /// Past `createdAt + ttlMs` without resolution: the server may have purged it.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        !self.is_terminal()
            && self
                .ttl_ms
                .is_some_and(|ttl| now_ms >= self.created_locally_at_ms.saturating_add(ttl))
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
        self.next_poll_at_ms = now_ms.saturating_add(self.poll_interval());
        client.get_task(&self.task_id)
    }

    /// A listen stream now covers this task (`true`), or it dropped (`false`): polling falls
    /// back to the server's interval at once.
    pub fn set_pushed(&mut self, pushed: bool, now_ms: u64) {
        self.pushed = pushed;
        self.next_poll_at_ms = if pushed {
            now_ms.saturating_add(MAX_POLL_MS)
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
        if task.task_id != self.task_id {
            events.push(TaskEvent::Finding(Finding::new(
                Rule::TaskMismatch,
                format!(
                    "a snapshot for task {:?} arrived for task {:?}",
                    task.task_id, self.task_id
                ),
                message,
            )));
            return events;
        }
        self.consecutive_failures = 0;
        // Created terminal but not yet fetched: the snapshot must agree on the status.
        let unsettled_terminal = self.status.is_terminal() && !self.settled;
        if self.is_terminal() || (unsettled_terminal && task.status != self.status) {
            self.settled = true;
            if task.status != self.status {
                events.push(TaskEvent::Finding(Finding::new(
                    Rule::TerminalTaskChanged,
                    format!(
                        "task {} was {:?} and then reported {:?}; kept {:?}",
                        self.task_id, self.status, task.status, self.status
                    ),
                    message,
                )));
            }
            return events;
        }
        self.settled = task.status.is_terminal();
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
        match &snapshot.payload {
            TaskPayload::InputRequired { input_requests } => {
                self.input_requests = input_requests.clone();
                let fresh: Vec<String> = input_requests
                    .keys()
                    .filter(|key| !self.answered.contains(*key) && !self.shown.contains(*key))
                    .cloned()
                    .collect();
                self.shown.extend(fresh.iter().cloned());
                if !fresh.is_empty() {
                    events.push(TaskEvent::InputRequested { keys: fresh });
                }
            }
            TaskPayload::Completed { result } => {
                self.input_requests.clear();
                self.result = Some(result.clone());
                events.push(TaskEvent::Completed {
                    result: result.clone(),
                });
            }
            TaskPayload::Failed { error } => {
                self.input_requests.clear();
                self.error = Some(error.clone());
                events.push(TaskEvent::Failed {
                    error: error.clone(),
                });
            }
            TaskPayload::Cancelled => {
                self.input_requests.clear();
                events.push(TaskEvent::Cancelled);
            }
            _ => self.input_requests.clear(),
        }
        events
    }

    /// The requests still waiting for an answer, keyed as the server sent them.
    pub fn outstanding(&self) -> Vec<String> {
        self.input_requests
            .keys()
            .filter(|key| !self.answered.contains(*key) && !self.pending_answers.contains_key(*key))
            .cloned()
            .collect()
    }

    /// Answer one outstanding key (sent with the next [`TaskTracker::update`]).
    pub fn answer(&mut self, key: &str, response: Value) -> Result<(), TaskError> {
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
        if !self.input_requests.contains_key(key) {
            return Err(TaskError::UnknownKey {
                key: key.to_owned(),
            });
        }
        self.pending_answers.insert(key.to_owned(), response);
        Ok(())
    }

    /// The `tasks/update` carrying the pending answers, or `None` when there are none. The
    /// keys count as answered from here on.
    pub fn update(&mut self, client: &mut Client) -> Option<OutgoingRequest<UpdateTask>> {
        if self.pending_answers.is_empty() || self.is_terminal() {
            return None;
        }
        let answers = std::mem::take(&mut self.pending_answers);
        self.answered.extend(answers.keys().cloned());
        Some(client.update_task(&self.task_id, answers))
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
