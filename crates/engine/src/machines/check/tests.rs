//! A check driven by hand: each request answered as a server that keeps the rules would
//! answer it, or as one that breaks named ones.

use serde_json::{Value, json};

use super::*;

/// How a pretend server answers.
#[derive(Clone, Copy)]
struct Server {
    checks_headers: bool,
    cors_names: bool,
    exposes: bool,
    tasks: bool,
}

const GOOD: Server = Server {
    checks_headers: true,
    cors_names: true,
    exposes: true,
    tasks: true,
};

fn json_response(status: u16, body: Value, headers: &[(&str, &str)]) -> ProbeResponse {
    let mut all = vec![("Content-Type".to_owned(), "application/json".to_owned())];
    all.extend(
        headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned())),
    );
    ProbeResponse {
        status,
        headers: all,
        body: body.to_string(),
    }
}

fn error(status: u16, code: i64) -> ProbeResponse {
    json_response(
        status,
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "no",
        "data": {"supported": ["2026-07-28"], "requested": "1900-01-01"}}}),
        &[],
    )
}

impl Server {
    fn answer(self, request: &ProbeRequest) -> ProbeResponse {
        let cors: Vec<(&str, &str)> = if request.header("Origin").is_some() {
            let mut headers = vec![("Access-Control-Allow-Origin", "http://127.0.0.1:8080")];
            if self.exposes {
                headers.push((
                    "Access-Control-Expose-Headers",
                    "Content-Type, WWW-Authenticate",
                ));
            }
            headers
        } else {
            Vec::new()
        };
        match request.http_method {
            "GET" => return json_response(405, json!(null), &[]),
            "OPTIONS" => {
                let allowed = if self.cors_names {
                    "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, authorization"
                } else {
                    "content-type, mcp-protocol-version, mcp-method, authorization"
                };
                let mut headers = cors.clone();
                headers.push(("Access-Control-Allow-Headers", allowed));
                return json_response(204, json!(null), &headers);
            }
            _ => {}
        }
        let body: Value =
            serde_json::from_str(request.body.as_deref().unwrap_or("null")).expect("JSON");
        let method = body["method"].as_str().unwrap_or_default();
        if self.checks_headers {
            if request.header("MCP-Protocol-Version") == Some("1900-01-01") {
                return error(400, -32022);
            }
            if request.header("Mcp-Method") != Some(method) {
                return error(400, -32020);
            }
            if method == "tools/call"
                && request.header("Mcp-Name") != body["params"]["name"].as_str()
            {
                return error(400, -32020);
            }
            if body["params"].get("_meta").is_none() {
                return error(400, -32602);
            }
        }
        let result = match method {
            "server/discover" => {
                let mut capabilities = json!({"tools": {}});
                if self.tasks {
                    capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
                }
                json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": capabilities,
                    "ttlMs": 0, "cacheScope": "public",
                    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "pretend", "version": "1"}}})
            }
            "tools/list" => match body["params"]["cursor"].as_str() {
                None => json!({"tools": [], "nextCursor": "2", "ttlMs": 0, "cacheScope": "public"}),
                Some("2") => json!({"tools": [], "ttlMs": 0, "cacheScope": "public"}),
                Some(_) => return error(200, -32602),
            },
            "tasks/get" => {
                let declared = body.to_string().contains("io.modelcontextprotocol/tasks");
                return if declared || !self.checks_headers {
                    error(200, -32602)
                } else {
                    error(400, -32021)
                };
            }
            "tools/call" if body["params"]["name"] == "book" => {
                let asked = json!({"resultType": "input_required", "requestState": "Zsealed",
                    "inputRequests": {"when": {"method": "elicitation/create",
                        "params": {"message": "When?", "requestedSchema": {"type": "object", "properties": {}}}}}});
                match (
                    body["params"]["requestState"].as_str(),
                    body["params"]["inputResponses"].get("when"),
                ) {
                    (None, _) | (Some("Zsealed"), None) => asked,
                    (Some("Zsealed"), Some(_)) => json!({"resultType": "complete", "content": []}),
                    (Some(_), _) if self.checks_headers => return error(200, -32602),
                    (Some(_), _) => json!({"resultType": "complete", "content": []}),
                }
            }
            "tools/call" => return error(200, -32602),
            _ => return error(if self.checks_headers { 404 } else { 200 }, -32601),
        };
        json_response(
            200,
            json!({"jsonrpc": "2.0", "id": body["id"], "result": result}),
            &cors,
        )
    }
}

fn checked(server: Server, origin: Option<&str>) -> CheckReport {
    let call = ChosenCall {
        tool: "book".to_owned(),
        arguments: serde_json::Map::new(),
    };
    let mut run = CheckRun::new(
        "http://127.0.0.1:9/mcp",
        CheckOptions {
            origin: origin.map(str::to_owned),
            call: origin.is_some().then_some(call),
        },
    );
    while let Some(request) = run.next_request() {
        let response = server.answer(&request);
        run.take(request, Ok(response));
    }
    assert!(run.is_done());
    run.report()
}

fn outcome<'a>(report: &'a CheckReport, id: &str) -> &'a Outcome {
    &report
        .verdicts
        .iter()
        .find(|verdict| verdict.rule.id == id)
        .unwrap_or_else(|| panic!("no verdict on {id}"))
        .outcome
}

#[test]
fn a_server_that_keeps_the_rules_passes_every_one() {
    let report = checked(GOOD, Some("http://127.0.0.1:8080"));
    let failed: Vec<String> = report
        .verdicts
        .iter()
        .filter(|verdict| verdict.outcome != Outcome::Pass)
        .map(|verdict| format!("{}: {:?}", verdict.rule.id, verdict.outcome))
        .collect();
    assert_eq!(failed, Vec::<String>::new());
    assert_eq!(
        report.verdicts.len(),
        rules::ALL.len(),
        "one verdict per rule"
    );
    assert!(!report.fails_at(Level::Should));
    // Two pages of tools/list, both cited by the pagination verdicts.
    let cursors = report
        .verdicts
        .iter()
        .find(|v| v.rule.id == "pagination.cursors")
        .expect("verdict");
    assert_eq!(cursors.evidence.len(), 2);
}

#[test]
fn a_server_that_breaks_rules_fails_them_by_name_with_the_reason() {
    let broken = Server {
        checks_headers: false,
        cors_names: false,
        exposes: false,
        tasks: true,
    };
    let report = checked(broken, Some("http://127.0.0.1:8080"));
    for id in [
        "version.unsupported",
        "headers.method-mismatch",
        "headers.name-mismatch",
        "errors.unknown-method",
        "tasks.require-extension",
        "mrtr.tampered-state",
    ] {
        assert!(
            matches!(outcome(&report, id), Outcome::Fail { .. }),
            "{id}: {:?}",
            outcome(&report, id)
        );
    }
    let Outcome::Fail { why } = outcome(&report, "cors.preflight") else {
        panic!("the preflight fails");
    };
    assert!(
        why.contains("leaves out mcp-name, mcp-param-region"),
        "{why}"
    );
    let Outcome::Fail { why } = outcome(&report, "cors.expose-www-authenticate") else {
        panic!("the exposure fails");
    };
    assert!(why.contains("WWW-Authenticate"), "{why}");
    assert!(report.fails_at(Level::Must));
    assert_eq!(outcome(&report, "discover.answers"), &Outcome::Pass);
}

#[test]
fn what_a_server_does_not_offer_is_not_applicable_and_an_unreachable_one_fails() {
    let report = checked(
        Server {
            tasks: false,
            ..GOOD
        },
        None,
    );
    for id in [
        "tasks.require-extension",
        "tasks.unknown-task",
        "cors.preflight",
    ] {
        assert!(
            matches!(outcome(&report, id), Outcome::NotApplicable { .. }),
            "{id}"
        );
    }
    let mut run = CheckRun::new("http://127.0.0.1:9/mcp", CheckOptions::default());
    while let Some(request) = run.next_request() {
        run.take(request, Err("connection refused".to_owned()));
    }
    let report = run.report();
    assert!(
        matches!(outcome(&report, "discover.answers"), Outcome::Fail { why } if why.contains("connection refused"))
    );
    assert!(matches!(
        outcome(&report, "pagination.cursors"),
        Outcome::NotApplicable { .. }
    ));
}

#[test]
fn the_junit_and_markdown_say_the_same() {
    let report = checked(
        Server {
            exposes: false,
            ..GOOD
        },
        Some("http://127.0.0.1:8080"),
    );
    let junit = report.to_junit();
    assert!(junit.starts_with("<?xml"));
    assert_eq!(junit.matches("<testcase ").count(), report.verdicts.len());
    assert_eq!(junit.matches("<failure ").count(), 1);
    assert!(junit.contains("cors.expose-www-authenticate (SHOULD)"));
    let markdown = report.to_markdown();
    assert!(markdown.contains(
        "[cors.expose-www-authenticate](https://fetch.spec.whatwg.org/#http-cors-protocol)"
    ));
    assert!(report.to_text().contains("1 fail (0 MUST)"));
}
