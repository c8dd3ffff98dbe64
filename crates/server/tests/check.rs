//! `holdbay check` against real servers: the demo server passes every rule it is checked
//! against, and `--fixtures misbehave` fails the four rules it breaks, by name, with a
//! non-zero exit and JUnit XML that xmllint accepts.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;
use support::TestServer;

/// `holdbay check URL --origin ORIGIN --format FORMAT`, and the MRTR probes on the demo's
/// `book_table` (it books nothing: every retry declines): its exit status and output.
fn holdbay_check(url: &str, origin: &str, format: &str) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_holdbay"))
        .args(["check", url, "--origin", origin, "--format", format])
        .args(["--call", "book_table"])
        .output()
        .expect("run holdbay check");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{stdout}{}",
            if stdout.is_empty() {
                stderr.to_string()
            } else {
                String::new()
            }
        ),
    )
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["verdicts"]
        .as_array()
        .expect("verdicts")
        .iter()
        .map(|verdict| {
            let id = verdict["rule"]["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let outcome = verdict["outcome"].as_str().unwrap_or_default().to_owned();
            (id, outcome)
        })
        .collect()
}

#[test]
fn the_demo_server_passes_every_rule_it_is_checked_against() {
    let server = TestServer::start(&[]);
    let (status, out) = holdbay_check(&server.mcp_url(), &server.base(), "json");
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("JSON: {out}"));
    let not_passed: Vec<(String, String)> = verdicts(&report)
        .into_iter()
        .filter(|(_, outcome)| outcome != "pass")
        .collect();
    assert_eq!(not_passed, Vec::<(String, String)>::new(), "{out}");
    assert_eq!(status, 0);
    // Each verdict cites the exchanges that show it.
    let exchanges = report["exchanges"].as_array().expect("exchanges").len();
    assert!(exchanges >= 16, "{exchanges} exchanges");
    let rules = report["verdicts"].as_array().map_or(0, Vec::len);
    assert_eq!(
        rules,
        holdbay_engine::check::rules::ALL.len(),
        "a verdict on every rule"
    );
}

#[test]
fn a_misbehaving_server_fails_the_rules_it_breaks_and_says_which_header_is_missing() {
    let server = TestServer::start(&["--fixtures", "misbehave"]);
    let (status, out) = holdbay_check(&server.mcp_url(), &server.base(), "json");
    assert_eq!(status, 1, "a MUST failed: {out}");
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("JSON: {out}"));
    let failed: Vec<String> = verdicts(&report)
        .into_iter()
        .filter(|(_, outcome)| outcome == "fail")
        .map(|(id, _)| id)
        .collect();
    assert_eq!(
        failed,
        [
            "headers.method-mismatch",
            "headers.name-mismatch",
            "cors.preflight",
            "cors.expose-www-authenticate"
        ]
    );
    let why = |id: &str| {
        report["verdicts"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|verdict| verdict["rule"]["id"] == id)
            .and_then(|verdict| verdict["why"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        why("cors.preflight").contains("leaves out mcp-name"),
        "{}",
        why("cors.preflight")
    );
    assert!(why("cors.expose-www-authenticate").contains("WWW-Authenticate"));

    // JUnit for CI: well-formed (xmllint), one failure per broken rule.
    let (junit_status, junit) = holdbay_check(&server.mcp_url(), &server.base(), "junit");
    assert_eq!(junit_status, 1);
    assert_eq!(junit.matches("<failure ").count(), 4, "{junit}");
    let mut xmllint = Command::new("xmllint")
        .args(["--noout", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xmllint (scripts/install-tools.sh installs libxml2-utils)");
    xmllint
        .stdin
        .take()
        .expect("stdin")
        .write_all(junit.as_bytes())
        .expect("write");
    let linted = xmllint.wait_with_output().expect("xmllint ran");
    assert!(
        linted.status.success(),
        "{}",
        String::from_utf8_lossy(&linted.stderr)
    );

    // Only SHOULDs failing is a pass unless asked to fail on them.
    let (text_status, text) = holdbay_check(&server.mcp_url(), &server.base(), "text");
    assert_eq!(text_status, 1);
    assert!(
        text.contains("fail  MUST   headers.method-mismatch"),
        "{text}"
    );
}
