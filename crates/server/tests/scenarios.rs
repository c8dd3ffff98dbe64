//! Every teaching scenario end to end: the real `holdbay` binary over real HTTP, with
//! the engine as the client.

mod support;

use std::time::Duration;

use holdbay_engine::model::{ErrorCode, TaskStatus};
use holdbay_engine::{
    Bounds, InputAnswer, ListenEvent, ListenFilter, MrtrError, RequestOptions, Step, Subscription,
};
use serde_json::{Value, json};
use support::TestServer;
use support::session::{Call, Session, accept, consent, decline, form, wire};

const TASK_TIMEOUT: Duration = Duration::from_secs(30);

fn session(server: &TestServer) -> Session {
    Session::new(server.mcp_url())
}

fn result_of(call: &Call) -> Value {
    match &call.step {
        Step::Complete(result) => serde_json::to_value(result).expect("json"),
        other => panic!("expected a complete result, got {other:?}"),
    }
}

fn text_of(call: &Call) -> String {
    result_of(call)["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn task_id_of(call: &Call) -> String {
    match &call.step {
        Step::Task(created) => created.task.task_id.clone(),
        other => panic!("expected a task, got {other:?}"),
    }
}

fn latest_state(call: &Call) -> Option<String> {
    call.logical
        .rounds()
        .last()
        .and_then(|round| round.request_state.clone())
}

#[tokio::test]
async fn book_table_asks_with_a_form_then_confirms() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call("book_table", json!({}), false)
        .await
        .expect("round 1");
    assert!(matches!(call.step, Step::NeedsInput));
    assert_eq!(call.logical.pending_inputs(), vec!["party"]);
    let round = call.logical.rounds().last().expect("a round").clone();
    let request = serde_json::to_value(&round.input_requests).expect("json");
    assert_eq!(request["party"]["params"]["mode"], "form");
    assert_eq!(
        request["party"]["params"]["requestedSchema"]["required"],
        json!(["size", "time"])
    );
    assert!(
        round
            .request_state
            .as_deref()
            .is_some_and(|state| state.starts_with("rs1."))
    );

    mcp.answer(&mut call, |_| form(json!({"size": "6", "time": "21:00"})))
        .await
        .expect("round 2");
    let confirmation = result_of(&call)["structuredContent"]["confirmation"]
        .as_str()
        .expect("a confirmation")
        .to_owned();
    assert_eq!(
        text_of(&call),
        format!("Booked a table for 6 at Chez Holdbay, 21:00 (confirmation {confirmation}).")
    );
    assert_eq!(result_of(&call)["structuredContent"]["partySize"], 6);
    // The retry echoed the state exactly.
    let retry: Value = serde_json::from_str(&call.logical.rounds()[1].request_body).expect("json");
    assert_eq!(
        retry["params"]["requestState"].as_str(),
        round.request_state.as_deref()
    );
}

#[tokio::test]
async fn book_table_declined_books_nothing() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call("book_table", json!({"restaurant": "Le Tray"}), false)
        .await
        .expect("round 1");
    mcp.answer(&mut call, |_| decline()).await.expect("round 2");
    assert_eq!(text_of(&call), "No table booked at Le Tray.");
}

#[tokio::test]
async fn deploy_to_production_takes_two_rounds_with_a_new_state_each() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call("deploy", json!({"service": "api"}), false)
        .await
        .expect("round 1");
    assert_eq!(call.logical.pending_inputs(), vec!["region"]);
    let first_state = latest_state(&call);
    mcp.answer(&mut call, |_| form(json!({"region": "eu-production"})))
        .await
        .expect("round 2");
    assert!(matches!(call.step, Step::NeedsInput));
    assert_eq!(call.logical.pending_inputs(), vec!["approve_production"]);
    assert_ne!(
        latest_state(&call),
        first_state,
        "round 2 carries its own sealed state"
    );
    mcp.answer(&mut call, |_| form(json!({"approve": true})))
        .await
        .expect("round 3");
    assert_eq!(text_of(&call), "Deployed api to eu-production.");
    assert_eq!(call.logical.rounds().len(), 3);
}

#[tokio::test]
async fn deploy_declined_at_approval_is_not_deployed() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp.call("deploy", json!({}), false).await.expect("round 1");
    mcp.answer(&mut call, |_| form(json!({"region": "us-production"})))
        .await
        .expect("round 2");
    mcp.answer(&mut call, |_| decline()).await.expect("round 3");
    assert_eq!(result_of(&call)["structuredContent"]["deployed"], false);
    assert!(
        text_of(&call).starts_with("Not deployed"),
        "{}",
        text_of(&call)
    );
}

#[tokio::test]
async fn deploy_to_staging_needs_one_answer() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp.call("deploy", json!({}), false).await.expect("round 1");
    mcp.answer(&mut call, |_| form(json!({"region": "staging"})))
        .await
        .expect("round 2");
    assert_eq!(text_of(&call), "Deployed web to staging.");
}

#[tokio::test]
async fn endless_questions_stops_at_the_clients_round_bound() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call("endless_questions", json!({}), false)
        .await
        .expect("round 1");
    let mut questions = Vec::new();
    loop {
        let round = call.logical.rounds().last().expect("a round");
        let requests = serde_json::to_value(&round.input_requests).expect("json");
        let (key, request) = requests
            .as_object()
            .and_then(|map| map.iter().next())
            .expect("one question");
        questions.push((
            key.clone(),
            request["params"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ));
        for key in call.logical.pending_inputs() {
            call.logical
                .answer(&key, form(json!({"sure": true})))
                .expect("pending");
        }
        match call.logical.retry(&mut mcp.client, 0) {
            Ok(retry) => {
                let reply = mcp.send(&retry).await.expect("the server keeps asking");
                call.step = call.logical.handle(reply);
            }
            Err(MrtrError::TooManyRounds { rounds, limit }) => {
                assert_eq!(
                    (rounds, limit),
                    (Bounds::default().max_rounds, Bounds::default().max_rounds)
                );
                break;
            }
            Err(other) => panic!("unexpected {other}"),
        }
    }
    assert_eq!(questions.len(), Bounds::default().max_rounds as usize);
    let distinct: std::collections::HashSet<_> = questions.iter().collect();
    assert_eq!(
        distinct.len(),
        questions.len(),
        "every round asks something slightly different"
    );
}

#[tokio::test]
async fn the_server_enforces_its_own_round_limit() {
    let server = TestServer::start(&["--max-rounds", "3"]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call("endless_questions", json!({}), false)
        .await
        .expect("round 1");
    for _ in 0..2 {
        mcp.answer(&mut call, |_| form(json!({"sure": true})))
            .await
            .expect("within the limit");
    }
    let error = mcp
        .answer(&mut call, |_| form(json!({"sure": true})))
        .await
        .expect_err("over the limit");
    assert_eq!(error.rpc_code(), Some(ErrorCode::INVALID_REQUEST.0));
    assert!(error.to_string().contains("round limit"), "{error}");
}

#[tokio::test]
async fn connect_account_completes_only_after_consent_on_the_servers_page() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call("connect_account", json!({}), false)
        .await
        .expect("round 1");
    let requests = serde_json::to_value(&call.logical.rounds()[0].input_requests).expect("json");
    let params = &requests["consent"]["params"];
    assert_eq!(params["mode"], "url");
    let page = params["url"].as_str().expect("a url").to_owned();
    assert!(
        page.starts_with(&format!("{}/consent/", server.base())),
        "{page}"
    );
    assert_eq!(page.rsplit('/').next(), params["elicitationId"].as_str());

    // Accepting before the page was answered just asks again, with the same page.
    mcp.answer(&mut call, |_| consent()).await.expect("round 2");
    assert!(matches!(call.step, Step::NeedsInput));
    let again = serde_json::to_value(&call.logical.rounds()[1].input_requests).expect("json");
    assert_eq!(again["consent"]["params"]["url"], page.as_str());

    let http = support::http_client();
    let shown = http
        .get(&page)
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    assert!(
        shown.contains("Example Cloud") && shown.contains("Allow"),
        "{shown}"
    );
    let decided = http
        .post(&page)
        .form(&[("decision", "allow")])
        .send()
        .await
        .expect("consent");
    assert_eq!(decided.status(), 200);

    mcp.answer(&mut call, |_| consent()).await.expect("round 3");
    assert_eq!(
        result_of(&call)["structuredContent"],
        json!({"connected": true, "provider": "Example Cloud"})
    );
}

#[tokio::test]
async fn the_consent_page_escapes_what_the_caller_named() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let call = mcp
        .call(
            "connect_account",
            json!({"provider": "<script>x</script>"}),
            false,
        )
        .await
        .expect("round 1");
    let requests = serde_json::to_value(&call.logical.rounds()[0].input_requests).expect("json");
    let page = requests["consent"]["params"]["url"]
        .as_str()
        .expect("url")
        .to_owned();
    let shown = support::http_client()
        .get(&page)
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    assert!(
        shown.contains("&lt;script&gt;") && !shown.contains("<script>"),
        "{shown}"
    );
}

#[tokio::test]
async fn run_pipeline_is_a_task_with_an_approval_gate_answered_by_tasks_update() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = mcp
        .start_task("run_pipeline", json!({"duration_seconds": 2}))
        .await;
    let waiting = mcp
        .poll_until(&task_id, TASK_TIMEOUT, |status| {
            status != TaskStatus::Working
        })
        .await;
    let waiting = wire(&waiting);
    assert_eq!(waiting["status"], "input_required");
    assert_eq!(
        waiting["statusMessage"],
        "Waiting at the approval gate (approve_prod)"
    );
    assert!(waiting["inputRequests"]["approve_prod"].is_object());

    mcp.update_task(&task_id, "approve_prod", accept(json!({"approve": true})))
        .await
        .expect("ack");
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "completed");
    assert_eq!(
        done["result"]["structuredContent"]["deployed"],
        json!(["staging", "production"])
    );
}

#[tokio::test]
async fn a_floor_on_the_poll_interval_slows_the_demo_tasks_polls() {
    // run_pipeline asks for a poll every second; bulk_import's own 500 ms; with a floor of
    // 5 s both announce 5 s, at creation and in every snapshot.
    let server = TestServer::start(&["--min-task-poll-interval-ms", "5000"]);
    let mut mcp = session(&server);
    for tool in ["run_pipeline", "bulk_import"] {
        let task_id = mcp.start_task(tool, json!({})).await;
        let snapshot = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
        assert_eq!(snapshot["pollIntervalMs"], 5000, "{tool}: {snapshot:?}");
    }
    let usual = TestServer::start(&[]);
    let mut mcp = session(&usual);
    let task_id = mcp.start_task("run_pipeline", json!({})).await;
    let snapshot = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
    assert_eq!(snapshot["pollIntervalMs"], 1000);
}

#[tokio::test]
async fn run_pipeline_without_the_tasks_extension_is_refused_with_32021() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let error = mcp
        .call("run_pipeline", json!({}), false)
        .await
        .map(|_| ())
        .expect_err("needs tasks");
    assert_eq!(
        error.rpc_code(),
        Some(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY.0)
    );
}

/// Start `plan_migration` and wait for its two questions.
async fn plan_migration_waiting(mcp: &mut Session) -> String {
    let task_id = mcp
        .start_task("plan_migration", json!({"duration_seconds": 1}))
        .await;
    let waiting = mcp
        .poll_until(&task_id, TASK_TIMEOUT, |status| {
            status != TaskStatus::Working
        })
        .await;
    assert_eq!(waiting.status(), TaskStatus::InputRequired);
    task_id
}

/// The outstanding keys of a task snapshot, sorted.
fn outstanding(task: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut keys: Vec<String> = task["inputRequests"]
        .as_object()
        .map(|requests| requests.keys().cloned().collect())
        .unwrap_or_default();
    keys.sort();
    keys
}

#[tokio::test]
async fn plan_migration_asks_two_keys_at_once_answered_by_one_tasks_update() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = plan_migration_waiting(&mut mcp).await;
    let waiting = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
    assert_eq!(waiting["status"], "input_required");
    assert_eq!(outstanding(&waiting), ["rollback", "window"]);
    let window = &waiting["inputRequests"]["window"]["params"];
    assert_eq!(window["mode"], "form");
    assert_eq!(
        window["requestedSchema"]["properties"]["window"]["default"],
        "saturday"
    );
    assert_eq!(
        window["requestedSchema"]["properties"]["window"]["oneOf"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
    let rollback = &waiting["inputRequests"]["rollback"]["params"];
    assert_eq!(
        rollback["requestedSchema"]["properties"]["tested"]["type"],
        "boolean"
    );
    assert_eq!(rollback["requestedSchema"]["required"], json!(["tested"]));

    mcp.update_task_with(
        &task_id,
        [
            ("window", accept(json!({"window": "sunday"}))),
            ("rollback", accept(json!({"tested": true}))),
        ],
    )
    .await
    .expect("ack");
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "completed");
    assert_eq!(
        done["result"]["structuredContent"],
        json!({"scheduled": true, "window": "sunday", "windowTitle": "Sunday, 02:00–04:00 UTC", "rollbackPlan": true})
    );
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Migration scheduled for Sunday, 02:00–04:00 UTC, with a tested rollback plan."
    );
}

#[tokio::test]
async fn plan_migration_answered_one_key_at_a_time_asks_only_for_the_other() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = plan_migration_waiting(&mut mcp).await;

    mcp.update_task(&task_id, "window", accept(json!({"window": "tonight"})))
        .await
        .expect("ack");
    let partial = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
    assert_eq!(partial["status"], "input_required");
    assert_eq!(outstanding(&partial), ["rollback"]);

    // Answering the answered key again is ignored; the task keeps waiting for the other.
    mcp.update_task(&task_id, "window", accept(json!({"window": "sunday"})))
        .await
        .expect("ack");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let still = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
    assert_eq!(still["status"], "input_required");
    assert_eq!(outstanding(&still), ["rollback"]);

    mcp.update_task(&task_id, "rollback", accept(json!({"tested": true})))
        .await
        .expect("ack");
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["structuredContent"]["scheduled"], true);
    assert_eq!(
        done["result"]["structuredContent"]["window"], "tonight",
        "the first answer counts"
    );
}

#[tokio::test]
async fn plan_migration_declined_is_not_scheduled() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = plan_migration_waiting(&mut mcp).await;
    mcp.update_task_with(
        &task_id,
        [
            ("window", accept(json!({"window": "saturday"}))),
            ("rollback", json!({"action": "decline"})),
        ],
    )
    .await
    .expect("ack");
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["structuredContent"]["scheduled"], false);
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Migration not scheduled: the rollback confirmation was declined."
    );
}

#[tokio::test]
async fn plan_migration_without_a_tested_rollback_plan_is_not_scheduled() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = plan_migration_waiting(&mut mcp).await;
    mcp.update_task_with(
        &task_id,
        [
            ("window", json!({"action": "decline"})),
            ("rollback", accept(json!({"tested": false}))),
        ],
    )
    .await
    .expect("ack");
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "completed");
    assert_eq!(
        done["result"]["structuredContent"]["reasons"],
        json!([
            "the maintenance window was declined",
            "there is no tested rollback plan"
        ])
    );
}

#[tokio::test]
async fn plan_migration_without_the_tasks_extension_is_refused_with_32021() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let error = mcp
        .call("plan_migration", json!({}), false)
        .await
        .map(|_| ())
        .expect_err("needs tasks");
    assert_eq!(
        error.rpc_code(),
        Some(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY.0)
    );
}

#[tokio::test]
async fn bulk_import_cancelled_early_ends_cancelled() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = mcp
        .start_task("bulk_import", json!({"duration_seconds": 20}))
        .await;
    mcp.cancel_task(&task_id).await.expect("ack");
    let done = mcp
        .poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
        .await;
    assert_eq!(done.status(), TaskStatus::Cancelled);
}

#[tokio::test]
async fn bulk_import_cancelled_during_its_last_batch_still_completes() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = mcp
        .start_task(
            "bulk_import",
            json!({"records": 100, "duration_seconds": 8}),
        )
        .await;
    // Batch 9's message appears as batch 10 (of 0.8 s) starts.
    loop {
        let task = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
        if task["statusMessage"]
            .as_str()
            .is_some_and(|message| message.contains("batch 9 of 10"))
        {
            break;
        }
        assert_eq!(task["status"], "working");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    mcp.cancel_task(&task_id).await.expect("ack");
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "completed", "the cancel lost the race");
    assert_eq!(done["result"]["structuredContent"]["imported"], 100);
}

#[tokio::test]
async fn flaky_job_fails_with_a_json_rpc_error() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = mcp.start_task("flaky_job", json!({"seconds": 0.4})).await;
    let done = wire(
        &mcp.poll_until(&task_id, TASK_TIMEOUT, |status| status.is_terminal())
            .await,
    );
    assert_eq!(done["status"], "failed");
    assert_eq!(done["error"]["code"], ErrorCode::INTERNAL_ERROR.0);
    assert!(
        done["statusMessage"]
            .as_str()
            .is_some_and(|message| message.contains("flaky_job failed"))
    );

    let direct = mcp
        .call("flaky_job", json!({"seconds": 0}), false)
        .await
        .map(|_| ())
        .expect_err("fails");
    assert_eq!(direct.rpc_code(), Some(ErrorCode::INTERNAL_ERROR.0));
}

#[tokio::test]
async fn quick_sum_is_complete_even_when_a_task_is_acceptable() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let call = mcp
        .call("quick_sum", json!({"numbers": [1.5, 2.5, 4]}), true)
        .await
        .expect("complete");
    assert_eq!(
        result_of(&call)["structuredContent"],
        json!({"sum": 8.0, "count": 3})
    );
}

#[tokio::test]
async fn slow_report_streams_progress_before_its_result() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let token = mcp.client.progress_token();
    let options = RequestOptions {
        progress_token: Some(token.clone()),
        ..RequestOptions::default()
    };
    let request = mcp
        .client
        .call_tool(
            "slow_report",
            json!({"seconds": 0.6}).as_object().cloned(),
            &options,
        )
        .expect("request");
    let decoded = mcp.send_decoded(&request).await;
    let updates: Vec<_> = decoded
        .events
        .iter()
        .filter_map(|event| event.progress_for(&token))
        .collect();
    assert_eq!(updates.len(), 6, "{:?}", decoded.events);
    decoded.result.expect("complete");
    assert_eq!(updates.last().map(|update| update.total), Some(Some(6.0)));
}

#[tokio::test]
async fn summarize_folder_asks_for_roots_and_sampling_and_reads_the_clients_refusals() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call(
            "summarize_folder",
            json!({"folder": "file:///srv/notes"}),
            false,
        )
        .await
        .expect("round 1");
    assert!(matches!(call.step, Step::NeedsInput));
    let mut keys = call.logical.pending_inputs();
    keys.sort();
    assert_eq!(keys, vec!["summary", "workspace"]);
    let round = call.logical.rounds().last().expect("a round").clone();
    let asked = serde_json::to_value(&round.input_requests).expect("json");
    assert_eq!(asked["workspace"]["method"], "roots/list");
    assert_eq!(asked["summary"]["method"], "sampling/createMessage");

    // This client declared neither: the engine refuses both, each in a shape the server reads.
    mcp.answer(&mut call, |_| InputAnswer::Refuse)
        .await
        .expect("round 2");
    let text = text_of(&call);
    assert!(text.contains("roots/list came back empty"), "{text}");
    assert!(
        text.contains("refused sampling/createMessage (error -32601"),
        "{text}"
    );
    assert!(
        text.contains("set no io.modelcontextprotocol/logLevel"),
        "{text}"
    );
    let structured = &result_of(&call)["structuredContent"];
    assert_eq!(structured["roots"], json!({ "shared": 0 }));
    assert_eq!(structured["sampling"], json!({ "refused": -32601 }));
    assert_eq!(structured["logLevel"], Value::Null);
    assert_eq!(structured["folder"], "file:///srv/notes");
}

#[tokio::test]
async fn summarize_folder_reads_results_written_by_hand() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let mut call = mcp
        .call("summarize_folder", json!({}), false)
        .await
        .expect("round 1");
    mcp.answer(&mut call, |key| {
        let written = match key {
            "workspace" => json!({ "roots": [{ "uri": "file:///a" }, { "uri": "file:///b" }] }),
            _ => json!({ "role": "assistant", "content": { "type": "text", "text": "Notes." }, "model": "manual" }),
        };
        InputAnswer::Written(written.as_object().cloned().unwrap_or_default())
    })
    .await
    .expect("round 2");
    let structured = &result_of(&call)["structuredContent"];
    assert_eq!(structured["roots"], json!({ "shared": 2 }));
    assert_eq!(structured["sampling"], json!({ "answeredBy": "manual" }));
}

#[tokio::test]
async fn listen_pushes_task_snapshots_until_the_task_ends() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let call = mcp
        .call(
            "run_pipeline",
            json!({"duration_seconds": 1.5, "target": "staging"}),
            true,
        )
        .await
        .expect("created");
    let task_id = task_id_of(&call);
    let request = mcp.client.listen(ListenFilter::tasks([task_id.clone()]));
    let mut response = mcp.post(&request).await;
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    assert_eq!(content_type.as_deref(), Some("text/event-stream"));
    let mut subscription = Subscription::open(
        &request,
        response.status().as_u16(),
        content_type.as_deref(),
    );
    let mut events = Vec::new();
    let read = async {
        while let Some(chunk) = response.chunk().await.expect("chunk") {
            events.extend(subscription.handle_chunk(&chunk));
        }
        events.extend(subscription.handle_end());
    };
    tokio::time::timeout(TASK_TIMEOUT, read)
        .await
        .expect("the stream ends by itself");
    assert!(
        matches!(events.first(), Some(ListenEvent::Acknowledged { filter }) if filter.task_ids == Some(vec![task_id.clone()])),
        "{events:?}"
    );
    let statuses: Vec<TaskStatus> = events
        .iter()
        .filter_map(|event| match event {
            ListenEvent::TaskSnapshot { task, .. } => Some(task.status()),
            _ => None,
        })
        .collect();
    assert!(statuses.len() >= 3, "a snapshot per step: {statuses:?}");
    assert_eq!(statuses.last(), Some(&TaskStatus::Completed));
    assert_eq!(events.last(), Some(&ListenEvent::Ended));
}

#[tokio::test]
async fn a_client_without_form_elicitation_gets_32021() {
    let server = TestServer::start(&[]);
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "book_table", "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }}
    });
    let response = support::http_client()
        .post(server.mcp_url())
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "book_table")
        .body(body.to_string())
        .send()
        .await
        .expect("answer");
    let text = response.text().await.expect("body");
    assert!(text.contains("-32021"), "{text}");
}

#[tokio::test]
async fn closing_slow_reports_stream_stops_the_work() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let token = mcp.client.progress_token();
    let options = RequestOptions {
        progress_token: Some(token),
        ..RequestOptions::default()
    };
    let request = mcp
        .client
        .call_tool(
            "slow_report",
            json!({"seconds": 60}).as_object().cloned(),
            &options,
        )
        .expect("request");
    let mut response = mcp.post(&request).await;
    let first = response
        .chunk()
        .await
        .expect("a chunk")
        .expect("the first progress event");
    assert!(String::from_utf8_lossy(&first).contains("notifications/progress"));
    drop(response);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while !server
        .log()
        .iter()
        .any(|line| line.contains("slow_report: the client closed the stream"))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the server kept working: {:?}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every message polled is one of `expected`, in its order, and the last one was seen
/// (a poll every 25 ms sees most steps; a step may still slip between two polls).
fn assert_in_order(seen: &[String], expected: &[&str]) {
    let mut next = 0;
    for message in seen {
        let found = expected[next..]
            .iter()
            .position(|wanted| wanted == message)
            .unwrap_or_else(|| panic!("{message:?} out of order or unexpected in {seen:?}"));
        next += found + 1;
    }
    assert_eq!(
        seen.last().map(String::as_str),
        expected.last().copied(),
        "{seen:?}"
    );
}

#[tokio::test]
async fn run_pipeline_to_staging_never_speaks_of_production() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = mcp
        .start_task(
            "run_pipeline",
            json!({"duration_seconds": 2.5, "target": "staging"}),
        )
        .await;
    let mut messages: Vec<String> = Vec::new();
    let done = loop {
        let task = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
        let message = task["statusMessage"].as_str().unwrap_or_default();
        if messages.last().map(String::as_str) != Some(message) {
            messages.push(message.to_owned());
        }
        if task["status"] != "working" {
            break task;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    };
    assert_eq!(done["status"], "completed", "{done:?}");
    assert_in_order(
        &messages,
        &[
            "Queued behind 2 other builds (the demo pretends a build queue)",
            "Step 1 of 4: compiling",
            "Step 2 of 4: running tests",
            "Step 3 of 4: deploying to staging",
            "Step 4 of 4: smoke testing",
            // Finished: the result's own words, not the last step's.
            "Pipeline finished in 2.5 s: all 4 steps passed.",
        ],
    );
    assert!(
        messages
            .iter()
            .all(|message| !message.contains("production")),
        "{messages:?}"
    );
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Pipeline finished in 2.5 s: all 4 steps passed."
    );
    assert_eq!(
        done["result"]["structuredContent"]["deployed"],
        json!(["staging"])
    );
    assert_eq!(done["result"]["structuredContent"]["steps"], 4);
}

#[tokio::test]
async fn run_pipeline_to_production_goes_through_the_gate_in_six_steps() {
    let server = TestServer::start(&[]);
    let mut mcp = session(&server);
    let task_id = mcp
        .start_task("run_pipeline", json!({"duration_seconds": 2.5}))
        .await;
    let mut messages: Vec<String> = Vec::new();
    let mut answered = false;
    let done = loop {
        let task = wire(&mcp.get_task(&task_id).await.expect("tasks/get"));
        let message = task["statusMessage"].as_str().unwrap_or_default();
        if messages.last().map(String::as_str) != Some(message) {
            messages.push(message.to_owned());
        }
        if task["status"] == "input_required" && !answered {
            mcp.update_task(&task_id, "approve_prod", accept(json!({"approve": true})))
                .await
                .expect("ack");
            answered = true;
        } else if task["status"] != "working" && task["status"] != "input_required" {
            break task;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    };
    assert_eq!(done["status"], "completed", "{done:?}");
    assert_in_order(
        &messages,
        &[
            "Queued behind 2 other builds (the demo pretends a build queue)",
            "Step 1 of 6: compiling",
            "Step 2 of 6: running tests",
            "Step 3 of 6: deploying to staging",
            // Shown only for the instant between step 3 and the gate's question.
            "Step 4 of 6: waiting for approval to deploy to production",
            "Waiting at the approval gate (approve_prod)",
            "Step 5 of 6: deploying to production",
            "Step 6 of 6: smoke testing",
            "Pipeline finished in 2.5 s: all 6 steps passed.",
        ],
    );
    for needed in [
        "Waiting at the approval gate (approve_prod)",
        "Step 5 of 6: deploying to production",
    ] {
        assert!(
            messages.iter().any(|message| message == needed),
            "{messages:?}"
        );
    }
    assert_eq!(
        done["result"]["structuredContent"]["deployed"],
        json!(["staging", "production"])
    );
}
