//! The byte- and JSON-level reading of one response, the same for every method (one copy in
//! the wasm): body chunks in; each event-stream message parsed once, as it completes, into
//! notifications (queued as events) and the response; at the end, the JSON-RPC envelope.

use rmcp::model::{ErrorData, JsonObject, RequestId};
use serde::Deserialize;
use serde_json::Value;

use super::EXCERPT_CHARS;
use super::error::{ResponseError, id_text};
use crate::readers::notification_keep::NotificationKeep;
use crate::readers::sse::SseDecoder;
use crate::readers::stream_message::StreamMessages;
use crate::vocabulary::era::Era;
use crate::vocabulary::events::ExchangeEvent;
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::protocol::{is_event_stream, is_json};

enum Body {
    Json(Pieces),
    Sse {
        /// Boxed: the framing parser is large, and most bodies are JSON.
        decoder: Box<SseDecoder>,
        /// The response, once its event arrived; later events are not read.
        response: Option<Value>,
        /// Events dispatched so far: none at the end means the body may not be a stream.
        messages: usize,
    },
    /// Any other media type: kept (bounded) only to quote it in an error.
    Other {
        content_type: String,
        bytes: Vec<u8>,
    },
}

/// One response as bytes and messages, before any method's rules apply.
pub(crate) struct BodyReader {
    /// `None` when the request's id is unknown (a recorded body that was not JSON-RPC):
    /// then no id is checked.
    request_id: Option<RequestId>,
    status: u16,
    limits: Limits,
    received: usize,
    body: Body,
    failure: Option<ResponseError>,
    www_authenticate: Option<String>,
    dpop_nonce: Option<String>,
    /// `Responded` is still to be taken (kept apart so a reader whose events nobody wants
    /// allocates no queue).
    responded: Option<ExchangeEvent>,
    events: Vec<ExchangeEvent>,
    /// Found while parsing (numbers out of range), for the reply's findings.
    findings: Vec<Finding>,
    /// The notifications read so far, and which of them a log keeps.
    notes: NotificationKeep,
    /// The `Content-Type` as received, and the body's first bytes: together they tell a
    /// body whose label contradicts it.
    content_type: String,
    head: Vec<u8>,
    /// The era of the request: in the legacy one the server may send requests of its own.
    era: Era,
}

/// A JSON body as it arrived, piece by piece: joined once, when it is whole. A body refused
/// as too large is never held as one block, so its pieces go back to the allocator as
/// pieces any later allocation can reuse.
#[derive(Default)]
struct Pieces(Vec<Vec<u8>>);

impl Pieces {
    fn push(&mut self, chunk: &[u8]) {
        if !chunk.is_empty() {
            self.0.push(chunk.to_vec());
        }
    }

    fn joined(self) -> Vec<u8> {
        match <[Vec<u8>; 1]>::try_from(self.0) {
            Ok([only]) => only,
            Err(pieces) => pieces.concat(),
        }
    }
}

/// Bytes of a body's start kept to name what it really is.
const HEAD_BYTES: usize = 24;

/// The response message, split into its parts.
pub(crate) struct Envelope {
    /// The message as received, kept when events were asked for.
    pub message: Option<Value>,
    /// The `result` object, or why there is none.
    pub result: Result<JsonObject, ResponseError>,
}

impl BodyReader {
    pub(crate) fn new(
        request_id: Option<RequestId>,
        status: u16,
        content_type: Option<&str>,
        limits: Limits,
    ) -> Self {
        let event_stream = is_event_stream(content_type);
        let body = if event_stream {
            Body::Sse {
                decoder: Box::new(SseDecoder::new()),
                response: None,
                messages: 0,
            }
        } else if is_json(content_type) {
            Body::Json(Pieces::default())
        } else {
            Body::Other {
                content_type: content_type.unwrap_or_default().to_owned(),
                bytes: Vec::new(),
            }
        };
        Self {
            request_id,
            status,
            limits,
            received: 0,
            body,
            failure: None,
            www_authenticate: None,
            dpop_nonce: None,
            responded: Some(ExchangeEvent::Responded {
                status,
                event_stream,
            }),
            events: Vec::new(),
            findings: Vec::new(),
            notes: NotificationKeep::default(),
            content_type: content_type.unwrap_or_default().to_owned(),
            head: Vec::new(),
            era: Era::Modern,
        }
    }

    /// Where an event stream would resume (its last event id and `retry`), if it is one.
    pub(crate) fn resume(&self) -> Option<&crate::readers::sse::Resume> {
        match &self.body {
            Body::Sse { decoder, .. } => Some(decoder.resume()),
            _ => None,
        }
    }

    pub(crate) fn set_era(&mut self, era: Era) {
        self.era = era;
    }

    /// The bounds this body is read within.
    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// What parsing found (see [`Rule::NumberOutOfRange`]), once.
    pub(crate) fn take_findings(&mut self) -> Vec<Finding> {
        std::mem::take(&mut self.findings)
    }

    pub(crate) fn set_www_authenticate(&mut self, value: Option<&str>) {
        self.www_authenticate = value.map(str::to_owned);
    }

    pub(crate) fn set_dpop_nonce(&mut self, value: Option<&str>) {
        self.dpop_nonce = value.map(str::to_owned);
    }

    pub(crate) fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    /// The stream has carried the response: nothing after it is read.
    pub(crate) fn is_answered(&self) -> bool {
        matches!(
            self.body,
            Body::Sse {
                response: Some(_),
                ..
            }
        )
    }

    pub(crate) fn is_too_large(&self) -> bool {
        matches!(self.failure, Some(ResponseError::BodyTooLarge { .. }))
    }

    pub(crate) fn take_events(&mut self) -> Vec<ExchangeEvent> {
        let mut events = std::mem::take(&mut self.events);
        if let Some(responded) = self.responded.take() {
            events.insert(0, responded);
        }
        events
    }

    pub(crate) fn push_chunk(&mut self, chunk: &[u8]) {
        if self.failure.is_some() {
            return;
        }
        self.received = self.received.saturating_add(chunk.len());
        if self.received > self.limits.max_body_bytes {
            self.failure = Some(ResponseError::BodyTooLarge {
                limit: self.limits.max_body_bytes,
            });
            self.body = Body::Json(Pieces::default());
            return;
        }
        if self.head.len() < HEAD_BYTES {
            let room = HEAD_BYTES - self.head.len();
            self.head.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        match &mut self.body {
            Body::Json(pieces) => pieces.push(chunk),
            Body::Sse { decoder, .. } => match decoder.push(chunk) {
                Ok(texts) => self.take_texts(texts),
                Err(error) => self.failure = Some(error.into()),
            },
            Body::Other { bytes, .. } => {
                let room = (EXCERPT_CHARS * 4).saturating_sub(bytes.len());
                bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
        }
    }

    /// Event-stream messages, each parsed once: notifications become events; the first
    /// message without a method is the response, and ends the reading.
    fn take_texts(&mut self, texts: Vec<String>) {
        let Body::Sse {
            response, messages, ..
        } = &mut self.body
        else {
            return;
        };
        for text in texts {
            if response.is_some() {
                return;
            }
            *messages += 1;
            let message: Value = match crate::readers::json::from_slice_lenient(text.as_bytes()) {
                Ok((message, out_of_range)) => {
                    if !out_of_range.is_empty() {
                        self.findings.push(out_of_range_finding(&out_of_range));
                    }
                    message
                }
                Err(error) => {
                    self.failure = Some(ResponseError::MalformedJson {
                        detail: format!("in an event: {error}"),
                    });
                    return;
                }
            };
            // Responses are the messages without a method; the rest become events.
            let mut messages = StreamMessages {
                era: self.era,
                limits: &self.limits,
                notes: &mut self.notes,
                events: &mut self.events,
            };
            if let Some(message) = messages.read(message) {
                *response = Some(message);
            }
        }
    }

    /// Numbers read as `null` because they overflow a 64-bit float: a finding, not a failure.
    fn note_out_of_range(&mut self, numbers: Vec<String>) {
        if !numbers.is_empty() {
            self.findings.push(out_of_range_finding(&numbers));
        }
    }

    /// The whole body has arrived: the response's `result`, or why there is none. With
    /// `keep_message`, the message itself is kept too (the `result` is then a copy).
    pub(crate) fn finish(&mut self, keep_message: bool) -> Envelope {
        let failed = |error| Envelope {
            message: None,
            result: Err(error),
        };
        if let Some(failure) = self.failure.take() {
            return failed(failure);
        }
        let status = self.status;
        if matches!(status, 401 | 403)
            && let Some(challenge) = self.www_authenticate.take()
        {
            return failed(ResponseError::Unauthorized {
                status,
                challenge,
                dpop_nonce: self.dpop_nonce.take(),
            });
        }
        let success = (200..300).contains(&status);
        let message = match std::mem::replace(&mut self.body, Body::Json(Pieces::default())) {
            Body::Json(pieces) => {
                let bytes = pieces.joined();
                match crate::readers::json::from_slice_lenient(&bytes) {
                    Ok((value, out_of_range)) => {
                        self.note_out_of_range(out_of_range);
                        Some(value)
                    }
                    // A JSON error body is only promised on the statuses the spec lists; anything
                    // else unparseable on a failed request is reported by its status.
                    Err(_) if !success => {
                        return failed(ResponseError::HttpStatus {
                            status,
                            body_excerpt: excerpt(&bytes),
                        });
                    }
                    Err(error) => {
                        return failed(self.contradiction("an event stream").unwrap_or(
                            ResponseError::MalformedJson {
                                detail: error.to_string(),
                            },
                        ));
                    }
                }
            }
            Body::Sse {
                mut decoder,
                response,
                messages,
            } => {
                match decoder.finish() {
                    Ok(texts) => {
                        self.body = Body::Sse {
                            decoder,
                            response,
                            messages,
                        };
                        self.take_texts(texts);
                    }
                    Err(error) => return failed(error.into()),
                }
                if let Some(failure) = self.failure.take() {
                    return failed(failure);
                }
                match std::mem::replace(&mut self.body, Body::Json(Pieces::default())) {
                    Body::Sse {
                        response: None,
                        messages: 0,
                        ..
                    } if success => {
                        if let Some(contradiction) = self.contradiction("JSON") {
                            return failed(contradiction);
                        }
                        None
                    }
                    Body::Sse { response, .. } => response,
                    _ => None,
                }
            }
            Body::Other {
                content_type,
                bytes,
            } => {
                return failed(if success {
                    ResponseError::UnexpectedContentType { content_type }
                } else {
                    ResponseError::HttpStatus {
                        status,
                        body_excerpt: excerpt(&bytes),
                    }
                });
            }
        };
        let Some(message) = message else {
            return failed(if success {
                ResponseError::NoResponse {
                    expected: self
                        .request_id
                        .as_ref()
                        .map_or_else(|| "(unknown)".to_owned(), id_text),
                }
            } else {
                ResponseError::HttpStatus {
                    status,
                    body_excerpt: String::new(),
                }
            });
        };
        let mut envelope = open_envelope(self.request_id.as_ref(), status, message, keep_message);
        envelope.result = match envelope.result {
            Err(ResponseError::NotJsonRpc { .. }) if !success => Err(ResponseError::HttpStatus {
                status,
                body_excerpt: String::new(),
            }),
            // A result under an error status: the status wins, the server is confused.
            Ok(_) if !success => Err(ResponseError::HttpStatus {
                status,
                body_excerpt: String::new(),
            }),
            other => other,
        };
        envelope
    }
}

impl BodyReader {
    /// The body is `actual` ("JSON", "an event stream") rather than what its
    /// `Content-Type` says, judged by how it starts.
    fn contradiction(&self, actual: &'static str) -> Option<ResponseError> {
        let text = String::from_utf8_lossy(&self.head);
        let start = text.trim_start();
        let looks = match actual {
            "JSON" => start.starts_with('{') || start.starts_with('['),
            _ => ["data:", "event:", "id:", "retry:", ":"]
                .iter()
                .any(|field| start.starts_with(field)),
        };
        looks.then(|| ResponseError::ContentTypeMismatch {
            declared: self.content_type.clone(),
            actual,
            start: start.chars().take(12).collect(),
        })
    }
}

pub(crate) fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim();
    let mut out: String = trimmed.chars().take(EXCERPT_CHARS).collect();
    if trimmed.chars().count() > EXCERPT_CHARS {
        out.push('…');
    }
    out
}

/// Check the envelope and id; take the `result` object or the JSON-RPC error.
fn open_envelope(
    request_id: Option<&RequestId>,
    status: u16,
    message: Value,
    keep_message: bool,
) -> Envelope {
    let result = read_envelope(request_id, status, &message);
    let result = match result {
        Ok(()) if keep_message => match message.get("result") {
            Some(Value::Object(result)) => Ok(result.clone()),
            _ => Ok(JsonObject::new()),
        },
        Ok(()) => {
            // Nobody keeps the message: move the result out instead of copying it.
            let Value::Object(mut envelope) = message else {
                return Envelope {
                    message: None,
                    result: Ok(JsonObject::new()),
                };
            };
            let result = match envelope.remove("result") {
                Some(Value::Object(result)) => result,
                _ => JsonObject::new(),
            };
            return Envelope {
                message: None,
                result: Ok(result),
            };
        }
        Err(error) => Err(error),
    };
    Envelope {
        message: keep_message.then_some(message),
        result,
    }
}

/// Whether `message` is a response to `request_id` carrying a `result` object; its error
/// otherwise.
fn read_envelope(
    request_id: Option<&RequestId>,
    status: u16,
    message: &Value,
) -> Result<(), ResponseError> {
    let Value::Object(envelope) = message else {
        return Err(ResponseError::NotJsonRpc {
            detail: "the body is not a JSON object".into(),
        });
    };
    let id = envelope.get("id");
    if let Some(error) = envelope.get("error") {
        let error = ErrorData::deserialize(error).map_err(|e| ResponseError::NotJsonRpc {
            detail: format!("malformed error object: {e}"),
        })?;
        // An error may omit the id when the server could not read the request.
        if let Some(id) = id.filter(|id| !id.is_null()) {
            check_id(request_id, id)?;
        }
        return Err(ResponseError::rpc(status, error));
    }
    let Some(result) = envelope.get("result") else {
        return Err(ResponseError::NotJsonRpc {
            detail: "it has neither \"result\" nor \"error\"".into(),
        });
    };
    check_id(request_id, id.unwrap_or(&Value::Null))?;
    match result {
        Value::Object(_) => Ok(()),
        other => Err(ResponseError::NotJsonRpc {
            detail: format!("\"result\" is {}, not an object", json_kind(other)),
        }),
    }
}

fn check_id(expected: Option<&RequestId>, got: &Value) -> Result<(), ResponseError> {
    let Some(expected) = expected else {
        return Ok(());
    };
    let matches = match (expected, got) {
        (RequestId::Number(n), Value::Number(got)) => got.as_i64() == Some(*n),
        (RequestId::String(s), Value::String(got)) => **s == **got,
        _ => false,
    };
    if matches {
        Ok(())
    } else {
        Err(ResponseError::WrongId {
            expected: id_text(expected),
            got: got.to_string(),
        })
    }
}

pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn out_of_range_finding(numbers: &[String]) -> Finding {
    Finding::new(
        Rule::NumberOutOfRange,
        format!(
            "the message holds numbers beyond a 64-bit float's range ({}): valid JSON, read \
             here as null (the raw body in the wire log keeps them as sent)",
            numbers.join(", ")
        ),
        None,
    )
}
