//! `completion/complete` for the demo's prompt arguments and template variables: the known
//! values that start with what was typed (case-insensitive).

use rmcp::model::{CompleteRequestParams, CompleteResult, CompletionInfo, Reference};

use super::prompts::DRAFT_NOTE;
use super::resources::{DAYS, LANGS, NOTES_TEMPLATE, TEAMS};

const TOPICS: &[&str] = &[
    "hiring",
    "incident review",
    "launch",
    "roadmap",
    "release notes",
];

/// Suggestions, or `None` when `request` is about nothing of the demo's.
pub fn complete(request: &CompleteRequestParams) -> Option<CompleteResult> {
    let candidates: &[&str] = match (&request.r#ref, request.argument.name.as_str()) {
        (Reference::Prompt(prompt), "team") if prompt.name == DRAFT_NOTE => TEAMS,
        (Reference::Prompt(prompt), "topic") if prompt.name == DRAFT_NOTE => TOPICS,
        (Reference::Resource(template), name) if template.uri == NOTES_TEMPLATE => match name {
            "team" => TEAMS,
            "day" => DAYS,
            "lang" => LANGS,
            _ => &[],
        },
        (Reference::Prompt(prompt), _) if prompt.name == DRAFT_NOTE => &[],
        _ => return None,
    };
    let typed = request.argument.value.to_lowercase();
    let values: Vec<String> = candidates
        .iter()
        .filter(|candidate| candidate.starts_with(&typed))
        .map(|candidate| (*candidate).to_owned())
        .collect();
    let completion = CompletionInfo::with_all_values(values).unwrap_or_default();
    Some(CompleteResult::new(completion))
}
