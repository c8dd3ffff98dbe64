//! Multi round-trip requests: one logical request, its rounds, and the bounds on them.
//!
//! The server answers `input_required` with `inputRequests` and an opaque `requestState`.
//! The client gathers one answer per key and retries the same method and params with a new
//! id, `inputResponses` and the unchanged `requestState`, until a `complete` (or `task`).

use std::collections::BTreeMap;

use rmcp::model::{CreateTaskResult, InputRequests, InputResponses, RequestId};
use serde_json::Value;

use crate::builders::answer::{AnswerError, InputAnswer};
use crate::builders::client::Client;
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::input_asks::{received_input_requests, server_order};
use crate::readers::response::{Outcome, Reply, ResponseError};
use crate::vocabulary::events::{InputAsk, InputRequestKind};
use crate::vocabulary::method::{CancelTask, McpMethod};

/// Limits on one logical request; exceeding one ends it with an error naming the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Rounds, the first request included.
    pub max_rounds: u32,
    /// Milliseconds from the first request to the latest retry.
    pub max_elapsed_ms: u64,
    /// Bytes of one retry's JSON body.
    pub max_payload_bytes: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            max_rounds: 10,
            max_elapsed_ms: 10 * 60 * 1000,
            max_payload_bytes: 1024 * 1024,
        }
    }
}

/// Why a logical request cannot go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MrtrError {
    #[error("stopped after {rounds} rounds: the bound max_rounds is {limit}")]
    TooManyRounds { rounds: u32, limit: u32 },
    #[error("stopped after {elapsed_ms} ms: the bound max_elapsed_ms is {limit} ms")]
    TooLong { elapsed_ms: u64, limit: u64 },
    #[error("the retry would be {bytes} bytes: the bound max_payload_bytes is {limit}")]
    PayloadTooLarge { bytes: usize, limit: usize },
    #[error("the server did not ask for {key:?} in this round")]
    UnknownKey { key: String },
    #[error("no answer yet for {missing:?}")]
    Unanswered { missing: Vec<String> },
    #[error("the request is not waiting for input")]
    NotWaitingForInput,
    #[error("the request was cancelled")]
    Cancelled,
    #[error("the headers were already corrected once; the server still rejects them")]
    AlreadyResent,
    #[error("the latest round was answered; only a round that got no answer is sent again")]
    AlreadyAnswered,
    #[error(transparent)]
    Answer(#[from] AnswerError),
}

/// What to do after an error response to the latest round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorStep {
    /// `-32020` on `tools/call`: list the tools again ([`crate::Client::learn_tools`]), then
    /// [`LogicalRequest::resend`] once.
    RelistToolsAndResend,
    /// The server made the call a task the client refused ([`ResponseError::TaskRefused`]):
    /// the logical request has failed, and the task still runs on the server, so send
    /// [`LogicalRequest::cancel_refused_task`].
    CancelRefusedTask,
    /// The logical request has failed.
    Fail,
}

/// One round: what was sent, and the server's `input_required` answer to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// 1 for the first request.
    pub number: u32,
    pub request_id: RequestId,
    /// The JSON body that was sent.
    pub request_body: String,
    /// The server's input requests, keyed as it sent them.
    pub input_requests: Option<InputRequests>,
    /// The server's state, exactly as received; echoed unchanged on the retry.
    pub request_state: Option<String>,
    /// The answers given so far for this round, as they go on the wire.
    pub answers: InputResponses,
    /// The same answers as the user chose them (what `answers` was built from).
    pub choices: BTreeMap<String, InputAnswer>,
    /// The `result` object as received.
    pub raw_result: Option<Value>,
}

/// What the logical request needs next.
#[derive(Debug, Clone)]
pub enum Step<T> {
    /// The final result.
    Complete(T),
    /// Answer every key of [`LogicalRequest::pending_inputs`], then [`LogicalRequest::retry`].
    NeedsInput,
    /// The server sent only `requestState` (e.g. load shedding): retry when ready.
    RetryWithoutInput,
    /// The server turned the call into a task.
    /// Boxed: a task handle is much larger than the other steps.
    Task(Box<CreateTaskResult>),
    /// The request was cancelled; this late reply is ignored.
    Cancelled,
}

/// One logical request and all its rounds.
#[derive(Debug, Clone)]
pub struct LogicalRequest<M: McpMethod> {
    original: M::Params,
    options: crate::builders::client::RequestOptions,
    bounds: Bounds,
    started_at_ms: u64,
    rounds: Vec<Round>,
    waiting_for_input: bool,
    /// The params of the latest round, for a resend after `-32020`.
    latest_params: M::Params,
    resent: bool,
    /// The latest round's request got an HTTP answer (a reply or an error response).
    latest_answered: bool,
    cancelled: bool,
    /// A latch the user chose to send instead of the server's (see `tamper_request_state`).
    tampered_state: Option<String>,
}

impl<M: McpMethod> LogicalRequest<M> {
    /// Track `first` (already built by the client) as round 1.
    pub fn start(first: &OutgoingRequest<M>, bounds: Bounds, now_ms: u64) -> Self {
        Self {
            original: first.params.clone(),
            options: first.options.clone(),
            bounds,
            started_at_ms: now_ms,
            rounds: vec![round(1, first)],
            waiting_for_input: false,
            latest_params: first.params.clone(),
            resent: false,
            latest_answered: false,
            cancelled: false,
            tampered_state: None,
        }
    }

    /// Every round so far, oldest first.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// When round 1 went out (the caller's clock): the elapsed bound counts from here.
    pub fn started_at_ms(&self) -> u64 {
        self.started_at_ms
    }

    /// Take in the reply to the latest round.
    pub fn handle(&mut self, reply: Reply<Outcome<M::Output>>) -> Step<M::Output> {
        if self.cancelled {
            return Step::Cancelled;
        }
        self.latest_answered = true;
        let latest = self.rounds.last_mut();
        match reply.result {
            Outcome::Complete(result) => {
                self.waiting_for_input = false;
                if let Some(latest) = latest {
                    latest.raw_result = Some(reply.raw_result);
                }
                Step::Complete(result)
            }
            Outcome::Task(task) => {
                self.waiting_for_input = false;
                if let Some(latest) = latest {
                    latest.raw_result = Some(reply.raw_result);
                }
                Step::Task(Box::new(task))
            }
            Outcome::InputRequired(input) => {
                self.waiting_for_input = true;
                let needs_input = input.input_requests.as_ref().is_some_and(|r| !r.is_empty());
                if let Some(latest) = latest {
                    latest.input_requests = input.input_requests;
                    latest.request_state = input.request_state;
                    latest.raw_result = Some(reply.raw_result);
                }
                if needs_input {
                    Step::NeedsInput
                } else {
                    Step::RetryWithoutInput
                }
            }
        }
    }

    /// The keys of the latest round's input requests that have no answer yet, in the
    /// server's order.
    pub fn pending_inputs(&self) -> Vec<String> {
        self.unanswered_asks()
            .into_iter()
            .map(|ask| ask.key)
            .collect()
    }

    /// What to show the user: the latest round's input requests that have no answer yet,
    /// each typed by kind with its JSON as the server sent it, in the server's order.
    pub fn unanswered_asks(&self) -> Vec<InputAsk> {
        let Some(latest) = self.rounds.last() else {
            return Vec::new();
        };
        let Some(requests) = &latest.input_requests else {
            return Vec::new();
        };
        let received = latest.raw_result.as_ref().and_then(received_input_requests);
        server_order(requests, received)
            .iter()
            .filter(|key| !latest.answers.contains_key(*key))
            .filter_map(|key| InputAsk::of_key(requests, key, received))
            .collect()
    }

    /// Deliberately change the latch the next retry carries, for a lesson or a server
    /// check: the client must echo `requestState` exactly (§7.3), so a correct server refuses
    /// the retry. Only the next retry is affected; the server's value stays in the round.
    pub fn tamper_request_state(&mut self, state: String) -> Result<(), MrtrError> {
        if !self.waiting_for_input {
            return Err(MrtrError::NotWaitingForInput);
        }
        self.tampered_state = Some(state);
        Ok(())
    }

    /// Answer one key of the latest round; the engine writes the wire response for the
    /// kind the server asked ([`InputAnswer::to_response`]). A key may be re-answered until
    /// the retry is sent.
    pub fn answer(&mut self, key: &str, answer: InputAnswer) -> Result<(), MrtrError> {
        if !self.waiting_for_input {
            return Err(MrtrError::NotWaitingForInput);
        }
        let latest = self
            .rounds
            .last_mut()
            .ok_or(MrtrError::NotWaitingForInput)?;
        let Some(request) = latest
            .input_requests
            .as_ref()
            .and_then(|requests| requests.get(key))
        else {
            return Err(MrtrError::UnknownKey {
                key: key.to_owned(),
            });
        };
        let response = answer.to_response(&InputRequestKind::of(request))?;
        latest.answers.insert(key.to_owned(), response);
        latest.choices.insert(key.to_owned(), answer);
        Ok(())
    }

    /// Build the next round: a new id, the original params, this round's answers and the
    /// `requestState` echoed exactly (omitted when the server sent none).
    pub fn retry(
        &mut self,
        client: &mut Client,
        now_ms: u64,
    ) -> Result<OutgoingRequest<M>, MrtrError> {
        if !self.waiting_for_input {
            return Err(MrtrError::NotWaitingForInput);
        }
        let missing = self.pending_inputs();
        if !missing.is_empty() {
            return Err(MrtrError::Unanswered { missing });
        }
        let rounds = self.rounds.len() as u32;
        if rounds >= self.bounds.max_rounds {
            return Err(MrtrError::TooManyRounds {
                rounds,
                limit: self.bounds.max_rounds,
            });
        }
        let elapsed_ms = now_ms.saturating_sub(self.started_at_ms);
        if elapsed_ms > self.bounds.max_elapsed_ms {
            return Err(MrtrError::TooLong {
                elapsed_ms,
                limit: self.bounds.max_elapsed_ms,
            });
        }
        let (answers, state) = match self.rounds.last() {
            Some(latest) => (
                latest.answers.clone(),
                self.tampered_state
                    .take()
                    .or_else(|| latest.request_state.clone()),
            ),
            None => return Err(MrtrError::NotWaitingForInput),
        };
        let params = M::with_round(&self.original, answers, state);
        let mut request = client.request::<M>(params, &self.options);
        request.round = Some(rounds + 1);
        if request.body.len() > self.bounds.max_payload_bytes {
            return Err(MrtrError::PayloadTooLarge {
                bytes: request.body.len(),
                limit: self.bounds.max_payload_bytes,
            });
        }
        self.waiting_for_input = false;
        self.latest_answered = false;
        self.latest_params = request.params.clone();
        self.rounds.push(round(rounds + 1, &request));
        Ok(request)
    }

    /// Decide what an error response to the latest round means.
    pub fn handle_error(&mut self, error: &ResponseError) -> ErrorStep {
        self.latest_answered = true;
        let header_mismatch = error.rpc_code() == Some(rmcp::model::ErrorCode::HEADER_MISMATCH.0);
        let is_tool_call = M::tool_call(&self.latest_params).is_some();
        if header_mismatch && is_tool_call && !self.resent && !self.cancelled {
            ErrorStep::RelistToolsAndResend
        } else if error.refused_task_id().is_some() {
            ErrorStep::CancelRefusedTask
        } else {
            ErrorStep::Fail
        }
    }

    /// The `tasks/cancel` of the task a refused answer created (`error`), so it does not run
    /// on unseen; `None` when the answer named no task.
    pub fn cancel_refused_task(
        &self,
        client: &mut Client,
        error: &ResponseError,
    ) -> Option<OutgoingRequest<CancelTask>> {
        error.refused_task_id().map(|id| client.cancel_task(id))
    }

    /// Send the latest round again (new id, headers rebuilt from the re-listed tools). Only
    /// once per logical request.
    pub fn resend(&mut self, client: &mut Client) -> Result<OutgoingRequest<M>, MrtrError> {
        if self.cancelled {
            return Err(MrtrError::Cancelled);
        }
        if self.resent {
            return Err(MrtrError::AlreadyResent);
        }
        self.resent = true;
        Ok(self.send_latest_again(client))
    }

    /// Send the latest round again because it got no HTTP answer at all (e.g. the browser
    /// refused it the way CORS does, and it now goes through the relay): a new id, the very
    /// same params (answers, `requestState` or the tampered latch, exactly as before). It is
    /// the same round, not a new one, so it counts against no bound.
    pub fn resend_unanswered(
        &mut self,
        client: &mut Client,
    ) -> Result<OutgoingRequest<M>, MrtrError> {
        if self.cancelled {
            return Err(MrtrError::Cancelled);
        }
        if self.latest_answered {
            return Err(MrtrError::AlreadyAnswered);
        }
        Ok(self.send_latest_again(client))
    }

    /// The latest round's params under a new id; the round follows the new request.
    fn send_latest_again(&mut self, client: &mut Client) -> OutgoingRequest<M> {
        let mut request = client.request::<M>(self.latest_params.clone(), &self.options);
        request.round = self.rounds.last().map(|latest| latest.number);
        self.latest_answered = false;
        if let Some(latest) = self.rounds.last_mut() {
            latest.request_id = request.id.clone();
            latest.request_body = request.body.clone();
        }
        request
    }

    /// Cancel: on HTTP that means closing the response stream of the returned request id.
    /// A reply that still arrives is ignored.
    pub fn cancel(&mut self) -> Option<RequestId> {
        self.cancelled = true;
        self.waiting_for_input = false;
        self.rounds.last().map(|latest| latest.request_id.clone())
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled
    }
}

fn round<M: McpMethod>(number: u32, request: &OutgoingRequest<M>) -> Round {
    Round {
        number,
        request_id: request.id.clone(),
        request_body: request.body.clone(),
        input_requests: None,
        request_state: None,
        answers: InputResponses::new(),
        choices: BTreeMap::new(),
        raw_result: None,
    }
}

#[cfg(test)]
mod tests;
