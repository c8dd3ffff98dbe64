//! One stored task, and how it looks on the wire.

use rmcp::model::{
    DetailedTask, InputRequests, InputResponses, JsonObject, Task, TaskPayload, TaskStatus,
};
use serde_json::Value;

use super::clock::iso8601;

/// A task row, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRecord {
    pub task_id: String,
    pub owner: String,
    pub kind: String,
    pub arguments: JsonObject,
    pub status: TaskStatus,
    pub status_message: Option<String>,
    pub step: u32,
    pub memory: Value,
    /// Input requests still outstanding.
    pub pending: InputRequests,
    /// Every answer received, by key.
    pub answers: InputResponses,
    /// Every key ever asked, so that no key is reused in the task's lifetime.
    pub asked_keys: Vec<String>,
    /// The result (completed) or the JSON-RPC error (failed).
    pub outcome: Option<JsonObject>,
    pub cancel_requested: bool,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub ttl_ms: u64,
    pub poll_interval_ms: u64,
}

impl TaskRecord {
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }

    /// When the task may be discarded.
    pub fn expires_ms(&self) -> i64 {
        self.created_ms
            .saturating_add(i64::try_from(self.ttl_ms).unwrap_or(i64::MAX))
    }

    /// The base `Task` fields.
    pub fn task(&self) -> Task {
        let mut task = Task::new(
            self.task_id.clone(),
            self.status,
            iso8601(self.created_ms),
            iso8601(self.updated_ms),
        )
        .with_ttl_ms(self.ttl_ms)
        .with_poll_interval_ms(self.poll_interval_ms);
        task.status_message = self.status_message.clone();
        task
    }

    /// The full state, exactly as `tasks/get` and `notifications/tasks` carry it.
    pub fn detailed(&self) -> DetailedTask {
        let payload = match self.status {
            TaskStatus::InputRequired => TaskPayload::InputRequired {
                input_requests: self.pending.clone(),
            },
            TaskStatus::Completed => TaskPayload::Completed {
                result: self.outcome.clone().unwrap_or_default(),
            },
            TaskStatus::Failed => TaskPayload::Failed {
                error: self.outcome.clone().unwrap_or_default(),
            },
            TaskStatus::Cancelled => TaskPayload::Cancelled,
            _ => TaskPayload::Working,
        };
        DetailedTask::new(self.task(), payload)
    }
}

/// The status as the store spells it (the wire's snake_case).
pub fn status_text(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::InputRequired => "input_required",
        TaskStatus::Completed => "completed",
        TaskStatus::Failed => "failed",
        TaskStatus::Cancelled => "cancelled",
        _ => "working",
    }
}

pub fn parse_status(text: &str) -> TaskStatus {
    match text {
        "input_required" => TaskStatus::InputRequired,
        "completed" => TaskStatus::Completed,
        "failed" => TaskStatus::Failed,
        "cancelled" => TaskStatus::Cancelled,
        _ => TaskStatus::Working,
    }
}
