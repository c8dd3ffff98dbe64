//! `deploy`: two MRTR rounds; the second only for production, and a decline path.

use rmcp::ErrorData;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

use crate::fixture_kit::rounds::{Answer, Rounds, form, one};
use crate::fixture_kit::{Call, Handler, Tool, one_text_argument};

pub const TOOL: Tool = Tool {
    name: "deploy",
    title: "Deploy a service",
    description: "Several rounds: first the server asks which region; for a production region \
                  it then asks for an explicit approval in a second round. Each retry carries \
                  the answers and the state the server sealed in the round before. Declining \
                  ends with \"not deployed\".",
    input_schema: || one_text_argument("service", "The service to deploy.", "web"),
    output_schema: None,
    handler: Handler::Now(run),
};

const REGION: &str = "region";
const APPROVAL: &str = "approve_production";
const PRODUCTION: [&str; 2] = ["eu-production", "us-production"];

fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    call.require_form_elicitation()?;
    let rounds = Rounds::open(call)?;
    let service = call.string_argument("service", "web");
    let chosen = rounds.memo().get(REGION).and_then(Value::as_str);
    if let Some(region) = chosen {
        return match rounds.answer(APPROVAL) {
            Some(Answer::Accept(content)) if content.get("approve") == Some(&Value::Bool(true)) => {
                Ok(deployed(service, region, true))
            }
            Some(_) => Ok(not_deployed(
                service,
                &format!("production deploy to {region} was not approved"),
            )),
            None => ask_approval(&rounds, region),
        };
    }
    match rounds.answer(REGION) {
        Some(Answer::Accept(content)) => match content.get(REGION).and_then(Value::as_str) {
            Some(region) if PRODUCTION.contains(&region) => ask_approval(&rounds, region),
            Some(region @ "staging") => Ok(deployed(service, region, false)),
            _ => ask_region(&rounds, service),
        },
        Some(Answer::Decline | Answer::Cancel) => Ok(not_deployed(service, "no region was chosen")),
        None => ask_region(&rounds, service),
    }
}

fn ask_region(rounds: &Rounds<'_>, service: &str) -> Result<CallToolResponse, ErrorData> {
    let request = form(
        format!("Deploy {service}: to which region?"),
        json!({
            "type": "object",
            "properties": {
                "region": {
                    "type": "string",
                    "title": "Region",
                    "enum": ["staging", "eu-production", "us-production"]
                }
            },
            "required": ["region"]
        }),
    )?;
    rounds.ask(one(REGION, request), Value::Null)
}

fn ask_approval(rounds: &Rounds<'_>, region: &str) -> Result<CallToolResponse, ErrorData> {
    let request = form(
        format!("{region} is a production region. Approve this deploy?"),
        json!({
            "type": "object",
            "properties": {
                "approve": { "type": "boolean", "title": "Approve the production deploy", "default": false }
            },
            "required": ["approve"]
        }),
    )?;
    rounds.ask(one(APPROVAL, request), json!({ REGION: region }))
}

fn deployed(service: &str, region: &str, approved: bool) -> CallToolResponse {
    super::structured(
        format!("Deployed {service} to {region}."),
        json!({ "deployed": true, "service": service, "region": region, "approved": approved }),
    )
    .into()
}

fn not_deployed(service: &str, reason: &str) -> CallToolResponse {
    super::structured(
        format!("Not deployed: {reason}."),
        json!({ "deployed": false, "service": service, "reason": reason }),
    )
    .into()
}
