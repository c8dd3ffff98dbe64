//! The demo's resources: a text guide, a PNG and a binary sample (static), and the template
//! `demo://notes/{team}/{day}{?lang}`, whose `resources/read` pauses for input (the reason
//! for reading, asked with a form) before it answers.

use rmcp::model::{
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::media::{LOGO_PNG, SAMPLE_BIN};
use crate::fixture_kit::require_form_elicitation;
use crate::fixture_kit::rounds::{Answer, RoundRequest, Rounds, form, one};
use crate::principal::Principal;
use crate::shared::Shared;

pub const GUIDE_URI: &str = "demo://guide.md";
pub const LOGO_URI: &str = "demo://logo.png";
pub const SAMPLE_URI: &str = "demo://sample.bin";
pub const NOTES_TEMPLATE: &str = "demo://notes/{team}/{day}{?lang}";
const NOTES_PREFIX: &str = "demo://notes/";
const REASON_KEY: &str = "reason";

/// The teams the notes (and the completions) know.
pub const TEAMS: &[&str] = &["design", "docs", "ops", "research"];
pub const DAYS: &[&str] = &[
    "today",
    "yesterday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
];
pub const LANGS: &[&str] = &["de", "en", "fr"];

pub fn guide_text() -> &'static str {
    "# Holdbay guide\n\nA prompt or a resource can pause for input, like a tool call: the \
     server answers `input_required`, the client asks you, and retries with your answers \
     and the sealed `requestState`.\n\n<script>alert('text, never HTML')</script>\n"
}

pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(GUIDE_URI, "guide.md")
            .with_title("Holdbay guide")
            .with_description("Text contents (Markdown, shown as text).")
            .with_mime_type("text/markdown"),
        Resource::new(LOGO_URI, "logo.png")
            .with_title("Holdbay logo")
            .with_description("Blob contents: a PNG, base64.")
            .with_mime_type("image/png"),
        Resource::new(SAMPLE_URI, "sample.bin")
            .with_title("Binary sample")
            .with_description("Blob contents of no media type: described, never inlined.")
            .with_mime_type("application/octet-stream"),
    ]
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(NOTES_TEMPLATE, "team-notes")
            .with_title("Team notes")
            .with_description(
                "Pause for input on resources/read: the server asks why you read the notes \
                 (input_required and a sealed requestState), then answers. Completions \
                 offered for team, day and lang.",
            )
            .with_mime_type("text/plain"),
    ]
}

/// `resources/read` of a demo URI; `None` when `request` names none.
pub fn read(
    shared: &std::sync::Arc<Shared>,
    request: &ReadResourceRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<ReadResourceResponse, ErrorData>> {
    let uri = request.uri.as_str();
    let contents = match uri {
        GUIDE_URI => text(uri, "text/markdown", guide_text()),
        LOGO_URI => blob(uri, "image/png", LOGO_PNG),
        SAMPLE_URI => blob(uri, "application/octet-stream", SAMPLE_BIN),
        _ => {
            let note = notes_of(uri)?;
            return Some(read_notes(shared, request, context, note));
        }
    };
    Some(Ok(ReadResourceResult::new(vec![contents]).into()))
}

fn text(uri: &str, mime: &str, text: &str) -> ResourceContents {
    ResourceContents::TextResourceContents {
        uri: uri.to_owned(),
        mime_type: Some(mime.to_owned()),
        text: text.to_owned(),
        meta: None,
    }
}

fn blob(uri: &str, mime: &str, blob: &str) -> ResourceContents {
    ResourceContents::BlobResourceContents {
        uri: uri.to_owned(),
        mime_type: Some(mime.to_owned()),
        blob: blob.to_owned(),
        meta: None,
    }
}

/// Which notes a URI of the template names.
#[derive(Debug, PartialEq)]
struct Notes<'u> {
    team: &'u str,
    day: &'u str,
    lang: Option<&'u str>,
}

fn notes_of(uri: &str) -> Option<Notes<'_>> {
    let rest = uri.strip_prefix(NOTES_PREFIX)?;
    let (path, query) = match rest.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (rest, None),
    };
    let (team, day) = path.split_once('/')?;
    if team.is_empty() || day.is_empty() || day.contains('/') {
        return None;
    }
    let lang = query.and_then(|q| q.split('&').find_map(|pair| pair.strip_prefix("lang=")));
    Some(Notes { team, day, lang })
}

fn read_notes(
    shared: &std::sync::Arc<Shared>,
    request: &ReadResourceRequestParams,
    context: &RequestContext<RoleServer>,
    notes: Notes<'_>,
) -> Result<ReadResourceResponse, ErrorData> {
    if !TEAMS.contains(&notes.team) {
        return Err(ErrorData::resource_not_found(
            format!(
                "no notes for team {:?}; teams: {}",
                notes.team,
                TEAMS.join(", ")
            ),
            Some(json!({ "uri": request.uri })),
        ));
    }
    require_form_elicitation(context)?;
    let principal = Principal::of(context);
    let rounds = Rounds::open_request(RoundRequest {
        shared,
        principal: principal.name(),
        target: format!("resources/read {}", request.uri),
        arguments: None,
        request_state: request.request_state.as_deref(),
        input_responses: request.input_responses.as_ref(),
    })?;
    let reason = match rounds.answer(REASON_KEY) {
        Some(Answer::Accept(content)) => content
            .get("reason")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|reason| !reason.is_empty())
            .map(str::to_owned),
        Some(Answer::Decline | Answer::Cancel) => {
            return Err(ErrorData::invalid_request(
                "the notes are read only with a reason; you declined to give one",
                Some(json!({ "uri": request.uri })),
            ));
        }
        None => None,
    };
    let Some(reason) = reason else {
        let ask = form(
            format!(
                "Reading the {} team's notes for {}: why?",
                notes.team, notes.day
            ),
            json!({
                "type": "object",
                "properties": {
                    "reason": {
                        "type": "string",
                        "title": "Reason",
                        "description": "Kept in the audit line of the notes.",
                        "minLength": 1
                    }
                },
                "required": ["reason"]
            }),
        )?;
        return rounds
            .input_required(one(REASON_KEY, ask), Value::Null)
            .map(ReadResourceResponse::InputRequired);
    };
    let lang = notes.lang.unwrap_or("en");
    let body = format!(
        "Notes of the {team} team, {day} ({lang})\n\n- Stand-up at 09:30\n- Review the open \
         requests\n\nRead because: {reason}\n",
        team = notes.team,
        day = notes.day,
    );
    Ok(ReadResourceResult::new(vec![text(&request.uri, "text/plain", &body)]).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_uris_are_read_back() {
        assert_eq!(
            notes_of("demo://notes/ops/today?lang=fr"),
            Some(Notes {
                team: "ops",
                day: "today",
                lang: Some("fr")
            })
        );
        assert_eq!(
            notes_of("demo://notes/ops/today"),
            Some(Notes {
                team: "ops",
                day: "today",
                lang: None
            })
        );
        assert_eq!(notes_of("demo://notes/ops"), None);
        assert_eq!(notes_of("demo://notes//today"), None);
        assert_eq!(notes_of("demo://guide.md"), None);
    }
}
