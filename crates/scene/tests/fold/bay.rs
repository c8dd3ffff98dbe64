//! The holding bay: trays, their rounds and latch, progress, how they end.

use holdbay_engine::MethodId;
use holdbay_scene::*;
use serde_json::json;

use super::wire::*;

#[test]
fn a_changed_latch_is_visible_and_the_refusal_empties_the_tray() {
    let mut wire = Wire::new(10);
    let first = wire.call("book_table", json!({}));
    wire.result(first, input_required("sealed-abc"));
    assert_eq!(wire.traffic.trays()[0].state, TrayState::Paused);
    assert_eq!(wire.traffic.trays()[0].latch(), Some("sealed-abc"));
    assert_eq!(wire.traffic.trays()[0].open_tags().len(), 1);
    let retry = wire.call(
        "book_table",
        json!({ "inputResponses": { "when": { "action": "accept" } }, "requestState": "sealed-abX" }),
    );
    let tray = &wire.traffic.trays()[0];
    assert_eq!(tray.rounds.len(), 2, "a changed latch still joins its tray");
    assert!(tray.rounds[1].latch_changed);
    assert!(wire.traffic.events().iter().any(|e| {
        e.narration
            .as_deref()
            .is_some_and(|n| n.contains("CHANGED latch"))
    }));
    wire.answer_json(
        retry,
        json!({ "jsonrpc": "2.0", "id": retry, "error": { "code": -32602, "message": "requestState was tampered with" } }),
    );
    let tray = &wire.traffic.trays()[0];
    assert_eq!(
        tray.state,
        TrayState::Failed {
            message: "requestState was tampered with".into()
        }
    );
    assert!(!tray.is_occupied());
    // The timeline marks the refusal as a failure by what happened, not by its label.
    let events = wire.traffic.events();
    let refusal = events.last().expect("the refusal's step");
    assert!(refusal.failed, "{refusal:?}");
    assert!(
        events.iter().filter(|e| e.failed).count() == 1,
        "only the refusal failed"
    );
}

#[test]
fn a_retry_carrying_the_latch_unchanged_joins_its_tray() {
    let mut wire = Wire::new(10);
    let first = wire.call("book_table", json!({}));
    wire.result(first, input_required("s1"));
    let retry = wire.call(
        "book_table",
        json!({ "inputResponses": { "when": { "action": "accept" } }, "requestState": "s1" }),
    );
    let tray = &wire.traffic.trays()[0];
    assert!(!tray.rounds[1].latch_changed);
    assert_eq!(
        tray.rounds[1]
            .answers
            .as_ref()
            .and_then(|answers| answers.get("when")),
        Some(&json!({ "action": "accept" }))
    );
    assert_eq!(
        wire.traffic.flight(retry).map(|f| f.role.clone()),
        Some(FlightRole::Retry { tray: 1, round: 2 })
    );
}

#[test]
fn a_paused_request_started_afresh_is_abandoned_without_a_word_to_the_server() {
    let mut wire = Wire::new(10);
    let first = wire.call("book_table", json!({}));
    wire.result(first, input_required("s1"));
    let other = wire.call("deploy", json!({}));
    wire.result(other, input_required("d1"));
    let again = wire.call("book_table", json!({}));
    let trays = wire.traffic.trays();
    assert_eq!(trays[0].state, TrayState::Abandoned);
    assert!(!trays[0].is_occupied());
    assert_eq!(
        trays[1].state,
        TrayState::Paused,
        "another tool's pause is kept"
    );
    assert_eq!(trays[2].id, again);
    assert_eq!(trays[2].state, TrayState::InFlight);
}

#[test]
fn the_round_bound_is_reached_when_the_server_keeps_asking() {
    let mut wire = Wire::new(2);
    let first = wire.call("endless_questions", json!({}));
    wire.result(first, input_required("s1"));
    let retry = wire.call(
        "endless_questions",
        json!({ "inputResponses": { "when": {} }, "requestState": "s1" }),
    );
    wire.result(retry, input_required("s2"));
    let tray = &wire.traffic.trays()[0];
    assert_eq!(tray.state, TrayState::BoundReached);
    assert_eq!(tray.max_rounds, 2);
    assert_eq!(tray.open_tags().len(), 1, "the last tags still hang");
}

#[test]
fn a_tool_error_completes_the_tray_and_says_so() {
    let mut wire = Wire::new(10);
    let call = wire.call("echo", json!({}));
    wire.result(
        call,
        json!({ "resultType": "complete", "content": [], "isError": true }),
    );
    assert_eq!(
        wire.traffic.trays()[0].state,
        TrayState::Completed { tool_error: true }
    );
}

#[test]
fn tags_say_what_they_ask_for_in_the_servers_order() {
    let mut wire = Wire::new(10);
    let call = wire.call("sign_in", json!({}));
    wire.result(
        call,
        json!({ "resultType": "input_required", "inputRequests": {
            "login": { "method": "elicitation/create", "params": { "mode": "url",
                "message": "Sign in", "url": "https://example.com/login" } },
            "files": { "method": "roots/list" } } }),
    );
    let tags = wire.traffic.trays()[0].open_tags();
    let keys: Vec<&str> = tags.iter().map(|tag| tag.key.as_str()).collect();
    assert_eq!(keys, ["login", "files"]);
    assert_eq!(tags[0].kind.mode_name(), Some("url"));
    assert_eq!(tags[0].kind.message(), Some("Sign in"));
    assert_eq!(tags[1].kind.method_name(), "roots/list");
    assert!(!tags[1].kind.is_declared());
}

#[test]
fn a_task_answer_detaches_the_tray_into_a_cartridge() {
    let mut wire = Wire::new(10);
    let call = wire.call_accepting_task("run_pipeline");
    wire.result(
        call,
        with(
            task("t1", "working"),
            json!({ "resultType": "task", "pollIntervalMs": 500 }),
        ),
    );
    assert_eq!(
        wire.traffic.trays()[0].state,
        TrayState::Detached { task: "t1".into() }
    );
    let cartridge = wire.traffic.cartridge("t1").expect("t1");
    assert_eq!(cartridge.from_tray, Some(call));
    assert_eq!(cartridge.tool.as_deref(), Some("run_pipeline"));
    assert_eq!(cartridge.poll_interval_ms, Some(500));
    assert!(!cartridge.restored);
}

#[test]
fn a_tray_shows_the_request_as_sent_and_whether_it_offered_a_task() {
    let mut wire = Wire::new(10);
    let offered = wire.call_accepting_task("quick_sum");
    wire.result(offered, json!({ "resultType": "complete", "content": [] }));
    let plain = wire.call("quick_sum", json!({}));
    let tray = wire.traffic.tray(offered).expect("tray");
    assert!(tray.offers_task);
    let json = wire.traffic.json_of(&Part::Tray(offered)).expect("json");
    assert_eq!(
        json["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({})
    );
    assert_eq!(json["params"]["arguments"], json!({ "party": 2 }));
    let facts = tray.facts();
    assert!(
        facts.contains("offered a task, and the server answered directly anyway"),
        "{facts}"
    );
    assert!(facts.contains("Rounds: 1 of at most 10."), "{facts}");
    let plain = wire.traffic.tray(plain).expect("tray");
    assert!(!plain.offers_task);
    assert!(
        plain
            .facts()
            .contains("did not declare the tasks extension")
    );
}

#[test]
fn a_tray_that_hit_the_bound_says_so_in_its_facts() {
    let mut wire = Wire::new(2);
    let first = wire.call("endless_questions", json!({}));
    wire.result(first, input_required("s1"));
    let retry = wire.call(
        "endless_questions",
        json!({ "requestState": "s1", "inputResponses": { "when": { "action": "accept" } } }),
    );
    wire.result(retry, input_required("s2"));
    let tray = wire.traffic.tray(first).expect("tray");
    assert_eq!(tray.state, TrayState::BoundReached);
    assert!(
        tray.facts()
            .contains("Rounds: 2 of at most 2; the server asked again")
    );
}

#[test]
fn a_task_answer_to_a_request_that_did_not_declare_tasks_fails_the_tray() {
    let mut wire = Wire::new(10);
    let call = wire.call("run_pipeline", json!({}));
    wire.result(
        call,
        with(task("t1", "working"), json!({ "resultType": "task" })),
    );
    assert!(matches!(
        wire.traffic.trays()[0].state,
        TrayState::Failed { .. }
    ));
    assert!(wire.traffic.cartridges().is_empty());
}

#[test]
fn progress_on_the_requests_stream_shows_on_its_tray_until_the_client_stops_it() {
    let mut wire = Wire::new(10);
    let report = wire.call(
        "slow_report",
        json!({ "_meta": { "progressToken": "p-1" } }),
    );
    let note = |progress: u32, message: &str| {
        let note = json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": {
            "progressToken": "p-1", "progress": progress, "total": 6, "message": message } });
        format!("event: message\ndata: {note}\n\n")
    };
    let (first, second) = (note(0, "Collecting data"), note(2, "Computing totals"));
    wire.respond(
        report,
        200,
        "text/event-stream",
        &[first.as_bytes(), second.as_bytes()],
        End::Stopped,
    );
    let tray = &wire.traffic.trays()[0];
    assert_eq!(tray.state, TrayState::Stopped);
    let progress = tray.progress.as_ref().expect("progress kept");
    assert_eq!(
        (progress.progress, progress.total, progress.notes),
        (2.0, Some(6.0), 2)
    );
    assert_eq!(progress.message.as_deref(), Some("Computing totals"));
    assert_eq!(progress.fraction(), Some(2.0 / 6.0));
    let labels: Vec<&str> = wire
        .traffic
        .events()
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert!(labels.contains(&"progress 0/6") && labels.contains(&"progress 2/6"));
    let narrated: Vec<String> = wire
        .traffic
        .events()
        .iter()
        .filter_map(|e| e.narration.clone())
        .collect();
    assert!(narrated.iter().any(|n| n.starts_with(
        "The server reports progress on tools/call slow_report: 2 of 6 (Computing totals)."
    )));
    assert!(
        narrated
            .last()
            .is_some_and(|n| n.contains("closing the stream is the cancellation")),
        "the stop says what it means on HTTP"
    );
}

#[test]
fn progress_without_a_usable_total_has_no_fraction() {
    let progress = |total| TrayProgress {
        progress: 3.0,
        total,
        message: None,
        notes: 1,
    };
    assert_eq!(progress(None).fraction(), None);
    assert_eq!(progress(Some(0.0)).fraction(), None);
    assert_eq!(progress(Some(f64::NAN)).fraction(), None);
    assert_eq!(progress(Some(2.0)).fraction(), Some(1.0));
}

#[test]
fn trays_carry_their_method_and_their_state_name() {
    let mut wire = Wire::new(10);
    let prompt = wire.send(
        "prompts/get",
        Some("greet"),
        json!({ "name": "greet", "arguments": { "who": "Ada" }, "_meta": { "x": 1 } }),
    );
    let tray = wire.traffic.tray(prompt).expect("a prompt tray");
    assert_eq!(tray.method, MethodId::GetPrompt);
    assert_eq!(
        tray.workpiece,
        json!({ "name": "greet", "arguments": { "who": "Ada" } })
    );
    assert_eq!(tray.state.name(), "in_flight");
    let flight = wire.traffic.flight(prompt).expect("flight");
    assert_eq!(
        (flight.method, flight.method_name.as_str()),
        (Some(MethodId::GetPrompt), "prompts/get")
    );
}

#[test]
fn a_flood_of_progress_lists_its_first_steps_and_then_one_moving_line() {
    let mut wire = Wire::new(10);
    let report = wire.call(
        "slow_report",
        json!({ "_meta": { "progressToken": "p-1" } }),
    );
    let notes: Vec<String> = (1..=1000)
        .map(|n| {
            let note = json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": "p-1", "progress": n, "total": 1000 } });
            format!("data: {note}\n\n")
        })
        .collect();
    let chunks: Vec<&[u8]> = notes.iter().map(|n| n.as_bytes()).collect();
    wire.respond(report, 200, "text/event-stream", &chunks, End::Stopped);
    let progress: Vec<&str> = wire
        .traffic
        .events()
        .iter()
        .map(|e| e.label.as_str())
        .filter(|label| label.starts_with("progress"))
        .collect();
    assert_eq!(progress.len(), PROGRESS_STEPS_LISTED as usize + 1);
    assert_eq!(progress.first(), Some(&"progress 1/1000"));
    assert_eq!(progress.last(), Some(&"progress 1000/1000"));
    let tray = &wire.traffic.trays()[0];
    assert_eq!(tray.progress.as_ref().map(|p| p.notes), Some(1000));
}
