//! The relay of `holdbay serve`, named once for the app that calls it and the server that
//! answers: where it is, and how the page proves it is the one the server served.
//!
//! Each launch of the server makes a secret token and writes it into the app's page as
//! `<meta name="holdbay-relay-token" content="…">`; the relay serves only requests that
//! carry it back in `X-Holdbay-Relay-Token`. Another page on this machine can neither read
//! the app's page (no CORS on it) nor guess the token, so it cannot use the relay.

/// The relay's path on the server that served the page.
pub const RELAY_PATH: &str = "/relay";

/// The request header that carries the page's relay token.
pub const RELAY_TOKEN_HEADER: &str = "X-Holdbay-Relay-Token";

/// The `name` of the `<meta>` element whose `content` is the relay token.
pub const RELAY_TOKEN_META: &str = "holdbay-relay-token";
