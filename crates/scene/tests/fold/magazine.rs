//! The job magazine: cartridges, their lamp, polls and pushes, restored handles, cancels.

use holdbay_engine::model::TaskStatus;
use holdbay_engine::protocol::task_status_name;
use holdbay_scene::*;
use serde_json::json;

use super::wire::*;

#[test]
fn a_sealed_cartridge_never_changes() {
    let mut wire = Wire::new(10);
    let call = wire.call_accepting_task("flaky_job");
    wire.result(
        call,
        with(
            task("t1", "working"),
            json!({ "resultType": "task", "pollIntervalMs": 500 }),
        ),
    );
    let poll = wire.send("tasks/get", Some("t1"), json!({ "taskId": "t1" }));
    wire.result(
        poll,
        with(
            task("t1", "failed"),
            json!({ "resultType": "complete", "error": { "code": -32603, "message": "boom" } }),
        ),
    );
    let sealed = wire.traffic.cartridge("t1").cloned().expect("t1");
    assert!(sealed.is_sealed());
    let poll = wire.send("tasks/get", Some("t1"), json!({ "taskId": "t1" }));
    wire.result(
        poll,
        with(task("t1", "working"), json!({ "resultType": "complete" })),
    );
    let after = wire.traffic.cartridge("t1").expect("t1");
    assert_eq!(after.status, TaskStatus::Failed);
    assert_eq!(after.snapshot, sealed.snapshot);
    assert_eq!(after.broken_seal, 1);
}

#[test]
fn an_unchanged_poll_is_counted_but_not_drawn() {
    let mut wire = Wire::new(10);
    let poll = wire.send("tasks/get", Some("t"), json!({ "taskId": "t" }));
    wire.result(
        poll,
        with(task("t", "working"), json!({ "resultType": "complete" })),
    );
    let version = wire.traffic.cartridge("t").expect("t").version;
    let poll = wire.send("tasks/get", Some("t"), json!({ "taskId": "t" }));
    wire.result(
        poll,
        with(task("t", "working"), json!({ "resultType": "complete" })),
    );
    let cartridge = wire.traffic.cartridge("t").expect("t");
    assert_eq!((cartridge.polls, cartridge.version), (2, version));
}

#[test]
fn a_poll_step_names_its_task_after_its_flight_is_let_go() {
    let mut wire = Wire::new(10);
    for _ in 0..(2 * MAX_FINISHED_FLIGHTS) {
        let poll = wire.send("tasks/get", Some("t"), json!({ "taskId": "t" }));
        wire.result(
            poll,
            with(task("t", "working"), json!({ "resultType": "complete" })),
        );
    }
    let first = wire
        .traffic
        .events()
        .iter()
        .find(|event| event.from == Lane::Client && event.to == Lane::Server)
        .expect("a poll going out");
    let Part::Flight(exchange) = first.part else {
        panic!("a poll step is its flight's: {:?}", first.part);
    };
    assert!(
        wire.traffic.flight(exchange).is_none(),
        "its flight was let go"
    );
    assert_eq!(first.polls.as_deref(), Some("t"));
    // Answers are not requests; nothing else polls.
    assert!(
        wire.traffic
            .events()
            .iter()
            .filter(|event| event.polls.is_some())
            .all(|event| event.from == Lane::Client)
    );
}

#[test]
fn a_poll_for_an_unknown_task_means_it_was_restored_from_storage() {
    let mut wire = Wire::new(10);
    let poll = wire.send("tasks/get", Some("old"), json!({ "taskId": "old" }));
    wire.result(
        poll,
        with(task("old", "working"), json!({ "resultType": "complete" })),
    );
    let cartridge = wire.traffic.cartridge("old").expect("old");
    assert!(cartridge.restored);
    assert_eq!(cartridge.polls, 1);
}

#[test]
fn a_stored_handle_of_an_unknown_task_enters_with_its_last_status() {
    let mut wire = Wire::new(10);
    wire.traffic.restored(
        "kept",
        5.0,
        TaskStatus::InputRequired,
        json!({ "tool": "run_pipeline" }),
    );
    let kept = wire.traffic.cartridge("kept").expect("kept");
    assert!(kept.restored && !kept.is_sealed());
    assert_eq!(kept.status, TaskStatus::InputRequired);
    assert_eq!(kept.snapshot["tool"], "run_pipeline");
    wire.traffic
        .restored("done", 6.0, TaskStatus::Completed, json!({}));
    assert!(
        wire.traffic
            .cartridge("done")
            .is_some_and(Cartridge::is_sealed)
    );
}

#[test]
fn a_stored_handle_of_a_known_task_marks_it_restored_and_keeps_what_the_wire_said() {
    let mut wire = Wire::new(10);
    let call = wire.call_accepting_task("run_pipeline");
    wire.result(
        call,
        with(task("t1", "working"), json!({ "resultType": "task" })),
    );
    let before = wire.traffic.events().len();
    wire.traffic
        .restored("t1", 50.0, TaskStatus::Completed, json!({ "stale": true }));
    wire.traffic
        .restored("t1", 60.0, TaskStatus::Completed, json!({ "stale": true }));
    let cartridge = wire.traffic.cartridge("t1").expect("t1");
    assert!(cartridge.restored);
    assert_eq!(cartridge.status, TaskStatus::Working);
    assert_eq!(cartridge.from_tray, Some(call));
    assert_ne!(cartridge.snapshot["stale"], true);
    let restored: Vec<&TrafficEvent> = wire.traffic.events()[before..]
        .iter()
        .filter(|e| e.part == Part::Cartridge("t1".into()))
        .collect();
    assert_eq!(restored.len(), 2, "one timeline event per call");
}

#[test]
fn listen_snapshots_arrive_without_a_poll() {
    let mut wire = Wire::new(10);
    let call = wire.call_accepting_task("run_pipeline");
    wire.result(
        call,
        with(task("p", "working"), json!({ "resultType": "task" })),
    );
    let listen = wire.send(
        "subscriptions/listen",
        None,
        json!({ "notifications": { "taskIds": ["p"] } }),
    );
    let note = json!({ "jsonrpc": "2.0", "method": "notifications/tasks", "params": with(task("p", "input_required"), json!({
        "inputRequests": { "approve_prod": { "method": "elicitation/create", "params": { "mode": "form", "message": "Approve?", "requestedSchema": { "type": "object", "properties": {} } } } } })) });
    let event = format!("event: message\ndata: {note}\n\n");
    let (a, b) = event.split_at(17);
    wire.respond(
        listen,
        200,
        "text/event-stream",
        &[a.as_bytes(), b.as_bytes()],
        End::Open,
    );
    let cartridge = wire.traffic.cartridge("p").expect("p");
    assert_eq!(cartridge.status, TaskStatus::InputRequired);
    assert_eq!((cartridge.polls, cartridge.pushes), (0, 1));
    assert_eq!(cartridge.tags[0].key, "approve_prod");
    assert!(wire.traffic.events().iter().any(|e| e.label
        == format!(
            "notifications/tasks: {}",
            task_status_name(TaskStatus::InputRequired)
        )));
    let update = wire.send(
        "tasks/update",
        Some("p"),
        json!({ "taskId": "p", "inputResponses": { "approve_prod": { "action": "accept" } } }),
    );
    assert!(
        wire.traffic
            .cartridge("p")
            .is_some_and(|c| c.tags.is_empty())
    );
    wire.result(update, json!({ "resultType": "complete" }));
    assert!(
        wire.traffic
            .json_of(&Part::CartridgeTag {
                task: "p".into(),
                key: "approve_prod".into()
            })
            .is_some()
    );
    assert!(
        wire.traffic
            .flight(listen)
            .is_some_and(|f| f.ended_at.is_none())
    );
}

#[test]
fn each_snapshot_says_whether_it_was_polled_or_pushed() {
    let mut wire = Wire::new(10);
    let call = wire.call_accepting_task("run_pipeline");
    wire.result(
        call,
        with(
            task("p", "working"),
            json!({ "resultType": "task", "pollIntervalMs": 1000 }),
        ),
    );
    let created = wire.traffic.cartridge("p").expect("p").delivery_summary();
    assert!(created.contains("answer that created it"), "{created}");
    assert!(created.contains("pollIntervalMs is 1000"), "{created}");

    let poll = wire.send("tasks/get", Some("p"), json!({ "taskId": "p" }));
    wire.result(
        poll,
        with(
            task("p", "input_required"),
            json!({ "resultType": "complete", "inputRequests": { "ok": {
                "method": "elicitation/create", "params": { "mode": "form", "message": "Go?",
                "requestedSchema": { "type": "object", "properties": {} } } } } }),
        ),
    );
    let narrated = |wire: &Wire| {
        wire.traffic
            .events()
            .last()
            .and_then(|e| e.narration.clone())
            .unwrap_or_default()
    };
    let polled = wire
        .traffic
        .events()
        .iter()
        .rev()
        .find_map(|e| e.narration.clone().filter(|n| n.contains("needs input")));
    assert!(
        polled.is_some_and(|n| n.ends_with("(polled with tasks/get).")),
        "a polled snapshot says so"
    );
    let cartridge = wire.traffic.cartridge("p").expect("p");
    assert_eq!(cartridge.last_delivery, Delivery::Polled);

    let listen = wire.send(
        "subscriptions/listen",
        None,
        json!({ "notifications": { "taskIds": ["p"] } }),
    );
    let note = json!({ "jsonrpc": "2.0", "method": "notifications/tasks",
        "params": with(task("p", "working"), json!({})) });
    let event = format!("event: message\ndata: {note}\n\n");
    wire.respond(
        listen,
        200,
        "text/event-stream",
        &[event.as_bytes()],
        End::Open,
    );
    assert!(narrated(&wire).ends_with("(pushed on the listen stream, no poll)."));
    let summary = wire.traffic.cartridge("p").expect("p").delivery_summary();
    assert_eq!(
        summary,
        "Snapshots so far: 1 polled, 1 pushed; the newest came from a push on the listen \
         stream; the server's pollIntervalMs is 1000."
    );
}

#[test]
fn a_restored_task_is_followed_again_only_while_it_runs() {
    let mut wire = Wire::new(10);
    wire.traffic
        .restored("live", 5.0, TaskStatus::Working, json!({}));
    let live = wire
        .traffic
        .events()
        .last()
        .and_then(|e| e.narration.clone());
    assert!(live.is_some_and(|n| n.contains("the client follows it again")));
    wire.traffic
        .restored("done", 6.0, TaskStatus::Completed, json!({}));
    let done = wire
        .traffic
        .events()
        .last()
        .and_then(|e| e.narration.clone());
    assert!(
        done.is_some_and(|n| n.contains("nothing left to follow") && !n.contains("follows it")),
        "a finished task is not said to be polled again"
    );
    assert_eq!(
        wire.traffic.cartridge("done").map(|c| c.last_delivery),
        Some(Delivery::Restored)
    );
}

#[test]
fn a_cancel_is_a_request_and_the_lamp_shows_what_really_happened() {
    let mut wire = Wire::new(10);
    let call = wire.call_accepting_task("slow_job");
    wire.result(
        call,
        with(task("c", "working"), json!({ "resultType": "task" })),
    );
    let cancel = wire.send("tasks/cancel", Some("c"), json!({ "taskId": "c" }));
    wire.result(cancel, json!({ "resultType": "complete" }));
    let ask = wire
        .traffic
        .cartridge("c")
        .and_then(|c| c.cancel.clone())
        .expect("asked");
    assert_eq!((ask.acknowledged, ask.outcome), (Some(true), None));
    let poll = wire.send("tasks/get", Some("c"), json!({ "taskId": "c" }));
    wire.result(
        poll,
        with(
            task("c", "completed"),
            json!({ "resultType": "complete", "result": { "content": [] } }),
        ),
    );
    let cartridge = wire.traffic.cartridge("c").expect("c");
    assert_eq!(
        cartridge.cancel.as_ref().and_then(|ask| ask.outcome),
        Some(TaskStatus::Completed)
    );
    assert!(wire.traffic.events().iter().any(|e| {
        e.narration
            .as_deref()
            .is_some_and(|n| n.contains("won the race"))
    }));
}
