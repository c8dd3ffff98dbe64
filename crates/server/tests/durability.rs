//! Tasks outlive the process: `kill -9` mid-task, restart on the same data dir, and a
//! new client polling the old taskId sees the task through.

mod support;

use std::time::Duration;

use holdbay_engine::Step;
use holdbay_engine::model::TaskStatus;
use serde_json::json;
use support::TestServer;
use support::session::{Session, wire};

#[tokio::test]
async fn a_task_survives_kill_9_and_completes_after_restart() {
    let data_dir = tempfile::TempDir::new().expect("data dir");
    let mut first = TestServer::start_in(data_dir.path(), &[]);
    let mut mcp = Session::new(first.mcp_url());
    let call = mcp
        .call(
            "run_pipeline",
            json!({"duration_seconds": 3.5, "target": "staging"}),
            true,
        )
        .await
        .expect("created");
    let Step::Task(created) = call.step else {
        panic!("expected a task, got {:?}", call.step);
    };
    let task_id = created.task.task_id;
    // Let it finish a couple of steps, so the restart resumes from the middle.
    loop {
        let task = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
        let message = task["statusMessage"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if message.starts_with("Step 3") {
            break;
        }
        assert_eq!(task["status"], "working", "{task:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    first.kill_hard();

    let second = TestServer::start_in(data_dir.path(), &[]);
    assert_ne!(first.address, second.address, "a new process on a new port");
    let mut fresh = Session::new(second.mcp_url());
    let resumed = wire(
        &fresh
            .get_task(&task_id)
            .await
            .expect("the old taskId resolves"),
    );
    assert!(
        resumed["statusMessage"]
            .as_str()
            .is_some_and(|message| message.starts_with("Step 3")
                || message.starts_with("Step 4")
                || message.starts_with("Step 5")
                || message.starts_with("Step 6")),
        "resumed from its last step, not from the start: {resumed:?}"
    );
    let done = fresh
        .poll_until(&task_id, Duration::from_secs(30), |status| {
            status.is_terminal()
        })
        .await;
    assert_eq!(done.status(), TaskStatus::Completed);
    assert_eq!(
        wire(&done)["result"]["structuredContent"]["deployed"],
        json!(["staging"])
    );
}

#[tokio::test]
async fn tasks_expire_after_their_ttl() {
    let server = TestServer::start(&["--task-ttl-seconds", "1"]);
    let mut mcp = Session::new(server.mcp_url());
    let call = mcp
        .call("bulk_import", json!({"duration_seconds": 30}), true)
        .await
        .expect("created");
    let Step::Task(created) = call.step else {
        panic!("expected a task");
    };
    assert_eq!(created.task.ttl_ms, Some(1000));
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let error = mcp
        .get_task(&created.task.task_id)
        .await
        .expect_err("expired");
    assert_eq!(error.rpc_code(), Some(-32602));
}
