//! `--fixtures conformance` adds the conformance suite's fixtures, and only that flag does.

mod support;

use holdbay_engine::Outcome;
use holdbay_engine::model::ServerCapabilities;
use support::TestServer;
use support::session::Session;

/// One fixture of each family the suite calls: content, headers, stateless probes,
/// MRTR and tasks.
const FIXTURE_TOOLS: &[&str] = &[
    "test_simple_text",
    "json_schema_2020_12_tool",
    "test_custom_header",
    "test_missing_capability",
    "test_input_required_result_elicitation",
    "test_input_required_result_tampered_state",
    "greet",
    "slow_compute",
    "failing_job",
    "protocol_error_job",
    "confirm_delete",
    "multi_input",
    "test_tool_with_task",
];

async fn tool_names(mcp: &mut Session) -> Vec<String> {
    let request = mcp.client.list_tools(None);
    let Outcome::Complete(result) = mcp.send(&request).await.expect("tools/list").result else {
        panic!("tools/list did not complete");
    };
    result
        .tools
        .iter()
        .map(|tool| tool.name.to_string())
        .collect()
}

async fn capabilities(mcp: &mut Session) -> ServerCapabilities {
    let request = mcp.client.discover();
    let Outcome::Complete(result) = mcp.send(&request).await.expect("discover").result else {
        panic!("server/discover did not complete");
    };
    result.capabilities
}

async fn prompt_names(mcp: &mut Session) -> Vec<String> {
    let request = mcp.client.list_prompts(None);
    let Outcome::Complete(result) = mcp.send(&request).await.expect("prompts/list").result else {
        panic!("prompts/list did not complete");
    };
    result
        .prompts
        .into_iter()
        .map(|prompt| prompt.name)
        .collect()
}

#[tokio::test]
async fn without_the_flag_no_fixture_is_listed_but_the_demos_prompts_and_resources_are() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let names = tool_names(&mut mcp).await;
    for fixture in FIXTURE_TOOLS {
        assert!(
            !names.iter().any(|name| name == fixture),
            "{fixture} is listed: {names:?}"
        );
    }
    let capabilities = capabilities(&mut mcp).await;
    assert!(capabilities.prompts.is_some(), "the demo's prompts");
    assert!(capabilities.resources.is_some(), "the demo's resources");
    assert!(capabilities.completions.is_some(), "the demo's completions");
    let prompts = prompt_names(&mut mcp).await;
    assert_eq!(prompts, ["draft_note", "content_tour"], "no fixture prompt");
}

#[tokio::test]
async fn with_the_flag_the_fixtures_follow_the_demo_tools_and_prompts_and_resources_are_declared() {
    let plain = TestServer::start(&[]);
    let demo_names = tool_names(&mut Session::new(plain.mcp_url())).await;

    let server = TestServer::start(&["--fixtures", "conformance"]);
    let mut mcp = Session::new(server.mcp_url());
    let names = tool_names(&mut mcp).await;
    assert_eq!(
        names[..demo_names.len()],
        demo_names[..],
        "the demo's tools come first"
    );
    for fixture in FIXTURE_TOOLS {
        assert!(
            names.iter().any(|name| name == fixture),
            "{fixture} is missing: {names:?}"
        );
    }
    let capabilities = capabilities(&mut mcp).await;
    assert!(capabilities.prompts.is_some(), "prompts are declared");
    assert!(capabilities.resources.is_some(), "resources are declared");
    let prompts = prompt_names(&mut mcp).await;
    assert_eq!(
        prompts[..2],
        ["draft_note", "content_tour"],
        "the demo's first"
    );
    assert!(
        prompts.iter().any(|name| name == "test_simple_prompt"),
        "{prompts:?}"
    );
    assert!(
        capabilities.supports_tasks(),
        "the tasks extension stays declared"
    );
}
