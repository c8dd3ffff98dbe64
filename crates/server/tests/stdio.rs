//! stdio servers through `holdbay serve --stdio`: a real one (`@modelcontextprotocol/
//! server-everything`, 2025-11-25 on stdio, installed in tests/peers/legacy by
//! scripts/install-tools.sh) answered over HTTP at /stdio/NAME with its progress on the way;
//! a process that crashes, shown and refused until restarted; and no request that can make
//! holdbay run a program it was not started with.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use futures::StreamExt;
use serde_json::{Value, json};
use support::{TestServer, http_client};

fn everything() -> String {
    let script: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "../../tests/peers/legacy/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    ]
    .iter()
    .collect();
    assert!(
        script.is_file(),
        "{} is missing: run scripts/install-tools.sh (npm ci --prefix tests/peers/legacy)",
        script.display()
    );
    format!("everything=node {} stdio", script.display())
}

async fn post(server: &TestServer, name: &str, accept: &str, body: &Value) -> reqwest::Response {
    http_client()
        .post(format!("{}/stdio/{name}", server.base()))
        .header("Content-Type", "application/json")
        .header("Accept", accept)
        .body(body.to_string())
        .send()
        .await
        .expect("request")
}

/// The messages of an event-stream body, in order.
fn events(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(|data| serde_json::from_str(data.trim()).expect("an event is JSON"))
        .collect()
}

async fn statuses(server: &TestServer) -> Vec<Value> {
    let listed: Value = http_client()
        .get(format!("{}/stdio", server.base()))
        .send()
        .await
        .expect("list")
        .json()
        .await
        .expect("JSON");
    listed["servers"].as_array().cloned().unwrap_or_default()
}

const BOTH: &str = "application/json, text/event-stream";

/// The 2025-11-25 handshake with `capabilities`, over an event stream: the `initialize`
/// response (its last event), after which `notifications/initialized` is accepted.
async fn initialize(server: &TestServer, capabilities: Value) -> Value {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": capabilities,
        "clientInfo": {"name": "holdbay-test", "version": "0"}}});
    let response = post(server, "everything", BOTH, &initialize).await;
    assert_eq!(response.status(), 200);
    assert!(support::header(&response, "content-type").starts_with("text/event-stream"));
    let answer = events(&response.text().await.expect("body"))
        .pop()
        .expect("the response");
    assert_eq!(answer["id"], 1);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        post(server, "everything", BOTH, &initialized)
            .await
            .status(),
        202
    );
    answer
}

#[tokio::test]
async fn a_stdio_server_answers_over_http_with_its_progress_on_the_way() {
    let server = TestServer::start(&["--stdio", &everything()]);
    assert_eq!(statuses(&server).await[0]["state"], "not_started");

    let answer = initialize(&server, json!({})).await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        answer["result"]["serverInfo"]["name"],
        "mcp-servers/everything"
    );

    // A client that reads JSON only gets the response alone.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"message": "through the pipe"}}});
    let response = post(&server, "everything", "application/json", &call).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.expect("JSON");
    assert_eq!(answer["id"], 2);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Echo: through the pipe"
    );

    // Progress notifications come on the request's stream before its response.
    let slow = json!({"jsonrpc": "2.0", "id": "slow-3", "method": "tools/call", "params": {
        "name": "trigger-long-running-operation", "arguments": {"duration": 0.6, "steps": 3},
        "_meta": {"progressToken": "p-3"}}});
    let response = post(&server, "everything", BOTH, &slow).await;
    let messages = events(&response.text().await.expect("body"));
    let progress: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .collect();
    assert_eq!(progress.len(), 3, "{messages:#?}");
    assert_eq!(progress[0]["params"]["progressToken"], "p-3");
    let answer = messages.last().expect("the response");
    assert_eq!(answer["id"], "slow-3");
    assert!(
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("Steps: 3")
    );

    let listed = statuses(&server).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["name"], "everything");
    assert_eq!(listed[0]["state"], "running");
    assert!(listed[0]["pid"].as_u64().is_some());
    assert!(
        listed[0]["command"]
            .as_str()
            .unwrap_or_default()
            .starts_with("node ")
    );
}

/// A 2025-11-25 server asks the client on the call's own stream (`elicitation/create`); the
/// client's answer is a POST of its own, and the call's result follows on the first stream.
#[tokio::test]
async fn a_server_s_request_travels_on_the_call_s_stream_and_the_answer_goes_back() {
    let server = TestServer::start(&["--stdio", &everything()]);
    initialize(&server, json!({"elicitation": {"form": {}}})).await;

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "trigger-elicitation-request", "arguments": {}}});
    let response = post(&server, "everything", BOTH, &call).await;
    assert_eq!(response.status(), 200);
    let mut body = response.bytes_stream();
    let mut text = String::new();
    let mut answered = false;
    let result = loop {
        let chunk = tokio::time::timeout(Duration::from_secs(20), body.next())
            .await
            .expect("the stream goes on")
            .expect("the stream has not ended")
            .expect("a chunk");
        text.push_str(&String::from_utf8_lossy(&chunk));
        let messages = events(&text);
        if let Some(result) = messages
            .iter()
            .find(|m| m["id"] == 2 && m.get("result").is_some())
        {
            break result.clone();
        }
        let ask = messages
            .iter()
            .find(|m| m["method"] == "elicitation/create");
        if let (Some(ask), false) = (ask, answered) {
            let answer = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {
                "action": "accept", "content": {"name": "Ada Lovelace", "check": true}}});
            assert_eq!(
                post(&server, "everything", BOTH, &answer).await.status(),
                202
            );
            answered = true;
        }
    };
    assert!(answered, "the server asked before it answered");
    let said = result["result"]["content"].to_string();
    assert!(said.contains("Name: Ada Lovelace"), "{said}");
}

#[tokio::test]
async fn a_crashed_stdio_server_is_shown_and_the_next_call_says_it_is_gone() {
    // Reads one message, says so on stderr, and exits 3 without answering.
    let crash = "crash=sh -c 'read message; echo \"got it, leaving\" >&2; exit 3'";
    let server = TestServer::start(&["--stdio", crash]);
    let ping = json!({"jsonrpc": "2.0", "id": 7, "method": "ping"});

    let response = post(&server, "crash", "application/json", &ping).await;
    assert_eq!(response.status(), 502);
    let refusal: Value = response.json().await.expect("JSON");
    assert_eq!(refusal["id"], 7);
    let message = refusal["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("ended before it answered"), "{message}");
    assert!(message.contains("exited with status 3"), "{message}");

    // The next call is refused at once, with the reason and the process's last words.
    let response = post(&server, "crash", BOTH, &ping).await;
    assert_eq!(response.status(), 502);
    let refusal: Value = response.json().await.expect("JSON");
    let message = refusal["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("is not running: it exited with status 3"),
        "{message}"
    );
    assert!(message.contains("/stdio/crash/restart"), "{message}");
    let stderr = refusal["error"]["data"]["stderr"].to_string();
    assert!(stderr.contains("got it, leaving"), "{stderr}");

    let listed = statuses(&server).await;
    assert_eq!(listed[0]["state"], "ended");
    assert_eq!(listed[0]["ended"], "it exited with status 3");

    // A restart runs the same command again.
    let restarted: Value = http_client()
        .post(format!("{}/stdio/crash/restart", server.base()))
        .send()
        .await
        .expect("restart")
        .json()
        .await
        .expect("JSON");
    assert_eq!(restarted["state"], "running");
    let response = post(&server, "crash", "application/json", &ping).await;
    assert_eq!(
        response.status(),
        502,
        "it crashes again, as it always does"
    );
}

/// A process that closed its stdin breaks the pipe before its end is seen: the request is
/// still told how the process ended, not only that the write failed.
#[tokio::test]
async fn a_request_written_to_a_process_that_is_ending_is_told_how_it_ended() {
    let closing = "closing=sh -c 'exec 0<&-; sleep 0.5; exit 4'";
    let server = TestServer::start(&["--stdio", closing]);
    // A notification starts the process; a moment later its stdin is closed.
    let started = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let _ = post(&server, "closing", "application/json", &started).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let response = post(&server, "closing", "application/json", &ping).await;
    assert_eq!(response.status(), 502);
    let refusal: Value = response.json().await.expect("JSON");
    let message = refusal["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("ended before it answered"), "{message}");
    assert!(message.contains("exited with status 4"), "{message}");
}

#[tokio::test]
async fn no_request_can_make_holdbay_run_a_program_it_was_not_started_with() {
    let marker = tempfile::TempDir::new().expect("temp dir");
    let touched = marker.path().join("ran");
    let server = TestServer::start(&["--stdio", "configured=cat"]);
    let client = http_client();
    let attempt = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "command": format!("touch {}", touched.display()),
        "params": {"command": "touch", "args": [touched.display().to_string()]}});
    for path in [
        "stdio/touch",
        "stdio/sh",
        "stdio/..%2F..%2Fbin%2Fsh",
        "stdio/configured%20-c",
        "stdio/touch/restart",
    ] {
        let url = format!("{}/{path}", server.base());
        let response = client
            .post(&url)
            .header("Content-Type", "application/json")
            .body(attempt.to_string())
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 404, "{path}");
        let response = client.get(&url).send().await.expect("request");
        assert!(
            [404, 405].contains(&response.status().as_u16()),
            "{path}: {}",
            response.status()
        );
    }
    let listed = statuses(&server).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["name"], "configured");
    assert_eq!(
        listed[0]["state"], "not_started",
        "a refused name starts nothing"
    );
    // The configured command gets the message as a line on its stdin (cat echoes it back:
    // a request whose "response" is itself is still only what `cat` was told to run).
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!touched.exists(), "no program but the configured one ran");
}

#[tokio::test]
async fn pages_of_other_origins_cannot_reach_a_stdio_server() {
    let server = TestServer::start(&["--stdio", "configured=cat"]);
    let response = http_client()
        .post(format!("{}/stdio/configured", server.base()))
        .header("Origin", "http://evil.example")
        .header("Content-Type", "application/json")
        .body(json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string())
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 403);
    assert_eq!(statuses(&server).await[0]["state"], "not_started");
}

/// The page says how many stdio servers there are, so the app asks for the list only then.
#[tokio::test]
async fn the_served_page_says_how_many_stdio_servers_there_are() {
    let page = |server: &TestServer| {
        let url = format!("{}/", server.base());
        async move {
            http_client()
                .get(url)
                .send()
                .await
                .expect("page")
                .text()
                .await
                .expect("text")
        }
    };
    let with = TestServer::start(&["--stdio", "one=cat", "--stdio", "two=cat"]);
    assert!(
        page(&with)
            .await
            .contains(r#"<meta name="holdbay-stdio-servers" content="2">"#)
    );
    let without = TestServer::start(&[]);
    assert!(!page(&without).await.contains("holdbay-stdio-servers"));
}
