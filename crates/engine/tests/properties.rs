//! Property tests: each one is named after the rule it checks, and drives the engine only
//! through its public, sans-IO API (requests built by the client, responses read from wire
//! bytes by `ResponseReader`).

use holdbay_engine::model::{CallToolResult, RequestId, TaskStatus};
use holdbay_engine::{
    Bounds, CallTool, Client, Discover, ExchangeEvent, GetTask, InputAnswer, Listen, ListenFilter,
    LogicalRequest, MrtrError, Outcome, OutgoingRequest, RecordedExchange, Reply, RequestOptions,
    SseDecoder, Step, Subscription, TaskEvent, TaskTracker, decode_recorded,
};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Value, json};

/// Cases per property: enough to find framing and escaping mistakes, few enough that
/// `cargo test -p holdbay-engine` stays quick. `PROPTEST_CASES` overrides it for long runs.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|cases| cases.parse().ok())
            .unwrap_or(128),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Wire helpers

fn id_json(id: &RequestId) -> Value {
    serde_json::to_value(id).expect("a request id is JSON")
}

fn body_of<M: holdbay_engine::McpMethod>(request: &OutgoingRequest<M>) -> Value {
    serde_json::from_str(request.body()).expect("the engine sends JSON")
}

/// The user ticks "ok" on the form.
fn approve() -> InputAnswer {
    InputAnswer::Accept(json!({"ok": true}).as_object().cloned())
}

/// The server's JSON answer to `request`, read through the engine.
fn answer_json(
    request: &OutgoingRequest<CallTool>,
    result: Value,
) -> Reply<Outcome<CallToolResult>> {
    let wire = json!({"jsonrpc": "2.0", "id": id_json(request.id()), "result": result});
    let mut reader = request.reader(200, Some("application/json"));
    reader.push_chunk(wire.to_string().as_bytes());
    reader.finish_outcome().expect("a valid reply")
}

fn elicitation(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message,
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}},
        "required": ["ok"]}}})
}

fn input_required(key: &str, state: Option<&str>) -> Value {
    let mut result =
        json!({"resultType": "input_required", "inputRequests": {key: elicitation("Sure?")}});
    if let Some(state) = state {
        result["requestState"] = json!(state);
    }
    result
}

fn first_call(client: &mut Client) -> OutgoingRequest<CallTool> {
    client
        .call_tool(
            "delete",
            json!({"path": "report.txt"}).as_object().cloned(),
            &RequestOptions::default(),
        )
        .expect("no mirrored headers to check")
}

/// Split `body` at the given points (any bytes, UTF-8 sequences and `\r\n` included).
fn split<'a>(body: &'a [u8], points: &[Index]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = points.iter().map(|p| p.index(body.len() + 1)).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut chunks = Vec::new();
    let mut start = 0;
    for cut in cuts {
        chunks.push(&body[start..cut]);
        start = cut;
    }
    chunks.push(&body[start..]);
    chunks
}

// ---------------------------------------------------------------------------------------------
// Strategies

/// Any string, weighted towards what breaks naive escaping: quotes, backslashes, control
/// characters, JSON-hostile separators, a BOM, astral-plane characters.
fn nasty_string() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        '"', '\\', '/', '\n', '\r', '\t', '\0', '\u{1}', '\u{1b}', '\u{7f}', '\u{85}', '\u{2028}',
        '\u{2029}', '\u{feff}', '\u{fffd}', '{', '}', ':', ',', 'ü', '😀', ' ',
    ]);
    prop::collection::vec(prop_oneof![any::<char>(), special], 0..48)
        .prop_map(|chars| chars.into_iter().collect())
}

#[derive(Debug, Clone, Copy)]
enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn wire(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::InputRequired => "input_required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![
        Just(Status::Working),
        Just(Status::InputRequired),
        Just(Status::Completed),
        Just(Status::Failed),
        Just(Status::Cancelled),
    ]
}

#[derive(Debug, Clone)]
struct Snapshot {
    status: Status,
    /// Now and then a snapshot of another task (must be ignored either way).
    other_task: bool,
    key: String,
    poll_interval_ms: Option<u64>,
    ttl_ms: Option<u64>,
    message: Option<String>,
}

fn snapshot() -> impl Strategy<Value = Snapshot> {
    (
        status(),
        prop::bool::weighted(0.1),
        "[a-z0-9:]{1,12}",
        prop::option::of(0u64..100_000),
        prop::option::of(any::<u64>()),
        prop::option::of(".{0,16}"),
    )
        .prop_map(
            |(status, other_task, key, poll_interval_ms, ttl_ms, message)| Snapshot {
                status,
                other_task,
                key,
                poll_interval_ms,
                ttl_ms,
                message,
            },
        )
}

/// A valid `tasks/get` result for the snapshot: each status with its payload.
fn snapshot_result(s: &Snapshot, n: usize) -> Value {
    let mut result = json!({"resultType": "complete",
        "taskId": if s.other_task { "t2" } else { "t1" }, "status": s.status.wire(),
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": format!("2026-11-29T10:00:{:02}Z", n % 60),
        "ttlMs": s.ttl_ms});
    if let Some(interval) = s.poll_interval_ms {
        result["pollIntervalMs"] = json!(interval);
    }
    if let Some(message) = &s.message {
        result["statusMessage"] = json!(message);
    }
    match s.status {
        Status::InputRequired => {
            result["inputRequests"] = json!({&s.key: elicitation("Approve?")});
        }
        Status::Completed => {
            result["result"] = json!({"resultType": "complete",
                "content": [{"type": "text", "text": format!("done {n}")}]});
        }
        Status::Failed => {
            result["error"] = json!({"code": -32603, "message": format!("boom {n}")});
        }
        Status::Working | Status::Cancelled => {}
    }
    result
}

/// One SSE event or non-event in a generated stream.
#[derive(Debug, Clone)]
enum Piece {
    /// A JSON-RPC notification carried as a message event.
    Notification {
        text: String,
        pretty: bool,
        named: bool,
        id: Option<u32>,
    },
    /// `: keep-alive` and the like.
    Comment(String),
    /// An event of another type: not a JSON-RPC message.
    OtherEvent(String),
    /// `data:` with nothing: a keep-alive or priming event.
    EmptyData,
    /// `retry: N` on its own.
    Retry(u32),
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        4 => (nasty_string(), any::<bool>(), any::<bool>(), prop::option::of(any::<u32>())).prop_map(
            |(text, pretty, named, id)| Piece::Notification { text, pretty, named, id }
        ),
        1 => "[ -~]{0,12}".prop_map(Piece::Comment),
        1 => "[a-z]{0,8}".prop_map(Piece::OtherEvent),
        1 => Just(Piece::EmptyData),
        1 => any::<u32>().prop_map(Piece::Retry),
    ]
}

/// Writes an SSE body line by line, each line ending `\n` or `\r\n` as `crlf` says, or every
/// line ending with a lone `\r` (also valid SSE; it cannot be mixed with the others, where a
/// `\r` before an empty `\n` line would read as one `\r\n`).
struct SseWriter<'a> {
    out: String,
    crlf: &'a [bool],
    cr_only: bool,
    line: usize,
}

impl SseWriter<'_> {
    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        let crlf = !self.crlf.is_empty() && self.crlf[self.line % self.crlf.len()];
        self.out.push_str(match (self.cr_only, crlf) {
            (true, _) => "\r",
            (false, true) => "\r\n",
            (false, false) => "\n",
        });
        self.line += 1;
    }

    /// One message event; returns the data the decoder must hand back.
    fn message(&mut self, value: &Value, pretty: bool, named: bool, id: Option<u32>) -> String {
        let text = if pretty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        }
        .expect("JSON");
        if let Some(id) = id {
            self.line(&format!("id: {id}"));
        }
        if named {
            self.line("event: message");
        }
        // Pretty JSON lines start with indentation: the one space after `data:` is the only
        // one the parser strips, so the data is the text exactly.
        for line in text.split('\n') {
            self.line(&format!("data: {line}"));
        }
        self.line("");
        text
    }
}

struct Stream {
    body: String,
    /// The data of every message event, in order.
    messages: Vec<String>,
    notifications: Vec<Value>,
    result: Value,
}

fn sse_stream(
    request_id: &RequestId,
    pieces: &[Piece],
    result_text: &str,
    trailing: bool,
    crlf: &[bool],
    cr_only: bool,
) -> Stream {
    let mut w = SseWriter {
        out: String::new(),
        crlf,
        cr_only,
        line: 0,
    };
    let mut messages = Vec::new();
    let mut notifications = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Notification {
                text,
                pretty,
                named,
                id,
            } => {
                let value = json!({"jsonrpc": "2.0", "method": "notifications/message",
                    "params": {"level": "info", "logger": "prop", "data": text}});
                messages.push(w.message(&value, *pretty, *named, *id));
                notifications.push(value);
            }
            Piece::Comment(text) => w.line(&format!(":{text}")),
            Piece::OtherEvent(name) => {
                w.line(&format!("event: ping{name}"));
                w.line("data: {\"not\":\"a message\"}");
                w.line("");
            }
            Piece::EmptyData => {
                w.line("data:");
                w.line("");
            }
            Piece::Retry(ms) => {
                w.line(&format!("retry: {ms}"));
                w.line("");
            }
        }
    }
    let result = json!({"resultType": "complete", "content": [{"type": "text", "text": result_text}],
        "isError": false});
    let response = json!({"jsonrpc": "2.0", "id": id_json(request_id), "result": result});
    messages.push(w.message(
        &response,
        result_text.len().is_multiple_of(2),
        false,
        Some(7),
    ));
    if trailing {
        // After the response: ignored by the reader, still decoded by the decoder.
        let late = json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "debug", "data": "late"}});
        messages.push(w.message(&late, false, true, None));
    }
    w.line(": bye");
    Stream {
        body: w.out,
        messages,
        notifications,
        result,
    }
}

fn decode(chunks: &[&[u8]]) -> Vec<String> {
    let mut decoder = SseDecoder::new();
    let mut out = Vec::new();
    for chunk in chunks {
        out.extend(decoder.push(chunk).expect("a valid stream"));
    }
    out.extend(decoder.finish().expect("a valid stream"));
    out
}

// ---------------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(config())]

    /// MRTR: the client MUST echo `requestState` unchanged. Whatever the server puts in it,
    /// the retry's `params.requestState` is the same string.
    #[test]
    fn retry_echoes_request_state_byte_for_byte(state in nasty_string(), key in nasty_string()) {
        let key = if key.is_empty() { "k".to_owned() } else { key };
        let mut client = Client::default();
        let first = first_call(&mut client);
        let mut call = LogicalRequest::start(&first, Bounds::default(), 0);
        let step = call.handle(answer_json(&first, input_required(&key, Some(&state))));
        prop_assert!(matches!(step, Step::NeedsInput), "step {step:?}");
        prop_assert_eq!(call.pending_inputs(), vec![key.clone()]);
        call.answer(&key, approve())
            .expect("the key was asked");
        let retry = call.retry(&mut client, 1).expect("every key answered");
        let sent = body_of(&retry);
        prop_assert_eq!(sent["params"]["requestState"].as_str(), Some(state.as_str()));
        prop_assert_eq!(&sent["params"]["inputResponses"][&key]["action"], "accept");
        // The retry's body text carries exactly the JSON encoding of the string.
        let encoded = serde_json::to_string(&state).expect("JSON string");
        let expected = format!("\"requestState\":{encoded}");
        prop_assert!(retry.body().contains(&expected), "{} lacks {}", retry.body(), expected);
        prop_assert_eq!(call.rounds()[0].request_state.as_deref(), Some(state.as_str()));
    }

    /// Bounds: a server that never stops asking cannot make the client go past
    /// `max_rounds`, and the error names the bound.
    #[test]
    fn rounds_never_exceed_the_bound(
        max_rounds in 1u32..20,
        state_only in prop::collection::vec(any::<bool>(), 1..8),
    ) {
        let mut client = Client::default();
        let bounds = Bounds { max_rounds, ..Bounds::default() };
        let mut latest = first_call(&mut client);
        let mut call = LogicalRequest::start(&latest, bounds, 0);
        let mut sent = 1u32;
        let error = loop {
            prop_assert!(sent <= max_rounds, "sent {sent} rounds, bound {max_rounds}");
            let round = sent as usize;
            let result = if state_only[round % state_only.len()] {
                json!({"resultType": "input_required", "requestState": format!("busy {round}")})
            } else {
                input_required("confirm", Some(&format!("s{round}")))
            };
            match call.handle(answer_json(&latest, result)) {
                Step::NeedsInput => call
                    .answer("confirm", approve())
                    .expect("asked"),
                Step::RetryWithoutInput => {}
                other => prop_assert!(false, "unexpected step {other:?}"),
            }
            match call.retry(&mut client, u64::from(sent)) {
                Ok(next) => {
                    latest = next;
                    sent += 1;
                }
                Err(error) => break error,
            }
            prop_assert!(sent <= 64, "the loop never ended");
        };
        prop_assert_eq!(sent, max_rounds);
        prop_assert_eq!(call.rounds().len(), max_rounds as usize);
        prop_assert_eq!(error.clone(), MrtrError::TooManyRounds { rounds: max_rounds, limit: max_rounds });
        let text = error.to_string();
        prop_assert!(text.contains("max_rounds") && text.contains(&max_rounds.to_string()), "{text}");
    }

    /// Tasks: `completed`, `failed` and `cancelled` are final. Once the tracker has seen one,
    /// no later snapshot changes its status, result or error.
    #[test]
    fn tracker_never_leaves_a_terminal_state(
        initial in status(),
        snapshots in prop::collection::vec(snapshot(), 1..24),
    ) {
        let created = serde_json::from_value(json!({"resultType": "task", "taskId": "t1",
            "status": initial.wire(), "createdAt": "2026-11-29T10:00:00Z",
            "lastUpdatedAt": "2026-11-29T10:00:00Z", "ttlMs": 60000, "pollIntervalMs": 500}))
            .expect("CreateTaskResult");
        let mut client = Client::default();
        let mut tracker = TaskTracker::from_created(&created, 0);
        let mut terminal: Option<TaskTracker> = tracker.is_terminal().then(|| tracker.clone());
        for (n, s) in snapshots.iter().enumerate() {
            let now = 1000 * (n as u64 + 1);
            let poll = tracker.poll(&mut client, now);
            let wire = json!({"jsonrpc": "2.0", "id": id_json(poll.id()),
                "result": snapshot_result(s, n)});
            let mut reader = poll.reader(200, Some("application/json"));
            reader.push_chunk(wire.to_string().as_bytes());
            let reply = reader.finish().expect("a valid tasks/get result");
            let events = tracker.handle_snapshot(&reply.result.task, Some(reply.raw_result));
            if let Some(ended) = &terminal {
                prop_assert_eq!(tracker.status(), ended.status());
                prop_assert_eq!(tracker.result(), ended.result());
                prop_assert_eq!(tracker.error(), ended.error());
                prop_assert_eq!(tracker.next_poll_at(), None);
                prop_assert!(
                    events.iter().all(|e| matches!(e, TaskEvent::Finding(_))),
                    "events after the end: {events:?}"
                );
            } else if tracker.is_terminal() {
                // Ended by the server's terminal status, or by the client (a snapshot of
                // another task: the wire status is then not taken).
                prop_assert!(
                    matches!(
                        tracker.status(),
                        TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
                    ) || tracker.ended().is_some()
                );
                terminal = Some(tracker.clone());
            }
        }
    }

    /// SSE framing: where the body is split (inside a `\r\n`, inside a UTF-8 sequence, inside
    /// a field name) never changes the messages, and the reader of a `tools/call` decodes
    /// the same result and notifications for every chunking.
    #[test]
    fn sse_chunking_does_not_change_events(
        pieces in prop::collection::vec(piece(), 0..8),
        result_text in nasty_string(),
        trailing in any::<bool>(),
        crlf in prop::collection::vec(any::<bool>(), 0..6),
        cr_only in prop::bool::weighted(0.2),
        points in prop::collection::vec(any::<Index>(), 0..24),
    ) {
        let mut client = Client::default();
        let request = first_call(&mut client);
        let stream = sse_stream(request.id(), &pieces, &result_text, trailing, &crlf, cr_only);
        let body = stream.body.as_bytes();

        let whole = decode(&[body]);
        prop_assert_eq!(&whole, &stream.messages);
        let chunks = split(body, &points);
        prop_assert_eq!(decode(&chunks), whole.clone());
        let bytes: Vec<&[u8]> = body.chunks(1).collect();
        prop_assert_eq!(decode(&bytes), whole);

        for chunking in [vec![body], chunks, bytes] {
            let mut reader = request.reader(200, Some("text/event-stream"));
            for chunk in &chunking {
                reader.push_chunk(chunk);
            }
            let decoded = reader.finish_decoded();
            let notifications: Vec<&Value> = decoded
                .events
                .iter()
                .filter_map(|event| match event {
                    ExchangeEvent::Notification(note) => Some(&note.json),
                    _ => None,
                })
                .collect();
            let expected: Vec<&Value> = stream.notifications.iter().collect();
            prop_assert_eq!(notifications, expected);
            let reply = decoded.result.expect("a valid SSE response");
            prop_assert_eq!(&reply.raw_result, &stream.result);
            let Outcome::Complete(result) = reply.result else {
                panic!("a complete result");
            };
            let decoded = serde_json::to_value(&result).expect("JSON");
            prop_assert_eq!(decoded["content"][0]["text"].as_str(), Some(result_text.as_str()));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Live and recorded decoding

/// A request of each kind the app sends, built by the engine.
fn any_request(kind: u8, client: &mut Client) -> AnyRequest {
    match kind % 5 {
        0 => AnyRequest::Call(first_call(client)),
        1 => AnyRequest::Call(
            client
                .call_tool(
                    "deploy",
                    None,
                    &RequestOptions {
                        accept_task: true,
                        ..RequestOptions::default()
                    },
                )
                .expect("no mirrored headers"),
        ),
        2 => AnyRequest::Poll(client.get_task("t1")),
        3 => AnyRequest::Discover(client.discover()),
        _ => AnyRequest::Listen(client.listen(ListenFilter::tasks(["t1".to_owned()]))),
    }
}

enum AnyRequest {
    Call(OutgoingRequest<CallTool>),
    Poll(OutgoingRequest<GetTask>),
    Discover(OutgoingRequest<Discover>),
    Listen(OutgoingRequest<Listen>),
}

impl AnyRequest {
    fn id(&self) -> &RequestId {
        match self {
            Self::Call(r) => r.id(),
            Self::Poll(r) => r.id(),
            Self::Discover(r) => r.id(),
            Self::Listen(r) => r.id(),
        }
    }

    fn method(&self) -> &'static str {
        match self {
            Self::Call(r) => r.method(),
            Self::Poll(r) => r.method(),
            Self::Discover(r) => r.method(),
            Self::Listen(r) => r.method(),
        }
    }

    fn body(&self) -> &str {
        match self {
            Self::Call(r) => r.body(),
            Self::Poll(r) => r.body(),
            Self::Discover(r) => r.body(),
            Self::Listen(r) => r.body(),
        }
    }

    /// What the live page gets: the request's `Sent`, its reader's events as each chunk
    /// arrives, the end.
    fn live_events(&self, status: u16, content_type: &str, chunks: &[&[u8]]) -> Vec<ExchangeEvent> {
        fn typed<M: holdbay_engine::McpMethod>(
            request: &OutgoingRequest<M>,
            status: u16,
            content_type: &str,
            chunks: &[&[u8]],
        ) -> Vec<ExchangeEvent> {
            let mut events = vec![request.sent_event()];
            let mut reader = request.reader(status, Some(content_type));
            for chunk in chunks {
                events.extend(reader.take_events());
                reader.push_chunk(chunk);
            }
            events.extend(reader.take_events());
            events.extend(reader.finish_decoded().events);
            events
        }
        let mut events = match self {
            Self::Call(r) => typed(r, status, content_type, chunks),
            Self::Poll(r) => typed(r, status, content_type, chunks),
            Self::Discover(r) => typed(r, status, content_type, chunks),
            Self::Listen(r) => {
                let mut events = vec![r.sent_event()];
                let mut subscription = Subscription::open(r, status, Some(content_type));
                for chunk in chunks {
                    subscription.handle_chunk(chunk);
                    events.extend(subscription.take_events());
                }
                subscription.handle_end();
                events.extend(subscription.take_events());
                events
            }
        };
        events.push(ExchangeEvent::ended(false, None));
        events
    }
}

/// A response to a request with id `id`: valid answers of every kind, and broken ones.
fn response_body(template: u8, id: &Value, text: &str) -> (String, &'static str) {
    let message = |result: Value| json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
    let sub = json!({"io.modelcontextprotocol/subscriptionId": id});
    match template % 10 {
        0 => (
            message(json!({"resultType": "complete", "content": [{"type": "text", "text": text}]})),
            "application/json",
        ),
        1 => (message(input_required("k", Some(text))), "application/json"),
        2 => (
            message(
                json!({"resultType": "task", "taskId": "t1", "status": "working",
                "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null}),
            ),
            "application/json",
        ),
        3 => (
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": text}})
                .to_string(),
            "application/json",
        ),
        4 => (
            format!(
                ": keep-alive\n\ndata: {}\n\nevent: message\ndata: {}\n\ndata: {}\n\n",
                json!({"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": 1, "progress": 0.5, "message": text}}),
                json!({"jsonrpc": "2.0", "method": "notifications/message",
                    "params": {"level": "info", "data": text}}),
                message(json!({"resultType": "complete", "isError": true, "content": []}))
            ),
            "text/event-stream",
        ),
        5 => (
            format!(
                "data: {}\n\n",
                json!({"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": 1, "progress": 1}})
            ),
            "text/event-stream",
        ),
        6 => (text.to_owned(), "application/json"),
        7 => (format!("<h1>{text}</h1>"), "text/html"),
        8 => (
            message(
                json!({"resultType": "complete", "taskId": "t1", "status": "input_required",
                "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null,
                "inputRequests": {"k": elicitation(text)}}),
            ),
            "application/json",
        ),
        _ => (
            format!(
                "data: {}\n\ndata: {}\n\ndata: {}\n\n",
                json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                    "params": {"notifications": {"taskIds": ["t1"]}, "_meta": sub}}),
                json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": {
                    "taskId": "t1", "status": "working", "createdAt": "x", "lastUpdatedAt": "x",
                    "ttlMs": null, "statusMessage": text, "_meta": sub}}),
                message(json!({"resultType": "complete"}))
            ),
            "text/event-stream",
        ),
    }
}

proptest! {
    #![proptest_config(config())]

    /// Decode once, the same everywhere: the events the live page reads from a request's
    /// own reader, chunk by chunk, are the events `decode_recorded` reads from the same
    /// bytes recorded, however the body was split.
    #[test]
    fn live_events_equal_the_recorded_decode_in_any_chunking(
        kind in any::<u8>(),
        template in any::<u8>(),
        status in prop::sample::select(vec![200u16, 200, 200, 202, 400, 401, 404, 500]),
        text in nasty_string(),
        points in prop::collection::vec(any::<Index>(), 0..12),
    ) {
        let mut client = Client::default();
        let request = any_request(kind, &mut client);
        let (body, content_type) = response_body(template, &id_json(request.id()), &text);
        let chunks = split(body.as_bytes(), &points);
        let live = request.live_events(status, content_type, &chunks);
        let recorded_chunks: Vec<(f64, &[u8])> = chunks.iter().map(|c| (1.0, *c)).collect();
        let recorded: Vec<ExchangeEvent> = decode_recorded(&RecordedExchange {
            method: request.method(),
            name: None,
            request_body: request.body(),
            status: Some(status),
            content_type: Some(content_type),
            responded_after: Some(0.0),
            chunks: &recorded_chunks,
            finished_after: Some(2.0),
            error: None,
            stopped: false,
            round: None,
        })
        .into_iter()
        .map(|timed| timed.event)
        .collect();
        prop_assert_eq!(live, recorded);
    }
}
