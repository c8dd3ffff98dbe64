//! The tasks this page follows: created by calls, kept in `localStorage` per server,
//! polled (or pushed over `subscriptions/listen`) until they end.
//!
//! The board only holds state and moves bytes; when to poll, what a snapshot means and what
//! may be answered are the engine's `TaskTracker` decisions.

mod actions;
mod polling;
mod push;
mod wakeup;

use holdbay_engine::TaskTracker;
use holdbay_engine::model::CreateTaskResult;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::storage;
use crate::ui::session::Session;
use wakeup::Wakeup;

/// One followed task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackedTask {
    /// The tool whose call created it.
    pub tool: String,
    pub tracker: TaskTracker,
    /// When the last `tasks/get` was sent (local clock).
    #[serde(default)]
    pub last_polled_at_ms: Option<u64>,
    /// Why the last poll failed; cleared by the next snapshot. Not stored: a reload retries.
    #[serde(skip)]
    pub poll_problem: Option<PollProblem>,
    /// What became of the last answer or cancel sent for this task.
    #[serde(skip)]
    pub note: Option<String>,
}

/// A failed `tasks/get`.
#[derive(Debug, Clone, PartialEq)]
pub struct PollProblem {
    /// No HTTP answer at all (server down, network, CORS), rather than an error reply.
    pub unreachable: bool,
    pub detail: String,
}

impl TrackedTask {
    pub fn new(tool: &str, tracker: TaskTracker) -> Self {
        Self {
            tool: tool.to_owned(),
            tracker,
            last_polled_at_ms: None,
            poll_problem: None,
            note: None,
        }
    }

    pub fn id(&self) -> &str {
        &self.tracker.task_id
    }
}

/// Every task the page follows, for one server at a time.
#[derive(Clone, Copy)]
pub struct TaskBoard {
    tasks: RwSignal<Vec<TrackedTask>>,
    /// Whose tasks these are (the storage key); `None` until loaded.
    server: RwSignal<Option<String>>,
    /// Why the board could not be saved, if it could not.
    storage_problem: RwSignal<Option<String>>,
    started: StoredValue<bool>,
    poll_wakeup: Wakeup,
    push_wakeup: Wakeup,
    /// The non-terminal task ids when last looked at: a change reopens the listen stream.
    live_ids: StoredValue<Vec<String>>,
    push: push::PushState,
}

impl std::fmt::Debug for TaskBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskBoard").finish_non_exhaustive()
    }
}

impl Default for TaskBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl TaskBoard {
    pub fn new() -> Self {
        Self {
            tasks: RwSignal::new(Vec::new()),
            server: RwSignal::new(None),
            storage_problem: RwSignal::new(None),
            started: StoredValue::new(false),
            poll_wakeup: Wakeup::new(),
            push_wakeup: Wakeup::new(),
            live_ids: StoredValue::new(Vec::new()),
            push: push::PushState::new(),
        }
    }

    pub fn tasks(&self) -> Signal<Vec<TrackedTask>> {
        self.tasks.into()
    }

    /// The server whose tasks are shown, once loaded.
    pub fn server(&self) -> Signal<Option<String>> {
        self.server.into()
    }

    pub fn storage_problem(&self) -> Signal<Option<String>> {
        self.storage_problem.into()
    }

    /// Whether a listen stream is open and acknowledged.
    pub fn is_pushing(&self) -> Signal<bool> {
        self.push.active.into()
    }

    /// Follow a task a call just created (once: adopting the same id again changes nothing).
    pub fn adopt(&self, created: &CreateTaskResult, tool: &str) {
        let tracker = TaskTracker::from_created(created, now_ms());
        let added = self
            .tasks
            .try_update(|tasks| {
                let known = tasks.iter().any(|task| task.id() == tracker.task_id);
                if !known {
                    tasks.push(TrackedTask::new(tool, tracker));
                }
                !known
            })
            .unwrap_or(false);
        if added {
            self.changed();
        }
    }

    /// Show the tasks stored for `server` (replacing any shown), without contacting it.
    pub fn load(&self, server: &str) {
        let stored: Vec<TrackedTask> =
            storage::load(&storage::key("tasks", server)).unwrap_or_default();
        self.server.try_set(Some(server.to_owned()));
        self.tasks.try_set(stored);
        self.changed();
    }

    /// Restore the tasks stored for the session's server and follow them: the polling loop,
    /// and the listen stream when the server offers it. Starts once per board; later calls
    /// do nothing.
    pub fn start(&self, session: Session) {
        if self.started.try_get_value() != Some(false) {
            return;
        }
        self.started.set_value(true);
        let server = session.connection_now().server;
        if server.is_empty() {
            return;
        }
        self.load(&server);
        // A switch to another server wakes the loop, which then shows that server's tasks.
        let wakeup = self.poll_wakeup;
        Effect::new(move |_| {
            session.connection.with(|c| c.server.len());
            wakeup.wake();
        });
        leptos::task::spawn_local(polling::run(*self, session));
        leptos::task::spawn_local(push::run(*self, session));
    }

    /// Change one task (if still on the board), then save and wake the loops.
    pub(crate) fn modify<T>(
        &self,
        task_id: &str,
        change: impl FnOnce(&mut TrackedTask) -> T,
    ) -> Option<T> {
        let changed = self
            .tasks
            .try_update(|tasks| tasks.iter_mut().find(|t| t.id() == task_id).map(change))
            .flatten();
        if changed.is_some() {
            self.changed();
        }
        changed
    }

    /// Change every task, then save and wake the loops.
    pub(crate) fn modify_all(&self, change: impl FnMut(&mut TrackedTask)) {
        if self
            .tasks
            .try_update(|tasks| tasks.iter_mut().for_each(change))
            .is_some()
        {
            self.changed();
        }
    }

    pub(crate) fn read<T>(&self, read: impl FnOnce(&[TrackedTask]) -> T) -> Option<T> {
        self.tasks.try_with_untracked(|tasks| read(tasks))
    }

    /// After every change: persist, poll on the new schedule, and reopen the listen stream
    /// if the set of live tasks changed.
    fn changed(&self) {
        self.save();
        self.poll_wakeup.wake();
        let live = self.read(live_ids).unwrap_or_default();
        let before = self.live_ids.try_get_value().unwrap_or_default();
        if live != before {
            self.live_ids.try_set_value(live);
            self.push.stop();
            self.push_wakeup.wake();
        }
    }

    fn save(&self) {
        let Some(server) = self.server.try_get_untracked().flatten() else {
            return;
        };
        let key = storage::key("tasks", &server);
        let saved = self.read(|tasks| {
            if tasks.is_empty() {
                storage::remove(&key);
                Ok(())
            } else {
                storage::save(&key, &tasks)
            }
        });
        if let Some(outcome) = saved {
            let problem = outcome.err();
            if self.storage_problem.try_get_untracked().flatten() != problem {
                self.storage_problem.try_set(problem);
            }
        }
    }
}

/// The tasks still in play, in board order.
fn live_ids(tasks: &[TrackedTask]) -> Vec<String> {
    tasks
        .iter()
        .filter(|task| !task.tracker.is_terminal())
        .map(|task| task.id().to_owned())
        .collect()
}

/// The local clock, in milliseconds (the engine takes time as an argument).
pub fn now_ms() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}

/// Whether the session's app is still mounted (its engine client not yet disposed).
fn alive(session: &Session) -> bool {
    session.build(|_| ()).is_some()
}
