//! Exchanges that fail, are stopped or bring garbage, and the one failure rule.

use holdbay_engine::ExchangeEvent;
use holdbay_scene::*;
use serde_json::{Value, json};

use super::wire::*;

#[test]
fn stopping_or_losing_an_exchange_empties_the_tray_with_the_reason() {
    let mut wire = Wire::new(10);
    let stopped = wire.call("slow_report", json!({}));
    wire.respond(stopped, 200, "text/event-stream", &[], End::Stopped);
    assert_eq!(wire.traffic.trays()[0].state, TrayState::Stopped);
    let broken = wire.call("echo", json!({}));
    wire.respond(broken, 502, "text/plain", &[b"Bad gateway"], End::Finished);
    assert!(
        matches!(&wire.traffic.trays()[1].state, TrayState::Failed { message } if message.contains("502"))
    );
    let cut = wire.call("echo2", json!({}));
    wire.respond(
        cut,
        200,
        "text/event-stream",
        &[b": keep-alive\n\n"],
        End::Broken("the connection reset"),
    );
    assert_eq!(
        wire.traffic.trays()[2].state,
        TrayState::Failed {
            message: "the connection reset".into()
        }
    );
}

#[test]
fn garbage_from_a_server_is_kept_but_changes_nothing() {
    let mut wire = Wire::new(10);
    let call = wire.call("echo", json!({}));
    wire.respond(
        call,
        200,
        "application/json",
        &[b"{not json"],
        End::Finished,
    );
    assert!(matches!(
        wire.traffic.trays()[0].state,
        TrayState::Failed { .. }
    ));
    // Events of exchanges the model never saw are ignored.
    let revision = wire.traffic.revision();
    wire.traffic
        .apply(999, 1.0, &ExchangeEvent::ended(false, None));
    assert_eq!(wire.traffic.revision(), revision);
    wire.send_body(7, "tools/call", None, "\u{0}");
    assert_eq!(wire.traffic.trays().len(), 2);
}

/// The conveyor colours a flight by [`Flight::failed`] and the timeline marks its step
/// `failed`: one rule, so a 200 with an unreadable body, an HTTP error, a JSON-RPC error and
/// a broken exchange are failures in both, and an exchange the client stopped is in neither.
#[test]
fn a_flight_and_its_step_fail_by_the_same_rule() {
    /// What the server sends: a JSON-RPC message, or raw bytes.
    enum Reply<'a> {
        Json(Value),
        Raw(u16, &'a [u8], End<'a>),
    }
    let mut wire = Wire::new(10);
    let methods = [
        (
            "tools/list",
            json!({}),
            json!({ "resultType": "complete", "tools": [] }),
        ),
        (
            "tasks/get",
            json!({ "taskId": "t1" }),
            with(task("t1", "working"), json!({ "resultType": "complete" })),
        ),
        (
            "tools/call",
            json!({ "name": "echo", "arguments": {} }),
            json!({ "resultType": "complete", "content": [] }),
        ),
    ];
    for (method, params, fine) in methods {
        let cases = [
            (
                "unreadable",
                Reply::Raw(200, b"{not json", End::Finished),
                true,
            ),
            (
                "http error",
                Reply::Raw(503, b"Service unavailable", End::Finished),
                true,
            ),
            (
                "rpc error",
                Reply::Json(json!({ "error": { "code": -32600, "message": "no" } })),
                true,
            ),
            (
                "broken",
                Reply::Raw(200, b"", End::Broken("the connection reset")),
                true,
            ),
            ("stopped", Reply::Raw(200, b"", End::Stopped), false),
            ("fine", Reply::Json(json!({ "result": fine })), false),
        ];
        for (case, reply, failed) in cases {
            let id = wire.send(method, None, params.clone());
            match reply {
                Reply::Json(message) => {
                    wire.answer_json(id, with(json!({ "jsonrpc": "2.0", "id": id }), message))
                }
                Reply::Raw(status, body, end) => {
                    wire.respond(id, status, "application/json", &[body], end)
                }
            }
            let flight = wire.traffic.flight(id).expect("its flight");
            assert_eq!(flight.failed(), failed, "{case}, {method}: the conveyor");
            let step = wire.traffic.events().last().expect("a step");
            assert_eq!(
                step.failed, failed,
                "{case}, {method}: the timeline, {step:?}"
            );
        }
    }
}
