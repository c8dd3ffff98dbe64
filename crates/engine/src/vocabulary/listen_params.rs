//! `subscriptions/listen` params: what to be told about. rmcp's `SubscriptionFilter` lacks
//! the tasks extension's `taskIds`, so the engine carries its own, field for field.

use rmcp::model::{DiscoverResult, TASKS_EXTENSION_ID};
use serde::{Deserialize, Serialize};

/// What to be told about. rmcp's `SubscriptionFilter` lacks the tasks extension's `taskIds`,
/// so the engine carries its own, field for field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListenFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Vec<String>>,
    /// Tasks extension: push `notifications/tasks` for these tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_ids: Option<Vec<String>>,
}

impl ListenFilter {
    /// Push updates for these tasks.
    pub fn tasks(task_ids: impl IntoIterator<Item = String>) -> Self {
        Self {
            task_ids: Some(task_ids.into_iter().collect()),
            ..Self::default()
        }
    }

    /// Whether this server may be asked for `taskIds`: that filter belongs to the tasks
    /// extension, so the server must advertise the extension in `server/discover`
    /// (`subscriptions/listen` itself is core in 2026-07-28).
    pub fn server_offers_task_push(discovered: &DiscoverResult) -> bool {
        discovered
            .capabilities
            .extensions
            .as_ref()
            .is_some_and(|extensions| extensions.contains_key(TASKS_EXTENSION_ID))
    }

    pub(crate) fn allows_task(&self, task_id: &str) -> bool {
        self.task_ids.iter().flatten().any(|id| id == task_id)
    }
}

/// `subscriptions/listen` params.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ListenParams {
    pub notifications: ListenFilter,
}
