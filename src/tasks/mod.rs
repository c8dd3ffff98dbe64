//! The tasks this page follows: created by calls, kept in `localStorage` per server,
//! polled (or pushed over `subscriptions/listen`) until they end.
//!
//! The board holds the engine's [`TaskBook`] and shows it: the book decides what to poll,
//! what a snapshot or a listen event means, what may be answered and what must be saved; the
//! board tells the views what changed, saves ([`store`]) and runs the driver loop
//! ([`driver`]) that moves bytes and time.

mod actions;
mod driver;
pub mod pacing;
mod store;

use std::collections::HashMap;

use holdbay_engine::model::CreateTaskResult;
use holdbay_engine::{Era, TaskBook};
use leptos::prelude::*;
use web_sys::AbortController;

use crate::link::Link;
use crate::split::{ChunkMissing, chunk, engine_work};
use crate::storage;
use crate::traffic::TrafficView;
use crate::wakeup::Wakeup;
pub use holdbay_engine::{PollProblem, SnapshotSeen, TrackedTask};
pub use store::routine_save_delay_ms;

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
    book: StoredValue<TaskBook>,
    /// Notified on every change of the book (for `tasks`).
    changed: Trigger,
    /// The tasks' ids in board order; changes only when a task is added or removed.
    ids: RwSignal<Vec<String>>,
    /// The tasks that ask for input not answered yet, in board order: their forms are shown
    /// where there is room for them (the call column), not in their rows.
    asking: RwSignal<Vec<String>>,
    /// A listen stream is open and acknowledged.
    pushing: RwSignal<bool>,
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
    /// The driver loop runs.
    following: StoredValue<bool>,
    /// Cuts the driver's sleep short: the book has something sooner, or discovery said
    /// whether the server pushes snapshots.
    wakeup: Wakeup,
    /// Closes the open listen stream.
    listen_abort: StoredValue<Option<AbortController>, LocalStorage>,
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
            book: StoredValue::new(TaskBook::new()),
            changed: Trigger::new(),
            ids: RwSignal::new(Vec::new()),
            asking: RwSignal::new(Vec::new()),
            pushing: RwSignal::new(false),
            watchers: StoredValue::new(HashMap::new()),
            save_pending: StoredValue::new(false),
            server: RwSignal::new(None),
            storage_problem: RwSignal::new(None),
            follow_with: StoredValue::new(None),
            following: StoredValue::new(false),
            wakeup: Wakeup::new(),
            listen_abort: StoredValue::new_local(None),
        }
    }

    /// Every task, notified on every change (with many tasks prefer `ids` + `watch`).
    pub fn tasks(&self) -> Signal<Vec<TrackedTask>> {
        let (book, changed) = (self.book, self.changed);
        Signal::derive(move || {
            changed.track();
            book.try_with_value(|book| book.tasks().to_vec())
                .unwrap_or_default()
        })
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
        self.read(|book| book.task(task_id).cloned()).flatten()
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
        self.pushing.into()
    }

    /// Follow a task a call just created (once: adopting the same id again changes nothing).
    pub fn adopt(&self, created: &CreateTaskResult, tool: &str) {
        self.adopt_in(created, tool, Era::Modern);
    }

    /// Follow a task a call in `era` created (2025-11-25's tasks are polled and fetched
    /// their own way: the book knows how).
    pub fn adopt_in(&self, created: &CreateTaskResult, tool: &str, era: Era) {
        // The server's stored tasks come first: following shows them, then this one joins.
        self.begin_following();
        let now = now_ms();
        self.with_book(|book| book.adopt_in(created, tool, era, now));
    }

    /// Show the tasks stored for `server` (replacing any shown), without contacting it.
    pub fn load(&self, server: &str) {
        // The shown server's routine changes go to its own key first.
        self.flush();
        let stored: Vec<TrackedTask> =
            storage::load(&storage::key("tasks", server)).unwrap_or_default();
        let other_server = self.server.try_get_untracked().flatten().as_deref() != Some(server);
        self.server.try_set(Some(server.to_owned()));
        self.with_book(|book| book.replace(stored, other_server));
    }

    /// Tell the scene which tasks just came back from storage.
    pub fn announce_restored(&self, traffic: TrafficView) {
        let restored: Vec<_> = self
            .read(|book| {
                book.tasks()
                    .iter()
                    .map(|task| {
                        let stored = serde_json::to_value(task).unwrap_or_default();
                        (task.id().to_owned(), task.tracker().status(), stored)
                    })
                    .collect()
            })
            .unwrap_or_default();
        for (task_id, status, stored) in restored {
            traffic.restored(&task_id, status, stored);
        }
    }

    /// Follow the tasks of the link's server: restore the stored ones, then the driver loop
    /// (polls, and the listen stream when `offers_push` says the server offers it). That
    /// work (and the decoding of task snapshots) is in the engine-work chunk
    /// (`crate::split`), so it starts only once there is a task: one stored for the server,
    /// now or after a switch of server, or one a call creates ([`TaskBoard::adopt`]). Later
    /// calls do nothing.
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
                board.wakeup.wake();
            } else if !server.is_empty() && storage::has(&storage::key("tasks", &server)) {
                board.follow();
            }
        });
        // Discovery's word on pushed snapshots wakes the loop, which tells the book.
        Effect::new(move |_| {
            offers_push.track();
            board.wakeup.wake();
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

    /// Restore the stored tasks of the link's server and start the driver loop, unless it
    /// runs already or [`TaskBoard::start`] was not called.
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
        leptos::task::spawn_local(driver::run(*self, link, traffic, offers_push));
    }

    /// Act on the book, then show what changed, save and wake the loop as it says.
    pub(crate) fn with_book<T>(&self, act: impl FnOnce(&mut TaskBook) -> T) -> Option<T> {
        let outcome = self.book.try_update_value(act)?;
        self.show_changes();
        Some(outcome)
    }

    pub(crate) fn read<T>(&self, read: impl FnOnce(&TaskBook) -> T) -> Option<T> {
        self.book.try_with_value(read)
    }

    /// What the book says changed: notify the views of it, save (now, or soon), and wake the
    /// loop when something is due sooner.
    fn show_changes(&self) {
        let Some((changes, save)) = self
            .book
            .try_update_value(|book| (book.take_changes(), book.take_durability()))
        else {
            return;
        };
        if changes.ids {
            self.refresh_ids();
        }
        if changes.ids || changes.asking {
            self.refresh_asking();
        }
        if changes.all {
            self.notify_all();
        } else {
            changes
                .tasks
                .iter()
                .for_each(|task_id| self.notify(task_id));
        }
        if changes.pushing {
            let pushing = self.read(TaskBook::is_pushing).unwrap_or(false);
            self.pushing.try_set(pushing);
        }
        if !changes.findings.is_empty()
            && let Some(follow) = self.follow_with.try_get_value().flatten()
        {
            follow.link.note_findings(changes.findings);
        }
        if changes.all || changes.ids || !changes.tasks.is_empty() {
            self.changed.notify();
        }
        match save {
            Some(save) if save.urgent => self.save_now(),
            Some(_) => self.save_soon(),
            None => {}
        }
        if changes.wake {
            self.wakeup.wake();
        }
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
        let ids = self.read(TaskBook::ids).unwrap_or_default();
        // Triggers of tasks no longer on the board go with them.
        let on_board: std::collections::HashSet<&String> = ids.iter().collect();
        self.watchers
            .try_update_value(|watchers| watchers.retain(|id, _| on_board.contains(id)));
        if self.ids.try_with_untracked(|shown| *shown != ids) == Some(true) {
            self.ids.try_set(ids);
        }
    }

    fn refresh_asking(&self) {
        let asking = self.read(TaskBook::asking).unwrap_or_default();
        if self.asking.try_with_untracked(|shown| *shown != asking) == Some(true) {
            self.asking.try_set(asking);
        }
    }
}

engine_work! {
    fn follow_tasks(board: TaskBoard) -> Result<(), ChunkMissing> {
        board.begin_following();
        Ok(())
    }
}

pub use crate::clock::now_ms;
