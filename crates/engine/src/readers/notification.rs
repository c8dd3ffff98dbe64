//! Notifications, decoded once by their method: the one place the engine names them.

// Logging is deprecated (SEP-2577), but servers still send it: it is shown, not acted on.
#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{
    ConstString, LoggingMessageNotificationMethod, ProgressNotificationMethod,
    ProgressNotificationParam, PromptListChangedNotificationMethod,
    ResourceListChangedNotificationMethod, ResourceUpdatedNotificationMethod,
    ResourceUpdatedNotificationParam, SubscriptionsAcknowledgedNotificationMethod,
    TaskStatusNotificationMethod, ToolListChangedNotificationMethod,
};
use serde::Deserialize;
use serde_json::Value;

use crate::readers::response::ResponseError;
use crate::vocabulary::events::{NotificationEvent, NotificationKind};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::listen_params::ListenFilter;

/// Why a notification was not read as its method's kind.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Unread {
    /// Its params do not match the method's schema.
    Schema(String),
    /// It is over one of the client's bounds (a task snapshot asking too many inputs).
    OverBound(ResponseError),
}

impl NotificationEvent {
    /// Decode a JSON-RPC notification by its method. One whose params do not match its
    /// method's schema is kept as [`NotificationKind::Other`].
    pub fn decode(json: Value) -> Self {
        Self::decode_checked(json, &Limits::default()).0
    }

    /// A notification on a request's own stream. `notifications/tasks` belongs to listen
    /// streams (the tasks extension delivers it only to a `subscriptions/listen` that asked
    /// for the task): here it is kept as received ([`NotificationKind::Other`]), and this
    /// reading has no path to the decoders of task snapshots and input requests, so a
    /// request's reader (discovery, the tool list) does not carry them.
    pub(crate) fn decode_on_request_stream(json: Value) -> Self {
        Self::decode_as::<false>(json, &Limits::default()).0
    }

    /// The same as [`NotificationEvent::decode`], within `limits`, with why it was not read
    /// as its method's kind, if it was not.
    pub(crate) fn decode_checked(json: Value, limits: &Limits) -> (Self, Option<Unread>) {
        Self::decode_as::<true>(json, limits)
    }

    /// `TASK_STATE`: whether `notifications/tasks` is read as a task's state (a constant, so
    /// a reader without it is compiled without that decoder).
    fn decode_as<const TASK_STATE: bool>(json: Value, limits: &Limits) -> (Self, Option<Unread>) {
        let (kind, error) = match decode_kind::<TASK_STATE>(&json, limits) {
            Ok(kind) => (kind, None),
            Err(error) => (
                NotificationKind::Other {
                    method: method_of(&json).to_owned(),
                },
                Some(error),
            ),
        };
        (
            Self {
                json,
                kind,
                kept: true,
            },
            error,
        )
    }

    /// The notification's method as received.
    pub fn method(&self) -> &str {
        method_of(&self.json)
    }
}

/// The kind of notification `json` is, or why its params do not match its method's schema.
/// Without `TASK_STATE`, `notifications/tasks` is [`NotificationKind::Other`].
fn decode_kind<const TASK_STATE: bool>(
    json: &Value,
    limits: &Limits,
) -> Result<NotificationKind, Unread> {
    let method = method_of(json);
    let params = json.get("params").unwrap_or(&Value::Null);
    let schema = |error: serde_json::Error| Unread::Schema(error.to_string());
    Ok(if method == ProgressNotificationMethod::VALUE {
        NotificationKind::Progress(ProgressNotificationParam::deserialize(params).map_err(schema)?)
    } else if method == LoggingMessageNotificationMethod::VALUE {
        #[allow(deprecated)]
        let message = LoggingMessageNotificationParam::deserialize(params).map_err(schema)?;
        NotificationKind::Message(message)
    } else if TASK_STATE && method == TaskStatusNotificationMethod::VALUE {
        if params
            .get("_meta")
            .is_some_and(|meta| !meta.is_object() && !meta.is_null())
        {
            return Err(Unread::Schema("_meta is not a JSON object".into()));
        }
        if let Some(fields) = params.as_object() {
            crate::readers::bounds::input_requests(fields, limits).map_err(Unread::OverBound)?;
        }
        NotificationKind::Task(Box::new(
            crate::vocabulary::decode::detailed_task(params).map_err(schema)?,
        ))
    } else if method == LEGACY_TASK_STATUS {
        NotificationKind::LegacyTaskStatus(Box::new(
            crate::vocabulary::decode::legacy_task::legacy_task(params).map_err(schema)?,
        ))
    } else if method == SubscriptionsAcknowledgedNotificationMethod::VALUE {
        let filter = params
            .get("notifications")
            .ok_or_else(|| Unread::Schema("missing field `notifications`".to_owned()))?;
        NotificationKind::ListenAcknowledged(ListenFilter::deserialize(filter).map_err(schema)?)
    } else if method == ToolListChangedNotificationMethod::VALUE {
        NotificationKind::ToolsListChanged
    } else if method == PromptListChangedNotificationMethod::VALUE {
        NotificationKind::PromptsListChanged
    } else if method == ResourceListChangedNotificationMethod::VALUE {
        NotificationKind::ResourcesListChanged
    } else if method == ResourceUpdatedNotificationMethod::VALUE {
        NotificationKind::ResourceUpdated {
            uri: ResourceUpdatedNotificationParam::deserialize(params)
                .map_err(schema)?
                .uri,
        }
    } else {
        NotificationKind::Other {
            method: method.to_owned(),
        }
    })
}

/// 2025-11-25's task status notification (rmcp models only 2026-07-28's
/// `notifications/tasks`).
const LEGACY_TASK_STATUS: &str = "notifications/tasks/status";

fn method_of(json: &Value) -> &str {
    json.get("method")
        .and_then(Value::as_str)
        .unwrap_or_default()
}
