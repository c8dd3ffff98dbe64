//! Reading one HTTP response: status, media type and body chunks in, a typed result out.

mod error;

use std::marker::PhantomData;

use rmcp::model::{ErrorData, JsonObject, RequestId, ResultType};
use serde_json::Value;

pub use error::ResponseError;
use error::id_text;

use crate::method::McpMethod;
use crate::protocol::{CONTENT_TYPE_JSON, CONTENT_TYPE_SSE, media_type_essence};
use crate::sse::SseDecoder;

/// Bounds on what the engine accepts from a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one response body, SSE framing included.
    pub max_body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 8 * 1024 * 1024,
        }
    }
}

/// Something the server did that a strict reading of 2026-07-28 would not, but that the
/// engine could tolerate (the spec says how). Later these become findings on a report card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerNote {
    /// `resultType` was absent; treated as `complete` (an older server).
    ResultTypeMissing,
    /// A cacheable result lacked `ttlMs`; treated as 0 (stale at once).
    TtlMissing,
    /// A cacheable result lacked `cacheScope`; treated as `private`.
    CacheScopeMissing,
}

/// A decoded `complete` result with what came with it.
#[derive(Debug, Clone)]
pub struct Reply<T> {
    pub result: T,
    /// The `result` object as received, for showing the real JSON.
    pub raw_result: Value,
    /// Notifications that came on the response's event stream before the result.
    pub notifications: Vec<Value>,
    pub notes: Vec<ServerNote>,
}

enum Body {
    Json(Vec<u8>),
    Sse {
        decoder: SseDecoder,
        messages: Vec<String>,
    },
    /// Any other media type: kept (bounded) only to quote it in an error.
    Other {
        content_type: String,
        bytes: Vec<u8>,
    },
}

/// Reads the response to one request. Create it with [`crate::OutgoingRequest::reader`],
/// push the body chunks as they arrive, then call [`ResponseReader::finish`].
pub struct ResponseReader<M: McpMethod> {
    request_id: RequestId,
    status: u16,
    limits: Limits,
    received: usize,
    body: Body,
    failure: Option<ResponseError>,
    method: PhantomData<M>,
}

const EXCERPT_CHARS: usize = 200;

impl<M: McpMethod> ResponseReader<M> {
    pub(crate) fn new(
        request_id: RequestId,
        status: u16,
        content_type: Option<&str>,
        limits: Limits,
    ) -> Self {
        let essence = media_type_essence(content_type.unwrap_or_default());
        let body = match essence.as_str() {
            CONTENT_TYPE_JSON => Body::Json(Vec::new()),
            CONTENT_TYPE_SSE => Body::Sse {
                decoder: SseDecoder::new(),
                messages: Vec::new(),
            },
            _ => Body::Other {
                content_type: content_type.unwrap_or_default().to_owned(),
                bytes: Vec::new(),
            },
        };
        Self {
            request_id,
            status,
            limits,
            received: 0,
            body,
            failure: None,
            method: PhantomData,
        }
    }

    /// Feed the next piece of the body, split anywhere.
    pub fn push_chunk(&mut self, chunk: &[u8]) {
        if self.failure.is_some() {
            return;
        }
        self.received = self.received.saturating_add(chunk.len());
        if self.received > self.limits.max_body_bytes {
            self.failure = Some(ResponseError::BodyTooLarge {
                limit: self.limits.max_body_bytes,
            });
            self.body = Body::Json(Vec::new());
            return;
        }
        match &mut self.body {
            Body::Json(bytes) => bytes.extend_from_slice(chunk),
            Body::Sse { decoder, messages } => match decoder.push(chunk) {
                Ok(new) => messages.extend(new),
                Err(error) => self.failure = Some(error.into()),
            },
            Body::Other { bytes, .. } => {
                let room = (EXCERPT_CHARS * 4).saturating_sub(bytes.len());
                bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
        }
    }

    /// True once the response is already known to fail (too large, malformed stream): the
    /// caller can stop reading the body.
    pub fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    /// The whole body has arrived: decode the response.
    pub fn finish(mut self) -> Result<Reply<M::Output>, ResponseError> {
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        let status = self.status;
        let success = (200..300).contains(&status);
        let (message, notifications) = match self.body {
            Body::Json(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                Ok(value) => (Some(value), Vec::new()),
                // A JSON error body is only promised on the statuses the spec lists; anything
                // else unparseable on a failed request is reported by its status.
                Err(_) if !success => {
                    return Err(ResponseError::HttpStatus {
                        status,
                        body_excerpt: excerpt(&bytes),
                    });
                }
                Err(error) => {
                    return Err(ResponseError::MalformedJson {
                        detail: error.to_string(),
                    });
                }
            },
            Body::Sse {
                mut decoder,
                mut messages,
            } => {
                messages.extend(decoder.finish()?);
                split_sse_messages(messages)?
            }
            Body::Other {
                content_type,
                bytes,
            } => {
                if success {
                    return Err(ResponseError::UnexpectedContentType { content_type });
                }
                return Err(ResponseError::HttpStatus {
                    status,
                    body_excerpt: excerpt(&bytes),
                });
            }
        };
        let Some(message) = message else {
            if !success {
                return Err(ResponseError::HttpStatus {
                    status,
                    body_excerpt: String::new(),
                });
            }
            return Err(ResponseError::NoResponse {
                expected: id_text(&self.request_id),
            });
        };
        let result = match into_result(&self.request_id, status, message) {
            Ok(result) => result,
            Err(ResponseError::NotJsonRpc { .. }) if !success => {
                return Err(ResponseError::HttpStatus {
                    status,
                    body_excerpt: String::new(),
                });
            }
            Err(error) => return Err(error),
        };
        if !success {
            // A result under an error status: the status wins, the server is confused.
            return Err(ResponseError::HttpStatus {
                status,
                body_excerpt: String::new(),
            });
        }
        decode_complete::<M>(result, notifications)
    }
}

fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim();
    let mut out: String = trimmed.chars().take(EXCERPT_CHARS).collect();
    if trimmed.chars().count() > EXCERPT_CHARS {
        out.push('…');
    }
    out
}

/// Separate the response to `request_id` from the notifications before it. Messages after the
/// response are ignored: the response ends the request.
fn split_sse_messages(messages: Vec<String>) -> Result<(Option<Value>, Vec<Value>), ResponseError> {
    let mut notifications = Vec::new();
    for text in messages {
        let value: Value =
            serde_json::from_str(&text).map_err(|error| ResponseError::MalformedJson {
                detail: format!("in an event: {error}"),
            })?;
        // Responses are the messages without a method; the rest are notifications.
        if value.get("method").is_none() {
            return Ok((Some(value), notifications));
        }
        notifications.push(value);
    }
    Ok((None, notifications))
}

/// Check the envelope and id; return the `result` object or the JSON-RPC error.
fn into_result(
    request_id: &RequestId,
    status: u16,
    message: Value,
) -> Result<JsonObject, ResponseError> {
    let Value::Object(mut envelope) = message else {
        return Err(ResponseError::NotJsonRpc {
            detail: "the body is not a JSON object".into(),
        });
    };
    let id = envelope.get("id").cloned();
    if let Some(error) = envelope.remove("error") {
        let error: ErrorData =
            serde_json::from_value(error).map_err(|e| ResponseError::NotJsonRpc {
                detail: format!("malformed error object: {e}"),
            })?;
        // An error may omit the id when the server could not read the request.
        if let Some(id) = id.filter(|id| !id.is_null()) {
            check_id(request_id, &id)?;
        }
        return Err(ResponseError::Rpc {
            status,
            code: error.code.0,
            message: error.message.to_string(),
            error,
        });
    }
    let Some(result) = envelope.remove("result") else {
        return Err(ResponseError::NotJsonRpc {
            detail: "it has neither \"result\" nor \"error\"".into(),
        });
    };
    check_id(request_id, &id.unwrap_or(Value::Null))?;
    match result {
        Value::Object(result) => Ok(result),
        other => Err(ResponseError::NotJsonRpc {
            detail: format!("\"result\" is {}, not an object", json_kind(&other)),
        }),
    }
}

fn check_id(expected: &RequestId, got: &Value) -> Result<(), ResponseError> {
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

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Apply the spec's defaults for fields older servers omit, then decode a `complete` result.
fn decode_complete<M: McpMethod>(
    mut result: JsonObject,
    notifications: Vec<Value>,
) -> Result<Reply<M::Output>, ResponseError> {
    let raw_result = Value::Object(result.clone());
    let mut notes = Vec::new();
    let result_type = match result.get("resultType") {
        None => {
            notes.push(ServerNote::ResultTypeMissing);
            result.insert("resultType".into(), ResultType::COMPLETE.as_str().into());
            ResultType::COMPLETE.as_str().to_owned()
        }
        Some(Value::String(result_type)) => result_type.clone(),
        Some(other) => {
            return Err(ResponseError::InvalidResult {
                method: M::name(),
                detail: format!("resultType is {}, not a string", json_kind(other)),
            });
        }
    };
    if result_type != ResultType::COMPLETE.as_str() {
        return Err(ResponseError::UnexpectedResultType {
            method: M::name(),
            result_type,
        });
    }
    if M::CACHEABLE {
        if !result.contains_key("ttlMs") {
            notes.push(ServerNote::TtlMissing);
            result.insert("ttlMs".into(), 0.into());
        }
        if !result.contains_key("cacheScope") {
            notes.push(ServerNote::CacheScopeMissing);
            result.insert("cacheScope".into(), "private".into());
        }
    }
    let decoded = serde_json::from_value(Value::Object(result)).map_err(|error| {
        ResponseError::InvalidResult {
            method: M::name(),
            detail: error.to_string(),
        }
    })?;
    Ok(Reply {
        result: decoded,
        raw_result,
        notifications,
        notes,
    })
}

#[cfg(test)]
mod tests;
