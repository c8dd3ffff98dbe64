//! Drives stored tasks: one worker per unfinished task, resumed after a restart; TTL
//! expiry; and a broadcast of every change for `subscriptions/listen`.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{DetailedTask, InputResponses, JsonObject, Task, TaskStatus};
use serde_json::Value;
use tokio::sync::{Notify, broadcast};

use super::clock::now_ms;
use super::job::{JobRegistry, StepInput, StepOutcome};
use super::record::TaskRecord;
use super::store::{StoreError, TaskStore};

/// How often expired tasks are deleted.
const SWEEP_EVERY: Duration = Duration::from_secs(30);
/// A parked worker looks at its task again at least this often.
const PARKED_RECHECK: Duration = Duration::from_secs(5);

/// How a new task starts out.
#[derive(Debug, Clone)]
pub struct CreateOptions {
    pub poll_interval_ms: u64,
    pub status_message: Option<String>,
}

impl Default for CreateOptions {
    fn default() -> Self {
        Self {
            poll_interval_ms: 1000,
            status_message: None,
        }
    }
}

/// A task's new state, for its owner's listen streams.
#[derive(Debug, Clone)]
pub struct TaskChange {
    pub owner: String,
    pub task: DetailedTask,
}

/// The task engine of one `holdbay serve` process.
#[derive(Debug)]
pub struct TaskRuntime {
    store: TaskStore,
    jobs: JobRegistry,
    changes: broadcast::Sender<TaskChange>,
    wakers: Mutex<HashMap<String, Arc<Notify>>>,
    running: Mutex<HashSet<String>>,
    max_live_per_owner: usize,
    task_ttl: Duration,
}

impl TaskRuntime {
    /// Start the runtime: resume every unfinished task and begin sweeping expired ones.
    /// Must be called inside a Tokio runtime.
    pub fn start(
        store: TaskStore,
        jobs: JobRegistry,
        max_live_per_owner: usize,
        task_ttl: Duration,
    ) -> Result<Arc<Self>, StoreError> {
        let (changes, _) = broadcast::channel(1024);
        let runtime = Arc::new(Self {
            store,
            jobs,
            changes,
            wakers: Mutex::default(),
            running: Mutex::default(),
            max_live_per_owner,
            task_ttl,
        });
        runtime.store.purge_expired(now_ms())?;
        for task_id in runtime.store.live_task_ids()? {
            runtime.spawn_worker(task_id);
        }
        let sweeper = Arc::downgrade(&runtime);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            loop {
                every.tick().await;
                let Some(runtime) = sweeper.upgrade() else {
                    break;
                };
                let store = runtime.store.clone();
                let _ = tokio::task::spawn_blocking(move || store.purge_expired(now_ms())).await;
            }
        });
        Ok(runtime)
    }

    /// Every change from now on (status, statusMessage, input requests, outcome).
    pub fn changes(&self) -> broadcast::Receiver<TaskChange> {
        self.changes.subscribe()
    }

    /// Commit a new task for `owner`, start its work, and return its handle. The task is
    /// on disk before this returns, so `tasks/get` resolves as soon as the client has it.
    pub async fn create(
        self: &Arc<Self>,
        owner: &str,
        kind: &str,
        arguments: JsonObject,
        options: CreateOptions,
    ) -> Result<Task, ErrorData> {
        if !self.jobs.contains(kind) {
            return Err(ErrorData::internal_error(
                format!("no task job is registered for {kind}"),
                None,
            ));
        }
        let now = now_ms();
        let record = TaskRecord {
            task_id: new_task_id()?,
            owner: owner.to_owned(),
            kind: kind.to_owned(),
            arguments,
            status: TaskStatus::Working,
            status_message: options.status_message,
            step: 0,
            memory: Value::Null,
            pending: Default::default(),
            answers: Default::default(),
            asked_keys: Vec::new(),
            outcome: None,
            cancel_requested: false,
            created_ms: now,
            updated_ms: now,
            ttl_ms: u64::try_from(self.task_ttl.as_millis()).unwrap_or(u64::MAX),
            poll_interval_ms: options.poll_interval_ms,
        };
        let max_live = self.max_live_per_owner;
        let stored = record.clone();
        self.blocking(move |store| store.insert(&stored, max_live))
            .await?;
        self.spawn_worker(record.task_id.clone());
        Ok(record.task())
    }

    /// The task as `tasks/get` reports it. Another owner's task is simply not found.
    pub async fn get(&self, owner: &str, task_id: &str) -> Result<DetailedTask, ErrorData> {
        Ok(self.load_owned(owner, task_id).await?.detailed())
    }

    /// Deliver answers. Keys that are not outstanding are ignored, as the spec asks.
    pub async fn update(
        &self,
        owner: &str,
        task_id: &str,
        responses: InputResponses,
    ) -> Result<(), ErrorData> {
        let record = self.load_owned(owner, task_id).await?;
        if record.is_terminal() {
            return Ok(());
        }
        let id = task_id.to_owned();
        let changed = self
            .blocking(move |store| store.answer(&id, &responses, now_ms()))
            .await?;
        if changed {
            self.publish(task_id).await;
            self.wake(task_id);
        }
        Ok(())
    }

    /// Ask for cancellation. The work stops at its next step boundary, so the task may
    /// still end `completed` or `failed`: cancel is a request, not a guarantee.
    pub async fn cancel(&self, owner: &str, task_id: &str) -> Result<(), ErrorData> {
        self.load_owned(owner, task_id).await?;
        let id = task_id.to_owned();
        if self
            .blocking(move |store| store.request_cancel(&id))
            .await?
        {
            self.wake(task_id);
        }
        Ok(())
    }

    /// Of `task_ids`, those that exist and belong to `owner`.
    pub async fn owned(&self, owner: &str, task_ids: &[String]) -> Vec<String> {
        let mut owned = Vec::new();
        for task_id in task_ids {
            if self.load_owned(owner, task_id).await.is_ok() {
                owned.push(task_id.clone());
            }
        }
        owned
    }

    async fn load_owned(&self, owner: &str, task_id: &str) -> Result<TaskRecord, ErrorData> {
        let id = task_id.to_owned();
        let record = self.blocking(move |store| store.load(&id)).await?;
        match record {
            Some(record) if record.owner == owner && record.expires_ms() > now_ms() => Ok(record),
            _ => Err(ErrorData::invalid_params(
                format!(
                    "no task {task_id}: it is unknown, has expired, or belongs to another user"
                ),
                None,
            )),
        }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&TaskStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, ErrorData> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || work(&store))
            .await
            .map_err(|error| ErrorData::internal_error(format!("task store: {error}"), None))?
            .map_err(|error| match error {
                StoreError::TooManyLive(limit) => ErrorData::invalid_request(
                    format!(
                        "task limit reached: this user already has {limit} unfinished tasks; \
                         wait for one to finish or cancel one"
                    ),
                    Some(serde_json::json!({ "maxLiveTasks": limit })),
                ),
                other => ErrorData::internal_error(other.to_string(), None),
            })
    }

    async fn publish(&self, task_id: &str) {
        let id = task_id.to_owned();
        if let Ok(Some(record)) = self.blocking(move |store| store.load(&id)).await {
            let _ = self.changes.send(TaskChange {
                owner: record.owner.clone(),
                task: record.detailed(),
            });
        }
    }

    fn waker(&self, task_id: &str) -> Arc<Notify> {
        let mut wakers = self
            .wakers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        wakers.entry(task_id.to_owned()).or_default().clone()
    }

    fn wake(&self, task_id: &str) {
        self.waker(task_id).notify_one();
    }

    fn spawn_worker(self: &Arc<Self>, task_id: String) {
        {
            let mut running = self
                .running
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if !running.insert(task_id.clone()) {
                return;
            }
        }
        let runtime = Arc::clone(self);
        tokio::spawn(async move {
            runtime.work(&task_id).await;
            runtime
                .running
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .remove(&task_id);
            runtime
                .wakers
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .remove(&task_id);
        });
    }

    /// Run one task's steps until it is terminal or gone.
    async fn work(self: &Arc<Self>, task_id: &str) {
        let waker = self.waker(task_id);
        loop {
            let id = task_id.to_owned();
            let record = match self.blocking(move |store| store.load(&id)).await {
                Ok(Some(record)) if !record.is_terminal() => record,
                _ => return,
            };
            if record.cancel_requested {
                self.finish(
                    task_id,
                    TaskStatus::Cancelled,
                    None,
                    Some("Cancelled at the client's request"),
                )
                .await;
                return;
            }
            if record.status == TaskStatus::InputRequired {
                let _ = tokio::time::timeout(PARKED_RECHECK, waker.notified()).await;
                continue;
            }
            let Some(job) = self.jobs.get(&record.kind) else {
                let error = ErrorData::internal_error(
                    format!(
                        "this server no longer knows how to run {} tasks",
                        record.kind
                    ),
                    None,
                );
                self.fail(task_id, &error).await;
                return;
            };
            // Run the step on its own task so that a panic fails this task, not the server.
            let step = tokio::spawn(async move {
                let input = StepInput {
                    task_id: &record.task_id,
                    arguments: &record.arguments,
                    step: record.step,
                    memory: &record.memory,
                    answers: &record.answers,
                };
                (job.step(input).await, record.step)
            })
            .await;
            let (outcome, step) = match step {
                Ok(done) => done,
                Err(error) => {
                    let error = ErrorData::internal_error(
                        format!("the task's work crashed: {error}"),
                        None,
                    );
                    self.fail(task_id, &error).await;
                    return;
                }
            };
            self.record_outcome(task_id, step, outcome).await;
        }
    }

    async fn record_outcome(&self, task_id: &str, step: u32, outcome: StepOutcome) {
        let id = task_id.to_owned();
        let now = now_ms();
        let stored = match outcome {
            StepOutcome::Continue {
                memory,
                status_message,
            } => {
                self.blocking(move |store| {
                    store.advance(
                        &id,
                        step.saturating_add(1),
                        &memory,
                        status_message.as_deref(),
                        now,
                    )
                })
                .await
            }
            StepOutcome::Ask {
                requests,
                status_message,
            } => {
                let record = self.blocking({
                    let id = id.clone();
                    move |store| store.load(&id)
                });
                let reused = match record.await {
                    Ok(Some(record)) => requests
                        .keys()
                        .find(|key| record.asked_keys.contains(key))
                        .cloned(),
                    _ => None,
                };
                if let Some(key) = reused {
                    let error = ErrorData::internal_error(
                        format!("the task asked for input key {key} a second time"),
                        None,
                    );
                    self.fail(task_id, &error).await;
                    return;
                }
                self.blocking(move |store| {
                    store.ask(&id, &requests, status_message.as_deref(), now)
                })
                .await
            }
            StepOutcome::Complete(result) => {
                // The last progress message would be stale now: the result's own words replace it.
                let message = completed_message(&result);
                let result = serde_json::to_value(&result)
                    .ok()
                    .and_then(|value| value.as_object().cloned())
                    .unwrap_or_default();
                self.blocking(move |store| {
                    store.finish(
                        &id,
                        TaskStatus::Completed,
                        Some(&result),
                        Some(&message),
                        now,
                    )
                })
                .await
            }
            StepOutcome::Fail(error) => {
                self.fail(task_id, &error).await;
                return;
            }
        };
        if matches!(stored, Ok(true)) {
            self.publish(task_id).await;
        }
    }

    async fn fail(&self, task_id: &str, error: &ErrorData) {
        let outcome = serde_json::to_value(error)
            .ok()
            .and_then(|value| value.as_object().cloned())
            .unwrap_or_default();
        let message = error.message.to_string();
        self.finish(task_id, TaskStatus::Failed, Some(outcome), Some(&message))
            .await;
    }

    async fn finish(
        &self,
        task_id: &str,
        status: TaskStatus,
        outcome: Option<JsonObject>,
        status_message: Option<&str>,
    ) {
        let id = task_id.to_owned();
        let message = status_message.map(str::to_owned);
        let now = now_ms();
        let finished = self
            .blocking(move |store| {
                store.finish(&id, status, outcome.as_ref(), message.as_deref(), now)
            })
            .await;
        if matches!(finished, Ok(true)) {
            self.publish(task_id).await;
        }
    }
}

/// A completed task's status message: the first line of its result's text, else "Completed".
fn completed_message(result: &rmcp::model::CallToolResult) -> String {
    const LONGEST: usize = 200;
    let text = result
        .content
        .iter()
        .find_map(|block| block.as_text().map(|text| text.text.as_str()))
        .and_then(|text| text.lines().next())
        .filter(|line| !line.trim().is_empty())
        .unwrap_or("Completed");
    text.chars().take(LONGEST).collect()
}

/// 128 random bits, hex: unguessable, as the spec requires.
fn new_task_id() -> Result<String, ErrorData> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|error| ErrorData::internal_error(format!("no randomness: {error}"), None))?;
    Ok(hex::encode(bytes))
}
