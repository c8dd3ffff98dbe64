//! Which of many tasks to poll now: a few at a time, most overdue first, never early.

use super::TaskTracker;

/// At most this many `tasks/get` in flight at once: with many tasks due together (after a
/// reload, say) they go out a few at a time. Browsers allow about six connections per host;
/// twice that keeps them busy while a busy page has yet to read the answers that came (a
/// connection is free once its answer is in, a poll only once the page has taken it in).
pub const MAX_POLLS_IN_FLIGHT: usize = 12;

/// The polls to send now, and when to look again.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DuePolls {
    /// Task ids whose poll is due, most overdue first; at most `limit`.
    pub due: Vec<String>,
    /// More polls are due than `limit` allowed: look again when a poll in flight ends.
    pub more_due: bool,
    /// The earliest poll not yet due among the tasks not in flight (local clock), if any.
    pub next_at: Option<u64>,
    /// Polls a second that following every task at its interval takes (Σ 1 / interval over
    /// the tasks still polled, those in flight included): the rate a pace must not hold the
    /// polls below, or they fall behind for good.
    pub steady_per_second: f64,
}

/// The polls due at `now_ms` among `trackers`, skipping those `in_flight` (their next poll
/// was scheduled when they were sent). `limit` is how many may go out now: usually
/// [`MAX_POLLS_IN_FLIGHT`] less the polls in flight. Ended tasks are never polled, and a task
/// a listen stream pushes is polled only as a slow safety net ([`TaskTracker::poll_interval`]).
pub fn due_polls<'a>(
    trackers: impl IntoIterator<Item = &'a TaskTracker>,
    in_flight: impl Fn(&str) -> bool,
    now_ms: u64,
    limit: usize,
) -> DuePolls {
    let mut due: Vec<(u64, &str)> = Vec::new();
    let mut next_at: Option<u64> = None;
    let mut steady_per_second = 0.0;
    for tracker in trackers {
        let Some(at) = tracker.next_poll_at() else {
            continue;
        };
        steady_per_second += 1_000.0 / tracker.poll_interval() as f64;
        if in_flight(&tracker.task_id) {
            continue;
        }
        if tracker.is_poll_due(now_ms) {
            due.push((at, &tracker.task_id));
        } else {
            next_at = Some(next_at.map_or(at, |earliest| earliest.min(at)));
        }
    }
    // Stable: tasks due at the same moment keep the caller's order.
    due.sort_by_key(|(at, _)| *at);
    let more_due = due.len() > limit;
    DuePolls {
        due: due
            .into_iter()
            .take(limit)
            .map(|(_, id)| id.to_owned())
            .collect(),
        more_due,
        next_at,
        steady_per_second,
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{CreateTaskResult, GetTaskResult, TaskStatus};
    use serde_json::json;

    use super::*;

    /// A task created at `now_ms` whose server asks for a poll every `poll_interval_ms`.
    fn task(id: &str, poll_interval_ms: u64, now_ms: u64) -> TaskTracker {
        let created: CreateTaskResult = serde_json::from_value(json!({"resultType": "task",
            "taskId": id, "status": "working", "createdAt": "2026-11-29T10:00:00Z",
            "lastUpdatedAt": "2026-11-29T10:00:00Z", "ttlMs": null,
            "pollIntervalMs": poll_interval_ms}))
        .expect("CreateTaskResult");
        TaskTracker::from_created(&created, now_ms)
    }

    fn ids(polls: &DuePolls) -> Vec<&str> {
        polls.due.iter().map(String::as_str).collect()
    }

    fn nothing_in_flight(_: &str) -> bool {
        false
    }

    #[test]
    fn no_more_than_the_limit_go_out_and_the_rest_are_flagged() {
        let tasks: Vec<TaskTracker> = (0..10).map(|i| task(&format!("t{i}"), 1000, 0)).collect();
        let polls = due_polls(&tasks, nothing_in_flight, 5_000, 4);
        assert_eq!(polls.due.len(), 4);
        assert!(polls.more_due);
    }

    #[test]
    fn the_most_overdue_go_first() {
        let tasks = [
            task("late", 1000, 2_000),
            task("latest", 1000, 0),
            task("least", 1000, 3_000),
        ];
        let polls = due_polls(&tasks, nothing_in_flight, 5_000, 2);
        assert_eq!(ids(&polls), ["latest", "late"]);
    }

    #[test]
    fn a_poll_is_never_sent_before_it_is_due() {
        let tasks = [task("due", 1000, 0), task("early", 1000, 500)];
        let polls = due_polls(&tasks, nothing_in_flight, 1_000, 6);
        assert_eq!(ids(&polls), ["due"]);
        assert!(!polls.more_due);
        assert_eq!(polls.next_at, Some(1_500));
    }

    #[test]
    fn a_task_in_flight_is_skipped() {
        let tasks = [task("busy", 1000, 0), task("free", 1000, 0)];
        let polls = due_polls(&tasks, |id| id == "busy", 5_000, 6);
        assert_eq!(ids(&polls), ["free"]);
    }

    #[test]
    fn next_at_is_the_earliest_future_poll() {
        let tasks = [task("a", 5000, 0), task("b", 2000, 0), task("c", 9000, 0)];
        let polls = due_polls(&tasks, nothing_in_flight, 1_000, 6);
        assert!(polls.due.is_empty());
        assert_eq!(polls.next_at, Some(2_000));
    }

    #[test]
    fn the_steady_rate_counts_every_task_still_polled_at_its_interval() {
        let tasks = [task("a", 5000, 0), task("b", 250, 0), task("busy", 1000, 0)];
        let polls = due_polls(&tasks, |id| id == "busy", 0, 6);
        // 0.2 + 4 + 1 polls a second: a poll in flight still counts.
        assert!(
            (polls.steady_per_second - 5.2).abs() < 1e-9,
            "{}",
            polls.steady_per_second
        );
        let mut pushed = task("pushed", 1000, 0);
        pushed.set_pushed(true, 0);
        let polls = due_polls([&pushed], nothing_in_flight, 0, 6);
        assert!((polls.steady_per_second - 1.0 / 60.0).abs() < 1e-9);
    }

    #[test]
    fn an_ended_task_is_never_polled() {
        let mut done = task("done", 1000, 0);
        let snapshot: GetTaskResult = serde_json::from_value(json!({"resultType": "complete",
            "taskId": "done", "status": "completed", "createdAt": "2026-11-29T10:00:00Z",
            "lastUpdatedAt": "2026-11-29T10:00:05Z", "ttlMs": null,
            "result": {"content": []}}))
        .expect("GetTaskResult");
        done.handle_snapshot(&snapshot.task, None);
        assert_eq!(done.status, TaskStatus::Completed);
        let polls = due_polls([&done], nothing_in_flight, u64::MAX, 6);
        assert_eq!(polls, DuePolls::default());
    }

    #[test]
    fn a_pushed_task_is_polled_only_as_a_slow_safety_net() {
        let mut pushed = task("pushed", 1000, 0);
        pushed.set_pushed(true, 0);
        let polls = due_polls([&pushed], nothing_in_flight, 5_000, 6);
        assert!(polls.due.is_empty());
        assert_eq!(polls.next_at, Some(crate::machines::task::MAX_POLL_MS));
    }
}
