//! The server side of MRTR for the teaching scenarios: open the sealed state the client
//! echoed, read the answers to what was asked last round, and ask again.

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest,
    InputRequests, InputRequiredResult, JsonObject,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::call::Call;
use crate::sealed_state::Binding;

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

pub struct Rounds<'c, 'a> {
    call: &'c Call<'a>,
    state: RoundState,
}

impl<'c, 'a> Rounds<'c, 'a> {
    /// Open the echoed state (none on the first round) and enforce the round limit.
    pub fn open(call: &'c Call<'a>) -> Result<Self, ErrorData> {
        let state = match call.request.request_state.as_deref() {
            None => RoundState::default(),
            Some(sealed) => call.shared.sealer.open(binding(call), sealed)?,
        };
        let limit = call.shared.limits.max_rounds;
        if state.round >= limit {
            return Err(ErrorData::invalid_request(
                format!(
                    "round limit reached: this server answers at most {limit} rounds of one \
                     request; start again"
                ),
                Some(serde_json::json!({ "maxRounds": limit })),
            ));
        }
        Ok(Self { call, state })
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
        let response = self.call.request.input_responses.as_ref()?.get(key)?;
        parse_answer(response)
    }

    /// The raw response to `key`, if `key` was asked last round. Unlike [`Self::answer`]
    /// it also reads sampling and roots results (added for the conformance fixtures).
    pub fn response(&self, key: &str) -> Option<&Value> {
        if !self.state.asked.iter().any(|asked| asked == key) {
            return None;
        }
        self.call.request.input_responses.as_ref()?.get(key)
    }

    /// Return `input_required` with these requests and a freshly sealed state.
    pub fn ask(&self, requests: InputRequests, memo: Value) -> Result<CallToolResponse, ErrorData> {
        let state = RoundState {
            round: self.state.round + 1,
            asked: requests.keys().cloned().collect(),
            memo,
        };
        let sealed = self.call.shared.sealer.seal(binding(self.call), &state)?;
        let mut result = InputRequiredResult::from_input_requests(requests);
        result.request_state = Some(sealed);
        Ok(CallToolResponse::InputRequired(result))
    }
}

fn binding<'c>(call: &'c Call<'_>) -> Binding<'c> {
    Binding {
        principal: call.principal.name(),
        tool: call.tool(),
        arguments: call.request.arguments.as_ref(),
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
