//! The task book: every task the client follows, behind one sans-IO API. The caller feeds it
//! snapshots, replies and listen events with the time as an argument; it says what to send
//! next ([`TaskBook::poll_transmit`]), when to look again ([`TaskBook::poll_timeout`]), what
//! changed for the views ([`TaskBook::take_changes`]) and what must be saved
//! ([`TaskBook::take_durability`]). Its state is its own: nothing outside writes a tracker.

use std::collections::{BTreeSet, VecDeque};

use rmcp::model::CreateTaskResult;

use crate::builders::answer::InputAnswer;
use crate::machines::task::{TaskEvent, TaskTracker};
use crate::vocabulary::findings::Finding;

mod durability;
mod legacy;
mod listening;
mod tracked;
mod transmit;

pub use durability::SaveNeeded;
pub use tracked::{PollProblem, SnapshotSeen, TrackedTask};
pub use transmit::{TaskTransmit, TransmitKind};

use durability::DurableMark;
use listening::Listening;

/// What changed since [`TaskBook::take_changes`] was last called.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskChanges {
    /// Tasks whose state changed (their rows redraw).
    pub tasks: BTreeSet<String>,
    /// Any task may have changed (a whole new board, a listen stream's acknowledgement).
    pub all: bool,
    /// Tasks came or went.
    pub ids: bool,
    /// Which tasks ask for input may have changed.
    pub asking: bool,
    /// Whether a listen stream pushes the snapshots changed.
    pub pushing: bool,
    /// Something may be due sooner than the caller's timer: ask
    /// [`TaskBook::poll_timeout`] and [`TaskBook::poll_transmit`] again.
    pub wake: bool,
    /// What the server did wrong, for the findings list.
    pub findings: Vec<Finding>,
}

/// A request the user asked for, built when the caller next asks what to send.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Queued {
    kind: TransmitKind,
    task_id: String,
}

/// Every followed task, for one server at a time.
#[derive(Debug, Clone, Default)]
pub struct TaskBook {
    tasks: Vec<TrackedTask>,
    /// Tasks whose `tasks/get` is in flight.
    in_flight: BTreeSet<String>,
    queued: VecDeque<Queued>,
    /// The ids of the tasks still followed, in book order (a listen stream covers them).
    live_ids: Vec<String>,
    listening: Listening,
    changes: TaskChanges,
    save: Option<SaveNeeded>,
}

impl TaskBook {
    pub fn new() -> Self {
        Self::default()
    }

    /// Every task, in the order they came.
    pub fn tasks(&self) -> &[TrackedTask] {
        &self.tasks
    }

    pub fn task(&self, task_id: &str) -> Option<&TrackedTask> {
        self.tasks.iter().find(|task| task.id() == task_id)
    }

    /// The tasks' ids, in book order.
    pub fn ids(&self) -> Vec<String> {
        self.tasks.iter().map(|task| task.id().to_owned()).collect()
    }

    /// The tasks asking for input not answered yet, in book order.
    pub fn asking(&self) -> Vec<String> {
        self.tasks
            .iter()
            .filter(|task| task.tracker().is_asking())
            .map(|task| task.id().to_owned())
            .collect()
    }

    /// What changed since the last call (empty when nothing did).
    pub fn take_changes(&mut self) -> TaskChanges {
        std::mem::take(&mut self.changes)
    }

    /// Whether the book changed since it was last saved, and how soon it must be.
    pub fn take_durability(&mut self) -> Option<SaveNeeded> {
        self.save.take()
    }

    /// Show `tasks` (a server's stored ones) instead of the book's. `other_server`: they
    /// belong to another server than before, which may take listening again.
    pub fn replace(&mut self, tasks: Vec<TrackedTask>, other_server: bool) {
        self.tasks = tasks;
        self.in_flight.clear();
        self.queued.clear();
        if other_server {
            self.listening.reset();
        }
        self.changes.all = true;
        self.changes.ids = true;
        self.changes.asking = true;
        self.changes.wake = true;
        self.saved(false);
        self.refresh_live();
    }

    /// Follow a task a call just created; `false` when it is followed already.
    pub fn adopt(&mut self, created: &CreateTaskResult, tool: &str, now_ms: u64) -> bool {
        if self.task(&created.task.task_id).is_some() {
            return false;
        }
        let tracker = TaskTracker::from_created(created, now_ms);
        self.add(TrackedTask::new(tool, tracker));
        true
    }

    fn add(&mut self, task: TrackedTask) {
        self.tasks.push(task);
        self.changes.ids = true;
        self.changes.asking = true;
        self.changes.wake = true;
        self.saved(true);
        self.refresh_live();
    }

    /// Drop an ended task; `false` when it is not there or still followed.
    pub fn forget(&mut self, task_id: &str) -> bool {
        let before = self.tasks.len();
        self.tasks
            .retain(|task| task.id() != task_id || !task.tracker().is_terminal());
        let removed = self.tasks.len() != before;
        if removed {
            self.changes.ids = true;
            self.changes.asking = true;
            self.saved(true);
            self.refresh_live();
        }
        removed
    }

    /// Choose the answer to the task's request `key` (not sent yet: see
    /// [`TaskBook::send_answers`]); a wrong one says why on the task.
    pub fn choose(&mut self, task_id: &str, key: &str, answer: InputAnswer) {
        self.modify(task_id, |task| {
            let refused = task.tracker_mut().answer(key, answer).err();
            task.set_note(refused.map(|error| error.to_string()));
        });
    }

    /// Take back the answer chosen for `key` before it was sent.
    pub fn unchoose(&mut self, task_id: &str, key: &str) {
        self.modify(task_id, |task| task.tracker_mut().unstage(key));
    }

    /// Send the chosen answers in one `tasks/update`, once every outstanding request of the
    /// task's snapshot has one; returns whether it will go out.
    pub fn send_answers(&mut self, task_id: &str) -> bool {
        let ready = self.task(task_id).is_some_and(|task| {
            let tracker = task.tracker();
            !tracker.is_terminal() && tracker.is_asking() && tracker.awaiting() == 0
        });
        if ready {
            self.queue(TransmitKind::Update, task_id);
        }
        ready
    }

    /// Ask the server to cancel the task. Only a request: the task ends however the server
    /// reports it next (it may still complete or fail).
    pub fn cancel(&mut self, task_id: &str) {
        let live = self.modify(task_id, |task| {
            let live = !task.tracker().is_terminal();
            if live {
                task.set_note(Some("Cancel requested…".into()));
            }
            live
        });
        if live == Some(true) {
            self.queue(TransmitKind::Cancel, task_id);
        }
    }

    fn queue(&mut self, kind: TransmitKind, task_id: &str) {
        self.queued.push_back(Queued {
            kind,
            task_id: task_id.to_owned(),
        });
        self.changes.wake = true;
    }

    /// Change one task (if still in the book), noting what the change touched.
    fn modify<T>(
        &mut self,
        task_id: &str,
        change: impl FnOnce(&mut TrackedTask) -> T,
    ) -> Option<T> {
        let task = self.tasks.iter_mut().find(|task| task.id() == task_id)?;
        let mark = DurableMark::of(task);
        let (next_poll, was_asking) = (task.tracker().next_poll_at(), task.tracker().is_asking());
        let outcome = change(task);
        let after = DurableMark::of(task);
        let next = task.tracker().next_poll_at();
        let asking = task.tracker().is_asking();
        self.changes.tasks.insert(task_id.to_owned());
        self.changes.asking |= was_asking != asking;
        self.changes.wake |= next.is_some() && (next_poll.is_none() || next < next_poll);
        self.saved(after != mark);
        if after.terminal != mark.terminal {
            self.refresh_live();
        }
        Some(outcome)
    }

    /// The tracker's findings join the changes' (its other events show through the book).
    fn note_events(&mut self, events: Vec<TaskEvent>) {
        self.changes
            .findings
            .extend(events.into_iter().filter_map(|event| match event {
                TaskEvent::Finding(finding) => Some(finding),
                _ => None,
            }));
    }

    fn saved(&mut self, urgent: bool) {
        self.save = Some(SaveNeeded { urgent }.merge(self.save));
    }

    /// The set of live tasks changed: a listen stream covering the old set must close (it
    /// reopens for the new one).
    fn refresh_live(&mut self) {
        let live: Vec<String> = self
            .tasks
            .iter()
            .filter(|task| !task.tracker().is_terminal())
            .map(|task| task.id().to_owned())
            .collect();
        if live != self.live_ids {
            self.live_ids = live;
            self.listening.live_set_changed();
            self.changes.wake = true;
        }
    }
}

#[cfg(test)]
mod tests;
