//! The `test_input_required_result_*` tools of the suite's MRTR scenarios (SEP-2322).
//!
//! The single-question tools are "ephemeral": they read the answer straight from
//! `inputResponses`, because the suite also retries them without any `requestState`.
//! The tools whose scenario checks `requestState` use the sealed [`Rounds`] every set uses.

use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, InputRequests, InputRequiredResult, JsonObject,
};
use serde_json::Value;

use super::inputs::{ask_roots, ask_sampling, ask_text, ask_yes_no, content_text, object_response};
use crate::fixture_kit::rounds::{Answer, Rounds, one};
use crate::fixture_kit::{Call, Handler, NO_ARGUMENTS, Reply, Tool};

pub const TOOLS: &[Tool] = &[
    Tool {
        name: "test_input_required_result_elicitation",
        title: "Conformance MRTR: elicitation",
        description: "Asks for user_name with an elicitation, then greets.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(elicitation),
    },
    Tool {
        name: "test_input_required_result_sampling",
        title: "Conformance MRTR: sampling",
        description: "Asks the client for a sampling/createMessage answer, then echoes it.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(sampling),
    },
    Tool {
        name: "test_input_required_result_list_roots",
        title: "Conformance MRTR: roots",
        description: "Asks the client for its roots, then lists them.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(list_roots),
    },
    Tool {
        name: "test_input_required_result_request_state",
        title: "Conformance MRTR: requestState",
        description: "Asks for a confirmation with a sealed requestState and verifies it on the retry.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(confirm_with_state),
    },
    Tool {
        name: "test_input_required_result_multiple_inputs",
        title: "Conformance MRTR: several inputs",
        description: "Asks for an elicitation, a sampling answer and the roots in one round.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(multiple_inputs),
    },
    Tool {
        name: "test_input_required_result_multi_round",
        title: "Conformance MRTR: several rounds",
        description: "Asks two questions in two rounds, with a new requestState each round.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(multi_round),
    },
    Tool {
        name: "test_input_required_result_tampered_state",
        title: "Conformance MRTR: tampered state",
        description: "Like the requestState tool; a modified requestState is rejected with -32602.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(confirm_with_state),
    },
    Tool {
        name: "test_input_required_result_capabilities",
        title: "Conformance MRTR: declared capabilities",
        description: "Asks only for the kinds of input the request's client capabilities declare.",
        input_schema: NO_ARGUMENTS,
        output_schema: None,
        handler: Handler::Now(declared_only),
    },
];

/// Ephemeral: asks for `user_name`, then greets with the answer alone.
fn elicitation(call: &Call<'_>) -> Reply {
    match object_response(call.request.input_responses.as_ref(), "user_name") {
        Some(answer) => done(&format!(
            "Hello, {}!",
            content_text(answer, "name").unwrap_or("friend")
        )),
        None => ask_text("What is your name?", "name")
            .map(|request| ephemeral(one("user_name", request))),
    }
}

/// Ephemeral: asks the client's model, then echoes its text.
fn sampling(call: &Call<'_>) -> Reply {
    match object_response(call.request.input_responses.as_ref(), "capital_question") {
        Some(answer) => done(&format!("Sampling response: {}", sampled_text(answer))),
        None => Ok(ephemeral(one(
            "capital_question",
            ask_sampling("What is the capital of France?"),
        ))),
    }
}

/// Ephemeral: asks for the client's roots, then lists them.
fn list_roots(call: &Call<'_>) -> Reply {
    match object_response(call.request.input_responses.as_ref(), "client_roots") {
        Some(answer) => done(&format!("Client roots: [{}]", root_uris(answer))),
        None => Ok(ephemeral(one("client_roots", ask_roots()))),
    }
}

fn done(text: &str) -> Reply {
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
}

/// `input_required` without `requestState`: the answer alone is enough to finish.
fn ephemeral(requests: InputRequests) -> CallToolResponse {
    CallToolResponse::InputRequired(InputRequiredResult::from_input_requests(requests))
}

/// Opening the state checks its seal: a tampered one fails here with -32602.
fn confirm_with_state(call: &Call<'_>) -> Reply {
    let rounds = Rounds::open(call)?;
    match rounds.answer("confirm") {
        Some(Answer::Accept(_)) => done("Confirmed: state-ok (requestState verified)"),
        _ => rounds.ask(
            one("confirm", ask_yes_no("Please confirm", "ok")?),
            Value::Null,
        ),
    }
}

fn multiple_inputs(call: &Call<'_>) -> Reply {
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
fn multi_round(call: &Call<'_>) -> Reply {
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
fn declared_only(call: &Call<'_>) -> Reply {
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
