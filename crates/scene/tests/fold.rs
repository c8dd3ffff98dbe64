use std::collections::HashMap;

use holdbay_engine::model::{ResultType, TaskStatus};
use holdbay_engine::protocol::task_status_name;
use holdbay_engine::{ExchangeEvent, MethodId, RecordedExchange, SentRequest, decode_recorded};
use holdbay_scene::*;
use serde_json::{Value, json};

/// A session on a fake clock. Requests are decoded as recorded requests; answers go through
/// the engine's readers (`decode_recorded`), as the app's wire log feeds the scene.
struct Wire {
    traffic: Traffic,
    next: u64,
    clock: f64,
    sent: HashMap<u64, (String, Option<String>, String)>,
}

/// How a recorded exchange ended.
#[derive(Clone, Copy)]
enum End<'a> {
    /// The body ended by itself.
    Finished,
    /// Still open.
    Open,
    /// Cut off at the HTTP level.
    Broken(&'a str),
    /// The client aborted it.
    Stopped,
}

impl Wire {
    fn new(max_rounds: u32) -> Self {
        Self {
            traffic: Traffic::new(max_rounds),
            next: 1,
            clock: 1_000.0,
            sent: HashMap::new(),
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
        self.send_body(id, method, name, &body.to_string());
        id
    }

    fn send_body(&mut self, id: u64, method: &str, name: Option<&str>, body: &str) {
        let at = self.tick();
        let sent = SentRequest::decode(method, body, name);
        self.traffic
            .apply(id, at, &ExchangeEvent::Sent(Box::new(sent)));
        self.sent.insert(
            id,
            (method.to_owned(), name.map(str::to_owned), body.to_owned()),
        );
    }

    /// Everything after `Sent` of exchange `id`, from the recorded response.
    fn respond(&mut self, id: u64, status: u16, content_type: &str, body: &[&[u8]], end: End) {
        let at = self.tick();
        let (method, name, request) = self.sent.get(&id).cloned().expect("sent first");
        let chunks: Vec<(f64, &[u8])> = body
            .iter()
            .enumerate()
            .map(|(n, chunk)| (1.0 + n as f64, *chunk))
            .collect();
        let events = decode_recorded(&RecordedExchange {
            method: &method,
            name: name.as_deref(),
            request_body: &request,
            status: Some(status),
            content_type: Some(content_type),
            responded_after: Some(0.0),
            chunks: &chunks,
            finished_after: (!matches!(end, End::Open)).then_some(chunks.len() as f64 + 1.0),
            error: match end {
                End::Broken(error) => Some(error),
                End::Stopped => Some("the request to http://x was aborted"),
                _ => None,
            },
            stopped: matches!(end, End::Stopped),
            round: None,
        });
        for timed in events.into_iter().skip(1) {
            self.traffic.apply(id, at + timed.after_ms, &timed.event);
        }
    }

    fn answer_json(&mut self, id: u64, message: Value) {
        let text = message.to_string();
        let (head, tail) = text.split_at(text.len() / 2);
        self.respond(
            id,
            200,
            "application/json",
            &[head.as_bytes(), tail.as_bytes()],
            End::Finished,
        );
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

    /// A `tools/call` that declared the tasks extension (a task is a valid answer to it).
    fn call_accepting_task(&mut self, tool: &str) -> u64 {
        self.call(
            tool,
            json!({ "_meta": { "io.modelcontextprotocol/clientCapabilities": {
                "extensions": { "io.modelcontextprotocol/tasks": {} } } } }),
        )
    }
}

fn input_required(state: &str) -> Value {
    json!({
        "resultType": "input_required",
        "inputRequests": { "when": { "method": "elicitation/create", "params": {
            "mode": "form", "message": "When?", "requestedSchema": { "type": "object", "properties": {} } } } },
        "requestState": state,
    })
}

fn task(id: &str, status: &str) -> Value {
    json!({ "taskId": id, "status": status, "createdAt": "2026-11-29T10:00:00Z",
        "lastUpdatedAt": "2026-11-29T10:00:00Z", "ttlMs": null })
}

fn with(mut value: Value, extra: Value) -> Value {
    if let (Some(value), Some(extra)) = (value.as_object_mut(), extra.as_object()) {
        value.extend(extra.clone());
    }
    value
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
fn a_reload_is_on_the_timeline() {
    let mut wire = Wire::new(10);
    let revision = wire.traffic.revision();
    wire.traffic.reloaded(7.0);
    let event = wire.traffic.events().last().expect("an event");
    assert_eq!((event.at, &event.part), (7.0, &Part::Session));
    assert!(
        event
            .narration
            .as_deref()
            .is_some_and(|n| n.contains("reloaded"))
    );
    assert!(wire.traffic.revision() > revision);
    assert_eq!(wire.traffic.json_of(&Part::Session), None);
}

#[test]
fn a_reload_marks_what_came_before_it() {
    let mut wire = Wire::new(10);
    assert!(
        !wire.traffic.before_reload(5.0),
        "no reload, nothing before one"
    );
    wire.traffic.reloaded(7.0);
    assert!(wire.traffic.before_reload(5.0));
    assert!(
        !wire.traffic.before_reload(7.0),
        "the reload's own moment is this page's"
    );
    assert!(!wire.traffic.before_reload(8.0));
}

#[test]
fn a_reload_gives_up_the_paused_requests_and_nothing_else() {
    let mut wire = Wire::new(10);
    let paused = wire.call("book_table", json!({}));
    wire.result(paused, input_required("sealed-abc"));
    let done = wire.call("echo", json!({}));
    wire.result(done, json!({ "resultType": "complete", "content": [] }));
    wire.traffic.reloaded(90.0);
    let state = |id| wire.traffic.tray(id).map(|t| t.state.clone());
    assert_eq!(state(paused), Some(TrayState::Abandoned));
    assert_eq!(
        state(done),
        Some(TrayState::Completed { tool_error: false }),
        "a finished request keeps how it ended"
    );
    assert!(
        wire.traffic
            .events()
            .iter()
            .any(|e| e.part == Part::Tray(paused) && e.at == 90.0),
        "the timeline says the tray was given up at the reload"
    );
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

/// The fold names wire values through the engine's types (`MethodId::name`,
/// `task_status_name`, rmcp's constants), never by spelling them: a method, `resultType` or
/// task status written as a string in `crates/scene/src` would be a second, untyped decoder.
#[test]
fn the_fold_spells_no_wire_value() {
    let sources = sources(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    )));
    assert!(sources.len() >= 10, "every file of the crate is read");
    let statuses = [
        TaskStatus::Working,
        TaskStatus::InputRequired,
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ]
    .map(task_status_name);
    let result_types = [
        ResultType::COMPLETE,
        ResultType::INPUT_REQUIRED,
        ResultType::TASK,
    ];
    let result_types: Vec<&str> = result_types.iter().map(ResultType::as_str).collect();
    for (file, source) in sources {
        for literal in string_literals(&source) {
            let spelled_method = literal.contains("notifications/")
                || MethodId::ALL
                    .iter()
                    .any(|method| literal.contains(method.name()));
            let spelled_value =
                statuses.contains(&literal.as_str()) || result_types.contains(&literal.as_str());
            assert!(
                !spelled_method && !spelled_value,
                "{file} spells the wire value {literal:?}"
            );
        }
    }
}

/// Every Rust file under `dir`, with its path and source.
fn sources(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let source = std::fs::read_to_string(&path).expect("a source file");
            out.push((path.display().to_string(), source));
        }
    }
    out
}

/// The contents of the string literals in Rust source, outside comments.
fn string_literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut chars = code.chars();
        while let Some(c) = chars.next() {
            if c == '/' && chars.clone().next() == Some('/') {
                break;
            }
            if c != '"' {
                continue;
            }
            let mut literal = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    c => literal.push(c),
                }
            }
            out.push(literal);
        }
    }
    out
}

mod never_panics {
    use proptest::prelude::*;

    use super::{End, Wire};

    #[derive(Debug, Clone)]
    enum Op {
        Sent(u64, String, String),
        Answer(u64, u16, bool, Vec<String>, u8),
        Restored(String, u8),
        Reloaded,
    }

    fn op() -> impl Strategy<Value = Op> {
        let method = prop::sample::select(vec![
            "tools/call",
            "tasks/get",
            "tasks/update",
            "tasks/cancel",
            "subscriptions/listen",
            "prompts/get",
            "made/up",
        ])
        .prop_map(str::to_owned);
        let body = prop_oneof![
            Just(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s","inputRequests":{"k":{}}}}"#.to_owned()),
            Just(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}}"#.to_owned()),
            Just(r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"completed","createdAt":"x","lastUpdatedAt":"x","ttlMs":null,"result":{}}}"#.to_owned()),
            Just(r#"data: {"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t","status":"cancelled","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}}"#.to_owned()),
            Just(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#.to_owned()),
            Just("\n\n".to_owned()),
            ".{0,40}",
        ];
        let request = prop_oneof![
            Just(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","requestState":"s"}}"#.to_owned()),
            Just(r#"{"jsonrpc":"2.0","id":1,"params":{"taskId":"t","inputResponses":{"k":{}}}}"#.to_owned()),
            ".{0,20}",
        ];
        prop_oneof![
            (0..4u64, method, request).prop_map(|(id, m, b)| Op::Sent(id, m, b)),
            (
                0..4u64,
                any::<u16>(),
                any::<bool>(),
                prop::collection::vec(body, 0..3),
                any::<u8>()
            )
                .prop_map(|(id, s, sse, chunks, end)| Op::Answer(id, s, sse, chunks, end)),
            ("[a-z]{1,2}", any::<u8>()).prop_map(|(task, status)| Op::Restored(task, status)),
            Just(Op::Reloaded),
        ]
    }

    proptest! {
        #[test]
        fn any_sequence_of_exchanges_folds(ops in prop::collection::vec(op(), 0..30)) {
            let mut wire = Wire::new(3);
            for op in ops {
                match op {
                    Op::Sent(id, method, body) => wire.send_body(id, &method, Some("t"), &body),
                    Op::Answer(id, status, sse, chunks, end) => {
                        if !wire.sent.contains_key(&id) {
                            continue;
                        }
                        let chunks: Vec<&[u8]> = chunks.iter().map(|c| c.as_bytes()).collect();
                        let end = match end % 4 {
                            0 => End::Finished,
                            1 => End::Open,
                            2 => End::Broken("reset"),
                            _ => End::Stopped,
                        };
                        let media = if sse { "text/event-stream" } else { "application/json" };
                        wire.respond(id, status, media, &chunks, end);
                    }
                    Op::Restored(task, status) => {
                        let statuses = [
                            rmcp::model::TaskStatus::Working,
                            rmcp::model::TaskStatus::InputRequired,
                            rmcp::model::TaskStatus::Completed,
                        ];
                        let status = statuses[usize::from(status) % statuses.len()];
                        let at = wire.tick();
                        wire.traffic.restored(&task, at, status, serde_json::Value::Null);
                    }
                    Op::Reloaded => {
                        let at = wire.tick();
                        wire.traffic.reloaded(at);
                    }
                }
            }
            for event in wire.traffic.events() {
                let _ = wire.traffic.json_of(&event.part);
            }
        }
    }
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

#[test]
fn a_scene_started_anew_keeps_what_came_before_as_earlier() {
    let mut wire = Wire::new(10);
    let first = wire.call_accepting_task("run_pipeline");
    wire.result(
        first,
        with(task("t1", "working"), json!({ "resultType": "task" })),
    );
    let paused = wire.call("book_table", json!({}));
    wire.result(paused, input_required("s1"));
    assert_eq!(wire.traffic.scene_trays().count(), 2);
    assert_eq!(wire.traffic.earlier_trays().count(), 0);

    let start = wire.tick();
    wire.traffic.start_scene_at(start);
    assert_eq!(wire.traffic.scene_trays().count(), 0);
    assert_eq!(
        wire.traffic.earlier_trays().count(),
        2,
        "the paused tray too"
    );
    assert!(wire.traffic.scene_cartridges().is_empty());
    assert_eq!(wire.traffic.earlier_cartridges().len(), 1);

    // The earlier task still changes, and stays earlier; a new one is the scene's first.
    let poll = wire.send("tasks/get", Some("t1"), json!({ "taskId": "t1" }));
    wire.result(poll, task("t1", "completed"));
    let second = wire.call_accepting_task("run_pipeline");
    wire.result(
        second,
        with(task("t2", "working"), json!({ "resultType": "task" })),
    );
    assert_eq!(wire.traffic.earlier_cartridges()[0].task_id, "t1");
    let shown: Vec<_> = wire
        .traffic
        .scene_cartridges()
        .iter()
        .map(|c| &c.task_id)
        .collect();
    assert_eq!(shown, ["t2"]);
    let t2 = wire.traffic.cartridge("t2").expect("t2");
    assert_eq!(t2.slot - wire.traffic.cartridge_base(), 0);
    assert_eq!(wire.traffic.scene_trays().count(), 1);
}
