//! `completion/complete` for the fixture prompt and template arguments.

use rmcp::ErrorData;
use rmcp::model::{CompleteRequestParams, CompleteResult, CompletionInfo, Reference};

/// Fixed suggestions that start with what was typed so far; `None` for an argument that
/// has none.
pub fn complete(request: &CompleteRequestParams) -> Option<Result<CompleteResult, ErrorData>> {
    let candidates: &[&str] = match (&request.r#ref, request.argument.name.as_str()) {
        (Reference::Resource(_), "id") => &["1", "2", "3"],
        (Reference::Prompt(_), "arg1" | "arg2") => &["test", "testValue1", "testValue2"],
        _ => return None,
    };
    let typed = request.argument.value.as_str();
    let values = candidates
        .iter()
        .filter(|candidate| candidate.starts_with(typed))
        .map(|candidate| (*candidate).to_owned())
        .collect();
    Some(
        CompletionInfo::new(values)
            .map(CompleteResult::new)
            .map_err(|error| ErrorData::internal_error(error, None)),
    )
}
