//! Reading one HTTP response: status, media type and body chunks in, a typed result out.

mod error;

use std::marker::PhantomData;

use rmcp::model::{
    CreateTaskResult, ErrorData, InputRequiredResult, JsonObject, RequestId, ResultType,
};
use serde::Deserialize;
use serde_json::Value;

pub use error::ResponseError;
use error::id_text;

use crate::findings::{Finding, Rule};
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

/// What a request-with-rounds method answered: the final result, a request for input (MRTR),
/// or a task handle (tasks extension).
#[derive(Debug, Clone)]
pub enum Outcome<T> {
    Complete(T),
    InputRequired(InputRequiredResult),
    Task(CreateTaskResult),
}

/// A decoded result with what came with it.
#[derive(Debug, Clone)]
pub struct Reply<T> {
    pub result: T,
    /// The `result` object as received, for showing the real JSON.
    pub raw_result: Value,
    /// Notifications that came on the response's event stream before the result.
    pub notifications: Vec<Value>,
    /// What the server did that strains the spec (tolerated here).
    pub findings: Vec<Finding>,
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
    declares_tasks: bool,
    status: u16,
    limits: Limits,
    received: usize,
    body: Body,
    failure: Option<ResponseError>,
    www_authenticate: Option<String>,
    method: PhantomData<M>,
}

const EXCERPT_CHARS: usize = 200;

impl<M: McpMethod> ResponseReader<M> {
    pub(crate) fn new(
        request_id: RequestId,
        declares_tasks: bool,
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
            declares_tasks,
            status,
            limits,
            received: 0,
            body,
            failure: None,
            www_authenticate: None,
            method: PhantomData,
        }
    }

    /// The response's `WWW-Authenticate` header, if it had one (the browser exposes it only
    /// when the server's CORS allows). Surfaced on 401 and 403.
    pub fn set_www_authenticate(&mut self, value: Option<&str>) {
        self.www_authenticate = value.map(str::to_owned);
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

    /// The event-stream messages decoded so far (each a JSON-RPC message as text), so a
    /// caller can show `notifications/progress` while the stream is still open. Empty for
    /// a JSON body.
    pub fn stream_messages(&self) -> &[String] {
        match &self.body {
            Body::Sse { messages, .. } => messages,
            _ => &[],
        }
    }

    /// True once the response is already known to fail (too large, malformed stream): the
    /// caller can stop reading the body.
    pub fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    /// The whole body has arrived: decode a method whose only valid answer is `complete`.
    pub fn finish(self) -> Result<Reply<M::Output>, ResponseError> {
        let method = M::name();
        let reply = self.finish_outcome()?;
        match reply.result {
            Outcome::Complete(result) => Ok(Reply {
                result,
                raw_result: reply.raw_result,
                notifications: reply.notifications,
                findings: reply.findings,
            }),
            // `decode_outcome` only lets these through for methods that allow them.
            Outcome::InputRequired(_) | Outcome::Task(_) => {
                Err(ResponseError::UnexpectedResultType {
                    method,
                    result_type: reply.raw_result["resultType"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                    rule: Rule::UnknownResultType,
                })
            }
        }
    }

    /// The whole body has arrived: decode the response, whichever `resultType` it has.
    pub fn finish_outcome(mut self) -> Result<Reply<Outcome<M::Output>>, ResponseError> {
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        let status = self.status;
        if matches!(status, 401 | 403)
            && let Some(challenge) = self.www_authenticate.take()
        {
            return Err(ResponseError::Unauthorized { status, challenge });
        }
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
        decode_outcome::<M>(result, self.declares_tasks, notifications)
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
            error: Box::new(error),
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

/// Dispatch on `resultType` (absent means `complete`), check it is valid for the method and
/// request, apply the spec's defaults for fields older servers omit, then decode.
fn decode_outcome<M: McpMethod>(
    result: JsonObject,
    declares_tasks: bool,
    notifications: Vec<Value>,
) -> Result<Reply<Outcome<M::Output>>, ResponseError> {
    // Kept as received; typed decoding reads it by reference. Only a result that needs the
    // spec's defaults filled in (older servers) is copied.
    let raw_result = Value::Object(result);
    let received = raw_result.as_object();
    let field = |name: &str| received.and_then(|object| object.get(name));
    let mut findings = Vec::new();
    let mut defaults: Vec<(&'static str, Value)> = Vec::new();
    let method = M::name();
    let finding =
        |rule: Rule, explanation: String| Finding::new(rule, explanation, Some(raw_result.clone()));
    let mut result_type = match field("resultType") {
        None => {
            findings.push(finding(
                Rule::ResultTypeMissing,
                format!(
                    "the {method} result has no resultType (an older server); read as complete"
                ),
            ));
            defaults.push(("resultType", ResultType::COMPLETE.as_str().into()));
            ResultType::COMPLETE.as_str().to_owned()
        }
        Some(Value::String(result_type)) => result_type.clone(),
        Some(other) => {
            return Err(ResponseError::InvalidResult {
                method,
                detail: format!("resultType is {}, not a string", json_kind(other)),
            });
        }
    };
    // tasks/get snapshots are `complete`; some servers label them `task` (a known
    // inconsistency in the tasks sources): read by status, note it.
    if M::TASK_SNAPSHOT && result_type == ResultType::TASK.as_str() {
        findings.push(finding(
            Rule::TaskOnWrongMethod,
            format!("the {method} result says resultType \"task\"; snapshots are \"complete\""),
        ));
        defaults.push(("resultType", ResultType::COMPLETE.as_str().into()));
        result_type = ResultType::COMPLETE.as_str().to_owned();
    }
    let unexpected = |result_type: String, rule: Rule| ResponseError::UnexpectedResultType {
        method,
        result_type,
        rule,
    };
    match result_type.as_str() {
        "complete" => {
            if field("requestState").is_some() {
                findings.push(finding(
                    Rule::RequestStateOnNonMrtrResult,
                    format!("the complete {method} result carries requestState, which only input_required results may"),
                ));
            }
            if M::CACHEABLE && (field("ttlMs").is_none() || field("cacheScope").is_none()) {
                findings.push(finding(
                    Rule::CacheHintsMissing,
                    format!("the {method} result lacks ttlMs or cacheScope; read as 0 ms, private"),
                ));
                if field("ttlMs").is_none() {
                    defaults.push(("ttlMs", 0.into()));
                }
                if field("cacheScope").is_none() {
                    defaults.push(("cacheScope", "private".into()));
                }
            }
        }
        "input_required" if M::MRTR => {
            let present = |name| field(name).is_some_and(|v| !v.is_null());
            if !present("inputRequests") && !present("requestState") {
                return Err(unexpected(result_type, Rule::InputRequiredEmpty));
            }
        }
        "input_required" => return Err(unexpected(result_type, Rule::InputRequiredNotAllowed)),
        "task" if M::MAY_CREATE_TASK && declares_tasks => {}
        "task" if M::MAY_CREATE_TASK => {
            return Err(unexpected(result_type, Rule::TaskWithoutExtension));
        }
        "task" => return Err(unexpected(result_type, Rule::TaskOnWrongMethod)),
        _ => return Err(unexpected(result_type, Rule::UnknownResultType)),
    }
    let patched = (!defaults.is_empty()).then(|| {
        let mut patched = raw_result.clone();
        if let Some(object) = patched.as_object_mut() {
            object.extend(
                defaults
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), value)),
            );
        }
        patched
    });
    let source = patched.as_ref().unwrap_or(&raw_result);
    let invalid = |error: serde_json::Error| ResponseError::InvalidResult {
        method,
        detail: error.to_string(),
    };
    // The constant guards let the compiler drop the MRTR and task decoders (rmcp's large
    // input-request unions) from methods that never see them: it matters for wasm size.
    let outcome = match result_type.as_str() {
        "input_required" if M::MRTR => {
            Outcome::InputRequired(Deserialize::deserialize(source).map_err(invalid)?)
        }
        "task" if M::MAY_CREATE_TASK => {
            Outcome::Task(Deserialize::deserialize(source).map_err(invalid)?)
        }
        _ => Outcome::Complete(Deserialize::deserialize(source).map_err(invalid)?),
    };
    Ok(Reply {
        result: outcome,
        raw_result,
        notifications,
        findings,
    })
}

#[cfg(test)]
mod tests;
