//! A recorded exchange (an imported or stored wire log), decoded by the very readers that
//! serve live requests, fed the recorded chunks in order: a replay draws what the live page
//! drew.

use crate::machines::listen::Subscription;
use crate::readers::response::{BodyReader, ResponseReader, finish_untyped};
use crate::vocabulary::events::{ExchangeEvent, SentDetail, SentRequest};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::listen_params::ListenFilter;
use crate::vocabulary::method::{
    CallTool, CancelTask, Complete, Discover, GetPrompt, GetTask, Initialize, ListPrompts,
    ListResourceTemplates, ListResources, ListTools, McpMethod, MethodId, ReadResource, TaskResult,
    UpdateTask,
};

/// One exchange as a wire log recorded it. Times are milliseconds after the request went
/// out.
#[derive(Debug, Clone, Copy)]
pub struct RecordedExchange<'a> {
    /// The JSON-RPC method (the `Mcp-Method` header).
    pub method: &'a str,
    /// The `Mcp-Name` header, when there was one.
    pub name: Option<&'a str>,
    pub request_body: &'a str,
    /// `None` when no HTTP answer came (unreachable, stopped before the headers).
    pub status: Option<u16>,
    pub content_type: Option<&'a str>,
    pub responded_after: Option<f64>,
    /// The body as it arrived: each piece with its time.
    pub chunks: &'a [(f64, &'a [u8])],
    /// `None` while the exchange was still open when the log was taken.
    pub finished_after: Option<f64>,
    /// Why it broke off at the HTTP level, if it did.
    pub error: Option<&'a str>,
    /// The client aborted it (Stop, a listen stream closed on purpose).
    pub stopped: bool,
    /// Which round of its logical request the request was, as the client recorded it (the
    /// wire does not carry it); `None` when not recorded.
    pub round: Option<u32>,
}

/// An event of a recorded exchange, with its time after the request went out.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedEvent {
    pub after_ms: f64,
    pub event: ExchangeEvent,
}

/// Decode a recorded exchange into its events, in order: `Sent`, `Responded`, notifications
/// as their chunks arrived, `Answered` and findings when the body ended, then `Ended`.
///
/// The request id the response must carry comes from the recorded body. A method this client
/// does not know is read with neutral rules (a `complete` result of any shape).
pub fn decode_recorded(exchange: &RecordedExchange<'_>) -> Vec<TimedEvent> {
    decode_recorded_with(exchange, Reader::open)
}

/// [`decode_recorded`] for a recording of method `M`, and `None` for any other: a caller
/// that reads some methods itself (the app's first screen: discovery and the tool list)
/// then carries only those methods' readers, and leaves the rest to [`decode_recorded`].
pub fn decode_recorded_as<M: McpMethod + 'static>(
    exchange: &RecordedExchange<'_>,
) -> Option<Vec<TimedEvent>> {
    if MethodId::from_name(exchange.method) != Some(M::ID) {
        return None;
    }
    Some(decode_recorded_with(exchange, reader_of::<M>))
}

/// A recording's events, its response read by the reader `open` makes (generic, so a
/// caller of one method's readers carries no other reader).
fn decode_recorded_with<R: Replayed>(
    exchange: &RecordedExchange<'_>,
    open: impl FnOnce(&SentRequest, u16, Option<&str>) -> R,
) -> Vec<TimedEvent> {
    let sent = SentRequest::decode_round(
        exchange.method,
        exchange.request_body,
        exchange.name,
        exchange.round,
    );
    let mut reader = exchange
        .status
        .map(|status| open(&sent, status, exchange.content_type));
    let mut out = vec![TimedEvent {
        after_ms: 0.0,
        event: ExchangeEvent::Sent(Box::new(sent)),
    }];
    let mut timed = |after_ms: f64, events: Vec<ExchangeEvent>| {
        out.extend(
            events
                .into_iter()
                .map(|event| TimedEvent { after_ms, event }),
        );
    };
    if let Some(reader) = reader.as_mut() {
        let responded_at = exchange
            .responded_after
            .or_else(|| exchange.chunks.first().map(|(after, _)| *after))
            .or(exchange.finished_after)
            .unwrap_or(0.0);
        timed(responded_at, reader.take_events());
        for (after, bytes) in exchange.chunks {
            reader.push(bytes);
            timed(*after, reader.take_events());
        }
    }
    let Some(end) = exchange.finished_after else {
        return out;
    };
    // A body that ended by itself is read to its end; one cut off (Stop, a broken
    // connection) is not: the live page never finished it either.
    if let Some(reader) = reader
        && !exchange.stopped
        && exchange.error.is_none()
    {
        timed(end, reader.finish());
    }
    timed(
        end,
        vec![ExchangeEvent::ended(
            exchange.stopped,
            exchange.error.map(str::to_owned),
        )],
    );
    out
}

/// The response to a request known only as a [`SentRequest`] (a wire-log entry, live or
/// recorded), read by the reader a request of its method gets: the method's
/// [`ResponseReader`], a [`Subscription`] for `subscriptions/listen`, or neutral rules for a
/// method this client does not know. [`decode_recorded`] drives one over a recording; a
/// caller can drive one chunk by chunk.
pub struct ExchangeDecoder {
    reader: Reader,
}

enum Reader {
    Typed(Box<dyn TypedReader>),
    Listen(Box<Subscription>),
    Untyped(Box<BodyReader>),
}

impl std::fmt::Debug for ExchangeDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.reader {
            Reader::Typed(_) => "ExchangeDecoder(typed)",
            Reader::Listen(_) => "ExchangeDecoder(listen)",
            Reader::Untyped(_) => "ExchangeDecoder(untyped)",
        })
    }
}

impl ExchangeDecoder {
    /// Start reading the response to `sent` once its status and media type are known. The
    /// id the response must carry is `sent.id` (unchecked when the request had none).
    pub fn open(sent: &SentRequest, status: u16, content_type: Option<&str>) -> Self {
        Self {
            reader: Reader::open(sent, status, content_type),
        }
    }

    /// Feed the next piece of the body, split anywhere.
    pub fn push_chunk(&mut self, chunk: &[u8]) {
        self.reader.push(chunk);
    }

    /// The events read so far and not yet taken.
    pub fn take_events(&mut self) -> Vec<ExchangeEvent> {
        self.reader.take_events()
    }

    /// The body ended by itself: the events not yet taken, then the answer and findings
    /// (for a listen stream, its end). `Ended` is the caller's to add.
    pub fn finish(self) -> Vec<ExchangeEvent> {
        self.reader.finish()
    }
}

impl Reader {
    fn open(sent: &SentRequest, status: u16, content_type: Option<&str>) -> Self {
        let limits = Limits::default();
        let id = sent.id.clone();
        let Some(method) = sent.method else {
            return Reader::Untyped(Box::new(BodyReader::new(id, status, content_type, limits)));
        };
        let open: OpenTyped = match method {
            MethodId::Listen => {
                let filter = match &sent.detail {
                    SentDetail::Listen { filter } => filter.clone(),
                    _ => ListenFilter::default(),
                };
                return Reader::Listen(Box::new(Subscription::open_recorded(
                    id,
                    filter,
                    status,
                    content_type,
                    limits,
                )));
            }
            MethodId::Discover => typed::<Discover>,
            MethodId::Initialize => typed::<Initialize>,
            MethodId::ListTools => typed::<ListTools>,
            MethodId::ListPrompts => typed::<ListPrompts>,
            MethodId::ListResources => typed::<ListResources>,
            MethodId::ListResourceTemplates => typed::<ListResourceTemplates>,
            MethodId::CallTool => typed::<CallTool>,
            MethodId::GetPrompt => typed::<GetPrompt>,
            MethodId::ReadResource => typed::<ReadResource>,
            MethodId::Complete => typed::<Complete>,
            MethodId::GetTask => typed::<GetTask>,
            MethodId::UpdateTask => typed::<UpdateTask>,
            MethodId::CancelTask => typed::<CancelTask>,
            MethodId::TaskResult => typed::<TaskResult>,
        };
        Reader::Typed(open(sent, status, content_type))
    }

    fn push(&mut self, bytes: &[u8]) {
        match self {
            Reader::Typed(reader) => reader.push(bytes),
            Reader::Listen(subscription) => {
                subscription.handle_chunk(bytes);
            }
            Reader::Untyped(body) => body.push_chunk(bytes),
        }
    }

    fn take_events(&mut self) -> Vec<ExchangeEvent> {
        match self {
            Reader::Typed(reader) => reader.take_events(),
            Reader::Listen(subscription) => subscription.take_events(),
            Reader::Untyped(body) => body.take_events(),
        }
    }

    fn finish(self) -> Vec<ExchangeEvent> {
        match self {
            Reader::Typed(reader) => reader.finish(),
            Reader::Listen(mut subscription) => {
                subscription.handle_end();
                subscription.take_events()
            }
            Reader::Untyped(body) => finish_untyped(*body),
        }
    }
}

type OpenTyped = fn(&SentRequest, u16, Option<&str>) -> Box<dyn TypedReader>;

/// The reader of method `M` for the response to `sent`.
fn reader_of<M: McpMethod>(
    sent: &SentRequest,
    status: u16,
    content_type: Option<&str>,
) -> ResponseReader<M> {
    ResponseReader::new(
        sent.id.clone(),
        sent.declares_tasks,
        status,
        content_type,
        Limits::default(),
    )
}

/// The reader of method `M`, its method erased.
fn typed<M: McpMethod + 'static>(
    sent: &SentRequest,
    status: u16,
    content_type: Option<&str>,
) -> Box<dyn TypedReader> {
    Box::new(reader_of::<M>(sent, status, content_type))
}

/// What a replay drives: a response's reader, fed the recorded chunks.
trait Replayed {
    fn push(&mut self, bytes: &[u8]);
    fn take_events(&mut self) -> Vec<ExchangeEvent>;
    fn finish(self) -> Vec<ExchangeEvent>;
}

impl Replayed for Reader {
    fn push(&mut self, bytes: &[u8]) {
        Reader::push(self, bytes);
    }

    fn take_events(&mut self) -> Vec<ExchangeEvent> {
        Reader::take_events(self)
    }

    fn finish(self) -> Vec<ExchangeEvent> {
        Reader::finish(self)
    }
}

impl<M: McpMethod> Replayed for ResponseReader<M> {
    fn push(&mut self, bytes: &[u8]) {
        self.push_chunk(bytes);
    }

    fn take_events(&mut self) -> Vec<ExchangeEvent> {
        ResponseReader::take_events(self)
    }

    fn finish(self) -> Vec<ExchangeEvent> {
        self.finish_decoded().events
    }
}

/// A typed reader with its method erased: a replay wants only its events.
trait TypedReader {
    fn push(&mut self, bytes: &[u8]);
    fn take_events(&mut self) -> Vec<ExchangeEvent>;
    fn finish(self: Box<Self>) -> Vec<ExchangeEvent>;
}

impl<R: Replayed> TypedReader for R {
    fn push(&mut self, bytes: &[u8]) {
        Replayed::push(self, bytes);
    }

    fn take_events(&mut self) -> Vec<ExchangeEvent> {
        Replayed::take_events(self)
    }

    fn finish(self: Box<Self>) -> Vec<ExchangeEvent> {
        Replayed::finish(*self)
    }
}
