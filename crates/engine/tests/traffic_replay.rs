//! The scene's model, folded from real recorded exchanges (FastMCP 4.1.4 + fastmcp-tasks,
//! the wire reference's examples): what a learner sees must be what happened on the wire.

mod common;

use common::Transcript;
use holdbay_engine::Traffic;
use holdbay_engine::traffic::{FlightRole, Lane, Part, TrayState};
use serde_json::Value;

/// Feed a transcript as the app's wire log would: each exchange sent, answered, its body in
/// small chunks, ended; 100 ms apart on a fake clock.
fn fold(path: &str) -> Traffic {
    let transcript = Transcript::load(path);
    let mut traffic = Traffic::new(10);
    for (index, exchange) in transcript.exchanges.iter().enumerate() {
        let id = index as u64 + 1;
        let at = id as f64 * 100.0;
        let request = &exchange.request;
        let method = request.body["method"].as_str().unwrap_or_default();
        let name = request
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("mcp-name"))
            .and_then(|(_, v)| v.as_str());
        traffic.sent(id, at, method, name, &request.body.to_string());
        let response = &exchange.response;
        traffic.responded(
            id,
            at + 10.0,
            response.status,
            response.content_type.as_deref(),
        );
        let bytes = response.body.as_bytes();
        for (n, piece) in bytes.chunks(7).enumerate() {
            traffic.chunk(id, at + 20.0 + n as f64, &String::from_utf8_lossy(piece));
        }
        traffic.ended(id, at + 50.0, None);
    }
    traffic
}

#[test]
fn an_mrtr_round_pauses_a_tray_and_the_retry_carries_the_latch_unchanged() {
    let traffic = fold("fastmcp/mrtr_accept.json");
    let [tray] = traffic.trays() else {
        panic!("one logical request, got {:?}", traffic.trays())
    };
    assert_eq!(tray.rounds.len(), 2, "the retry joined the same tray");
    let (first, retry) = (&tray.rounds[0], &tray.rounds[1]);
    assert_eq!(first.tags.len(), 1);
    assert_eq!(first.tags[0].key, "confirm");
    assert_eq!(first.tags[0].method, "elicitation/create");
    assert_eq!(first.tags[0].mode.as_deref(), Some("form"));
    let latch = first
        .received_state
        .as_deref()
        .expect("FastMCP sends requestState");
    assert_eq!(retry.sent_state.as_deref(), Some(latch));
    assert!(!retry.latch_changed);
    assert!(
        retry
            .answers
            .as_ref()
            .and_then(|a| a.get("confirm"))
            .is_some()
    );
    assert_eq!(tray.state, TrayState::Completed { tool_error: false });
    assert!(
        !tray.is_occupied(),
        "the tray empties when the request completes"
    );
    assert_eq!(
        traffic.flight(2).map(|f| f.role.clone()),
        Some(FlightRole::Retry { tray: 1, round: 2 })
    );
    let latch_json = traffic
        .json_of(&Part::Latch { tray: 1, round: 1 })
        .expect("latch");
    assert_eq!(latch_json["received"], Value::from(latch));
    assert_eq!(latch_json["sentBack"], Value::from(latch));
}

#[test]
fn the_wire_reference_form_round_reads_the_same() {
    let traffic = fold("wire-reference/mrtr_form.json");
    let tray = &traffic.trays()[0];
    assert_eq!(tray.rounds.len(), 2);
    assert_eq!(tray.rounds[0].tags[0].key, "issue_details");
    assert_eq!(
        tray.workpiece["title"], "Crash on start",
        "{:?}",
        tray.workpiece
    );
    assert_eq!(tray.state, TrayState::Completed { tool_error: false });
}

#[test]
fn a_task_detaches_from_the_bay_and_its_cartridge_seals_when_it_completes() {
    let traffic = fold("fastmcp/task_lifecycle.json");
    let tray = &traffic.trays()[0];
    let [cartridge] = traffic.cartridges() else {
        panic!("one task")
    };
    assert_eq!(
        tray.state,
        TrayState::Detached {
            task: cartridge.task_id.clone()
        }
    );
    assert_eq!(cartridge.from_tray, Some(tray.id));
    assert!(!cartridge.restored);
    assert_eq!(cartridge.status, "completed");
    assert!(cartridge.is_sealed());
    assert_eq!(cartridge.poll_interval_ms, Some(5000));
    assert_eq!(cartridge.updates, 1);
    assert!(cartridge.tags.is_empty());
    assert!(cartridge.polls >= 4, "{}", cartridge.polls);
    // The input_required snapshot raised a tag towards the user; tasks/update answered it.
    let events = traffic.events();
    assert!(
        events
            .iter()
            .any(|e| e.from == Lane::Client && e.to == Lane::User && e.label.starts_with("input "))
    );
    assert!(events.iter().any(|e| e.label.starts_with("tasks/update")));
    assert!(
        events
            .iter()
            .any(|e| e.narration.as_deref().is_some_and(|n| n.contains("sealed")))
    );
}

#[test]
fn a_cancel_is_drawn_as_a_request_and_its_real_outcome_follows() {
    let traffic = fold("fastmcp/task_cancel.json");
    let cartridge = &traffic.cartridges()[0];
    let cancel = cartridge.cancel.as_ref().expect("cancel asked");
    assert_eq!(cancel.acknowledged, Some(true));
    assert_eq!(cancel.outcome.as_deref(), Some("cancelled"));
    assert!(cartridge.is_sealed());
}

#[test]
fn every_timeline_event_names_a_part_the_model_can_show() {
    for path in [
        "fastmcp/mrtr_accept.json",
        "fastmcp/task_lifecycle.json",
        "fastmcp/task_cancel.json",
        "wire-reference/task_lifecycle.json",
    ] {
        let traffic = fold(path);
        for event in traffic.events() {
            assert!(
                traffic.json_of(&event.part).is_some(),
                "{path}: {event:?} has no JSON"
            );
        }
        let seqs: Vec<u64> = traffic.events().iter().map(|e| e.seq).collect();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]));
    }
}
