//! What the demo server refuses: forged, expired or re-bound `requestState`, another
//! user's tasks, and more unfinished tasks than a user may have.

mod support;

use std::time::Duration;

use holdbay_engine::Step;
use holdbay_engine::model::ErrorCode;
use serde_json::{Value, json};
use support::TestServer;
use support::session::{Session, accept};

/// The body of the first round's retry, with `edit` applied to its params.
async fn retry_with(
    mcp: &Session,
    tool: &str,
    arguments: Value,
    state: &str,
    answer: Value,
) -> Result<(), holdbay_engine::ResponseError> {
    let mut client = holdbay_engine::Client::default();
    let mut params = rmcp_params(tool, arguments);
    params.request_state = Some(state.to_owned());
    params.input_responses = Some([("party".to_owned(), answer)].into());
    let request = client.request::<holdbay_engine::CallTool>(params, &Default::default());
    mcp.send(&request).await.map(|_| ())
}

fn rmcp_params(tool: &str, arguments: Value) -> holdbay_engine::model::CallToolRequestParams {
    let mut params = holdbay_engine::model::CallToolRequestParams::new(tool.to_owned());
    params.arguments = arguments.as_object().cloned();
    params
}

async fn first_state(mcp: &mut Session, tool: &str, arguments: Value) -> String {
    let call = mcp.call(tool, arguments, false).await.expect("round 1");
    assert!(matches!(call.step, Step::NeedsInput));
    call.logical.rounds()[0]
        .request_state
        .clone()
        .expect("a sealed state")
}

fn assert_refused(result: Result<(), holdbay_engine::ResponseError>, words: &str) {
    let error = result.expect_err("the state is refused");
    assert_eq!(
        error.rpc_code(),
        Some(ErrorCode::INVALID_PARAMS.0),
        "{error}"
    );
    assert!(error.to_string().contains(words), "{error}");
}

#[tokio::test]
async fn a_tampered_state_is_refused() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let state = first_state(&mut mcp, "book_table", json!({})).await;
    // Change one character of the payload part, keep the signature.
    let mut parts: Vec<String> = state.split('.').map(str::to_owned).collect();
    let payload = parts.get_mut(1).expect("rs1.payload.signature");
    let flipped = if payload.ends_with('A') { 'B' } else { 'A' };
    payload.pop();
    payload.push(flipped);
    let tampered = parts.join(".");
    let answer = accept(json!({"size": "4", "time": "18:00"}));
    assert_refused(
        retry_with(&mcp, "book_table", json!({}), &tampered, answer.clone()).await,
        "integrity",
    );
    assert_refused(
        retry_with(&mcp, "book_table", json!({}), "rs1.garbage", answer.clone()).await,
        "malformed",
    );
    // The untouched state still works.
    retry_with(&mcp, "book_table", json!({}), &state, answer)
        .await
        .expect("the real state opens");
}

#[tokio::test]
async fn a_state_is_bound_to_its_tool_and_arguments() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let state = first_state(&mut mcp, "book_table", json!({"restaurant": "A"})).await;
    let answer = accept(json!({"size": "4", "time": "18:00"}));
    assert_refused(
        retry_with(
            &mcp,
            "book_table",
            json!({"restaurant": "B"}),
            &state,
            answer.clone(),
        )
        .await,
        "integrity",
    );
    assert_refused(
        retry_with(&mcp, "deploy", json!({"restaurant": "A"}), &state, answer).await,
        "integrity",
    );
}

#[tokio::test]
async fn an_expired_state_is_refused() {
    let server = TestServer::start(&["--state-ttl-seconds", "1"]);
    let mut mcp = Session::new(server.mcp_url());
    let state = first_state(&mut mcp, "book_table", json!({})).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let answer = accept(json!({"size": "4", "time": "18:00"}));
    assert_refused(
        retry_with(&mcp, "book_table", json!({}), &state, answer).await,
        "expired",
    );
}

const ALICE: &str = "alice:alice-secret-1";
const BOB: &str = "bob:bob-secret-22";

#[tokio::test]
async fn with_tokens_each_user_sees_only_their_own_tasks_and_states() {
    let server = TestServer::start(&["--token", ALICE, "--token", BOB]);
    let mut alice = Session::new(server.mcp_url()).with_token("alice-secret-1");
    let mut bob = Session::new(server.mcp_url()).with_token("bob-secret-22");

    let call = alice
        .call("bulk_import", json!({"duration_seconds": 30}), true)
        .await
        .expect("created");
    let Step::Task(created) = call.step else {
        panic!("expected a task");
    };
    let task_id = created.task.task_id;
    alice.get_task(&task_id).await.expect("alice sees her task");
    let error = bob.get_task(&task_id).await.expect_err("bob does not");
    assert_eq!(error.rpc_code(), Some(ErrorCode::INVALID_PARAMS.0));
    assert!(
        bob.cancel_task(&task_id).await.is_err(),
        "nor can he cancel it"
    );
    alice.cancel_task(&task_id).await.expect("alice can");

    // A state sealed for alice does not open for bob.
    let state = first_state(&mut alice, "book_table", json!({})).await;
    let answer = accept(json!({"size": "4", "time": "18:00"}));
    assert_refused(
        retry_with(&bob, "book_table", json!({}), &state, answer.clone()).await,
        "integrity",
    );
    retry_with(&alice, "book_table", json!({}), &state, answer)
        .await
        .expect("alice's own state opens");
}

#[tokio::test]
async fn the_live_task_limit_gives_a_clear_error() {
    let server = TestServer::start(&["--max-live-tasks", "1"]);
    let mut mcp = Session::new(server.mcp_url());
    mcp.call("bulk_import", json!({"duration_seconds": 30}), true)
        .await
        .expect("the first task");
    let error = mcp
        .call("bulk_import", json!({"duration_seconds": 30}), true)
        .await
        .map(|_| ())
        .expect_err("a second is refused");
    assert_eq!(error.rpc_code(), Some(ErrorCode::INVALID_REQUEST.0));
    assert!(error.to_string().contains("task limit"), "{error}");
}

#[tokio::test]
async fn a_cancelled_task_frees_its_live_slot_at_once() {
    let server = TestServer::start(&["--max-live-tasks", "1"]);
    let mut mcp = Session::new(server.mcp_url());
    // A long pipeline: each of its steps takes about 86 s.
    let pipeline = json!({"duration_seconds": 600, "target": "staging"});
    let first = mcp.start_task("run_pipeline", pipeline.clone()).await;
    let refused = mcp
        .call("run_pipeline", pipeline.clone(), true)
        .await
        .map(|_| ())
        .expect_err("the one slot is taken");
    assert!(refused.to_string().contains("task limit"), "{refused}");
    mcp.cancel_task(&first).await.expect("ack");
    let started = std::time::Instant::now();
    let second = mcp.start_task("run_pipeline", pipeline).await;
    assert_ne!(second, first);
    assert!(started.elapsed() < Duration::from_secs(5));
}
