//! The real `holdbay` binary over real HTTP: what a client sees first.

mod support;

use holdbay_engine::Outcome;
use support::TestServer;
use support::session::Session;

#[tokio::test]
async fn discover_reports_the_demo_server_its_version_and_the_tasks_extension() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp.client.discover();
    let reply = mcp.send(&request).await.expect("discover succeeds");
    let Outcome::Complete(result) = reply.result else {
        panic!("discover answered {:?}", reply.result);
    };
    let info = result.server_info().expect("serverInfo in _meta");
    assert_eq!(info.name, holdbay_server::demo::SERVER_NAME);
    assert_eq!(info.version, env!("CARGO_PKG_VERSION"));
    let versions: Vec<String> = result
        .supported_versions
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(versions, vec!["2026-07-28"]);
    assert!(result.capabilities.tools.is_some());
    assert!(
        result.capabilities.supports_tasks(),
        "the tasks extension is advertised"
    );
    assert!(
        reply.findings.is_empty(),
        "the demo server is strict: {:?}",
        reply.findings
    );
}

#[tokio::test]
async fn tools_list_names_every_scenario_with_a_description() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp.client.list_tools(None);
    let Outcome::Complete(result) = mcp.send(&request).await.expect("tools/list").result else {
        panic!("tools/list did not complete");
    };
    let names: Vec<&str> = result.tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "book_table",
            "deploy",
            "endless_questions",
            "connect_account",
            "run_pipeline",
            "plan_migration",
            "quick_sum",
            "bulk_import",
            "flaky_job",
            "slow_report",
            "summarize_folder",
            "echo",
            "format_note"
        ]
    );
    assert!(
        result
            .tools
            .iter()
            .all(|tool| tool.description.as_ref().is_some_and(|d| d.len() > 40))
    );
}

#[tokio::test]
async fn the_app_is_served_at_the_root_and_for_deep_links() {
    let server = TestServer::start(&[]);
    for path in ["/", "/lessons/anything"] {
        let page = support::http_client()
            .get(format!("{}{path}", server.base()))
            .send()
            .await
            .expect("page")
            .text()
            .await
            .expect("text");
        assert!(page.contains("holdbay test page"), "{path}: {page}");
    }
}
