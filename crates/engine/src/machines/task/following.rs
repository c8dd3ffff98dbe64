//! How the client keeps up with a task, told truthfully: pushed on a listen stream or polled,
//! at which interval, and what the server asked for. Derived from the same rules as the poll
//! schedule, so the words and the wire cannot disagree.

use super::{MIN_POLL_MS, TaskTracker};

/// How the client follows one task now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Following {
    /// Terminal (or ended by the client): nothing is polled or expected any more.
    Over,
    /// Polled with `tasks/get` every `every_ms`.
    Polled {
        every_ms: u64,
        /// The server's `pollIntervalMs`, when it gave one.
        asked_ms: Option<u64>,
    },
    /// A listen stream pushes the snapshots; one safety poll every `safety_poll_ms` (and at
    /// the TTL) notices a forgotten task.
    Pushed {
        safety_poll_ms: u64,
        asked_ms: Option<u64>,
    },
}

impl Following {
    /// Why the polling interval differs from what the server asked, if it does.
    pub fn adjustment(&self) -> Option<&'static str> {
        let Self::Polled { every_ms, asked_ms } = *self else {
            return None;
        };
        match asked_ms {
            None => Some("the server gave no pollIntervalMs"),
            Some(asked) if asked == every_ms => None,
            Some(asked) if asked < MIN_POLL_MS => Some("raised to the client's floor"),
            Some(_) => Some("capped at the client's ceiling"),
        }
    }
}

impl TaskTracker {
    /// How the client follows this task now: see [`Following`].
    pub fn following(&self) -> Following {
        if self.is_terminal() {
            return Following::Over;
        }
        // The very interval the poll schedule uses, so the words cannot drift from it.
        let every_ms = self.poll_interval();
        let asked_ms = self.poll_interval_ms;
        if self.pushed {
            Following::Pushed {
                safety_poll_ms: every_ms,
                asked_ms,
            }
        } else {
            Following::Polled { every_ms, asked_ms }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::machines::task::MAX_POLL_MS;

    fn tracker(poll_interval_ms: Option<u64>) -> TaskTracker {
        let created = serde_json::from_value(json!({"resultType": "task", "taskId": "t1",
            "status": "working", "createdAt": "2026-11-29T10:00:00Z",
            "lastUpdatedAt": "2026-11-29T10:00:00Z", "pollIntervalMs": poll_interval_ms}))
        .expect("CreateTaskResult");
        TaskTracker::from_created(&created, 0)
    }

    #[test]
    fn a_polled_task_says_the_servers_interval_and_any_clamp() {
        let asked = tracker(Some(2000)).following();
        assert_eq!(
            asked,
            Following::Polled {
                every_ms: 2000,
                asked_ms: Some(2000)
            }
        );
        assert_eq!(asked.adjustment(), None);
        let fast = tracker(Some(10)).following();
        assert_eq!(
            fast,
            Following::Polled {
                every_ms: MIN_POLL_MS,
                asked_ms: Some(10)
            }
        );
        assert_eq!(fast.adjustment(), Some("raised to the client's floor"));
        assert_eq!(
            tracker(Some(u64::MAX)).following().adjustment(),
            Some("capped at the client's ceiling")
        );
        assert_eq!(
            tracker(None).following().adjustment(),
            Some("the server gave no pollIntervalMs")
        );
    }

    #[test]
    fn a_pushed_task_keeps_the_servers_interval_beside_the_safety_poll() {
        let mut task = tracker(Some(1000));
        task.set_pushed(true, 0);
        assert_eq!(
            task.following(),
            Following::Pushed {
                safety_poll_ms: MAX_POLL_MS,
                asked_ms: Some(1000)
            }
        );
        // The stream dropped: polling at the server's interval again.
        task.set_pushed(false, 5);
        assert!(matches!(
            task.following(),
            Following::Polled { every_ms: 1000, .. }
        ));
    }

    #[test]
    fn a_finished_task_is_no_longer_followed() {
        let mut task = tracker(Some(1000));
        let done = serde_json::from_value::<rmcp::model::GetTaskResult>(json!({
            "resultType": "complete", "taskId": "t1", "status": "completed",
            "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:05Z",
            "result": {"content": []}}))
        .expect("GetTaskResult")
        .task;
        task.handle_snapshot(&done, None);
        assert_eq!(task.following(), Following::Over);
    }
}
