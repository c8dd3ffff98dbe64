//! The `response_path` fuzz target, as a plain function so that both the libFuzzer binary
//! (`cargo fuzz run response_path`) and the stable smoke runner (`examples/smoke.rs`) run
//! exactly the same code.
//!
//! Input layout (every byte optional; missing bytes read as 0):
//!
//! | byte | meaning |
//! |------|---------|
//! | 0    | HTTP status (index into [`STATUSES`]; ≥ 0xF0: the next two bytes, big-endian) |
//! | 1    | `Content-Type` (JSON, event stream, variants, other, none, or bytes from the input) |
//! | 2    | chunking: whole, byte by byte, or pseudo-random chunks of at most that many bytes |
//! | 3    | body template (raw, wrapped in a JSON-RPC envelope, in SSE framing, …) and flags |
//! | rest | the payload |
//!
//! The same response is read as the answer to `server/discover` (`finish`), `tools/call`
//! (`finish_decoded`), `tasks/get` (`finish`) and `subscriptions/listen` (a `Subscription`).
//! Successful outcomes are fed on into [`LogicalRequest`] (answer every key, retry, cancel)
//! and [`TaskTracker`] (snapshot, answer, update, cancel, poll, serde round trip); the
//! exchanges' events are folded into a [`Traffic`]. Nothing may panic; a few cheap invariants
//! are asserted on the way, among them that the live reader's events equal
//! [`decode_recorded`] of the same chunks.

use holdbay_engine::model::{CreateTaskResult, GetTaskResult, Task, TaskStatus};
use holdbay_engine::{
    Bounds, CallTool, Client, ErrorStep, ExchangeEvent, InputAnswer, InputRequestKind,
    ListenFilter, LogicalRequest, McpMethod, Outcome, OutgoingRequest, RecordedExchange, Reply,
    RequestOptions, ResponseError, ResponseReader, SseDecoder, Step, Subscription, TaskTracker,
    decode_recorded,
};
use holdbay_scene::Traffic;
use serde_json::{Value, json};

/// Statuses worth distinguishing: 2xx (success), the ones the spec gives JSON error bodies,
/// and nonsense.
pub const STATUSES: &[u16] = &[
    200, 200, 200, 200, 201, 202, 204, 299, 300, 302, 400, 401, 403, 404, 405, 406, 409, 413, 415,
    422, 429, 500, 502, 503, 0, 1, 100, 199, 599, 600, 999, 65535,
];

const CONTENT_TYPES: &[Option<&str>] = &[
    Some("application/json"),
    Some("text/event-stream"),
    Some("application/json; charset=utf-8"),
    Some("text/event-stream;charset=UTF-8"),
    Some("Application/JSON ; q=1"),
    Some(" TEXT/EVENT-STREAM "),
    Some("text/html"),
    Some("application/problem+json"),
    None,
    Some(""),
    Some(";"),
];

/// Bytes of one input, read front to back.
struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((first, rest)) => {
                self.data = rest;
                *first
            }
            None => 0,
        }
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.data.split_at(n.min(self.data.len()));
        self.data = tail;
        head
    }
}

/// The decoded shape of one input.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: Option<String>,
    pub chunks: Vec<Vec<u8>>,
    /// Stop pushing once the reader reports failure, as the app does.
    pub stop_on_failure: bool,
    /// `tools/call` declares the tasks extension.
    pub accept_task: bool,
}

impl Response {
    pub fn from_bytes(data: &[u8]) -> Self {
        let mut input = Input { data };
        let status_byte = input.byte();
        let status = if status_byte >= 0xF0 {
            u16::from_be_bytes([input.byte(), input.byte()])
        } else {
            STATUSES[usize::from(status_byte) % STATUSES.len()]
        };
        let type_byte = input.byte();
        let content_type =
            if usize::from(type_byte) % (CONTENT_TYPES.len() + 1) == CONTENT_TYPES.len() {
                let len = usize::from(input.byte() % 48);
                Some(String::from_utf8_lossy(input.take(len)).into_owned())
            } else {
                CONTENT_TYPES[usize::from(type_byte) % (CONTENT_TYPES.len() + 1)].map(str::to_owned)
            };
        let chunk_byte = input.byte();
        let template = input.byte();
        let body = wrap(template, input.data);
        let chunks = chunk(&body, chunk_byte);
        Self {
            status,
            content_type,
            chunks,
            stop_on_failure: template & 0x40 != 0,
            accept_task: template & 0x80 == 0,
        }
    }
}

/// Wrap the payload so that the fuzzer starts close to valid responses (ids are 1: each
/// method's request is the first of a fresh client).
fn wrap(template: u8, payload: &[u8]) -> Vec<u8> {
    let parts: [&[u8]; 2] = match template % 8 {
        0 | 1 => return payload.to_vec(),
        2 => [br#"{"jsonrpc":"2.0","id":1,"result":"#, b"}"],
        3 => [br#"data: {"jsonrpc":"2.0","id":1,"result":"#, b"}\n\n"],
        4 => [br#"{"jsonrpc":"2.0","id":1,"error":"#, b"}"],
        5 => [b"data: ", b"\n\n"],
        6 => [
            b": keep-alive\r\n\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":0.5}}\r\n\r\ndata: ",
            b"\r\n\r\n",
        ],
        _ => [
            br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":"#,
            br#","requestState":"s"}}"#,
        ],
    };
    let mut body = Vec::with_capacity(parts[0].len() + payload.len() + parts[1].len());
    body.extend_from_slice(parts[0]);
    body.extend_from_slice(payload);
    body.extend_from_slice(parts[1]);
    body
}

fn chunk(body: &[u8], mode: u8) -> Vec<Vec<u8>> {
    match mode {
        0 => vec![body.to_vec()],
        1 => body.chunks(1).map(<[u8]>::to_vec).collect(),
        max => {
            // xorshift64, seeded by the mode and the body length: deterministic per input.
            let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ (u64::from(max) << 32) ^ body.len() as u64;
            let mut chunks = Vec::new();
            let mut rest = body;
            while !rest.is_empty() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let size = 1 + (state % u64::from(max)) as usize;
                let (head, tail) = rest.split_at(size.min(rest.len()));
                chunks.push(head.to_vec());
                rest = tail;
            }
            chunks
        }
    }
}

fn read<M: McpMethod>(request: &OutgoingRequest<M>, response: &Response) -> ResponseReader<M> {
    let mut reader = request.reader(response.status, response.content_type.as_deref());
    for chunk in &response.chunks {
        if response.stop_on_failure && reader.has_failed() {
            break;
        }
        reader.push_chunk(chunk);
    }
    reader
}

/// Everything a caller may do with a failure must work on any failure.
fn inspect_error(error: &ResponseError) {
    let _ = error.to_string();
    let _ = error.finding();
    let _ = error.rpc_code();
    let _ = error.http_status();
}

/// The fuzz target.
pub fn response_path(data: &[u8]) {
    let response = Response::from_bytes(data);

    // The SSE decoder on its own: any bytes, any chunking.
    let mut decoder = SseDecoder::new();
    for chunk in &response.chunks {
        if decoder.push(chunk).is_err() {
            break;
        }
    }
    let _ = decoder.finish();

    // server/discover
    let mut client = Client::default();
    let discover = client.discover();
    match read(&discover, &response).finish() {
        Ok(reply) => {
            let _ = reply.result.server_info();
            let _ = serde_json::to_string(&reply.result);
        }
        Err(error) => inspect_error(&error),
    }

    // tasks/get
    let mut client = Client::default();
    let get = client.get_task("t1");
    let snapshot = match read(&get, &response).finish() {
        Ok(reply) => {
            let seed = Task::new(
                "t1",
                TaskStatus::Working,
                "2026-11-29T10:00:00Z",
                "2026-11-29T10:00:00Z",
            );
            let mut tracker = TaskTracker::from_created(&CreateTaskResult::new(seed), 0);
            drive_tracker(&mut tracker, &mut client, &reply);
            Some(reply)
        }
        Err(error) => {
            inspect_error(&error);
            None
        }
    };

    // tools/call
    let mut client = Client::default();
    let options = RequestOptions {
        accept_task: response.accept_task,
        ..RequestOptions::default()
    };
    let arguments = json!({"path": "report.txt"}).as_object().cloned();
    let Ok(call) = client.call_tool("fuzz", arguments, &options) else {
        unreachable!("no tools learned, so no mirrored headers to reject");
    };
    let decoded = read(&call, &response).finish_decoded();
    let mut events = vec![call.sent_event()];
    events.extend(decoded.events);
    events.push(ExchangeEvent::ended(false, None));
    assert_eq!(
        events,
        recorded_events(&call, &response),
        "the live reader and decode_recorded read the same bytes alike"
    );
    let listen = listen_events(&response);
    fold(&[&events, &listen]);
    match decoded.result {
        Ok(reply) => drive_call(&mut client, &call, reply, snapshot.as_ref()),
        Err(error) => {
            inspect_error(&error);
            let mut logical = LogicalRequest::start(&call, Bounds::default(), 0);
            if logical.handle_error(&error) == ErrorStep::RelistToolsAndResend {
                assert!(logical.resend(&mut client).is_ok(), "the first resend");
                assert!(logical.resend(&mut client).is_err(), "only one resend");
            }
        }
    }
}

/// The same response, recorded: what an imported log replays. (Chunks after a failure,
/// which the app does not read, change nothing: a failed reader ignores them.)
fn recorded_events<M: McpMethod>(
    request: &OutgoingRequest<M>,
    response: &Response,
) -> Vec<ExchangeEvent> {
    let chunks: Vec<(f64, &[u8])> = response
        .chunks
        .iter()
        .map(|chunk| (1.0, chunk.as_slice()))
        .collect();
    decode_recorded(&RecordedExchange {
        method: request.method(),
        name: None,
        request_body: request.body(),
        status: Some(response.status),
        content_type: response.content_type.as_deref(),
        responded_after: Some(0.0),
        chunks: &chunks,
        finished_after: Some(2.0),
        error: None,
        stopped: false,
        round: None,
    })
    .into_iter()
    .map(|timed| timed.event)
    .collect()
}

/// The same response as a `subscriptions/listen` stream.
fn listen_events(response: &Response) -> Vec<ExchangeEvent> {
    let mut client = Client::default();
    let request = client.listen(ListenFilter::tasks(["t1".to_owned()]));
    let mut subscription =
        Subscription::open(&request, response.status, response.content_type.as_deref());
    let mut events = vec![request.sent_event()];
    for chunk in &response.chunks {
        let _ = subscription.handle_chunk(chunk);
        events.extend(subscription.take_events());
    }
    let _ = subscription.handle_end();
    events.extend(subscription.take_events());
    events.push(ExchangeEvent::ended(false, None));
    events
}

/// Fold exchanges' events into the scene; every part it names must be inspectable.
fn fold(exchanges: &[&[ExchangeEvent]]) {
    let mut traffic = Traffic::new(MAX_ROUNDS);
    for (id, events) in exchanges.iter().enumerate() {
        for (n, event) in events.iter().enumerate() {
            traffic.apply(id as u64, n as f64, event);
        }
    }
    for event in traffic.events() {
        let _ = traffic.json_of(&event.part);
    }
}

const MAX_ROUNDS: u32 = 4;

/// Treat the reply as every round's answer until the bound stops the request.
fn drive_call(
    client: &mut Client,
    first: &OutgoingRequest<CallTool>,
    reply: Reply<Outcome<<CallTool as McpMethod>::Output>>,
    snapshot: Option<&Reply<GetTaskResult>>,
) {
    let bounds = Bounds {
        max_rounds: MAX_ROUNDS,
        ..Bounds::default()
    };
    let mut logical = LogicalRequest::start(first, bounds, 0);
    for now in 1..=u64::from(MAX_ROUNDS) + 1 {
        match logical.handle(reply.clone()) {
            Step::Complete(result) => {
                let _ = serde_json::to_value(&result);
                break;
            }
            Step::Task(created) => {
                let mut tracker = TaskTracker::from_created(&created, now);
                if let Some(snapshot) = snapshot {
                    drive_tracker(&mut tracker, client, snapshot);
                }
                break;
            }
            Step::NeedsInput | Step::RetryWithoutInput => {
                // Every kind has an answer that fits it.
                for ask in logical.unanswered_asks() {
                    let answer = match ask.kind {
                        InputRequestKind::Form { .. } => {
                            InputAnswer::Accept(json!({"ok": true}).as_object().cloned())
                        }
                        InputRequestKind::Url { .. } => InputAnswer::Accept(None),
                        _ => InputAnswer::Refuse,
                    };
                    let key = ask.key;
                    assert!(logical.answer(&key, answer).is_ok(), "{key:?} is pending");
                }
                let state = logical
                    .rounds()
                    .last()
                    .and_then(|r| r.request_state.clone());
                match logical.retry(client, now) {
                    Ok(retry) => {
                        let body: Value =
                            serde_json::from_str(retry.body()).expect("retry body is JSON");
                        assert_eq!(
                            body["params"]["requestState"].as_str(),
                            state.as_deref(),
                            "requestState echoed unchanged"
                        );
                    }
                    Err(_) => break,
                }
            }
            Step::Cancelled => unreachable!("not cancelled yet"),
        }
    }
    assert!(logical.rounds().len() <= MAX_ROUNDS as usize);
    logical.cancel();
    assert!(matches!(logical.handle(reply), Step::Cancelled));
}

fn drive_tracker(tracker: &mut TaskTracker, client: &mut Client, reply: &Reply<GetTaskResult>) {
    for now in [1_000, 2_000] {
        let was_terminal = tracker.is_terminal().then_some(tracker.status());
        let _ = tracker.handle_snapshot(&reply.result.task, Some(reply.raw_result.clone()));
        if let Some(status) = was_terminal {
            assert_eq!(tracker.status(), status, "a terminal task never changes");
        }
        for key in tracker.outstanding() {
            let _ = tracker.answer(&key, InputAnswer::Decline);
        }
        if let Some(update) = tracker.update(client) {
            let _ = update.body();
        }
        let _ = tracker.poll(client, now);
        tracker.poll_failed(now);
        let _ = tracker.is_expired(now);
    }
    let _ = tracker.cancel(client);
    let text = serde_json::to_string(tracker).expect("a tracker serializes");
    // Persisted trackers must load again (compared loosely: JSON floats may move by an ulp).
    let back: TaskTracker = serde_json::from_str(&text).expect("a tracker reads back");
    assert_eq!(
        (back.task_id(), back.status(), back.answered()),
        (tracker.task_id(), tracker.status(), tracker.answered()),
        "serde round trip"
    );
}
