//! Durable tasks: a SQLite store, jobs that run in resumable steps, and a runtime that
//! drives them, survives restarts and tells listeners about every change.

mod clock;
mod job;
mod record;
mod runtime;
mod store;

pub use clock::{iso8601, now_ms};
pub use job::{BoxFuture, JobRegistry, StepInput, StepOutcome, TaskJob};
pub use record::TaskRecord;
pub use runtime::{CreateOptions, TaskChange, TaskRuntime};
pub use store::TaskStore;

#[cfg(test)]
mod tests;
