//! The scene's model, folded from real recorded exchanges (FastMCP 4.1.4 + fastmcp-tasks,
//! the wire reference's examples) through the engine's own readers: what a learner sees must
//! be what happened on the wire, live or replayed.

// The engine's transcripts and their reader (the recordings live with the engine's tests).
#[path = "../../engine/tests/common/mod.rs"]
mod common;

use common::{Exchange, TRANSCRIPTS, Transcript};
use holdbay_engine::model::TaskStatus;
use holdbay_engine::{
    ExchangeDecoder, ExchangeEvent, RecordedExchange, SentRequest, decode_recorded,
};
use holdbay_scene::{FlightRole, Lane, Part, Traffic, TrayState};
use serde_json::Value;

/// The recorded `Mcp-Name` header of an exchange.
fn name_header(exchange: &Exchange) -> Option<&str> {
    exchange
        .request
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("mcp-name"))
        .and_then(|(_, v)| v.as_str())
}

fn method(exchange: &Exchange) -> &str {
    exchange.request.body["method"].as_str().unwrap_or_default()
}

/// Fold a transcript as the app replays an imported log: each exchange decoded from its
/// recording (`decode_recorded`, the body in `chunk`-byte pieces), 100 ms apart. Every event
/// of an exchange lands on the exchange's time, so that two folds can be compared whole.
fn fold(path: &str, chunk: usize) -> Traffic {
    let transcript = Transcript::load(path);
    let mut traffic = Traffic::new(10);
    for (index, exchange) in transcript.exchanges.iter().enumerate() {
        let id = index as u64 + 1;
        let at = id as f64 * 100.0;
        let body = exchange.request.body.to_string();
        let response = &exchange.response;
        let chunks: Vec<(f64, &[u8])> = response
            .body
            .as_bytes()
            .chunks(chunk)
            .map(|piece| (0.0, piece))
            .collect();
        let events = decode_recorded(&RecordedExchange {
            method: method(exchange),
            name: name_header(exchange),
            request_body: &body,
            status: Some(response.status),
            content_type: response.content_type.as_deref(),
            responded_after: Some(0.0),
            chunks: &chunks,
            finished_after: Some(0.0),
            error: None,
            stopped: false,
            round: None,
        });
        for timed in events {
            traffic.apply(id, at + timed.after_ms, &timed.event);
        }
    }
    traffic
}

/// Fold a transcript as the live page does: each exchange's events applied as its reader
/// produces them, chunk by chunk.
fn fold_live(path: &str, chunk: usize) -> Traffic {
    let transcript = Transcript::load(path);
    let mut traffic = Traffic::new(10);
    for (index, exchange) in transcript.exchanges.iter().enumerate() {
        let id = index as u64 + 1;
        let at = id as f64 * 100.0;
        let sent = SentRequest::decode(
            method(exchange),
            &exchange.request.body.to_string(),
            name_header(exchange),
        );
        let response = &exchange.response;
        let mut decoder =
            ExchangeDecoder::open(&sent, response.status, response.content_type.as_deref());
        traffic.apply(id, at, &ExchangeEvent::Sent(Box::new(sent)));
        for piece in response.body.as_bytes().chunks(chunk) {
            for event in decoder.take_events() {
                traffic.apply(id, at, &event);
            }
            decoder.push_chunk(piece);
        }
        for event in decoder.take_events().into_iter().chain(decoder.finish()) {
            traffic.apply(id, at, &event);
        }
        traffic.apply(id, at, &ExchangeEvent::ended(false, None));
    }
    traffic
}

/// Every transcript under the engine's `tests/transcripts`.
fn transcripts() -> Vec<String> {
    let mut paths = Vec::new();
    for source in std::fs::read_dir(TRANSCRIPTS).expect("transcripts") {
        let source = source.expect("entry").path();
        for file in std::fs::read_dir(&source).expect("a source's transcripts") {
            let file = file.expect("entry").path();
            if file.extension().is_some_and(|ext| ext == "json") {
                let relative = file.strip_prefix(TRANSCRIPTS).expect("under the root");
                paths.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    paths.sort();
    assert!(paths.len() >= 10, "{paths:?}");
    paths
}

#[test]
fn every_transcript_folds_to_the_same_scene_live_and_replayed() {
    for path in transcripts() {
        let replayed = fold(&path, usize::MAX);
        for chunk in [1, 7, 61, usize::MAX] {
            let live = fold_live(&path, chunk);
            assert_eq!(
                live.trays(),
                replayed.trays(),
                "{path}, {chunk}-byte chunks"
            );
            assert_eq!(live.cartridges(), replayed.cartridges(), "{path}");
            assert!(live.flights().eq(replayed.flights()), "{path}");
            assert_eq!(live.events(), replayed.events(), "{path}");
        }
        assert!(!replayed.events().is_empty(), "{path}");
    }
}

#[test]
fn an_mrtr_round_pauses_a_tray_and_the_retry_carries_the_latch_unchanged() {
    let traffic = fold("fastmcp/mrtr_accept.json", 7);
    let [tray] = traffic.trays() else {
        panic!("one logical request, got {:?}", traffic.trays())
    };
    assert_eq!(tray.rounds.len(), 2, "the retry joined the same tray");
    let (first, retry) = (&tray.rounds[0], &tray.rounds[1]);
    assert_eq!(first.tags.len(), 1);
    assert_eq!(first.tags[0].key, "confirm");
    assert_eq!(first.tags[0].kind.method_name(), "elicitation/create");
    assert_eq!(first.tags[0].kind.mode_name(), Some("form"));
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
    let traffic = fold("wire-reference/mrtr_form.json", 7);
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
    let traffic = fold("fastmcp/task_lifecycle.json", 7);
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
    assert_eq!(cartridge.status, TaskStatus::Completed);
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
    let traffic = fold("fastmcp/task_cancel.json", 7);
    let cartridge = &traffic.cartridges()[0];
    let cancel = cartridge.cancel.as_ref().expect("cancel asked");
    assert_eq!(cancel.acknowledged, Some(true));
    assert_eq!(cancel.outcome, Some(TaskStatus::Cancelled));
    assert!(cartridge.is_sealed());
}

#[test]
fn every_timeline_event_names_a_part_the_model_can_show() {
    for path in [
        "fastmcp/mrtr_accept.json",
        "fastmcp/task_lifecycle.json",
        "fastmcp/task_cancel.json",
        "wire-reference/task_lifecycle.json",
        "wire-reference/http_framing.json",
    ] {
        let traffic = fold(path, 7);
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
