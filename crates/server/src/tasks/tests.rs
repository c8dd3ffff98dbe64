//! The runtime against a real SQLite file, with tiny jobs whose steps are instant.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolResult, ContentBlock, ElicitRequest, ElicitRequestParams, InputRequest, TaskStatus,
};
use serde_json::{Value, json};

use super::*;

/// A fresh data dir per test.
fn data_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("holdbay-tasks-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn question() -> InputRequest {
    let params: ElicitRequestParams = serde_json::from_value(json!({
        "mode": "form",
        "message": "Go on?",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    }))
    .expect("form params");
    InputRequest::Elicitation(ElicitRequest::new(params))
}

/// `steps` steps, each `step_ms` long; asks `gate` (and `extra`, if any) before step 1.
struct Countdown {
    steps: u32,
    step_ms: u64,
    ask: Vec<&'static str>,
    started: Arc<AtomicU32>,
}

impl TaskJob for Countdown {
    fn step<'a>(&'a self, input: StepInput<'a>) -> BoxFuture<'a, StepOutcome> {
        Box::pin(async move {
            self.started.fetch_add(1, Ordering::SeqCst);
            if input.step == 1 && self.ask.iter().any(|key| !input.answers.contains_key(*key)) {
                return StepOutcome::Ask {
                    requests: self
                        .ask
                        .iter()
                        .map(|key| (key.to_string(), question()))
                        .collect(),
                    status_message: Some("waiting".into()),
                };
            }
            tokio::time::sleep(Duration::from_millis(self.step_ms)).await;
            if input.step + 1 < self.steps {
                StepOutcome::Continue {
                    memory: json!(input.step),
                    status_message: Some(format!("step {}", input.step + 1)),
                }
            } else {
                StepOutcome::Complete(CallToolResult::success(vec![ContentBlock::text(format!(
                    "answers: {}",
                    input.answers.len()
                ))]))
            }
        })
    }
}

fn runtime(dir: &std::path::Path, job: Countdown, max_live: usize) -> Arc<TaskRuntime> {
    let mut jobs = JobRegistry::new();
    jobs.register("countdown", job);
    TaskRuntime::start(
        TaskStore::open(dir).expect("store"),
        jobs,
        max_live,
        Duration::from_secs(3600),
    )
    .expect("runtime")
}

fn countdown(steps: u32, step_ms: u64, ask: Vec<&'static str>) -> (Countdown, Arc<AtomicU32>) {
    let started = Arc::new(AtomicU32::new(0));
    (
        Countdown {
            steps,
            step_ms,
            ask,
            started: started.clone(),
        },
        started,
    )
}

/// Start a countdown task for `owner`.
async fn start(
    runtime: &Arc<TaskRuntime>,
    owner: &str,
) -> Result<rmcp::model::Task, rmcp::ErrorData> {
    runtime
        .create(
            owner,
            "countdown",
            Default::default(),
            CreateOptions::default(),
        )
        .await
}

async fn settle(
    runtime: &TaskRuntime,
    owner: &str,
    task_id: &str,
    wanted: TaskStatus,
) -> rmcp::model::DetailedTask {
    for _ in 0..400 {
        let task = runtime.get(owner, task_id).await.expect("task");
        if task.status() == wanted {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {task_id} never reached {wanted:?}");
}

#[tokio::test]
async fn a_task_is_readable_as_soon_as_create_returns_and_completes() {
    let dir = data_dir("create");
    let (job, _) = countdown(3, 5, vec![]);
    let runtime = runtime(&dir, job, 8);
    let task = start(&runtime, "alice").await.expect("created");
    assert_eq!(task.status, TaskStatus::Working);
    runtime
        .get("alice", &task.task_id)
        .await
        .expect("readable at once");
    let done = settle(&runtime, "alice", &task.task_id, TaskStatus::Completed).await;
    let wire = serde_json::to_value(&done).expect("json");
    assert_eq!(wire["result"]["content"][0]["text"], "answers: 0");
    assert_eq!(wire["ttlMs"], 3_600_000);
    // Not the last step's "step 1": a finished task's message says how it finished.
    assert_eq!(wire["statusMessage"], "answers: 0");
}

#[tokio::test]
async fn another_users_task_is_simply_not_found() {
    let dir = data_dir("owner");
    let (job, _) = countdown(2, 200, vec![]);
    let runtime = runtime(&dir, job, 8);
    let task = start(&runtime, "alice").await.expect("created");
    let error = runtime
        .get("bob", &task.task_id)
        .await
        .expect_err("bob cannot see it");
    assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
    assert!(runtime.cancel("bob", &task.task_id).await.is_err());
    assert!(
        runtime
            .update("bob", &task.task_id, Default::default())
            .await
            .is_err()
    );
    assert!(runtime.get("alice", "no-such-task").await.is_err());
}

#[tokio::test]
async fn updates_take_only_outstanding_keys_and_partial_answers_keep_waiting() {
    let dir = data_dir("update");
    let (job, _) = countdown(3, 1, vec!["a", "b"]);
    let runtime = runtime(&dir, job, 8);
    let task = start(&runtime, "alice").await.expect("created");
    let waiting = settle(&runtime, "alice", &task.task_id, TaskStatus::InputRequired).await;
    let wire = serde_json::to_value(&waiting).expect("json");
    assert_eq!(
        wire["inputRequests"].as_object().map(|keys| keys.len()),
        Some(2)
    );

    let answer = json!({"action": "accept", "content": {"ok": true}});
    runtime
        .update(
            "alice",
            &task.task_id,
            [("never-asked".to_string(), answer.clone())].into(),
        )
        .await
        .expect("ack");
    runtime
        .update(
            "alice",
            &task.task_id,
            [("a".to_string(), answer.clone())].into(),
        )
        .await
        .expect("ack");
    let partial = serde_json::to_value(runtime.get("alice", &task.task_id).await.expect("task"))
        .expect("json");
    assert_eq!(partial["status"], "input_required");
    assert_eq!(
        partial["inputRequests"]
            .as_object()
            .map(|keys| keys.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["b".to_string()])
    );

    // "a" again is ignored (already satisfied); "b" completes the set.
    runtime
        .update(
            "alice",
            &task.task_id,
            [
                ("a".to_string(), json!("ignored")),
                ("b".to_string(), answer),
            ]
            .into(),
        )
        .await
        .expect("ack");
    let done = settle(&runtime, "alice", &task.task_id, TaskStatus::Completed).await;
    assert_eq!(
        serde_json::to_value(&done).expect("json")["result"]["content"][0]["text"],
        "answers: 2"
    );
}

#[tokio::test]
async fn cancel_is_honoured_between_steps_and_terminal_states_never_change() {
    let dir = data_dir("cancel");
    let (job, _) = countdown(50, 20, vec![]);
    let runtime = runtime(&dir, job, 8);
    let task = start(&runtime, "alice").await.expect("created");
    runtime.cancel("alice", &task.task_id).await.expect("ack");
    let cancelled = settle(&runtime, "alice", &task.task_id, TaskStatus::Cancelled).await;
    // Late updates and cancels are acknowledged but change nothing.
    runtime.cancel("alice", &task.task_id).await.expect("ack");
    runtime
        .update(
            "alice",
            &task.task_id,
            [("a".to_string(), Value::Null)].into(),
        )
        .await
        .expect("ack");
    tokio::time::sleep(Duration::from_millis(60)).await;
    let later = runtime.get("alice", &task.task_id).await.expect("task");
    assert_eq!(later, cancelled);
}

#[tokio::test]
async fn a_cancel_during_the_last_step_loses_the_race() {
    let dir = data_dir("race");
    let (job, started) = countdown(2, 300, vec![]);
    let runtime = runtime(&dir, job, 8);
    let task = start(&runtime, "alice").await.expect("created");
    while started.load(Ordering::SeqCst) < 2 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    runtime.cancel("alice", &task.task_id).await.expect("ack");
    settle(&runtime, "alice", &task.task_id, TaskStatus::Completed).await;
}

#[tokio::test]
async fn the_live_task_limit_is_per_user() {
    let dir = data_dir("limit");
    let (job, _) = countdown(100, 50, vec![]);
    let runtime = runtime(&dir, job, 2);
    for _ in 0..2 {
        start(&runtime, "alice").await.expect("within the limit");
    }
    let error = runtime
        .create(
            "alice",
            "countdown",
            Default::default(),
            CreateOptions::default(),
        )
        .await
        .expect_err("over the limit");
    assert!(error.message.contains("task limit"), "{}", error.message);
    start(&runtime, "bob").await.expect("bob has his own limit");
}

#[tokio::test]
async fn a_cancelled_task_frees_its_slot_at_once() {
    let dir = data_dir("cancel-slot");
    // One step of a minute: the cancel is honoured only when it ends.
    let (job, started) = countdown(1, 60_000, vec![]);
    let runtime = runtime(&dir, job, 1);
    let first = start(&runtime, "alice").await.expect("created");
    // Cancel once its step is under way: a task cancelled before its first step starts is
    // cancelled at once (on a loaded machine the worker may not have begun yet).
    for _ in 0..500 {
        if started.load(Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(started.load(Ordering::SeqCst), 1, "the step never started");
    let refused = start(&runtime, "alice")
        .await
        .expect_err("the one slot is taken");
    assert!(
        refused.message.contains("task limit"),
        "{}",
        refused.message
    );
    runtime.cancel("alice", &first.task_id).await.expect("ack");
    // Still working (cancel is cooperative), yet its slot is free.
    let still = runtime.get("alice", &first.task_id).await.expect("task");
    assert_eq!(still.status(), TaskStatus::Working);
    let second = start(&runtime, "alice").await.expect("the slot was freed");
    assert_ne!(second.task_id, first.task_id);
    // And the new task holds it again.
    start(&runtime, "alice")
        .await
        .expect_err("one live task again");
}

#[tokio::test]
async fn a_new_runtime_on_the_same_store_resumes_unfinished_tasks() {
    let dir = data_dir("resume");
    let task_id = {
        let (job, _) = countdown(1, 60_000, vec![]);
        let first = runtime(&dir, job, 8);
        let task = start(&first, "alice").await.expect("created");
        task.task_id
        // `first` is dropped with its step still sleeping: like a killed process.
    };
    let (job, started) = countdown(1, 1, vec![]);
    let second = runtime(&dir, job, 8);
    settle(&second, "alice", &task_id, TaskStatus::Completed).await;
    assert!(started.load(Ordering::SeqCst) >= 1);
}

#[tokio::test]
async fn listeners_hear_every_change() {
    let dir = data_dir("changes");
    let (job, _) = countdown(2, 1, vec![]);
    let runtime = runtime(&dir, job, 8);
    let mut changes = runtime.changes();
    let task = start(&runtime, "alice").await.expect("created");
    let mut seen = Vec::new();
    while let Ok(Ok(change)) = tokio::time::timeout(Duration::from_secs(5), changes.recv()).await {
        assert_eq!(change.owner, "alice");
        assert_eq!(change.task.task.task_id, task.task_id);
        seen.push(change.task.status());
        if change.task.status().is_terminal() {
            break;
        }
    }
    assert_eq!(seen, vec![TaskStatus::Working, TaskStatus::Completed]);
}
