//! `tasks/update` out of order, over real HTTP (wire reference §9.5: the server SHOULD
//! ignore responses whose key is not currently outstanding — never issued, already
//! answered, or superseded — and SHOULD return an error for an unknown `taskId`): an answer
//! that arrives before its question, one that arrives twice, one for a gate already passed,
//! and one for a finished task are acknowledged and change nothing.

mod support;

use std::time::Duration;

use holdbay_engine::model::{ErrorCode, TaskStatus};
use serde_json::json;
use support::TestServer;
use support::session::{Session, accept, wire};

const TASK_TIMEOUT: Duration = Duration::from_secs(30);

#[tokio::test]
async fn answers_out_of_turn_are_acknowledged_and_ignored() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let task_id = mcp
        .start_task("run_pipeline", json!({"duration_seconds": 2}))
        .await;

    // Before the gate asks: the key is not outstanding yet, so this approval is ignored.
    mcp.update_task(&task_id, "approve_prod", accept(json!({"approve": true})))
        .await
        .expect("ack");
    let waiting = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| {
            status != TaskStatus::Working
        })
        .await,
    );
    assert_eq!(
        waiting["status"], "input_required",
        "the early answer did not pass the gate"
    );
    assert!(waiting["inputRequests"]["approve_prod"].is_object());

    // The real answer, then a late one that would say the opposite: the first counts.
    mcp.update_task(&task_id, "approve_prod", accept(json!({"approve": true})))
        .await
        .expect("ack");
    mcp.update_task(&task_id, "approve_prod", accept(json!({"approve": false})))
        .await
        .expect("a repeated answer is acknowledged");
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "completed");
    assert_eq!(
        done["result"]["structuredContent"]["deployed"],
        json!(["staging", "production"])
    );

    // After the end: acknowledged, and the task does not change.
    mcp.update_task(&task_id, "approve_prod", accept(json!({"approve": false})))
        .await
        .expect("ack");
    mcp.update_task(&task_id, "never_asked", accept(json!({})))
        .await
        .expect("ack");
    let after = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
    assert_eq!(after, done);
}

#[tokio::test]
async fn an_update_for_an_unknown_task_is_an_invalid_params_error() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let error = mcp
        .update_task(
            "0123456789abcdef0123456789abcdef",
            "approve_prod",
            accept(json!({"approve": true})),
        )
        .await
        .expect_err("unknown task");
    assert_eq!(error.rpc_code(), Some(ErrorCode::INVALID_PARAMS.0));
    assert!(
        error.to_string().contains(
            "no task 0123456789abcdef0123456789abcdef: it is unknown, has expired, or belongs \
             to another user"
        ),
        "{error}"
    );
}

#[tokio::test]
async fn an_expired_task_is_not_found_by_get_update_or_cancel() {
    let server = TestServer::start(&["--task-ttl-seconds", "1"]);
    let mut mcp = Session::new(server.mcp_url());
    let task_id = mcp
        .start_task("run_pipeline", json!({"duration_seconds": 600}))
        .await;
    mcp.get_task(&task_id).await.expect("known while fresh");
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let expected =
        format!("no task {task_id}: it is unknown, has expired, or belongs to another user");
    let errors = [
        mcp.get_task(&task_id).await.map(|_| ()).expect_err("get"),
        mcp.update_task(&task_id, "approve_prod", accept(json!({"approve": true})))
            .await
            .expect_err("update"),
        mcp.cancel_task(&task_id).await.expect_err("cancel"),
    ];
    for error in errors {
        assert_eq!(
            error.rpc_code(),
            Some(ErrorCode::INVALID_PARAMS.0),
            "{error}"
        );
        assert!(error.to_string().contains(&expected), "{error}");
    }
}
