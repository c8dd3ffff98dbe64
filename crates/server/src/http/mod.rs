//! The HTTP edge in front of `/mcp` and `/relay`: Host and Origin validation, CORS,
//! bearer tokens, body limits, the relay and its per-launch token; the servers allowed
//! beyond loopback; and the browser hardening headers on every response. `crate::routes`
//! puts the pieces together.
//!
//! Every refusal here is a JSON-RPC error body (`id: null`) with a message that says
//! what to change, so the app's engine can show it like any other server error.

pub mod allowed_servers;
pub mod bearer;
pub mod body_limit;
pub mod cors;
pub mod error_body;
pub mod hardening;
pub mod host;
pub mod mcp_headers;
pub mod misbehave;
pub mod origin;
pub mod relay;
pub mod relay_token;
