//! The tasks this page follows: created by calls, kept in `localStorage` per server,
//! polled (or pushed over `subscriptions/listen`) until they end.
//!
//! The board only holds state and moves bytes; when to poll, what a snapshot means and what
//! may be answered are the engine's `TaskTracker` decisions.

mod actions;
pub mod pacing;
mod polling;
mod push;
mod wakeup;

use std::collections::HashMap;
use std::time::Duration;

use holdbay_engine::TaskTracker;
use holdbay_engine::model::CreateTaskResult;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::link::Link;
use crate::split::{ChunkMissing, chunk, engine_work};
use crate::storage;
use crate::traffic::TrafficView;
use wakeup::Wakeup;

/// One followed task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackedTask {
    /// The tool whose call created it.
    pub tool: String,
    pub tracker: TaskTracker,
    /// When the newest snapshot arrived (local clock) and how.
    #[serde(default)]
    pub last_snapshot: Option<SnapshotSeen>,
    /// Why the last poll failed; cleared by the next snapshot. Not stored: a reload retries.
    #[serde(skip)]
    pub poll_problem: Option<PollProblem>,
    /// What became of the last answer or cancel sent for this task.
    #[serde(skip)]
    pub note: Option<String>,
}

/// A snapshot taken in: when (local clock), and whether a listen stream pushed it or a
/// `tasks/get` fetched it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotSeen {
    pub at_ms: u64,
    pub pushed: bool,
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
            last_snapshot: None,
            poll_problem: None,
            note: None,
        }
    }

    pub fn id(&self) -> &str {
        &self.tracker.task_id
    }
}

/// Routine changes (a poll's snapshot) are saved at most this often; a new, answered,
/// cancelled or ended task is saved at once.
const SAVE_EVERY_MS: u64 = 1_000;
/// A save writes the whole board: 1,000 tasks are about 600 KB of JSON, 10–25 ms of main
/// thread, a missed frame every time. What a routine save keeps (when the last snapshot came,
/// when the next poll is due) only times a reload's first polls better, so a big board saves
/// it less often: this much later per task, up to `SAVE_AT_MOST_EVERY_MS`.
const SAVE_DELAY_PER_TASK_MS: u64 = 10;
const SAVE_AT_MOST_EVERY_MS: u64 = 10_000;

/// How long routine changes to a board of `tasks` tasks wait to be saved.
pub fn routine_save_delay_ms(tasks: usize) -> u64 {
    let per_task = SAVE_DELAY_PER_TASK_MS.saturating_mul(tasks as u64);
    per_task.clamp(SAVE_EVERY_MS, SAVE_AT_MOST_EVERY_MS)
}

/// What one change touched, so only the work it needs follows.
#[derive(Debug, Clone, Copy, Default)]
struct Change {
    /// Must be durable now: a task was added or removed, answered, cancelled, or ended.
    urgent: bool,
    /// The set of live tasks may differ (the listen stream follows it).
    live_set: bool,
    /// A poll may now be due sooner than the loop thinks.
    sooner: bool,
}

/// What of a task must reach storage at once when it changes.
fn durable_mark(task: &TrackedTask) -> (bool, bool, usize, usize, bool) {
    let tracker = &task.tracker;
    (
        tracker.is_terminal(),
        tracker.cancel_requested,
        tracker.answered.len(),
        tracker.staged.len(),
        tracker.status.is_terminal(),
    )
}

/// What following the tasks needs: the link, the scene (told of restored tasks) and whether
/// the server offers a listen stream.
#[derive(Clone, Copy)]
struct FollowWith {
    link: Link,
    traffic: TrafficView,
    offers_push: Signal<Option<bool>>,
}

/// Every task the page follows, for one server at a time.
///
/// Cheap with many tasks: a poll's change notifies only that task's row (`watch`), the ids
/// (`ids`) change only when tasks come or go, and routine saves are coalesced.
#[derive(Clone, Copy)]
pub struct TaskBoard {
    tasks: RwSignal<Vec<TrackedTask>>,
    /// The tasks' ids in board order; changes only when a task is added or removed.
    ids: RwSignal<Vec<String>>,
    /// The tasks that ask for input not answered yet, in board order: their forms are shown
    /// where there is room for them (the call column), not in their rows.
    asking: RwSignal<Vec<String>>,
    /// One trigger per task, notified when that task changes.
    watchers: StoredValue<HashMap<String, ArcTrigger>>,
    /// A routine save is scheduled.
    save_pending: StoredValue<bool>,
    /// Whose tasks these are (the storage key); `None` until loaded.
    server: RwSignal<Option<String>>,
    /// Why the board could not be saved, if it could not.
    storage_problem: RwSignal<Option<String>>,
    /// What following needs, from [`TaskBoard::start`]; `None` before it.
    follow_with: StoredValue<Option<FollowWith>>,
    /// The polling loop and the listen stream run.
    following: StoredValue<bool>,
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
            ids: RwSignal::new(Vec::new()),
            asking: RwSignal::new(Vec::new()),
            watchers: StoredValue::new(HashMap::new()),
            save_pending: StoredValue::new(false),
            server: RwSignal::new(None),
            storage_problem: RwSignal::new(None),
            follow_with: StoredValue::new(None),
            following: StoredValue::new(false),
            poll_wakeup: Wakeup::new(),
            push_wakeup: Wakeup::new(),
            live_ids: StoredValue::new(Vec::new()),
            push: push::PushState::new(),
        }
    }

    /// Every task, notified on every change (with many tasks prefer `ids` + `watch`).
    pub fn tasks(&self) -> Signal<Vec<TrackedTask>> {
        self.tasks.into()
    }

    /// The tasks' ids in board order; notified only when a task is added or removed.
    pub fn ids(&self) -> Signal<Vec<String>> {
        self.ids.into()
    }

    /// The tasks asking for input, in board order; notified only when that set changes.
    pub fn asking(&self) -> Signal<Vec<String>> {
        self.asking.into()
    }

    /// Subscribe the current reactive scope to changes of one task.
    pub fn watch(&self, task_id: &str) {
        let trigger = self
            .watchers
            .try_update_value(|watchers| watchers.entry(task_id.to_owned()).or_default().clone());
        if let Some(trigger) = trigger {
            trigger.track();
        }
    }

    /// A copy of one task, untracked (pair with `watch`).
    pub fn task(&self, task_id: &str) -> Option<TrackedTask> {
        self.read(|tasks| tasks.iter().find(|t| t.id() == task_id).cloned())
            .flatten()
    }

    fn notify(&self, task_id: &str) {
        self.watchers.try_with_value(|watchers| {
            if let Some(trigger) = watchers.get(task_id) {
                trigger.notify();
            }
        });
    }

    fn notify_all(&self) {
        self.watchers
            .try_with_value(|watchers| watchers.values().for_each(ArcTrigger::notify));
    }

    fn refresh_ids(&self) {
        let ids = self
            .read(|tasks| tasks.iter().map(|t| t.id().to_owned()).collect::<Vec<_>>())
            .unwrap_or_default();
        // Triggers of tasks no longer on the board go with them.
        let on_board: std::collections::HashSet<&String> = ids.iter().collect();
        self.watchers
            .try_update_value(|watchers| watchers.retain(|id, _| on_board.contains(id)));
        if self.ids.try_with_untracked(|shown| *shown != ids) == Some(true) {
            self.ids.try_set(ids);
        }
        self.refresh_asking();
    }

    fn refresh_asking(&self) {
        let asking = self
            .read(|tasks| {
                tasks
                    .iter()
                    .filter(|t| t.tracker.is_asking())
                    .map(|t| t.id().to_owned())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        if self.asking.try_with_untracked(|shown| *shown != asking) == Some(true) {
            self.asking.try_set(asking);
        }
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
        // The server's stored tasks come first: following shows them, then this one joins.
        self.begin_following();
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
            self.refresh_ids();
            self.changed(Change {
                urgent: true,
                live_set: true,
                sooner: true,
            });
        }
    }

    /// Show the tasks stored for `server` (replacing any shown), without contacting it.
    pub fn load(&self, server: &str) {
        // The shown server's routine changes go to its own key first.
        self.flush();
        let stored: Vec<TrackedTask> =
            storage::load(&storage::key("tasks", server)).unwrap_or_default();
        self.server.try_set(Some(server.to_owned()));
        self.tasks.try_set(stored);
        self.refresh_ids();
        self.notify_all();
        self.changed(Change {
            urgent: false,
            live_set: true,
            sooner: true,
        });
    }

    /// Tell the scene which tasks just came back from storage.
    pub fn announce_restored(&self, traffic: TrafficView) {
        let restored: Vec<_> = self
            .read(|tasks| {
                tasks
                    .iter()
                    .map(|task| {
                        let stored = serde_json::to_value(task).unwrap_or_default();
                        (task.id().to_owned(), task.tracker.status, stored)
                    })
                    .collect()
            })
            .unwrap_or_default();
        for (task_id, status, stored) in restored {
            traffic.restored(&task_id, status, stored);
        }
    }

    /// Follow the tasks of the link's server: restore the stored ones, then the polling
    /// loop, and the listen stream when `offers_push` says the server offers it. That work
    /// (and the decoding of task snapshots) is in the engine-work chunk (`crate::split`), so
    /// it starts only once there is a task: one stored for the server, now or after a
    /// switch of server, or one a call creates ([`TaskBoard::adopt`]). Later calls do
    /// nothing.
    pub fn start(&self, link: Link, traffic: TrafficView, offers_push: Signal<Option<bool>>) {
        if self.follow_with.try_with_value(Option::is_some) != Some(false) {
            return;
        }
        self.follow_with.set_value(Some(FollowWith {
            link,
            traffic,
            offers_push,
        }));
        // A switch to another server wakes the loop, which then shows that server's tasks;
        // before the loop runs, a server with stored tasks starts it.
        let (board, connection) = (*self, link.connection());
        Effect::new(move |_| {
            let server = connection.with(|c| c.server.clone());
            if board.following.try_get_value() == Some(true) {
                board.poll_wakeup.wake();
            } else if !server.is_empty() && storage::has(&storage::key("tasks", &server)) {
                board.follow();
            }
        });
    }

    /// Start following (see [`TaskBoard::start`]), once the engine-work chunk is here.
    fn follow(&self) {
        let board = *self;
        leptos::task::spawn_local(async move {
            if let Err(missing) = chunk!(follow_tasks(board)) {
                board.storage_problem.try_set(Some(format!(
                    "the stored tasks are not followed: {missing}"
                )));
            }
        });
    }

    /// Restore the stored tasks of the link's server and start the polling loop and the
    /// listen stream, unless they run already or [`TaskBoard::start`] was not called.
    fn begin_following(&self) {
        let Some(FollowWith {
            link,
            traffic,
            offers_push,
        }) = self.follow_with.try_get_value().flatten()
        else {
            return;
        };
        if self.following.try_get_value() != Some(false) {
            return;
        }
        self.following.set_value(true);
        let server = link.connection_now().server;
        if !server.is_empty() {
            self.load(&server);
            self.announce_restored(traffic);
        }
        // Routine changes not yet saved go to storage before the page goes away.
        let board = *self;
        let _ = window_event_listener(leptos::ev::pagehide, move |_| board.flush());
        leptos::task::spawn_local(polling::run(*self, link, traffic));
        leptos::task::spawn_local(push::run(*self, link, offers_push));
    }

    /// Change one task (if still on the board), then save and wake the loops.
    pub(crate) fn modify<T>(
        &self,
        task_id: &str,
        change: impl FnOnce(&mut TrackedTask) -> T,
    ) -> Option<T> {
        let changed = self
            .tasks
            .try_update(|tasks| {
                let task = tasks.iter_mut().find(|t| t.id() == task_id)?;
                let (mark, next_poll) = (durable_mark(task), task.tracker.next_poll_at());
                let was_asking = task.tracker.is_asking();
                let outcome = change(task);
                let after = task.tracker.next_poll_at();
                let how = Change {
                    urgent: durable_mark(task) != mark,
                    live_set: task.tracker.is_terminal() != mark.0,
                    sooner: after.is_some() && (next_poll.is_none() || after < next_poll),
                };
                Some((outcome, how, was_asking != task.tracker.is_asking()))
            })
            .flatten();
        let (outcome, how, asking_changed) = changed?;
        self.notify(task_id);
        if asking_changed {
            self.refresh_asking();
        }
        self.changed(how);
        Some(outcome)
    }

    /// Change every task, then save and wake the loops.
    pub(crate) fn modify_all(&self, change: impl FnMut(&mut TrackedTask)) {
        if self
            .tasks
            .try_update(|tasks| tasks.iter_mut().for_each(change))
            .is_some()
        {
            self.notify_all();
            self.refresh_asking();
            self.changed(Change {
                urgent: false,
                live_set: true,
                sooner: true,
            });
        }
    }

    pub(crate) fn read<T>(&self, read: impl FnOnce(&[TrackedTask]) -> T) -> Option<T> {
        self.tasks.try_with_untracked(|tasks| read(tasks))
    }

    /// After every change: persist (now, or soon), poll on the new schedule, and reopen the
    /// listen stream if the set of live tasks changed.
    fn changed(&self, how: Change) {
        if how.urgent {
            self.save_now();
        } else {
            self.save_soon();
        }
        if how.sooner {
            self.poll_wakeup.wake();
        }
        if !how.live_set {
            return;
        }
        let live = self.read(live_ids).unwrap_or_default();
        let before = self.live_ids.try_get_value().unwrap_or_default();
        if live != before {
            self.live_ids.try_set_value(live);
            self.push.stop();
            self.push_wakeup.wake();
        }
    }

    /// Save within [`routine_save_delay_ms`], together with whatever else changes meanwhile.
    fn save_soon(&self) {
        if self.save_pending.try_get_value() != Some(false) {
            return;
        }
        self.save_pending.set_value(true);
        let board = *self;
        let delay = routine_save_delay_ms(self.read(<[TrackedTask]>::len).unwrap_or_default());
        set_timeout(move || board.flush(), Duration::from_millis(delay));
    }

    /// Save now if a routine save is waiting.
    pub(crate) fn flush(&self) {
        if self.save_pending.try_get_value() == Some(true) {
            self.save_now();
        }
    }

    pub(crate) fn save_now(&self) {
        self.save_pending.try_set_value(false);
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

engine_work! {
    fn follow_tasks(board: TaskBoard) -> Result<(), ChunkMissing> {
        board.begin_following();
        Ok(())
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

pub use crate::clock::now_ms;
