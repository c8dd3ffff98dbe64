//! The headers of MCP's Streamable HTTP transport that cross the edge: the ones a
//! browser may send (CORS) and the relay forwards, and the ones a browser may read.

/// Request headers an MCP client sends, besides the `Mcp-Param-*` family.
pub const REQUEST_HEADERS: &[&str] = &[
    "Content-Type",
    "Accept",
    "Authorization",
    "MCP-Protocol-Version",
    "Mcp-Method",
    "Mcp-Name",
    "Mcp-Session-Id",
    "Last-Event-ID",
    // RFC 9449: the proof of a DPoP-bound token (and of the token request that gets it).
    "DPoP",
];

/// `Mcp-Param-<Name>` carries one tool argument marked `x-mcp-header`; any name may follow.
pub const PARAM_PREFIX: &str = "mcp-param-";

/// Response headers an MCP client needs to read.
pub const RESPONSE_HEADERS: &[&str] = &[
    "Content-Type",
    "WWW-Authenticate",
    "MCP-Protocol-Version",
    "Mcp-Session-Id",
    // RFC 9449 §8–9: the nonce a server demands in the next DPoP proof.
    "DPoP-Nonce",
];

/// Set on every response of the relay, so the app can tell relayed exchanges apart.
pub const RELAY_MARKER: &str = "X-Holdbay-Relay";

/// Whether `name` (any case) is an MCP request header.
pub fn is_request_header(name: &str) -> bool {
    REQUEST_HEADERS
        .iter()
        .any(|known| known.eq_ignore_ascii_case(name))
        || is_param_header(name)
}

fn is_param_header(name: &str) -> bool {
    name.len() > PARAM_PREFIX.len()
        && name.as_bytes()[..PARAM_PREFIX.len()].eq_ignore_ascii_case(PARAM_PREFIX.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::is_request_header;

    #[test]
    fn the_param_family_and_the_fixed_set_match_in_any_case() {
        assert!(is_request_header("mcp-param-region"));
        assert!(is_request_header("MCP-PARAM-Region"));
        assert!(is_request_header("last-event-id"));
        assert!(is_request_header("dpop"));
        assert!(!is_request_header("mcp-param-"));
        assert!(!is_request_header("cookie"));
        assert!(!is_request_header("x-forwarded-for"));
    }
}
