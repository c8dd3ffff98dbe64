//! `connect_account`: URL-mode elicitation. The user grants access on a page the server
//! serves itself; no secret ever passes through the client.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::rounds::{Answer, Rounds, one, url};
use crate::fixture_kit::{Call, Handler, Tool, one_text_argument};
use crate::stores::consents::Consent;

pub const TOOL: Tool = Tool {
    name: "connect_account",
    title: "Connect an account",
    description: "Secrets go through URL mode, never a form: the server asks the client to open \
                  a consent page the server itself serves. The user grants access there, the \
                  client retries, and the server completes without the credential ever passing \
                  through the client.",
    input_schema: || one_text_argument("provider", "The service to connect.", "Example Cloud"),
    output_schema: None,
    handler: Handler::Now(run),
};

const KEY: &str = "consent";

fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    call.require_url_elicitation()?;
    let rounds = Rounds::open(call)?;
    let provider = call.string_argument("provider", "Example Cloud");
    let consents = &call.shared.consents;
    let previous = rounds.memo().get("nonce").and_then(Value::as_str);
    let nonce = match previous {
        Some(nonce) => nonce.to_owned(),
        None => consents.open(call.principal.name(), provider)?,
    };
    if previous.is_some() {
        match rounds.answer(KEY) {
            Some(Answer::Decline | Answer::Cancel) => {
                return Ok(super::text(format!("{provider} was not connected.")).into());
            }
            Some(Answer::Accept(_)) | None => match consents.state(&nonce, call.principal.name()) {
                Some(Consent::Granted) => {
                    return Ok(super::structured(
                        format!(
                            "Connected your {provider} account. The access token stays on the \
                             server; the client never saw it."
                        ),
                        json!({ "connected": true, "provider": provider }),
                    )
                    .into());
                }
                Some(Consent::Denied) => {
                    return Ok(super::text(format!(
                        "{provider} was not connected: access was denied on the consent page."
                    ))
                    .into());
                }
                Some(Consent::Pending) => {}
                None => {
                    return Err(ErrorData::invalid_params(
                        "this consent request has expired; call connect_account again",
                        None,
                    ));
                }
            },
        }
    }
    let page = format!("{}/consent/{nonce}", call.shared.base_url);
    let message = if previous.is_some() {
        format!(
            "The consent page for {provider} has not been answered yet. Open it and choose Allow or Deny."
        )
    } else {
        format!("Open this page to let Holdbay's demo server connect your {provider} account.")
    };
    rounds.ask(
        one(KEY, url(message, page, nonce.clone())),
        json!({ "nonce": nonce }),
    )
}
