//! What each part of the authorization lane stands for (MCP 2026-07-28
//! `basic/authorization`): the inspector's heading and explanation.

use holdbay_engine::auth::{AuthParty, Purpose};

use super::steps::{AuthStep, StepKind};

/// The station's name as the lane shows it.
pub fn station_title(party: AuthParty) -> &'static str {
    match party {
        AuthParty::ResourceServer => "Resource server",
        AuthParty::AuthorizationServer => "Authorization server",
        AuthParty::Browser => "Browser",
    }
}

/// The station's name for `data-party`.
pub fn station_name(party: AuthParty) -> &'static str {
    match party {
        AuthParty::ResourceServer => "resource-server",
        AuthParty::AuthorizationServer => "authorization-server",
        AuthParty::Browser => "browser",
    }
}

/// The inspector's heading for a step.
pub fn step_role(step: &AuthStep) -> String {
    let what = match step.kind {
        StepKind::Challenge { step_up: true } => "Challenge (step-up: more scope)".to_owned(),
        StepKind::Challenge { step_up: false } => "Challenge (sign-in needed)".to_owned(),
        StepKind::Exchange(Purpose::Authorization) => {
            "Authorization exchange: authorize (the browser's trip)".to_owned()
        }
        StepKind::Exchange(_) => format!("Authorization exchange: {}", step.label()),
    };
    format!(
        "{what} at the {}",
        station_title(step.station).to_lowercase()
    )
}

/// What the step is in the protocol.
pub fn step_explanation(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Challenge { step_up: false } => {
            "The MCP server, as the resource server, refused the request without a valid \
             access token (HTTP 401) and said how to get one: a Bearer challenge in \
             WWW-Authenticate, with the URL of its protected resource metadata and the scope \
             it asks for. The request waits; once signed in it is sent again with the token."
        }
        StepKind::Challenge { step_up: true } => {
            "The MCP server refused a valid token that lacks scope (HTTP 403, error \
             insufficient_scope) and named the scope it needs: a step-up. The client asks the \
             authorization server again for the wider scope; the request waits meanwhile."
        }
        StepKind::Exchange(purpose) => purpose_explanation(purpose),
    }
}

fn purpose_explanation(purpose: Purpose) -> &'static str {
    match purpose {
        Purpose::ProtectedResourceMetadata => {
            "Protected resource metadata (RFC 9728), fetched from the resource server's \
             well-known URL: which authorization servers it trusts, and which scopes it knows."
        }
        Purpose::AuthorizationServerMetadata => {
            "Authorization server metadata (RFC 8414, or OpenID Connect discovery): its \
             endpoints and what it supports (PKCE S256, dynamic registration, client ID \
             metadata documents)."
        }
        Purpose::Registration => {
            "Dynamic client registration (RFC 7591): the client, neither pre-registered nor \
             known by a client ID metadata document, registers itself and gets a client_id."
        }
        Purpose::Authorization => {
            "The browser goes to the authorization endpoint with the PKCE code_challenge, a \
             state, the resource (RFC 8707) and the scope; the user signs in and consents \
             there. The page only records this trip: the browser makes it, not fetch."
        }
        Purpose::Callback => {
            "The authorization server sends the browser back to the client's redirect URI \
             with a one-time code and the state (and iss, RFC 9207); the client checks both \
             before it uses the code."
        }
        Purpose::Token => {
            "The token request: the code and the PKCE code_verifier exchanged for an access \
             token (and perhaps a refresh token) for this resource."
        }
        Purpose::Refresh => {
            "The refresh_token grant: a new access token from the authorization server, \
             without the browser."
        }
    }
}

/// The token part's explanation.
pub const TOKEN_EXPLANATION: &str = "The access token the client holds for this MCP server, \
     sent as Authorization: Bearer on every MCP request. The client must not rely on what \
     it says; when it happens to be a JWT its header and claims are decoded here to learn \
     from (never its signature). The token itself is never shown and goes nowhere else.";
