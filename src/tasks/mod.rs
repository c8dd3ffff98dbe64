//! The tasks this page follows: created by calls, kept in `localStorage` per server,
//! polled (or pushed over `subscriptions/listen`) until they end.

use holdbay_engine::TaskTracker;
use holdbay_engine::model::CreateTaskResult;
use leptos::prelude::*;

/// One followed task.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackedTask {
    /// The tool whose call created it.
    pub tool: String,
    pub tracker: TaskTracker,
}

/// Every task the page follows.
#[derive(Debug, Clone, Copy)]
pub struct TaskBoard {
    tasks: RwSignal<Vec<TrackedTask>>,
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
        }
    }

    pub fn tasks(&self) -> Signal<Vec<TrackedTask>> {
        self.tasks.into()
    }

    /// Follow a task a call just created.
    pub fn adopt(&self, created: &CreateTaskResult, tool: &str) {
        let tracker = TaskTracker::from_created(created, js_sys::Date::now() as u64);
        self.tasks.update(|tasks| {
            tasks.push(TrackedTask {
                tool: tool.to_owned(),
                tracker,
            })
        });
    }
}
