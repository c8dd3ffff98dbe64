//! What a log shows for an answer: its `resultType` or error code, as the wire spells them.
//! The one place a view gets these words from.

use super::{AnswerKind, NotificationKind};
use crate::vocabulary::protocol::task_status_name;

/// `resultType` values, as the wire spells them.
const COMPLETE: &str = "complete";
const INPUT_REQUIRED: &str = "input_required";
const TASK: &str = "task";

impl AnswerKind {
    /// The answer's `resultType` as the wire spells it (an absent one is `complete`); `None`
    /// for a JSON-RPC error or an answer that could not be read.
    pub fn result_type(&self) -> Option<&'static str> {
        match self {
            Self::Complete { .. } | Self::TaskSnapshot(_) | Self::TaskStatus(_) => Some(COMPLETE),
            Self::InputRequired { .. } => Some(INPUT_REQUIRED),
            Self::Task(_) => Some(TASK),
            Self::Error { .. } | Self::Invalid { .. } => None,
        }
    }

    /// A short label for a log row: the `resultType` (with `isError` on a failed tool
    /// call, the task's status on a `tasks/get`), `error <code>`, or `invalid`.
    pub fn label(&self) -> String {
        match self {
            Self::Complete { tool_error: true } => format!("{COMPLETE} · isError"),
            Self::TaskSnapshot(task) => {
                format!("{COMPLETE} · {}", task_status_name(task.task.status))
            }
            Self::TaskStatus(task) => format!("{COMPLETE} · {}", task_status_name(task.status)),
            Self::Error { code, .. } => format!("error {code}"),
            Self::Invalid { .. } => "invalid".to_owned(),
            other => other.result_type().unwrap_or_default().to_owned(),
        }
    }

    /// Whether the answer is a failure: a JSON-RPC error, an unreadable answer, a tool error.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Self::Error { .. } | Self::Invalid { .. } | Self::Complete { tool_error: true }
        )
    }
}

impl NotificationKind {
    /// The task a notification concerns (`notifications/tasks`), if any.
    pub fn task_id(&self) -> Option<&str> {
        match self {
            Self::Task(task) => Some(task.task.task_id.as_str()),
            Self::LegacyTaskStatus(task) => Some(task.task_id.as_str()),
            _ => None,
        }
    }
}
