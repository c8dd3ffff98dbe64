//! The session's logical requests that may pause for input: one [`Run`] per tool (its
//! calls), per prompt (its gets) and per resource URI (its reads), made on first use and
//! kept by the session, so a view switch (or a look at another tool) loses none in progress.

mod run;
mod tamper;

use std::collections::HashMap;

use leptos::prelude::*;

use crate::catalog::Catalog;
use crate::link::Link;
use crate::owner::KeepingOwner;
use crate::tasks::TaskBoard;
pub use run::{CallRun, Phase, Progress, PromptRun, ReadRun, Run, RunMethod};
pub use tamper::{LatchTamper, flip_one_character};

/// Every tool's calls (or prompt's gets, or URI's reads). `Copy`: handles only.
pub struct Runs<M: RunMethod> {
    link: Link,
    tasks: TaskBoard,
    catalog: Signal<Catalog>,
    runs: StoredValue<HashMap<String, Run<M>>>,
    /// Each run's state lives as long as the session, whichever view first asked for it.
    owner: KeepingOwner,
}

impl<M: RunMethod> Clone for Runs<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: RunMethod> Copy for Runs<M> {}

/// Every tool's calls.
pub type Calls = Runs<holdbay_engine::CallTool>;

impl<M: RunMethod> Runs<M> {
    pub fn new(link: Link, tasks: TaskBoard, catalog: Signal<Catalog>) -> Self {
        Self {
            link,
            tasks,
            catalog,
            runs: StoredValue::new(HashMap::new()),
            owner: KeepingOwner::here(),
        }
    }

    /// The runs of `key` (a tool, a prompt, a URI; made on first use).
    pub fn run(&self, key: &str) -> Run<M> {
        if let Some(run) = self
            .runs
            .try_with_value(|runs| runs.get(key).copied())
            .flatten()
        {
            return run;
        }
        let (link, tasks, catalog) = (self.link, self.tasks, self.catalog);
        let run = self
            .owner
            .make(|| Run::new(link, tasks, catalog, key.to_owned()));
        self.runs
            .try_update_value(|runs| runs.insert(key.to_owned(), run));
        run
    }

    /// Forget every run (another server was chosen); requests on the wire stop.
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
