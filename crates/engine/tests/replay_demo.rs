//! Recorded exchanges with Holdbay's own demo server (rmcp 3.11, which always answers with an
//! event stream), replayed through the engine. Re-record with
//! `cargo test -p holdbay-server --test record_demo -- --ignored`.

mod common;

use common::{Transcript, assert_sent_as_recorded, replay};
use holdbay_engine::{Client, Outcome, RequestOptions, ResponseError};

fn load(name: &str) -> Transcript {
    Transcript::load(&format!("demo/{name}.json"))
}

#[test]
fn discover_over_sse() {
    let t = load("discover");
    let request = Client::default().discover();
    assert_sent_as_recorded(&request, t.exchange(0));
    assert_eq!(
        t.exchange(0).response.content_type.as_deref(),
        Some("text/event-stream")
    );
    let reply = replay(&request, t.exchange(0)).expect("discover");
    let Outcome::Complete(result) = reply.result else {
        panic!("complete")
    };
    assert_eq!(
        result.server_info().map(|i| i.name).as_deref(),
        Some("holdbay-demo")
    );
    assert!(reply.findings.is_empty(), "{:?}", reply.findings);
}

#[test]
fn tools_list_over_sse() {
    let t = load("tools_list");
    let mut client = Client::default();
    let request = client.list_tools(None);
    assert_sent_as_recorded(&request, t.exchange(0));
    let Outcome::Complete(page) = replay(&request, t.exchange(0)).expect("list").result else {
        panic!("complete");
    };
    let (kept, findings) = client.learn_tools(page.tools);
    assert_eq!((kept.len(), findings.len()), (10, 0));
}

#[test]
fn echo_and_an_unknown_tool() {
    let t = load("echo_call");
    let mut client = Client::default();
    let args = t.exchange(0).request.body["params"]["arguments"]
        .as_object()
        .cloned();
    let echo = client
        .call_tool("echo", args, &RequestOptions::default())
        .expect("call");
    assert_sent_as_recorded(&echo, t.exchange(0));
    let Outcome::Complete(result) = replay(&echo, t.exchange(0)).expect("echo").result else {
        panic!("complete");
    };
    let text = serde_json::to_value(&result.content).expect("content")[0]["text"].clone();
    assert_eq!(text, "hello, 世界");
    let unknown = client
        .call_tool("no_such_tool", None, &RequestOptions::default())
        .expect("call");
    assert_sent_as_recorded(&unknown, t.exchange(1));
    let error = replay(&unknown, t.exchange(1)).expect_err("unknown tool");
    assert!(
        matches!(error, ResponseError::Rpc { code: -32602, .. }),
        "{error}"
    );
}
