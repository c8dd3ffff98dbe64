//! The server side of MRTR for every fixture set: open the sealed state the client
//! echoed, read the answers to what was asked last round, and ask again. The same rounds
//! serve `tools/call`, `prompts/get` and `resources/read` ([`RoundRequest`]).

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest,
    InputRequests, InputRequiredResult, InputResponses, JsonObject,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::call::Call;
use crate::sealed_state::Binding;
use crate::shared::Shared;

/// What the rounds of one request need from it: who asks, what the sealed state is bound
/// to (the tool, or the prompt or resource, and its arguments), and what the client echoed.
pub struct RoundRequest<'r> {
    pub shared: &'r Arc<Shared>,
    pub principal: &'r str,
    /// What the state is bound to: a tool's name, `prompts/get NAME`, `resources/read URI`.
    pub target: String,
    pub arguments: Option<&'r JsonObject>,
    pub request_state: Option<&'r str>,
    pub input_responses: Option<&'r InputResponses>,
}

impl<'r> RoundRequest<'r> {
    /// The rounds of a `tools/call`.
    pub fn of_call(call: &'r Call<'_>) -> Self {
        Self {
            shared: call.shared,
            principal: call.principal.name(),
            target: call.tool().to_owned(),
            arguments: call.request.arguments.as_ref(),
            request_state: call.request.request_state.as_deref(),
            input_responses: call.request.input_responses.as_ref(),
        }
    }

    fn binding(&self) -> Binding<'_> {
        Binding {
            principal: self.principal,
            tool: &self.target,
            arguments: self.arguments,
        }
    }
}

/// What a scenario keeps across rounds, sealed inside `requestState`.
#[derive(Debug, Default, Serialize, Deserialize)]
struct RoundState {
    /// Rounds answered so far.
    round: u32,
    /// The keys asked last round: only answers to these are read.
    asked: Vec<String>,
    /// The scenario's own notes.
    #[serde(default)]
    memo: Value,
}

/// An elicitation answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Accept(JsonObject),
    Decline,
    Cancel,
}

pub struct Rounds<'r> {
    request: RoundRequest<'r>,
    state: RoundState,
}

impl<'r> Rounds<'r> {
    /// Open the echoed state of a `tools/call` (none on the first round) and enforce the
    /// round limit.
    pub fn open(call: &'r Call<'_>) -> Result<Self, ErrorData> {
        Self::open_request(RoundRequest::of_call(call))
    }

    /// The same for any request that may pause for input.
    pub fn open_request(request: RoundRequest<'r>) -> Result<Self, ErrorData> {
        let state = match request.request_state {
            None => RoundState::default(),
            Some(sealed) => request.shared.sealer.open(request.binding(), sealed)?,
        };
        let limit = request.shared.limits.max_rounds;
        if state.round >= limit {
            return Err(ErrorData::invalid_request(
                format!(
                    "round limit reached: this server answers at most {limit} rounds of one \
                     request; start again"
                ),
                Some(serde_json::json!({ "maxRounds": limit })),
            ));
        }
        Ok(Self { request, state })
    }

    /// 1 for the first call, 2 for the first retry, …
    pub fn round(&self) -> u32 {
        self.state.round + 1
    }

    pub fn memo(&self) -> &Value {
        &self.state.memo
    }

    /// The answer to `key`, if `key` was asked last round and the client answered it.
    pub fn answer(&self, key: &str) -> Option<Answer> {
        if !self.state.asked.iter().any(|asked| asked == key) {
            return None;
        }
        let response = self.request.input_responses?.get(key)?;
        parse_answer(response)
    }

    /// The raw response to `key`, if `key` was asked last round. Unlike [`Self::answer`]
    /// it also reads sampling and roots results (added for the conformance fixtures).
    pub fn response(&self, key: &str) -> Option<&Value> {
        if !self.state.asked.iter().any(|asked| asked == key) {
            return None;
        }
        self.request.input_responses?.get(key)
    }

    /// Return `input_required` with these requests and a freshly sealed state.
    pub fn ask(&self, requests: InputRequests, memo: Value) -> Result<CallToolResponse, ErrorData> {
        self.input_required(requests, memo)
            .map(CallToolResponse::InputRequired)
    }

    /// The `input_required` result itself, for any method that may pause.
    pub fn input_required(
        &self,
        requests: InputRequests,
        memo: Value,
    ) -> Result<InputRequiredResult, ErrorData> {
        let state = RoundState {
            round: self.state.round + 1,
            asked: requests.keys().cloned().collect(),
            memo,
        };
        let sealed = self
            .request
            .shared
            .sealer
            .seal(self.request.binding(), &state)?;
        let mut result = InputRequiredResult::from_input_requests(requests);
        result.request_state = Some(sealed);
        Ok(result)
    }
}

/// An `ElicitResult` as JSON: `{action, content?}`. Anything else counts as no answer.
pub fn parse_answer(response: &Value) -> Option<Answer> {
    match response.get("action")?.as_str()? {
        "accept" => Some(Answer::Accept(
            response
                .get("content")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
        )),
        "decline" => Some(Answer::Decline),
        "cancel" => Some(Answer::Cancel),
        _ => None,
    }
}

/// A form elicitation for a schema written as JSON.
pub fn form(message: impl Into<String>, schema: Value) -> Result<InputRequest, ErrorData> {
    let requested_schema: ElicitationSchema = serde_json::from_value(schema).map_err(|error| {
        ErrorData::internal_error(
            format!("a scenario's form schema is invalid: {error}"),
            None,
        )
    })?;
    Ok(InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: message.into(),
            requested_schema,
        },
    )))
}

// Sampling and roots are deprecated (SEP-2577) and rmcp marks them so; servers may still
// ask for them, and the retired-features lesson and the conformance suite do.
/// A `sampling/createMessage` input request: the server asks to borrow the client's model.
#[expect(
    deprecated,
    reason = "sampling is deprecated (SEP-2577) yet still asked for"
)]
pub fn sampling(prompt: &str) -> InputRequest {
    use rmcp::model::{CreateMessageRequest, CreateMessageRequestParams, SamplingMessage};
    InputRequest::CreateMessage(CreateMessageRequest::new(CreateMessageRequestParams::new(
        vec![SamplingMessage::user_text(prompt)],
        100,
    )))
}

/// A `roots/list` input request: the server asks which folders the client shares.
#[expect(
    deprecated,
    reason = "roots are deprecated (SEP-2577) yet still asked for"
)]
pub fn roots() -> InputRequest {
    InputRequest::ListRoots(rmcp::model::ListRootsRequest::default())
}

/// A URL elicitation: the user opens `url` out of band; nothing secret crosses the client.
pub fn url(message: impl Into<String>, url: String, elicitation_id: String) -> InputRequest {
    InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message: message.into(),
            url,
            elicitation_id,
        },
    ))
}

/// One-entry `InputRequests`.
pub fn one(key: &str, request: InputRequest) -> InputRequests {
    InputRequests::from([(key.to_owned(), request)])
}
