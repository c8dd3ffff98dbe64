//! A legacy session (2025-11-25) in the scene: the session the server holds, a request the
//! server sends on a call's open stream (the tray held, its tag hanging), the client's answer
//! as a POST of its own, and the session's end.

use holdbay_engine::{BodilessRequest, ExchangeEvent};
use holdbay_scene::*;
use serde_json::{Value, json};

use super::wire::*;

fn initialize(wire: &mut Wire) -> u64 {
    let id = wire.send(
        "initialize",
        None,
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "holdbay", "version": "0"}}),
    );
    wire.result(
        id,
        json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "legacy demo", "version": "0"}}),
    );
    id
}

fn sse(message: &Value) -> Vec<u8> {
    format!("event: message\ndata: {message}\n\n").into_bytes()
}

fn elicitation(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "elicitation/create", "params": {
        "mode": "form", "message": "How many guests?",
        "requestedSchema": {"type": "object", "properties": {"party": {"type": "integer"}}}}})
}

/// The client's answer to the server's request `asked`, as the app posts it.
fn answer(wire: &mut Wire, asked: u64) -> u64 {
    let exchange = wire.next;
    wire.next += 1;
    let body = json!({"jsonrpc": "2.0", "id": asked, "result": {"action": "accept",
        "content": {"party": 4}}});
    wire.send_body(
        exchange,
        "elicitation/create (answer)",
        None,
        &body.to_string(),
    );
    wire.result(exchange, json!({}));
    exchange
}

#[test]
fn a_legacy_call_is_held_by_the_server_while_it_asks_and_runs_on_after_the_answer() {
    let mut wire = Wire::new(10);
    let opened_by = initialize(&mut wire);
    let session = &wire.traffic.sessions()[0];
    assert!(session.is_open());
    assert_eq!(session.opened_by, opened_by);
    let call = wire.call("book_table", json!({}));
    let tray = &wire.traffic.trays()[0];
    assert!(
        tray.in_session,
        "a call in a session is the server's to keep"
    );
    let call_stream = wire.recorded(
        call,
        200,
        "text/event-stream",
        &[
            &sse(&elicitation(0)),
            &sse(
                &json!({"jsonrpc": "2.0", "id": call, "result": {"content": [
                {"type": "text", "text": "Booked for 4"}]}}),
            ),
        ],
        End::Finished,
    );
    // Up to the server's request: the tray is held with the request hanging on it.
    let asked = call_stream
        .iter()
        .position(|(_, event)| matches!(event, ExchangeEvent::ServerRequest(_)))
        .expect("the server's request is read from the call's stream");
    wire.apply(call, &call_stream[..=asked]);
    let tray = &wire.traffic.trays()[0];
    assert_eq!(tray.state, TrayState::Held);
    assert!(tray.is_occupied());
    assert_eq!(tray.open_tags().len(), 1);
    assert_eq!(tray.open_tags()[0].key, "0");
    assert_eq!(
        tray.rounds.len(),
        1,
        "no round trip: the call never came back"
    );
    let ask = &wire.traffic.server_asks()[0];
    assert_eq!(
        (ask.number, ask.carried_by, ask.tray),
        (1, call, Some(call))
    );
    let step = wire.traffic.events().last().expect("the ask's step");
    assert_eq!((step.from, step.to), (Lane::Server, Lane::Client));
    assert_eq!(step.part, Part::ServerAsk(1));
    assert!(step.label.contains("elicitation/create"), "{}", step.label);

    // The answer goes as a POST of its own; the call runs on.
    let posted = answer(&mut wire, 0);
    assert_eq!(
        wire.traffic.flight(posted).map(|f| f.role.clone()),
        Some(FlightRole::AnswersServer { ask: 1 })
    );
    let tray = &wire.traffic.trays()[0];
    assert_eq!(tray.state, TrayState::InFlight);
    assert!(tray.open_tags().is_empty());
    let inspected = wire
        .traffic
        .json_of(&Part::ServerAsk(1))
        .expect("the ask's JSON");
    assert_eq!(inspected["fromServer"], elicitation(0));
    assert_eq!(inspected["clientAnswer"]["result"]["content"]["party"], 4);

    wire.apply(call, &call_stream[asked + 1..]);
    let tray = &wire.traffic.trays()[0];
    assert_eq!(tray.state, TrayState::Completed { tool_error: false });
    assert_eq!(tray.rounds.len(), 1);
    let session = &wire.traffic.sessions()[0];
    assert_eq!(
        (session.requests, session.asks),
        (2, 1),
        "the call and the answer"
    );
    assert!(session.is_open(), "the session outlives the call");
    let held = wire
        .traffic
        .json_of(&Part::HeldSession(opened_by))
        .expect("the session's JSON");
    assert_eq!(
        held["answer"]["result"]["serverInfo"]["name"],
        "legacy demo"
    );
}

#[test]
fn the_sessions_stream_belongs_to_the_session_and_a_404_or_a_delete_ends_it() {
    let mut wire = Wire::new(10);
    let first = initialize(&mut wire);
    let stream = wire.next;
    wire.next += 1;
    wire.send_body(stream, BodilessRequest::SESSION_STREAM, None, "");
    assert_eq!(wire.traffic.sessions()[0].stream, Some(stream));
    // A request from the server on the session's own stream: asked, no tray held.
    wire.respond(
        stream,
        200,
        "text/event-stream",
        &[&sse(&elicitation(5))],
        End::Open,
    );
    assert_eq!(wire.traffic.server_asks()[0].tray, None);
    assert!(wire.traffic.trays().is_empty());
    answer(&mut wire, 5);
    assert!(wire.traffic.server_asks()[0].answer.is_some());

    // The server forgot the session: a 404, and the scene says the session ended.
    let call = wire.call("book_table", json!({}));
    wire.respond(
        call,
        404,
        "text/plain",
        &[b"Session not found"],
        End::Finished,
    );
    let ended = wire.traffic.sessions()[0].ended.clone().expect("ended");
    assert!(ended.why.contains("404"), "{}", ended.why);
    assert_eq!(wire.traffic.sessions()[0].stream, None);

    // A new session, then the client ends it.
    let second = initialize(&mut wire);
    assert_ne!(first, second);
    assert!(wire.traffic.sessions()[1].is_open());
    let delete = wire.next;
    wire.next += 1;
    wire.send_body(delete, BodilessRequest::SESSION_END, None, "");
    assert!(!wire.traffic.sessions()[1].is_open());
    assert!(
        wire.traffic
            .events()
            .iter()
            .any(|e| e.part == Part::HeldSession(second) && e.label.contains("ended"))
    );
}

#[test]
fn an_mrtr_call_outside_a_session_is_not_the_servers_to_keep() {
    let mut wire = Wire::new(10);
    let call = wire.call("book_table", json!({}));
    wire.result(call, input_required("s1"));
    let tray = &wire.traffic.trays()[0];
    assert!(!tray.in_session);
    assert_eq!(tray.state, TrayState::Paused);
    assert!(wire.traffic.sessions().is_empty());
}
