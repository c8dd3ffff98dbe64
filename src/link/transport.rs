//! HTTP for the engine's requests: `fetch`, the body read as a stream of chunks that go
//! straight into the engine's reader, and every exchange recorded in the wire log with the
//! typed events the engine decoded from it (once, as they arrived).
//!
//! A page polling a thousand tasks sends hundreds of these a second, so each costs the main
//! thread as little as it can: one `fetch` with its init (no `Request` built on the side), and
//! a deadline that is a timer cleared when the exchange ends. (Every body is streamed, small
//! ones too: a `Content-Length` counts the encoded bytes, so a small gzip bomb read whole
//! would be decoded whole before the engine's bound could stop it.)

use std::borrow::Cow;

use holdbay_engine::auth::DPOP_NONCE_HEADER;
use holdbay_engine::era::HEADER_SESSION_ID;
use holdbay_engine::headers::merge_extra_headers;
use holdbay_engine::relay::RELAY_TOKEN_HEADER;
use holdbay_engine::{
    BodilessRequest, Decoded, ExchangeEvent, Limits, Listen, ListenEvent, McpMethod, Outcome,
    OutgoingMessage, OutgoingRequest, Reply, ResponseError, Resume, SessionRefused, Subscription,
    TimedEvent, Unsendable, VersionMismatch, check_sendable,
};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, ReadableStreamDefaultReader, Response};

use super::relay_token;
use crate::clock::now_ms;
use crate::connection::Connection;
use crate::wire::curl::is_credential_header;
use crate::wire::{WireEntry, WireLog};

/// Why an exchange failed: no HTTP answer, a stop, a broken body, or a bad answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExchangeError {
    #[error("could not reach {url}: {detail}. {hint}")]
    Unreachable {
        url: String,
        detail: String,
        /// Tried directly (not through the relay): the likely cause is CORS.
        direct: bool,
        hint: &'static str,
    },
    #[error("stopped: the request to {url} was aborted")]
    Aborted { url: String },
    #[error("the connection broke while reading the response from {url}: {detail}")]
    BodyInterrupted { url: String, detail: String },
    /// The exchange outlived its deadline (the connection bar's "Headers and limits").
    #[error("{}", deadline_text(url, *secs, *stream))]
    DeadlinePassed {
        url: String,
        secs: u32,
        stream: bool,
    },
    /// The engine would not send the request (its headers are over what servers accept).
    #[error(transparent)]
    NotSent(#[from] Unsendable),
    #[error(transparent)]
    Response(#[from] ResponseError),
    /// The client and the server did not agree on a protocol revision (the engine's
    /// negotiation, or an older server told apart).
    #[error(transparent)]
    Version(#[from] VersionMismatch),
    /// A legacy server's `initialize` answer that opens no session.
    #[error(transparent)]
    Session(#[from] SessionRefused),
}

impl ExchangeError {
    /// A failure the way a CORS refusal fails (the browser hides which it was).
    pub fn could_be_cors(&self) -> bool {
        matches!(self, Self::Unreachable { direct: true, .. })
    }

    /// No HTTP answer at all (server down, network, CORS), rather than an error reply.
    pub fn is_unanswered(&self) -> bool {
        matches!(
            self,
            Self::Unreachable { .. } | Self::BodyInterrupted { .. } | Self::DeadlinePassed { .. }
        )
    }
}

fn deadline_text(url: &str, secs: u32, stream: bool) -> String {
    if stream {
        format!(
            "closed the stream from {url} after {secs} s: its deadline passed (the stream \
             deadline, under Headers and limits); a new one opens when needed"
        )
    } else {
        format!(
            "no complete answer from {url} within {secs} s: the request deadline (under \
             Headers and limits) passed and the client stopped waiting"
        )
    }
}

/// Sees each event of an exchange as it is decoded (a call shows its progress with it).
pub type EventObserver<'a> = &'a dyn Fn(&ExchangeEvent);

/// How to carry one exchange.
#[derive(Clone)]
pub struct Carry<'a> {
    pub connection: &'a Connection,
    pub log: WireLog,
    /// Aborting it stops the fetch (the Stop button, a listen stream closed on purpose).
    pub abort: Option<&'a AbortSignal>,
    pub on_event: Option<EventObserver<'a>>,
    /// `Authorization` from a sign-in (and, for a DPoP-bound token, its proof), in place
    /// of any the user typed.
    pub credentials: Vec<(String, String)>,
}

/// One exchange's bound on its whole wait: the fetch is aborted when it passes (or when
/// the caller's own signal aborts, e.g. Stop). Its timer is cleared when the exchange is
/// over (a timer left to fire a minute later, hundreds a second, was work for nothing).
struct Deadline {
    controller: web_sys::AbortController,
    /// Aborts when either the deadline passes or the caller aborts.
    signal: AbortSignal,
    timer: Option<i32>,
    /// Called by the timer; kept as long as the timer may fire.
    _on_timeout: Option<Closure<dyn FnMut()>>,
    secs: u32,
    stream: bool,
}

impl Deadline {
    fn start(how: &Carry<'_>, stream: bool) -> Self {
        let deadlines = how.connection.deadlines;
        let secs = if stream {
            deadlines.stream_secs
        } else {
            deadlines.request_secs
        }
        .clamp(1, crate::connection::Deadlines::MAX_SECS);
        // AbortController::new only fails outside a browser; a deadline then never passes.
        let controller = web_sys::AbortController::new()
            .unwrap_or_else(|_| wasm_bindgen::JsValue::UNDEFINED.unchecked_into());
        let own = controller.signal();
        let signal = match how.abort {
            Some(abort) => AbortSignal::any(&js_sys::Array::of2(&own, abort)),
            None => own,
        };
        let on_timeout = {
            let controller = controller.clone();
            Closure::<dyn FnMut()>::new(move || controller.abort())
        };
        let timer = web_sys::window().and_then(|window| {
            window
                .set_timeout_with_callback_and_timeout_and_arguments_0(
                    on_timeout.as_ref().unchecked_ref(),
                    i32::try_from(secs.saturating_mul(1000)).unwrap_or(i32::MAX),
                )
                .ok()
        });
        Self {
            controller,
            signal,
            timer,
            _on_timeout: timer.map(|_| on_timeout),
            secs,
            stream,
        }
    }

    fn passed(&self) -> bool {
        self.controller.signal().aborted()
    }

    fn error(&self, url: String) -> ExchangeError {
        ExchangeError::DeadlinePassed {
            url,
            secs: self.secs,
            stream: self.stream,
        }
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        if let (Some(timer), Some(window)) = (self.timer, web_sys::window()) {
            window.clear_timeout_with_handle(timer);
        }
    }
}

/// Send `request`; decode an answer that must be `complete`.
pub async fn exchange<M: McpMethod>(
    how: &Carry<'_>,
    request: &OutgoingRequest<M>,
) -> Result<Reply<M::Output>, ExchangeError> {
    let (record, decoded) = read_to_end(how, request).await?;
    let (events, result) = decoded.into_complete();
    record.events(how, events);
    record.end(how, false, None);
    Ok(result?)
}

/// Send `request`; decode an answer that must be `complete`, with the `Mcp-Session-Id` the
/// answer carried (a legacy server's `initialize` assigns the session with it).
pub async fn exchange_in_session<M: McpMethod>(
    how: &Carry<'_>,
    request: &OutgoingRequest<M>,
) -> Result<(Reply<M::Output>, Option<String>), ExchangeError> {
    let (record, decoded, session) = read_with_session(how, request, true).await?;
    let (events, result) = decoded.into_complete();
    record.events(how, events);
    record.end(how, false, None);
    Ok((result?, session))
}

/// POST a message that is not a request of the client's own (a legacy session's
/// notification, or its answer to the server's request), recorded in the wire log; the
/// server takes it with `202 Accepted`.
pub async fn post_message(
    how: &Carry<'_>,
    message: &OutgoingMessage,
) -> Result<u16, ExchangeError> {
    let body = message.body();
    let wire = Wire::with(
        Cow::Borrowed(&message.label),
        Limits::default(),
        &message.headers,
        &body,
        how,
    );
    send_for_status(how, &wire, message.sent_event()).await
}

/// Send a request with no body (the DELETE that ends a legacy session), recorded in the wire
/// log; whatever the server answers is only shown (a server may refuse it with 405).
pub async fn send_bodiless(
    how: &Carry<'_>,
    request: &BodilessRequest,
) -> Result<u16, ExchangeError> {
    let wire = Wire::bodiless(request, how);
    send_for_status(how, &wire, request.sent_event()).await
}

/// Send `wire`, recorded in the wire log from `sent`, and read its answer only to record it:
/// what matters is the status (a status outside 2xx ends the exchange as a refusal).
async fn send_for_status(
    how: &Carry<'_>,
    wire: &Wire<'_>,
    sent: ExchangeEvent,
) -> Result<u16, ExchangeError> {
    let record = Record::begin(how, sent, wire);
    let deadline = Deadline::start(how, false);
    let response = send(how, record, wire, &deadline).await?;
    read_body(how, record, &response, &deadline, &mut |_| true).await?;
    let status = response.status();
    record.end(how, false, OutgoingMessage::refusal(status));
    Ok(status)
}

/// Send `request`; decode any outcome its method allows (complete, input_required, task).
pub async fn exchange_outcome<M: McpMethod>(
    how: &Carry<'_>,
    request: &OutgoingRequest<M>,
) -> Result<Reply<Outcome<M::Output>>, ExchangeError> {
    let (record, decoded) = read_to_end(how, request).await?;
    record.events(how, decoded.events);
    record.end(how, false, None);
    Ok(decoded.result?)
}

/// Send `request` and read its whole answer into the engine's reader, recording what it
/// decodes on the way; the caller records the final events and the end.
async fn read_to_end<M: McpMethod>(
    how: &Carry<'_>,
    request: &OutgoingRequest<M>,
) -> Result<(Record, Decoded<M>), ExchangeError> {
    let (record, decoded, _) = read_with_session(how, request, false).await?;
    Ok((record, decoded))
}

/// [`read_to_end`], with the answer's `Mcp-Session-Id` when `session` asks for it (only
/// `initialize` assigns one: the other exchanges, hundreds a second when tasks are polled,
/// do not look it up).
async fn read_with_session<M: McpMethod>(
    how: &Carry<'_>,
    request: &OutgoingRequest<M>,
    session: bool,
) -> Result<(Record, Decoded<M>, Option<String>), ExchangeError> {
    let wire = Wire::of(request, how);
    let record = Record::begin(how, request.sent_event(), &wire);
    let deadline = Deadline::start(how, false);
    let response = send(how, record, &wire, &deadline).await?;
    let headers = response.headers();
    let header = |name: &str| headers.get(name).ok().flatten();
    let session = session.then(|| header(HEADER_SESSION_ID)).flatten();
    let mut reader = request.reader(response.status(), header("content-type").as_deref());
    reader.set_www_authenticate(header("www-authenticate").as_deref());
    reader.set_dpop_nonce(header(DPOP_NONCE_HEADER).as_deref());
    let (mut record, mut decoded, mut resume) =
        read_reply(how, record, &response, &deadline, reader, false).await?;
    // A legacy stream that ended before its answer is picked up where it broke (the
    // engine says whether and when); each resumption is an exchange of its own in the log.
    let mut resumed = 0;
    while let Err(error) = &decoded.result {
        let Some(resumption) = request.resumption(resume.as_ref(), error, resumed) else {
            break;
        };
        resumed += 1;
        record.events(how, std::mem::take(&mut decoded.events));
        record.end(
            how,
            false,
            Some(format!(
                "{error}: resumed with Last-Event-ID after {} ms",
                resumption.wait_ms
            )),
        );
        crate::wakeup::Wakeup::new().sleep(resumption.wait_ms).await;
        let wire = Wire::bodiless(&resumption.request, how);
        record = Record::begin(how, resumption.request.sent_event(), &wire);
        let deadline = Deadline::start(how, true);
        let response = send(how, record, &wire, &deadline).await?;
        let content_type = response.headers().get("content-type").ok().flatten();
        let reader = request.reader(response.status(), content_type.as_deref());
        // The resumed stream is the session's GET: it stays open after the answer.
        (record, decoded, resume) =
            read_reply(how, record, &response, &deadline, reader, true).await?;
    }
    Ok((record, decoded, session))
}

/// Read `response`'s body into `reader` to its end (or, `until_answered`, only until the
/// answer: a resumed GET stream stays open after it), recording what it decodes on the
/// way: the decoded reply, and where its stream would resume.
async fn read_reply<M: McpMethod>(
    how: &Carry<'_>,
    record: Record,
    response: &Response,
    deadline: &Deadline,
    mut reader: holdbay_engine::ResponseReader<M>,
    until_answered: bool,
) -> Result<(Record, Decoded<M>, Option<Resume>), ExchangeError> {
    record.events(how, reader.take_events());
    read_body(how, record, response, deadline, &mut |chunk| {
        reader.push_chunk(chunk);
        record.events(how, reader.take_events());
        // Once the outcome is decided (e.g. too large), stop downloading.
        let answered = until_answered && reader.is_answered();
        !reader.has_failed() && !answered
    })
    .await?;
    let too_large = reader.is_too_large();
    let resume = reader.resume().cloned();
    let decoded = reader.finish_decoded();
    // A body refused by a bound (too large, thousands of inputs) is not worth the log's
    // budget: its start says what it was.
    if too_large || matches!(&decoded.result, Err(error) if error.is_over_bound()) {
        record.update(how, WireEntry::keep_refused_head);
    }
    Ok((record, decoded, resume))
}

/// What a stream's reader does with each chunk: the events it read, and whether to go on.
pub type StreamChunks<'a> = dyn FnMut(&[u8]) -> (Vec<ExchangeEvent>, bool) + 'a;

/// Open a legacy session's own GET stream (`request`) and read it until it ends, handing
/// the status to `on_response` and each chunk to `on_chunk` (which returns false to stop);
/// the events they return are recorded (and seen by the carry's observer).
pub async fn read_session_stream(
    how: &Carry<'_>,
    request: &BodilessRequest,
    on_response: &mut dyn FnMut(u16, Option<&str>) -> Vec<ExchangeEvent>,
    on_chunk: &mut StreamChunks<'_>,
) -> Result<(), ExchangeError> {
    let wire = Wire::bodiless(request, how);
    let record = Record::begin(how, request.sent_event(), &wire);
    let deadline = Deadline::start(how, true);
    let response = send(how, record, &wire, &deadline).await?;
    let content_type = response.headers().get("content-type").ok().flatten();
    record.events(how, on_response(response.status(), content_type.as_deref()));
    let mut going = true;
    read_body(how, record, &response, &deadline, &mut |chunk| {
        let (events, more) = on_chunk(chunk);
        record.events(how, events);
        going = more;
        more
    })
    .await?;
    record.end(how, !going, None);
    Ok(())
}

/// Open a `subscriptions/listen` stream and hand every event to `on_event` until it says
/// stop or the stream ends.
pub async fn listen(
    how: &Carry<'_>,
    request: &OutgoingRequest<Listen>,
    on_event: &mut dyn FnMut(ListenEvent) -> bool,
) -> Result<(), ExchangeError> {
    let wire = Wire::of(request, how);
    let record = Record::begin(how, request.sent_event(), &wire);
    let deadline = Deadline::start(how, true);
    let response = send(how, record, &wire, &deadline).await?;
    let content_type = response.headers().get("content-type").ok().flatten();
    let mut subscription = Subscription::open(request, response.status(), content_type.as_deref());
    record.events(how, subscription.take_events());
    let mut going = true;
    read_body(how, record, &response, &deadline, &mut |chunk| {
        for event in subscription.handle_chunk(chunk) {
            going &= on_event(event);
        }
        record.events(how, subscription.take_events());
        going && !subscription.is_over()
    })
    .await?;
    for event in subscription.handle_end() {
        on_event(event);
    }
    record.events(how, subscription.take_events());
    record.end(how, !going, None);
    Ok(())
}

/// What `send` needs of a request; not generic, so the fetch code exists once in the wasm.
struct Wire<'r> {
    /// `POST`, or `GET` for a legacy stream (then `body` is empty and not sent).
    http_method: &'static str,
    method: Cow<'r, str>,
    /// The engine's bounds on what it sends ([`check_sendable`]).
    limits: Limits,
    /// The engine's headers, then the user's extra ones except those the protocol reserves
    /// (the engine decides which).
    headers: Vec<(String, String)>,
    body: &'r str,
}

impl<'r> Wire<'r> {
    fn of<M: McpMethod>(request: &'r OutgoingRequest<M>, how: &Carry<'_>) -> Self {
        Self::with(
            Cow::Borrowed(request.method()),
            *request.limits(),
            request.headers(),
            request.body(),
            how,
        )
    }

    /// A GET (or DELETE) of a legacy session: no body.
    fn bodiless(request: &BodilessRequest, how: &Carry<'_>) -> Self {
        let mut wire = Self::with(
            Cow::Borrowed(request.label),
            Limits::default(),
            &request.headers,
            "",
            how,
        );
        wire.http_method = request.http_method;
        wire
    }

    fn with(
        method: Cow<'r, str>,
        limits: Limits,
        protocol: &[(String, String)],
        body: &'r str,
        how: &Carry<'_>,
    ) -> Self {
        let connection = how.connection;
        // A sign-in's token goes with the protocol's headers: a typed Authorization then
        // gives way to it.
        let mut protocol = protocol.to_vec();
        protocol.extend(how.credentials.iter().cloned());
        let mut headers = merge_extra_headers(&protocol, connection.extra_headers()).headers;
        if connection.via_relay {
            with_relay_token(&mut headers, relay_token::from_page());
        }
        Self {
            http_method: "POST",
            method,
            limits,
            headers,
            body,
        }
    }
}

/// The relay's token for this page in place of any header of that name the user set (the
/// relay does not pass it on to the server). A page `holdbay serve` did not serve has none,
/// and the relay's refusal then says why. The wire log withholds its value, as a credential.
fn with_relay_token(headers: &mut Vec<(String, String)>, token: Option<String>) {
    headers.retain(|(name, _)| !name.trim().eq_ignore_ascii_case(RELAY_TOKEN_HEADER));
    if let Some(token) = token {
        headers.push((RELAY_TOKEN_HEADER.to_owned(), token));
    }
}

/// One exchange's entry in the wire log, stamped relative to when it started.
#[derive(Clone, Copy)]
struct Record {
    id: u64,
    started: f64,
}

impl Record {
    fn begin(how: &Carry<'_>, sent: ExchangeEvent, wire: &Wire<'_>) -> Self {
        let connection = how.connection;
        let started = now_ms() as f64;
        let name = match &sent {
            ExchangeEvent::Sent(sent) => sent.name.clone(),
            _ => None,
        };
        if let Some(observe) = how.on_event {
            observe(&sent);
        }
        let (request_headers, withheld_headers) = redact(&wire.headers, connection);
        let id = how.log.begin(WireEntry {
            method: wire.method.to_string(),
            name,
            server: connection.server.clone(),
            url: connection.fetch_url(),
            relayed: connection.via_relay,
            started_at: started,
            request_headers,
            withheld_headers,
            request_body: wire.body.to_owned(),
            events: vec![TimedEvent {
                after_ms: 0.0,
                event: sent,
            }],
            ..WireEntry::default()
        });
        Self { id, started }
    }

    fn after(&self) -> f64 {
        (now_ms() as f64 - self.started).max(0.0)
    }

    fn update(&self, how: &Carry<'_>, change: impl FnOnce(&mut WireEntry)) {
        how.log.update(self.id, change);
    }

    /// Add what the engine decoded; the caller's observer sees each event too.
    fn events(&self, how: &Carry<'_>, events: Vec<ExchangeEvent>) {
        if events.is_empty() {
            return;
        }
        if let Some(observe) = how.on_event {
            events.iter().for_each(observe);
        }
        let after_ms = self.after();
        how.log.add_events(
            self.id,
            events
                .into_iter()
                .map(|event| TimedEvent { after_ms, event })
                .collect(),
        );
    }

    fn responded(&self, how: &Carry<'_>, response: &Response) {
        let after = self.after();
        let headers = header_pairs(&response.headers());
        let status = response.status();
        self.update(how, |entry| {
            entry.status = Some(status);
            entry.response_headers = headers;
            entry.responded_after = Some(after);
        });
    }

    /// Keep a piece of the body (the log keeps a bounded prefix of each body).
    fn chunk(&self, how: &Carry<'_>, text: &str) {
        if text.is_empty() {
            return;
        }
        let after = self.after();
        self.update(how, |entry| entry.keep_body(after, text));
    }

    /// The exchange is over: `stopped` by the client, or broken off with `error`.
    fn end(&self, how: &Carry<'_>, stopped: bool, error: Option<String>) {
        let ended = ExchangeEvent::ended(stopped, error.clone());
        if let Some(observe) = how.on_event {
            observe(&ended);
        }
        let after_ms = self.after();
        self.update(how, |entry| {
            entry.finished_after = Some(after_ms);
            entry.stopped = stopped;
            entry.error = error;
            entry.events.push(TimedEvent {
                after_ms,
                event: ended,
            });
        });
    }

    fn fail(&self, how: &Carry<'_>, error: ExchangeError) -> ExchangeError {
        let stopped = matches!(error, ExchangeError::Aborted { .. });
        self.end(how, stopped, Some(error.to_string()));
        error
    }
}

/// `fetch` the request (directly or through the relay).
async fn send(
    how: &Carry<'_>,
    record: Record,
    wire: &Wire<'_>,
    deadline: &Deadline,
) -> Result<Response, ExchangeError> {
    let connection = how.connection;
    let url = connection.fetch_url();
    let unreachable = |detail: String| ExchangeError::Unreachable {
        url: url.clone(),
        detail,
        direct: !connection.via_relay,
        hint: if connection.via_relay {
            "The relay could not be reached: is holdbay serve still running?"
        } else {
            "The server may be down, or it may not allow requests from this page (CORS): \
             try the relay."
        },
    };
    // Past what servers accept, the request would only earn a refusal the browser hides.
    if let Err(unsendable) = check_sendable(&wire.headers, &wire.limits) {
        return Err(record.fail(how, unsendable.into()));
    }
    // Built by hand: gloo-net's own header setters throw on a name the browser rejects.
    let headers =
        web_sys::Headers::new().map_err(|e| record.fail(how, unreachable(js_text(&e))))?;
    for (name, value) in &wire.headers {
        headers.set(name, value).map_err(|e| {
            record.fail(how, unreachable(format!("header {name}: {}", js_text(&e))))
        })?;
    }
    let init = web_sys::RequestInit::new();
    init.set_method(wire.http_method);
    init.set_headers(&headers);
    if wire.http_method == "POST" {
        init.set_body(&JsValue::from_str(wire.body));
    }
    init.set_signal(Some(&deadline.signal));
    let Some(window) = web_sys::window() else {
        return Err(record.fail(how, unreachable("no browser window".to_owned())));
    };
    let response = match JsFuture::from(window.fetch_with_str_and_init(&url, &init)).await {
        Ok(response) => response.unchecked_into::<Response>(),
        Err(_) if deadline.passed() => return Err(record.fail(how, deadline.error(url))),
        Err(error) if is_abort_value(&error) => {
            return Err(record.fail(how, ExchangeError::Aborted { url }));
        }
        Err(error) => return Err(record.fail(how, unreachable(thrown_text(&error)))),
    };
    record.responded(how, &response);
    Ok(response)
}

/// Bytes of a received chunk handed to the engine at once.
const WINDOW_BYTES: u32 = 64 * 1024;

/// A response's headers as name and value pairs, in the browser's order.
fn header_pairs(headers: &web_sys::Headers) -> Vec<(String, String)> {
    let Ok(Some(entries)) = js_sys::try_iter(headers) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|pair| {
            let pair: js_sys::Array = pair.dyn_into().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// Read the body chunk by chunk into `on_chunk` (which returns false to stop early),
/// recording each piece as text split only between characters.
async fn read_body(
    how: &Carry<'_>,
    record: Record,
    response: &Response,
    deadline: &Deadline,
    on_chunk: &mut dyn FnMut(&[u8]) -> bool,
) -> Result<(), ExchangeError> {
    let url = how.connection.fetch_url();
    let Some(body) = response.body() else {
        return Ok(());
    };
    let chunks: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    // A character split between two chunks waits here for its other bytes.
    let mut unfinished: Vec<u8> = Vec::new();
    loop {
        let step = match JsFuture::from(chunks.read()).await {
            Ok(step) => step,
            Err(error) => {
                record.chunk(how, &String::from_utf8_lossy(&unfinished));
                let failure = if deadline.passed() {
                    deadline.error(url.clone())
                } else if is_abort_value(&error) {
                    ExchangeError::Aborted { url: url.clone() }
                } else {
                    ExchangeError::BodyInterrupted {
                        url: url.clone(),
                        detail: js_text(&error),
                    }
                };
                return Err(record.fail(how, failure));
            }
        };
        let done = Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let Ok(value) = Reflect::get(&step, &"value".into()) else {
            break;
        };
        let chunk = Uint8Array::new(&value);
        let mut wanted = true;
        // A window at a time: what one step holds in the wasm heap (the copy, its text, what
        // the engine decodes from it) is bounded by the window, not by the chunk the browser
        // chose to hand over (a local server's 7 MB body can come as one).
        let mut start = 0;
        while wanted && start < chunk.length() {
            let end = chunk.length().min(start + WINDOW_BYTES);
            let bytes = chunk.subarray(start, end).to_vec();
            start = end;
            unfinished.extend_from_slice(&bytes);
            let whole = complete_utf8_prefix(&unfinished);
            record.chunk(how, &String::from_utf8_lossy(&unfinished[..whole]));
            unfinished.drain(..whole);
            wanted = on_chunk(&bytes);
        }
        if !wanted {
            // The promise rejects if the request is aborted later; an unhandled
            // rejection would surface as a page error, so await it and ignore the outcome.
            let cancelled = JsFuture::from(chunks.cancel());
            wasm_bindgen_futures::spawn_local(async move {
                let _ = cancelled.await;
            });
            break;
        }
    }
    record.chunk(how, &String::from_utf8_lossy(&unfinished));
    Ok(())
}

/// How many leading bytes of `bytes` end on a character boundary (an invalid sequence
/// counts as complete: it will show as a replacement character either way).
fn complete_utf8_prefix(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(error) if error.error_len().is_none() => error.valid_up_to(),
        Err(_) => bytes.len(),
    }
}

/// Credentials never go into the log (it can be exported and shared): the same rule that
/// Copy as curl uses, so `X-Api-Key` and the like are kept out, and so is every extra header
/// of the user's that they did not mark as not secret. Returns the headers as recorded and
/// the names whose values were withheld.
fn redact(
    headers: &[(String, String)],
    connection: &Connection,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut withheld = Vec::new();
    let recorded = headers
        .iter()
        .map(|(name, value)| {
            if is_credential_header(name) || connection.is_secret_header(name) {
                withheld.push(name.clone());
                let scheme = value.split_whitespace().next().unwrap_or("");
                // Keep a scheme word ("Bearer"), never a bare value.
                let scheme = if value.trim() == scheme { "" } else { scheme };
                (name.clone(), format!("{scheme} •••").trim().to_owned())
            } else {
                (name.clone(), value.clone())
            }
        })
        .collect();
    (recorded, withheld)
}

fn is_abort_value(error: &JsValue) -> bool {
    Reflect::get(error, &"name".into())
        .ok()
        .and_then(|name| name.as_string())
        .is_some_and(|name| name == "AbortError")
}

/// What a rejected `fetch` says, as the browser writes it (`TypeError: Failed to fetch`).
fn thrown_text(value: &JsValue) -> String {
    match value.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.to_string()),
        None => js_text(value),
    }
}

/// A readable text for a thrown JS value (usually a `TypeError`).
fn js_text(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}
