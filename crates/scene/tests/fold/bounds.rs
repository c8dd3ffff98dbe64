//! Long sessions stay light: the timeline, the flights and the bay are bounded.

use holdbay_scene::*;
use serde_json::json;

use super::wire::*;

#[test]
fn long_sessions_stay_bounded() {
    let mut wire = Wire::new(10);
    let call = wire.call_accepting_task("bulk");
    wire.result(
        call,
        with(task("t", "working"), json!({ "resultType": "task" })),
    );
    for _ in 0..(MAX_EVENTS + MAX_FINISHED_FLIGHTS) {
        let poll = wire.send("tasks/get", Some("t"), json!({ "taskId": "t" }));
        wire.result(
            poll,
            with(task("t", "working"), json!({ "resultType": "complete" })),
        );
    }
    assert!(wire.traffic.events().len() <= MAX_EVENTS);
    assert!(wire.traffic.dropped_events() > 0);
    assert!(wire.traffic.flights().count() <= MAX_FINISHED_FLIGHTS);
}

#[test]
fn thousands_of_calls_leave_a_bounded_bay_and_keep_the_paused_tray() {
    let mut wire = Wire::new(10);
    let paused = wire.call("book_table", json!({}));
    wire.result(
        paused,
        json!({ "resultType": "input_required", "inputRequests": {}, "requestState": "s" }),
    );
    for _ in 0..(MAX_FINISHED_TRAYS * 3) {
        let call = wire.call("echo", json!({}));
        wire.result(
            call,
            json!({ "resultType": "complete", "content": [], "isError": false }),
        );
    }
    let trays = wire.traffic.trays();
    assert_eq!(trays.len(), MAX_FINISHED_TRAYS + 1);
    assert_eq!(trays[0].id, paused, "the paused tray stays, however old");
    assert!(matches!(trays[0].state, TrayState::Paused));
    assert!(
        trays[1..]
            .iter()
            .all(|t| matches!(t.state, TrayState::Completed { .. }))
    );
}
