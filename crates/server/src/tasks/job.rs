//! What a task does, as a sequence of resumable steps.
//!
//! A job never keeps state in memory between steps: everything it needs is in
//! [`StepInput`] (the call's arguments, the step number, its own JSON memory and the
//! answers it received), which the runtime reloads from SQLite. So a task that was
//! running when the process died simply reruns its current step after a restart.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, InputRequests, InputResponses, JsonObject};
use serde_json::Value;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Everything a step may look at.
#[derive(Debug, Clone, Copy)]
pub struct StepInput<'a> {
    pub task_id: &'a str,
    /// The `tools/call` arguments the task was created with.
    pub arguments: &'a JsonObject,
    /// Steps completed so far (0 for the first step).
    pub step: u32,
    /// What earlier steps chose to remember (`null` at first).
    pub memory: &'a Value,
    /// Every answer received so far, by input-request key.
    pub answers: &'a InputResponses,
}

impl StepInput<'_> {
    /// A number argument clamped to `range`, or `default` when absent (the call already
    /// validated it; a stored task is trusted to have been valid).
    pub fn number_argument(
        &self,
        name: &str,
        default: f64,
        range: std::ops::RangeInclusive<f64>,
    ) -> f64 {
        self.arguments
            .get(name)
            .and_then(Value::as_f64)
            .unwrap_or(default)
            .clamp(*range.start(), *range.end())
    }
}

/// What one step ended with.
#[derive(Debug)]
pub enum StepOutcome {
    /// Go on with the next step.
    Continue {
        memory: Value,
        status_message: Option<String>,
    },
    /// Park in `input_required` until every key is answered, then rerun this step.
    /// Keys must be new for the task's lifetime (the runtime refuses reused keys).
    Ask {
        requests: InputRequests,
        status_message: Option<String>,
    },
    /// Terminal `completed`: the tool's result (an `isError` result is still completed).
    Complete(CallToolResult),
    /// Terminal `failed`: the JSON-RPC error that ended the work.
    Fail(ErrorData),
}

/// A kind of task. Implementations are registered by name before the runtime starts, so
/// a restarted process can resume every stored task.
pub trait TaskJob: Send + Sync + 'static {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome>;
}

/// The jobs a runtime can run, by kind.
#[derive(Default, Clone)]
pub struct JobRegistry {
    jobs: HashMap<String, Arc<dyn TaskJob>>,
}

impl JobRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn register(&mut self, kind: impl Into<String>, job: impl TaskJob) {
        self.jobs.insert(kind.into(), Arc::new(job));
    }

    pub fn get(&self, kind: &str) -> Option<Arc<dyn TaskJob>> {
        self.jobs.get(kind).cloned()
    }

    pub fn contains(&self, kind: &str) -> bool {
        self.jobs.contains_key(kind)
    }
}

impl std::fmt::Debug for JobRegistry {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut kinds: Vec<_> = self.jobs.keys().collect();
        kinds.sort();
        formatter
            .debug_struct("JobRegistry")
            .field("kinds", &kinds)
            .finish()
    }
}
