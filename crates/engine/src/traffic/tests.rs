use serde_json::{Value, json};

use super::*;

/// A session on a fake clock, with JSON or SSE responses.
struct Wire {
    traffic: Traffic,
    next: u64,
    clock: f64,
}

impl Wire {
    fn new(max_rounds: u32) -> Self {
        Self {
            traffic: Traffic::new(max_rounds),
            next: 1,
            clock: 1_000.0,
        }
    }

    fn tick(&mut self) -> f64 {
        self.clock += 10.0;
        self.clock
    }

    fn send(&mut self, method: &str, name: Option<&str>, params: Value) -> u64 {
        let id = self.next;
        self.next += 1;
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let at = self.tick();
        self.traffic.sent(id, at, method, name, &body.to_string());
        id
    }

    fn answer_json(&mut self, id: u64, message: Value) {
        let at = self.tick();
        self.traffic
            .responded(id, at, 200, Some("application/json"));
        let text = message.to_string();
        let (head, tail) = text.split_at(text.len() / 2);
        self.traffic.chunk(id, at, head);
        self.traffic.chunk(id, at, tail);
        self.traffic.ended(id, at, None);
    }

    fn result(&mut self, id: u64, result: Value) {
        self.answer_json(id, json!({ "jsonrpc": "2.0", "id": id, "result": result }));
    }

    fn call(&mut self, tool: &str, extra: Value) -> u64 {
        let mut params = json!({ "name": tool, "arguments": { "party": 2 } });
        if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
            params.extend(extra.clone());
        }
        self.send("tools/call", Some(tool), params)
    }
}

fn input_required(state: &str) -> Value {
    json!({
        "resultType": "input_required",
        "inputRequests": { "when": { "method": "elicitation/create", "params": {
            "mode": "form", "message": "When?", "requestedSchema": { "type": "object" } } } },
        "requestState": state,
    })
}

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
    assert!(tray.is_occupied() || tray.state == TrayState::BoundReached);
}

#[test]
fn a_sealed_cartridge_never_changes() {
    let mut wire = Wire::new(10);
    let call = wire.call("flaky_job", json!({}));
    wire.result(
        call,
        json!({ "resultType": "task", "taskId": "t1", "status": "working", "pollIntervalMs": 500 }),
    );
    let poll = wire.send("tasks/get", Some("t1"), json!({ "taskId": "t1" }));
    wire.result(poll, json!({ "resultType": "complete", "taskId": "t1", "status": "failed", "error": { "code": -32603, "message": "boom" } }));
    let sealed = wire.traffic.cartridge("t1").cloned().expect("t1");
    assert!(sealed.is_sealed());
    let poll = wire.send("tasks/get", Some("t1"), json!({ "taskId": "t1" }));
    wire.result(
        poll,
        json!({ "resultType": "complete", "taskId": "t1", "status": "working" }),
    );
    let after = wire.traffic.cartridge("t1").expect("t1");
    assert_eq!(after.status, "failed");
    assert_eq!(after.snapshot, sealed.snapshot);
    assert_eq!(after.broken_seal, 1);
}

#[test]
fn a_poll_for_an_unknown_task_means_it_was_restored_from_storage() {
    let mut wire = Wire::new(10);
    let poll = wire.send("tasks/get", Some("old"), json!({ "taskId": "old" }));
    wire.result(
        poll,
        json!({ "resultType": "complete", "taskId": "old", "status": "working" }),
    );
    let cartridge = wire.traffic.cartridge("old").expect("old");
    assert!(cartridge.restored);
    assert_eq!(cartridge.polls, 1);
    wire.traffic.restored("old", 0.0, "completed", json!({}));
    assert_eq!(
        wire.traffic.cartridge("old").map(|c| c.status.as_str()),
        Some("working"),
        "an already known task is not restored twice"
    );
    wire.traffic.restored(
        "kept",
        5.0,
        "input_required",
        json!({ "tool": "run_pipeline" }),
    );
    let kept = wire.traffic.cartridge("kept").expect("kept");
    assert!(kept.restored && !kept.is_sealed());
    assert_eq!(kept.snapshot["tool"], "run_pipeline");
}

#[test]
fn listen_snapshots_arrive_without_a_poll() {
    let mut wire = Wire::new(10);
    let call = wire.call("run_pipeline", json!({}));
    wire.result(
        call,
        json!({ "resultType": "task", "taskId": "p", "status": "working" }),
    );
    let listen = wire.send(
        "subscriptions/listen",
        None,
        json!({ "notifications": { "taskIds": ["p"] } }),
    );
    let at = wire.tick();
    wire.traffic
        .responded(listen, at, 200, Some("text/event-stream"));
    let note = json!({ "jsonrpc": "2.0", "method": "notifications/tasks", "params": {
        "taskId": "p", "status": "input_required",
        "inputRequests": { "approve_prod": { "method": "elicitation/create", "params": { "mode": "form", "message": "Approve?", "requestedSchema": {} } } } } });
    let event = format!("event: message\ndata: {note}\n\n");
    let (a, b) = event.split_at(17);
    wire.traffic.chunk(listen, at, a);
    wire.traffic.chunk(listen, at, b);
    let cartridge = wire.traffic.cartridge("p").expect("p");
    assert_eq!(cartridge.status, "input_required");
    assert_eq!((cartridge.polls, cartridge.pushes), (0, 1));
    assert_eq!(cartridge.tags[0].key, "approve_prod");
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
fn stopping_or_losing_an_exchange_empties_the_tray_with_the_reason() {
    let mut wire = Wire::new(10);
    let stopped = wire.call("slow_report", json!({}));
    wire.traffic
        .responded(stopped, 1.0, 200, Some("text/event-stream"));
    wire.traffic
        .ended(stopped, 2.0, Some("the request to http://x was aborted"));
    assert_eq!(wire.traffic.trays()[0].state, TrayState::Stopped);
    let broken = wire.call("echo", json!({}));
    wire.traffic.responded(broken, 3.0, 502, Some("text/plain"));
    wire.traffic.chunk(broken, 3.0, "Bad gateway");
    wire.traffic.ended(broken, 4.0, None);
    assert!(
        matches!(&wire.traffic.trays()[1].state, TrayState::Failed { message } if message.contains("502"))
    );
}

#[test]
fn garbage_from_a_server_is_kept_but_changes_nothing() {
    let mut wire = Wire::new(10);
    let call = wire.call("echo", json!({}));
    wire.traffic
        .responded(call, 1.0, 200, Some("application/json"));
    wire.traffic.chunk(call, 1.0, "{not json");
    wire.traffic.ended(call, 2.0, None);
    assert!(matches!(
        wire.traffic.trays()[0].state,
        TrayState::Failed { .. }
    ));
    // Events and parts for exchanges the model never saw are ignored.
    wire.traffic.chunk(999, 1.0, "data: {}\n\n");
    wire.traffic.ended(999, 1.0, None);
    wire.traffic.sent(7, 1.0, "tools/call", None, "\u{0}");
    assert_eq!(wire.traffic.trays().len(), 2);
}

#[test]
fn long_sessions_stay_bounded() {
    let mut wire = Wire::new(10);
    let call = wire.call("bulk", json!({}));
    wire.result(
        call,
        json!({ "resultType": "task", "taskId": "t", "status": "working" }),
    );
    for _ in 0..(MAX_EVENTS + MAX_FINISHED_FLIGHTS) {
        let poll = wire.send("tasks/get", Some("t"), json!({ "taskId": "t" }));
        wire.result(
            poll,
            json!({ "resultType": "complete", "taskId": "t", "status": "working" }),
        );
    }
    assert!(wire.traffic.events().len() <= MAX_EVENTS);
    assert!(wire.traffic.dropped_events() > 0);
    assert!(wire.traffic.flights().count() <= MAX_FINISHED_FLIGHTS);
}

mod never_panics {
    use proptest::prelude::*;

    use super::Traffic;

    #[derive(Debug, Clone)]
    enum Op {
        Sent(u64, String, String),
        Responded(u64, u16, bool),
        Chunk(u64, String),
        Ended(u64, bool),
    }

    fn op() -> impl Strategy<Value = Op> {
        let method = prop::sample::select(vec![
            "tools/call",
            "tasks/get",
            "tasks/update",
            "tasks/cancel",
            "subscriptions/listen",
            "prompts/get",
        ])
        .prop_map(str::to_owned);
        let body = prop_oneof![
            Just(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s","inputRequests":{"k":{}}}}"#.to_owned()),
            Just(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t","status":"working"}}"#.to_owned()),
            Just(r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"completed"}}"#.to_owned()),
            Just(r#"data: {"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t","status":"cancelled"}}"#.to_owned()),
            Just("\n\n".to_owned()),
            ".{0,40}",
        ];
        prop_oneof![
            (0..4u64, method, body.clone()).prop_map(|(id, m, b)| Op::Sent(id, m, b)),
            (0..4u64, any::<u16>(), any::<bool>())
                .prop_map(|(id, s, sse)| Op::Responded(id, s, sse)),
            (0..4u64, body).prop_map(|(id, b)| Op::Chunk(id, b)),
            (0..4u64, any::<bool>()).prop_map(|(id, e)| Op::Ended(id, e)),
        ]
    }

    proptest! {
        #[test]
        fn any_sequence_of_wire_events_folds(ops in prop::collection::vec(op(), 0..40)) {
            let mut traffic = Traffic::new(3);
            for (n, op) in ops.into_iter().enumerate() {
                let at = n as f64;
                match op {
                    Op::Sent(id, method, body) => traffic.sent(id, at, &method, Some("t"), &body),
                    Op::Responded(id, status, sse) => traffic.responded(
                        id, at, status, Some(if sse { "text/event-stream" } else { "application/json" })),
                    Op::Chunk(id, text) => traffic.chunk(id, at, &text),
                    Op::Ended(id, error) => traffic.ended(id, at, error.then_some("aborted")),
                }
            }
            for event in traffic.events() {
                let _ = traffic.json_of(&event.part);
            }
        }
    }
}
