//! The `test_input_required_result_*` tools of the suite's MRTR scenarios (SEP-2322).
//!
//! The single-question tools are "ephemeral": they read the answer straight from
//! `inputResponses`, because the suite also retries them without any `requestState`.
//! The tools whose scenario checks `requestState` use the demo's sealed [`Rounds`].

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, InputRequests, InputRequiredResult, JsonObject,
};
use serde_json::Value;

use super::NO_ARGUMENTS;
use super::inputs::{ask_roots, ask_sampling, ask_text, ask_yes_no, content_text, object_response};
use crate::demo::Call;
use crate::demo::catalog::ToolSpec;
use crate::demo::rounds::{Answer, Rounds, one};

pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "test_input_required_result_elicitation",
        title: "Conformance MRTR: elicitation",
        description: "Asks for user_name with an elicitation, then greets.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_input_required_result_sampling",
        title: "Conformance MRTR: sampling",
        description: "Asks the client for a sampling/createMessage answer, then echoes it.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_input_required_result_list_roots",
        title: "Conformance MRTR: roots",
        description: "Asks the client for its roots, then lists them.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_input_required_result_request_state",
        title: "Conformance MRTR: requestState",
        description: "Asks for a confirmation with a sealed requestState and verifies it on the retry.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_input_required_result_multiple_inputs",
        title: "Conformance MRTR: several inputs",
        description: "Asks for an elicitation, a sampling answer and the roots in one round.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_input_required_result_multi_round",
        title: "Conformance MRTR: several rounds",
        description: "Asks two questions in two rounds, with a new requestState each round.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_input_required_result_tampered_state",
        title: "Conformance MRTR: tampered state",
        description: "Like the requestState tool; a modified requestState is rejected with -32602.",
        schema: NO_ARGUMENTS,
    },
    ToolSpec {
        name: "test_input_required_result_capabilities",
        title: "Conformance MRTR: declared capabilities",
        description: "Asks only for the kinds of input the request's client capabilities declare.",
        schema: NO_ARGUMENTS,
    },
];

pub fn call(call: &Call<'_>) -> Option<Result<CallToolResponse, ErrorData>> {
    let responses = call.request.input_responses.as_ref();
    let response = match call.tool() {
        "test_input_required_result_elicitation" => match object_response(responses, "user_name") {
            Some(answer) => done(&format!(
                "Hello, {}!",
                content_text(answer, "name").unwrap_or("friend")
            )),
            None => ask_text("What is your name?", "name")
                .map(|request| ephemeral(one("user_name", request))),
        },
        "test_input_required_result_sampling" => {
            match object_response(responses, "capital_question") {
                Some(answer) => done(&format!("Sampling response: {}", sampled_text(answer))),
                None => Ok(ephemeral(one(
                    "capital_question",
                    ask_sampling("What is the capital of France?"),
                ))),
            }
        }
        "test_input_required_result_list_roots" => match object_response(responses, "client_roots")
        {
            Some(answer) => done(&format!("Client roots: [{}]", root_uris(answer))),
            None => Ok(ephemeral(one("client_roots", ask_roots()))),
        },
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state" => confirm_with_state(call),
        "test_input_required_result_multiple_inputs" => multiple_inputs(call),
        "test_input_required_result_multi_round" => multi_round(call),
        "test_input_required_result_capabilities" => declared_only(call),
        _ => return None,
    };
    Some(response)
}

fn done(text: &str) -> Result<CallToolResponse, ErrorData> {
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
}

/// `input_required` without `requestState`: the answer alone is enough to finish.
fn ephemeral(requests: InputRequests) -> CallToolResponse {
    CallToolResponse::InputRequired(InputRequiredResult::from_input_requests(requests))
}

/// Opening the state checks its seal: a tampered one fails here with -32602.
fn confirm_with_state(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let rounds = Rounds::open(call)?;
    match rounds.answer("confirm") {
        Some(Answer::Accept(_)) => done("Confirmed: state-ok (requestState verified)"),
        _ => rounds.ask(
            one("confirm", ask_yes_no("Please confirm", "ok")?),
            Value::Null,
        ),
    }
}

fn multiple_inputs(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let rounds = Rounds::open(call)?;
    let keys = ["user_name", "greeting", "client_roots"];
    if keys
        .iter()
        .all(|key| rounds.response(key).is_some_and(Value::is_object))
    {
        return done("All inputs received");
    }
    let requests = InputRequests::from([
        (
            "user_name".to_owned(),
            ask_text("What is your name?", "name")?,
        ),
        ("greeting".to_owned(), ask_sampling("Generate a greeting")),
        ("client_roots".to_owned(), ask_roots()),
    ]);
    rounds.ask(requests, Value::Null)
}

/// Round 1 asks `step1`, round 2 asks `step2`, round 3 completes.
fn multi_round(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let rounds = Rounds::open(call)?;
    if rounds.answer("step2").is_some() {
        return done("Multi-round flow complete");
    }
    let (key, question) = if rounds.answer("step1").is_some() {
        (
            "step2",
            ask_text("Step 2: What is your favorite color?", "color")?,
        )
    } else {
        ("step1", ask_text("Step 1: What is your name?", "name")?)
    };
    rounds.ask(one(key, question), Value::Null)
}

/// SEP-2322: a server may only ask for input the client declared it can give.
fn declared_only(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    if call.request.input_responses.is_some() {
        return done("Capability-aware flow complete");
    }
    let capabilities = call.context.client_capabilities().unwrap_or_default();
    let mut requests = InputRequests::new();
    if capabilities.elicitation.is_some() {
        requests.insert(
            "user_name".to_owned(),
            ask_text("What is your name?", "name")?,
        );
    }
    if capabilities.sampling.is_some() {
        requests.insert("greeting".to_owned(), ask_sampling("Generate a greeting"));
    }
    if capabilities.roots.is_some() {
        requests.insert("client_roots".to_owned(), ask_roots());
    }
    if requests.is_empty() {
        return done("The client declared no capability this tool could ask through");
    }
    Ok(ephemeral(requests))
}

/// The text of a `CreateMessageResult`.
fn sampled_text(answer: &JsonObject) -> &str {
    answer
        .get("content")
        .and_then(|content| content.get("text"))
        .and_then(Value::as_str)
        .unwrap_or("(no text)")
}

/// The root URIs of a `ListRootsResult`, comma-separated.
fn root_uris(answer: &JsonObject) -> String {
    answer
        .get("roots")
        .and_then(Value::as_array)
        .map(|roots| {
            roots
                .iter()
                .filter_map(|root| root.get("uri").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}
