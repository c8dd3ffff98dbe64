//! Reading one HTTP response: status, media type and body chunks in; typed events as they
//! are read, and a typed result at the end.
//!
//! The bytes, the event stream and the JSON-RPC envelope are read by one non-generic
//! `body::BodyReader`; `resultType` is checked in one place (`result_type::check`);
//! [`ResponseReader`] only adds the method's types. Each message is parsed once.

mod body;
pub(crate) mod error;
mod result_type;

use std::marker::PhantomData;

use rmcp::model::{CreateTaskResult, InputRequiredResult, JsonObject, RequestId};
use serde_json::Value;

pub(crate) use body::BodyReader;
pub use error::{ResponseError, SignInNeeded, TaskProblem};
use result_type::ResultKind;
pub(crate) use result_type::ResultRules;

use crate::readers::structured::OutputContract;
use crate::vocabulary::era::Era;
use crate::vocabulary::events::{AnswerEvent, AnswerKind, ExchangeEvent, InputAsk};
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::method::{McpMethod, MethodId};

/// What a request-with-rounds method answered: the final result, a request for input (MRTR),
/// or a task handle (tasks extension).
#[derive(Debug, Clone)]
pub enum Outcome<T> {
    Complete(T),
    InputRequired(InputRequiredResult),
    Task(CreateTaskResult),
}

/// A decoded result with what came with it. The notifications that came before it are
/// events ([`ResponseReader::take_events`], [`Decoded::events`]).
#[derive(Debug, Clone)]
pub struct Reply<T> {
    pub result: T,
    /// The `result` object as received, for showing the real JSON.
    pub raw_result: Value,
    /// What the server did that strains the spec (tolerated here).
    pub findings: Vec<Finding>,
}

impl<T> Reply<T> {
    /// With what the body's parse found put first.
    fn noting(mut self, mut noted: Vec<Finding>) -> Self {
        if !noted.is_empty() {
            noted.append(&mut self.findings);
            self.findings = noted;
        }
        self
    }
}

/// Everything one response said: its events in order (`Responded`, notifications not yet
/// taken, `Answered`, `Finding`s) and the typed result.
pub struct Decoded<M: McpMethod> {
    pub events: Vec<ExchangeEvent>,
    pub result: Result<Reply<Outcome<M::Output>>, ResponseError>,
}

impl<M: McpMethod> Decoded<M> {
    /// For a method whose only valid answer is `complete` (the rule of
    /// [`ResponseReader::finish`]). The events still say what the server sent.
    pub fn into_complete(self) -> (Vec<ExchangeEvent>, Result<Reply<M::Output>, ResponseError>) {
        (self.events, self.result.and_then(complete_only::<M>))
    }
}

impl<M: McpMethod> std::fmt::Debug for Decoded<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoded")
            .field("events", &self.events)
            .field("ok", &self.result.is_ok())
            .finish()
    }
}

pub(crate) const EXCERPT_CHARS: usize = 200;

/// Reads the response to one request. Create it with [`crate::OutgoingRequest::reader`],
/// push the body chunks as they arrive (draining [`ResponseReader::take_events`] to show
/// progress), then call [`ResponseReader::finish_decoded`] (or `finish`/`finish_outcome`
/// when the events do not matter).
pub struct ResponseReader<M: McpMethod> {
    body: BodyReader,
    declares_tasks: bool,
    /// For `tools/call` of a tool with an `outputSchema`: what its result must match.
    output: Option<OutputContract>,
    era: Era,
    method: PhantomData<M>,
}

impl<M: McpMethod> ResponseReader<M> {
    /// `request_id`: `None` when it is unknown (a recorded body that was not JSON-RPC);
    /// then the response's id is not checked.
    pub(crate) fn new(
        request_id: Option<RequestId>,
        declares_tasks: bool,
        status: u16,
        content_type: Option<&str>,
        limits: Limits,
    ) -> Self {
        Self {
            body: BodyReader::new(request_id, status, content_type, limits),
            declares_tasks,
            output: None,
            era: Era::Modern,
            method: PhantomData,
        }
    }

    /// Read the answer by the rules of `era` (a legacy session's: no `resultType`, and
    /// requests from the server on the stream).
    pub(crate) fn in_era(mut self, era: Era) -> Self {
        self.era = era;
        self.body.set_era(era);
        self
    }

    /// Check a `complete` result against the tool's `outputSchema` (a finding if it breaks).
    pub(crate) fn with_output(mut self, output: Option<OutputContract>) -> Self {
        self.output = output;
        self
    }

    /// The response's `WWW-Authenticate` header, if it had one (the browser exposes it only
    /// when the server's CORS allows). Surfaced on 401 and 403.
    pub fn set_www_authenticate(&mut self, value: Option<&str>) {
        self.body.set_www_authenticate(value);
    }

    /// The response's `DPoP-Nonce` header, if it had one: with a 401 `DPoP` challenge
    /// that says `use_dpop_nonce`, the request goes again with it (RFC 9449 §9).
    pub fn set_dpop_nonce(&mut self, value: Option<&str>) {
        self.body.set_dpop_nonce(value);
    }

    /// Feed the next piece of the body, split anywhere.
    pub fn push_chunk(&mut self, chunk: &[u8]) {
        self.body.push_chunk(chunk);
    }

    /// Where the event stream would resume if it broke now (legacy sessions resume with
    /// `Last-Event-ID` after `retry`); `None` for a body that is not a stream.
    pub fn resume(&self) -> Option<&crate::readers::sse::Resume> {
        self.body.resume()
    }

    /// The events read so far and not yet taken (`Responded`, then each notification as
    /// its event completes), so a caller can show progress while the stream is open.
    pub fn take_events(&mut self) -> Vec<ExchangeEvent> {
        self.body.take_events()
    }

    /// True once the response is already known to fail (too large, malformed stream): the
    /// caller can stop reading the body.
    pub fn has_failed(&self) -> bool {
        self.body.has_failed()
    }

    /// True once an event stream has carried the response: the caller can stop reading (a
    /// legacy server's resumed stream stays open after it).
    pub fn is_answered(&self) -> bool {
        self.body.is_answered()
    }

    /// True once the body is known to be over [`Limits::max_body_bytes`]: a log keeps only
    /// its start.
    pub fn is_too_large(&self) -> bool {
        self.body.is_too_large()
    }

    /// The whole body has arrived: decode a method whose only valid answer is `complete`.
    pub fn finish(self) -> Result<Reply<M::Output>, ResponseError> {
        self.finish_outcome().and_then(complete_only::<M>)
    }

    /// The whole body has arrived: decode the response, whichever `resultType` it has.
    pub fn finish_outcome(mut self) -> Result<Reply<Outcome<M::Output>>, ResponseError> {
        let envelope = self.body.finish(false);
        let noted = self.body.take_findings();
        let limits = self.body.limits();
        envelope
            .result
            .and_then(|result| self.decode(result, &limits))
            .map(|reply| reply.noting(noted))
    }

    /// The whole body has arrived: the events not yet taken, then `Answered` and the
    /// findings, with the typed result.
    pub fn finish_decoded(mut self) -> Decoded<M> {
        let envelope = self.body.finish(true);
        let mut events = self.body.take_events();
        let noted = self.body.take_findings();
        let limits = self.body.limits();
        let result = envelope
            .result
            .and_then(|result| self.decode(result, &limits))
            .map(|reply| reply.noting(noted));
        let (kind, findings) = match &result {
            Ok(reply) => (answer_kind::<M>(reply), reply.findings.clone()),
            Err(error) => (
                AnswerKind::of_failure(error),
                error.finding().into_iter().collect(),
            ),
        };
        // An answer refused by a bound is not kept whole: the wire log has its text, and the
        // parsed tree of a round asking thousands of inputs would outlive the refusal.
        let message = match &result {
            Err(error) if error.is_over_bound() => None,
            _ => envelope.message,
        };
        answered(&mut events, message, kind, findings);
        Decoded { events, result }
    }

    fn decode(
        &self,
        result: JsonObject,
        limits: &Limits,
    ) -> Result<Reply<Outcome<M::Output>>, ResponseError> {
        decode_reply::<M>(
            result,
            self.declares_tasks,
            self.era,
            self.output.as_ref(),
            limits,
        )
    }
}

/// The reader of a method this client does not know (a replayed log): the same bytes and
/// envelope rules, and the neutral result rules.
pub(crate) fn finish_untyped(mut body: BodyReader) -> Vec<ExchangeEvent> {
    let envelope = body.finish(true);
    let mut events = body.take_events();
    let noted = body.take_findings();
    let checked = envelope
        .result
        .and_then(|result| result_type::check(&Value::Object(result), ResultRules::NEUTRAL, false));
    let (kind, findings) = match checked {
        Ok(checked) => (
            AnswerKind::Complete { tool_error: false },
            noted.into_iter().chain(checked.findings).collect(),
        ),
        Err(error) => (
            AnswerKind::of_failure(&error),
            error.finding().into_iter().collect(),
        ),
    };
    answered(&mut events, envelope.message, kind, findings);
    events
}

fn answered(
    events: &mut Vec<ExchangeEvent>,
    message: Option<Value>,
    kind: AnswerKind,
    findings: Vec<Finding>,
) {
    events.push(ExchangeEvent::Answered(Box::new(AnswerEvent {
        json: message.unwrap_or(Value::Null),
        kind,
    })));
    events.extend(findings.into_iter().map(ExchangeEvent::Finding));
}

/// What a decoded reply means on the timeline, read from its typed result.
fn answer_kind<M: McpMethod>(reply: &Reply<Outcome<M::Output>>) -> AnswerKind {
    match &reply.result {
        Outcome::Complete(output) => M::complete_kind(output),
        // `decode_reply` lets these through only for the methods that allow them; the
        // constants say so to the compiler too, so the readers of the other methods
        // (discovery, the lists) carry no input-request or task code.
        Outcome::InputRequired(_) | Outcome::Task(_) if !M::MRTR && !M::MAY_CREATE_TASK => {
            AnswerKind::Complete { tool_error: false }
        }
        Outcome::InputRequired(input) => AnswerKind::InputRequired {
            asks: input
                .input_requests
                .as_ref()
                .map(|requests| {
                    InputAsk::from_requests(requests, reply.raw_result.get("inputRequests"))
                })
                .unwrap_or_default(),
            request_state: input.request_state.clone(),
        },
        Outcome::Task(created) => AnswerKind::Task(Box::new(created.task.clone())),
    }
}

/// `complete` only: the other kinds are an error for the caller.
fn complete_only<M: McpMethod>(
    reply: Reply<Outcome<M::Output>>,
) -> Result<Reply<M::Output>, ResponseError> {
    match reply.result {
        Outcome::Complete(result) => Ok(Reply {
            result,
            raw_result: reply.raw_result,
            findings: reply.findings,
        }),
        // `decode_reply` only lets these through for methods that allow them.
        Outcome::InputRequired(_) | Outcome::Task(_) => Err(ResponseError::UnexpectedResultType {
            method: M::name(),
            result_type: reply
                .raw_result
                .get("resultType")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            rule: Rule::UnknownResultType,
        }),
    }
}

/// Check the result against the method's rules, then decode it into the method's types.
fn decode_reply<M: McpMethod>(
    result: JsonObject,
    declares_tasks: bool,
    era: Era,
    output: Option<&OutputContract>,
    limits: &Limits,
) -> Result<Reply<Outcome<M::Output>>, ResponseError> {
    // Kept as received; typed decoding reads it by reference. Only a result that needs the
    // spec's defaults filled in (older servers) is copied.
    let raw_result = Value::Object(result);
    let rules = ResultRules::of::<M>().in_era(era);
    let checked = result_type::check(&raw_result, rules, declares_tasks)?;
    let source = checked.patched.as_ref().unwrap_or(&raw_result);
    let invalid = |error: serde_json::Error| ResponseError::InvalidResult {
        method: M::name(),
        detail: error.to_string(),
    };
    // The constant guards let the compiler drop the MRTR and task decoders (rmcp's large
    // input-request unions) from methods that never see them: it matters for wasm size.
    let fields = source.as_object();
    let outcome = match checked.kind {
        ResultKind::InputRequired if M::MRTR => {
            if let Some(fields) = fields {
                crate::readers::bounds::input_requests(fields, limits)?;
            }
            Outcome::InputRequired(
                crate::vocabulary::decode::input_required_result(source).map_err(invalid)?,
            )
        }
        ResultKind::Task if M::MAY_CREATE_TASK => Outcome::Task(task_created(source, limits)?),
        _ => {
            // A task snapshot (`tasks/get`) asks for input the same way a round does.
            if ResultRules::of::<M>().task_snapshot
                && let Some(fields) = fields
            {
                crate::readers::bounds::input_requests(fields, limits)?;
            }
            Outcome::Complete(M::decode_output(source).map_err(invalid)?)
        }
    };
    let mut findings = checked.findings;
    // Only a tool call has an output contract; the constant keeps the schema checker out of
    // the other methods' readers.
    if matches!(M::ID, MethodId::CallTool)
        && let (Outcome::Complete(_), Some(output)) = (&outcome, output)
    {
        findings.extend(output.findings(&raw_result));
    }
    Ok(Reply {
        result: outcome,
        raw_result,
        findings,
    })
}

/// A `task` answer: the new task, or why it was refused. It exists on the server either way,
/// so a refusal carries its `taskId` for the caller's `tasks/cancel`.
fn task_created(source: &Value, limits: &Limits) -> Result<CreateTaskResult, ResponseError> {
    let task_id = source
        .as_object()
        .and_then(crate::readers::bounds::task_id)
        .map(str::to_owned);
    let refused = |problem| ResponseError::TaskRefused {
        task_id: task_id.clone(),
        problem,
    };
    if let Some(id) = &task_id
        && id.len() > limits.max_id_bytes
    {
        return Err(refused(TaskProblem::IdTooLong {
            bytes: id.len(),
            limit: limits.max_id_bytes,
        }));
    }
    crate::vocabulary::decode::create_task_result(source).map_err(|error| {
        refused(TaskProblem::Malformed {
            detail: error.to_string(),
        })
    })
}

#[cfg(test)]
mod tests;
