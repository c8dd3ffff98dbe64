//! The scopes the demo authorization server grants, and which tools need which.

/// Enough for every demo tool but the one that needs [`ADMIN_SCOPE`].
pub const BASE_SCOPE: &str = "mcp:tools";
/// The extra scope of the step-up lesson.
pub const ADMIN_SCOPE: &str = "mcp:admin";
/// Asks for a refresh token.
pub const OFFLINE_SCOPE: &str = "offline_access";

pub const SUPPORTED: &[&str] = &[BASE_SCOPE, ADMIN_SCOPE, OFFLINE_SCOPE];

/// What a client that names no scope gets, and what the 401 challenge asks for.
pub const DEFAULT: &str = BASE_SCOPE;

/// The demo tool that needs [`ADMIN_SCOPE`]: deploying is the privileged act.
pub const ADMIN_TOOL: &str = "deploy";

/// What each scope lets the user allow, for the consent page.
pub fn describe(scope: &str) -> &'static str {
    match scope {
        BASE_SCOPE => "Use the demo server's tools",
        ADMIN_SCOPE => "Use the demo server's administrative tool (deploy)",
        OFFLINE_SCOPE => "Stay signed in: refresh access without asking again",
        _ => "Unknown scope",
    }
}

/// The scopes of `text` (space-separated), deduplicated in order; `Err` names the first
/// unsupported one.
pub fn parse(text: &str) -> Result<Vec<String>, String> {
    let mut scopes: Vec<String> = Vec::new();
    for scope in text.split(' ').filter(|scope| !scope.is_empty()) {
        if !SUPPORTED.contains(&scope) {
            return Err(scope.to_owned());
        }
        if !scopes.iter().any(|known| known == scope) {
            scopes.push(scope.to_owned());
        }
    }
    Ok(scopes)
}

/// The scope a tool call needs besides [`BASE_SCOPE`], if any.
pub fn extra_for_tool(tool: &str) -> Option<&'static str> {
    (tool == ADMIN_TOOL).then_some(ADMIN_SCOPE)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn scopes_are_deduplicated_and_unknown_ones_named() {
        assert_eq!(
            parse("mcp:tools  mcp:tools offline_access"),
            Ok(vec!["mcp:tools".to_owned(), "offline_access".to_owned()])
        );
        assert_eq!(parse("mcp:tools root"), Err("root".to_owned()));
        assert_eq!(parse(""), Ok(Vec::new()));
    }
}
