//! Every way an authorization flow can fail, each message naming the party at fault.

use serde::{Deserialize, Serialize};

/// Why authorization stopped. The message says whose fault it is: the MCP server, its
/// authorization server, the user, or this client's own configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AuthError {
    #[error("the client's configuration is unusable: {reason}")]
    Config { reason: String },
    #[error("the MCP server's URL {url} is not an absolute http(s) URL: {reason}")]
    ServerUrlInvalid { url: String, reason: String },
    #[error(
        "the MCP server publishes no usable protected resource metadata (tried {}): {last}",
        tried.join(", ")
    )]
    NoProtectedResourceMetadata { tried: Vec<String>, last: String },
    #[error("the MCP server's protected resource metadata at {url} is invalid: {reason}")]
    PrmInvalid { url: String, reason: String },
    #[error(
        "the MCP server's protected resource metadata names resource {resource}, but the client asked {server}: refusing to authorize for another resource"
    )]
    PrmResourceMismatch { resource: String, server: String },
    #[error(
        "the MCP server names authorization server {issuer}, which is not a valid issuer: {reason}"
    )]
    IssuerInvalid { issuer: String, reason: String },
    #[error(
        "the authorization server {issuer} publishes no usable metadata (tried {}): {last}",
        tried.join(", ")
    )]
    NoAuthServerMetadata {
        issuer: String,
        tried: Vec<String>,
        last: String,
    },
    #[error("the authorization server's metadata at {url} is invalid: {reason}")]
    AsMetadataInvalid { url: String, reason: String },
    #[error(
        "the authorization server's metadata names issuer {found}, but it was fetched for {expected} (from {url}): not used"
    )]
    AsIssuerMismatch {
        expected: String,
        found: String,
        url: String,
    },
    #[error(
        "the authorization server {issuer} does not list S256 in code_challenge_methods_supported ({methods}): PKCE cannot be verified, so the client refuses to proceed"
    )]
    PkceUnsupported { issuer: String, methods: String },
    #[error("the authorization server {issuer} has a {field} that is not HTTPS: {url}")]
    EndpointNotHttps {
        issuer: String,
        field: String,
        url: String,
    },
    #[error("{party}'s document at {url} is {bytes} bytes, over the client's bound of {max}")]
    DocumentTooLarge {
        party: String,
        url: String,
        bytes: usize,
        max: usize,
    },
    #[error(
        "no way to register with the authorization server {issuer}: it supports neither Client ID Metadata Documents (or the client has no HTTPS metadata URL) nor dynamic registration, and no pre-registered client is configured for it"
    )]
    NoRegistration { issuer: String },
    #[error("the authorization server refused the client registration (HTTP {status}): {error}{}", description.as_deref().map(|d| format!(" — {d}")).unwrap_or_default())]
    RegistrationRefused {
        status: u16,
        error: String,
        description: Option<String>,
    },
    #[error("the authorization server's registration answer is invalid: {reason}")]
    RegistrationInvalid { reason: String },
    #[error(
        "the authorization server {issuer} offers only the {grants} grant(s), not authorization_code: a user cannot sign in to it from a browser (it is meant for machine clients)"
    )]
    GrantUnsupported { issuer: String, grants: String },
    #[error("the authorization callback is not a URL this flow can read: {reason}")]
    CallbackInvalid { reason: String },
    #[error(
        "the authorization callback's state does not match this flow's: it belongs to another sign-in (or was forged) and is discarded"
    )]
    StateMismatch,
    #[error(
        "the authorization server {issuer} advertises the iss parameter but its authorization response has none: rejected (RFC 9207)"
    )]
    IssMissing { issuer: String },
    #[error(
        "the authorization response names issuer {found}, but the flow started at {expected}: rejected as a possible mix-up (RFC 9207)"
    )]
    IssMismatch { expected: String, found: String },
    #[error("the authorization server ended the sign-in: {error}{}", description.as_deref().map(|d| format!(" — {d}")).unwrap_or_default())]
    AuthorizationDenied {
        error: String,
        description: Option<String>,
    },
    #[error("the authorization callback carries no code")]
    CodeMissing,
    #[error("the authorization server refused the token request (HTTP {status}): {error}{}", description.as_deref().map(|d| format!(" — {d}")).unwrap_or_default())]
    TokenRefused {
        status: u16,
        error: String,
        description: Option<String>,
    },
    #[error("the authorization server's token response is invalid: {reason}")]
    TokenInvalid { reason: String },
    #[error(
        "the authorization server issued a token of type {token_type}, which this sign-in did not ask for (Bearer, or DPoP where the authorization server accepts ES256 proofs): this client cannot use it"
    )]
    TokenTypeNotBearer { token_type: String },
    #[error(
        "the authorization server no longer accepts the refresh token ({error}): a new sign-in is needed"
    )]
    RefreshRejected {
        error: String,
        description: Option<String>,
    },
    #[error(
        "the MCP server still asks for more scope after {attempts} step-up authorizations: giving up on this request"
    )]
    StepUpLimit { attempts: u8 },
    #[error("the fetch of {url} failed: {reason}")]
    FetchFailed { url: String, reason: String },
    #[error("the app called {call} while the flow was {state}")]
    OutOfOrder { call: String, state: String },
}
