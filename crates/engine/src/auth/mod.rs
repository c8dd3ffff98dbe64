//! MCP authorization (2026-07-28 `basic/authorization/*`), sans-IO: the engine decides, the
//! app fetches and redirects.
//!
//! Floors, as in the rest of the engine: vocabulary ([`AuthError`], [`Purpose`]) → readers
//! ([`bearer_challenge`], [`sign_in_needed`], [`jwt_parts`], [`read_protected_resource_metadata`], [`read_auth_server_metadata`],
//! [`read_callback`], [`read_registration_response`], [`read_token_response`],
//! [`read_refresh_response`]) → builders ([`prm_urls`], [`Issuer::metadata_urls`],
//! [`authorization_url`], [`code_token_request`], [`refresh_request`],
//! [`registration_request`], [`select_scope`]) → the machine [`AuthFlow`].
//!
//! Driving a sign-in: on a 401 (or a 403 with `error="insufficient_scope"`), read the
//! challenge with [`bearer_challenge`], build a [`FlowStart`] and call [`AuthFlow::start`]
//! with 48 bytes from `crypto.getRandomValues`. Then loop on [`AuthFlow::step`]:
//! `Fetch` → perform it, hand the answer to [`AuthFlow::on_response`] (or
//! [`AuthFlow::fetch_failed`]); `Authorize` → save the flow (serde) and open the URL; on
//! return to the redirect URI, restore it and call [`AuthFlow::on_callback`]; `Done` → keep
//! the [`TokenSet`] and [`AuthFlow::new_registration`]; `Failed` → show the error. Log
//! requests with [`AuthRequest::redacted`] only.
//!
//! Dependencies: `url` (already in the app's wasm through Leptos) parses and form-encodes;
//! `sha2` (already in the tree through rmcp) hashes the PKCE verifier and DPoP's `ath`. The `oauth2` crate
//! was not taken: it brings an HTTP client abstraction, `chrono`, `rand` and its own
//! flow types, while the engine needs only these few rules and must stay sans-IO.

mod challenge;
mod dpop;
mod error;
mod flow;
mod jwt;
mod metadata;
mod oauth;
mod request;
mod uri;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_dpop;
#[cfg(test)]
mod tests_flow;

pub use challenge::{
    BearerChallenge, Challenge, SignInNeeded, bearer_challenge, demands_dpop_nonce,
    parse_www_authenticate, sign_in_needed,
};
pub use dpop::{
    DPOP_ALG, DPOP_HEADER, DPOP_NONCE_HEADER, DpopPublicKey, MAX_NONCE_RETRIES, as_accepts_es256,
    htu, jti, proof_jwt, proof_signing_input, resource_nonce_demand, resource_proof,
    token_nonce_demand, token_proof,
};
pub use error::AuthError;
pub use flow::{AuthClientConfig, AuthFlow, FlowStart, MAX_STEP_UPS, Step};
pub use jwt::{JwtParts, MAX_JWT_BYTES, jwt_parts};
pub use metadata::{
    AuthServerMetadata, ProtectedResourceMetadata, read_auth_server_metadata,
    read_protected_resource_metadata,
};
pub use oauth::{
    ApplicationType, ClientAuthMethod, ClientCredentials, PreRegisteredClient, RegistrationKind,
    TokenContext, TokenSet, TokenType, authorization_url, choose_auth_method, code_token_request,
    pkce_pair, read_callback, read_refresh_response, read_registration_response,
    read_token_response, refresh_request, registration_request, s256_challenge, scope_union,
    select_scope,
};
pub use request::{
    AuthParty, AuthRequest, AuthResponse, HttpMethod, ProofFor, Purpose, RequestBody,
    logged_answer, redacted_json_body, redacted_url,
};
pub use uri::{
    APP_CALLBACK_PATH, APP_CLIENT_METADATA_PATH, AUTHORIZATION_SERVER_WELL_KNOWN, Issuer,
    OPENID_CONFIGURATION_WELL_KNOWN, PROTECTED_RESOURCE_WELL_KNOWN, canonical_resource,
    is_https_or_loopback, parse_http_url, prm_urls, resource_covers, server_resource,
};
