//! The suite's prompts (`prompts-*` scenarios), including the one that answers
//! `prompts/get` with `input_required` (MRTR on a request that is not `tools/call`).

use rmcp::ErrorData;
use rmcp::model::{
    ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult, ImageContent,
    InputRequiredResult, Prompt, PromptArgument, PromptMessage, Role,
};
use serde_json::Value;

use super::inputs::{ask_text, content_text, object_response};
use super::media::PNG_1X1;
use crate::fixture_kit::rounds::one;

pub fn list() -> Vec<Prompt> {
    vec![
        Prompt::new(
            "test_simple_prompt",
            Some("A simple prompt without arguments"),
            None,
        ),
        Prompt::new(
            "test_prompt_with_arguments",
            Some("A prompt that puts its two arguments into the message"),
            Some(vec![
                PromptArgument::new("arg1")
                    .with_description("First argument")
                    .with_required(true),
                PromptArgument::new("arg2")
                    .with_description("Second argument")
                    .with_required(false),
            ]),
        ),
        Prompt::new(
            "test_prompt_with_embedded_resource",
            Some("A prompt that embeds a text resource"),
            None,
        ),
        Prompt::new(
            "test_prompt_with_image",
            Some("A prompt that carries an image"),
            None,
        ),
        Prompt::new(
            "test_input_required_result_prompt",
            Some("A prompt that first asks for context with an elicitation (MRTR)"),
            None,
        ),
    ]
}

/// `prompts/get` of a fixture prompt; `None` when `request` names none.
pub fn get(request: &GetPromptRequestParams) -> Option<Result<GetPromptResponse, ErrorData>> {
    let messages = match request.name.as_str() {
        "test_simple_prompt" => vec![PromptMessage::new_text(
            Role::User,
            "This is a simple test prompt.",
        )],
        "test_prompt_with_arguments" => {
            let argument = |name: &str| {
                request
                    .arguments
                    .as_ref()
                    .and_then(|arguments| arguments.get(name))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            vec![PromptMessage::new_text(
                Role::User,
                format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    argument("arg1"),
                    argument("arg2")
                ),
            )]
        }
        "test_prompt_with_embedded_resource" => vec![
            PromptMessage::new_text(Role::User, "Here is a resource:"),
            PromptMessage::new_resource(
                Role::User,
                "test://static-text".to_owned(),
                Some("text/plain".to_owned()),
                Some("Resource content for the prompt".to_owned()),
                None,
                None,
                None,
            ),
        ],
        "test_prompt_with_image" => vec![
            PromptMessage::new_text(Role::User, "Here is an image:"),
            PromptMessage::new(
                Role::User,
                ContentBlock::Image(ImageContent::new(PNG_1X1, "image/png")),
            ),
        ],
        "test_input_required_result_prompt" => return Some(with_context(request)),
        _ => return None,
    };
    Some(Ok(GetPromptResult::new(messages).into()))
}

/// Ask for `user_context`, then build the prompt from the answer.
fn with_context(request: &GetPromptRequestParams) -> Result<GetPromptResponse, ErrorData> {
    match object_response(request.input_responses.as_ref(), "user_context") {
        Some(answer) => {
            let context = content_text(answer, "context").unwrap_or("(no context)");
            Ok(GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                format!("Prompt with elicited context: {context}"),
            )])
            .into())
        }
        None => {
            let question = ask_text("What context should the prompt use?", "context")?;
            Ok(GetPromptResponse::InputRequired(
                InputRequiredResult::from_input_requests(one("user_context", question)),
            ))
        }
    }
}
