//! The demo's prompts: `draft_note` pauses for input (the tone, asked with a form) before it
//! answers; `content_tour` answers at once with one message of each content kind.

use rmcp::model::{
    AudioContent, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    ImageContent, Prompt, PromptArgument, PromptMessage, Resource, Role,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::media::{LOGO_PNG, TONE_WAV};
use super::resources::{GUIDE_URI, LOGO_URI, guide_text};
use crate::fixture_kit::require_form_elicitation;
use crate::fixture_kit::rounds::{Answer, RoundRequest, Rounds, form, one};
use crate::principal::Principal;
use crate::shared::Shared;

pub const DRAFT_NOTE: &str = "draft_note";
pub const CONTENT_TOUR: &str = "content_tour";
const TONE_KEY: &str = "tone";

pub fn list() -> Vec<Prompt> {
    let mut draft = Prompt::new(
        DRAFT_NOTE,
        Some(
            "Pause for input on prompts/get: the server asks for the tone with a form \
             (input_required and a sealed requestState), then writes the messages.",
        ),
        Some(vec![
            PromptArgument::new("team")
                .with_description("The team the note is for (completions offered).")
                .with_required(true),
            PromptArgument::new("topic")
                .with_description("What the note is about (completions offered).")
                .with_required(false),
        ]),
    );
    draft.title = Some("Draft a team note".to_owned());
    let mut tour = Prompt::new(
        CONTENT_TOUR,
        Some(
            "Messages with every content kind: text, an image, audio, an embedded \
             resource and a resource link.",
        ),
        None,
    );
    tour.title = Some("Every content kind".to_owned());
    vec![draft, tour]
}

/// `prompts/get` of a demo prompt; `None` when `request` names none.
pub fn get(
    shared: &std::sync::Arc<Shared>,
    request: &GetPromptRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<GetPromptResponse, ErrorData>> {
    match request.name.as_str() {
        DRAFT_NOTE => Some(draft_note(shared, request, context)),
        CONTENT_TOUR => Some(Ok(content_tour().into())),
        _ => None,
    }
}

fn text_argument<'a>(request: &'a GetPromptRequestParams, name: &str) -> Option<&'a str> {
    request
        .arguments
        .as_ref()?
        .get(name)?
        .as_str()
        .map(str::trim)
        .filter(|text| !text.is_empty())
}

fn draft_note(
    shared: &std::sync::Arc<Shared>,
    request: &GetPromptRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<GetPromptResponse, ErrorData> {
    let Some(team) = text_argument(request, "team") else {
        return Err(ErrorData::invalid_params(
            "draft_note needs the argument team",
            Some(json!({ "argument": "team" })),
        ));
    };
    let topic = text_argument(request, "topic");
    require_form_elicitation(context)?;
    let principal = Principal::of(context);
    let rounds = Rounds::open_request(RoundRequest {
        shared,
        principal: principal.name(),
        target: format!("prompts/get {}", request.name),
        arguments: request.arguments.as_ref(),
        request_state: request.request_state.as_deref(),
        input_responses: request.input_responses.as_ref(),
    })?;
    let about = topic.map(|t| format!(" about {t}")).unwrap_or_default();
    let tone = match rounds.answer(TONE_KEY) {
        Some(Answer::Accept(content)) => match content.get("tone").and_then(Value::as_str) {
            Some(tone @ ("friendly" | "formal" | "brief")) => tone.to_owned(),
            _ => {
                return ask_tone(&rounds, "That tone is not one of the three. Which tone?");
            }
        },
        // Declining is an answer too: the note is written in a plain tone.
        Some(Answer::Decline | Answer::Cancel) => "plain".to_owned(),
        None => {
            return ask_tone(
                &rounds,
                &format!("Drafting a note for the {team} team{about}: which tone?"),
            );
        }
    };
    let mut result = GetPromptResult::new(vec![
        PromptMessage::new_text(
            Role::User,
            format!("Draft a {tone} note for the {team} team{about}. Keep it under 120 words."),
        ),
        PromptMessage::new_text(
            Role::Assistant,
            format!("Understood: a {tone} note for {team}. I will start with the main point."),
        ),
    ]);
    result.description = Some(format!("A {tone} note for the {team} team"));
    Ok(result.into())
}

fn ask_tone(rounds: &Rounds<'_>, message: &str) -> Result<GetPromptResponse, ErrorData> {
    let request = form(
        message,
        json!({
            "type": "object",
            "properties": {
                "tone": {
                    "type": "string",
                    "title": "Tone",
                    "oneOf": [
                        { "const": "friendly", "title": "Friendly" },
                        { "const": "formal", "title": "Formal" },
                        { "const": "brief", "title": "Brief" }
                    ]
                }
            },
            "required": ["tone"]
        }),
    )?;
    rounds
        .input_required(one(TONE_KEY, request), Value::Null)
        .map(GetPromptResponse::InputRequired)
}

fn content_tour() -> GetPromptResult {
    let link = Resource::new(LOGO_URI, "logo.png")
        .with_title("The Holdbay logo")
        .with_description("A resource link: the client reads it only if you ask.")
        .with_mime_type("image/png");
    let mut result = GetPromptResult::new(vec![
        PromptMessage::new_text(
            Role::User,
            "Show me every kind of content a prompt message can carry. <b>This is text, not HTML.</b>",
        ),
        PromptMessage::new(
            Role::Assistant,
            ContentBlock::Image(ImageContent::new(LOGO_PNG, "image/png")),
        ),
        PromptMessage::new(
            Role::Assistant,
            ContentBlock::Audio(AudioContent::new(TONE_WAV, "audio/wav")),
        ),
        PromptMessage::new_resource(
            Role::User,
            GUIDE_URI.to_owned(),
            Some("text/markdown".to_owned()),
            Some(guide_text().to_owned()),
            None,
            None,
            None,
        ),
        PromptMessage::new(Role::Assistant, ContentBlock::ResourceLink(link)),
    ]);
    result.description = Some("One message per content kind".to_owned());
    result
}
