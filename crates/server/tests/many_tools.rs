//! `--fixtures many-tools` over HTTP: 10,000 tools, 500 a page through `nextCursor`, walked
//! by the engine's pager as the app walks them; a generated tool answers a call; an unknown
//! cursor is invalid params; without the flag the demo lists its own tools on one page.

mod support;

use holdbay_engine::model::DiscoverResult;
use holdbay_engine::{ListTools, Outcome, Pages, ResponseError, Step};
use serde_json::json;
use support::TestServer;
use support::session::Session;

async fn discover(mcp: &mut Session) -> DiscoverResult {
    let request = mcp.client.discover();
    let Outcome::Complete(result) = mcp.send(&request).await.expect("discover").result else {
        panic!("server/discover did not complete");
    };
    result
}

/// Every page of `tools/list`, as the engine's pager walks them: the tools' names, and the
/// number of pages.
async fn all_tools(mcp: &mut Session) -> (Vec<String>, usize) {
    let discovered = discover(mcp).await;
    let mut pages = Pages::<ListTools>::for_server(&discovered).expect("tools are offered");
    while let Some(request) = pages.next_request(&mut mcp.client) {
        let reply = mcp.send(&request).await.expect("a page");
        let Outcome::Complete(page) = reply.result else {
            panic!("tools/list did not complete");
        };
        pages
            .accept(holdbay_engine::Reply {
                result: page,
                raw_result: reply.raw_result,
                findings: reply.findings,
            })
            .expect("the pager takes the page");
    }
    let count = pages.pages();
    let listing = pages.finish();
    assert!(listing.is_complete(), "stopped: {:?}", listing.stopped);
    let names = listing
        .items
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    (names, count)
}

#[tokio::test]
async fn the_fixture_lists_ten_thousand_tools_in_pages_of_five_hundred_after_the_demos() {
    let plain = TestServer::start(&[]);
    let (demo, demo_pages) = all_tools(&mut Session::new(plain.mcp_url())).await;
    assert_eq!(demo_pages, 1, "the demo lists its tools on one page");

    let server = TestServer::start(&["--fixtures", "many-tools"]);
    let (names, pages) = all_tools(&mut Session::new(server.mcp_url())).await;
    assert_eq!(names.len(), 10_000);
    assert_eq!(pages, 20);
    assert_eq!(names[..demo.len()], demo[..], "the demo's tools come first");
    assert_eq!(names[demo.len()], "github_list_issues");
    assert_eq!(names[9_999], "zendesk_summarize_milestone");
}

#[tokio::test]
async fn a_generated_tool_answers_with_what_it_was_sent() {
    let server = TestServer::start(&["--fixtures", "many-tools"]);
    let mut mcp = Session::new(server.mcp_url());
    let call = mcp
        .call("zendesk_watch_alert", json!({"id": "A-17"}), false)
        .await
        .expect("the call is answered");
    let Step::Complete(result) = call.step else {
        panic!("the call did not complete: {:?}", call.step);
    };
    let text = serde_json::to_string(&result.content).expect("content");
    assert!(
        text.contains("zendesk_watch_alert") && text.contains("A-17"),
        "{text}"
    );
    assert_ne!(result.is_error, Some(true));
}

#[tokio::test]
async fn an_unknown_cursor_is_invalid_params() {
    let server = TestServer::start(&["--fixtures", "many-tools"]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp.client.list_tools(Some("not-a-cursor".to_owned()));
    match mcp.send(&request).await {
        Err(ResponseError::Rpc { code, .. }) => assert_eq!(code, -32602),
        other => panic!("expected -32602, got {other:?}"),
    }
}
