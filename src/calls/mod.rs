//! The session's tool calls: one [`CallRun`] per tool, made on first use and kept by the
//! session, so a view switch (or a look at another tool) loses no call in progress.

mod run;
mod tamper;

use std::collections::HashMap;

use leptos::prelude::*;

use crate::catalog::Catalog;
use crate::link::Link;
use crate::owner::KeepingOwner;
use crate::tasks::TaskBoard;
pub use run::{CallRun, Phase, Progress};
pub use tamper::{LatchTamper, flip_one_character};

/// Every tool's calls. `Copy`: handles only.
#[derive(Clone, Copy)]
pub struct Calls {
    link: Link,
    tasks: TaskBoard,
    catalog: Signal<Catalog>,
    runs: StoredValue<HashMap<String, CallRun>>,
    /// Each call's state lives as long as the session, whichever view first asked for it.
    owner: KeepingOwner,
}

impl Calls {
    pub fn new(link: Link, tasks: TaskBoard, catalog: Signal<Catalog>) -> Self {
        Self {
            link,
            tasks,
            catalog,
            runs: StoredValue::new(HashMap::new()),
            owner: KeepingOwner::here(),
        }
    }

    /// The calls of `tool` (made on first use).
    pub fn run(&self, tool: &str) -> CallRun {
        if let Some(run) = self
            .runs
            .try_with_value(|runs| runs.get(tool).copied())
            .flatten()
        {
            return run;
        }
        let (link, tasks, catalog) = (self.link, self.tasks, self.catalog);
        let run = self
            .owner
            .make(|| CallRun::new(link, tasks, catalog, tool.to_owned()));
        self.runs
            .try_update_value(|runs| runs.insert(tool.to_owned(), run));
        run
    }

    /// Forget every tool's calls (another server was chosen); requests on the wire stop.
    pub fn clear(&self) {
        let runs = self
            .runs
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        for run in runs.into_values() {
            if run.is_live() {
                run.cancel();
            }
        }
    }
}
