//! The relay's per-launch token: a secret made when `holdbay serve` starts, written into the
//! app's page ([`crate::app_page`]) and required on every relay request in
//! [`RELAY_TOKEN_HEADER`]. The Origin guard keeps other browser pages out of the relay; the
//! token also keeps out what sends no Origin (a same-origin `GET`, a `no-cors` request from
//! another page), since only the page this server served can know it.

use std::fmt;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use holdbay_engine::relay::{RELAY_TOKEN_HEADER, RELAY_TOKEN_META};
use http::{HeaderValue, StatusCode};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::error_body::{INVALID_REQUEST, jsonrpc_error};
use super::mcp_headers::RELAY_MARKER;

/// Random bytes in a token made at launch (64 hex digits).
const RANDOM_BYTES: usize = 32;
/// The shortest token `--relay-token` accepts.
pub const MIN_GIVEN_LEN: usize = 16;

/// The token of this launch. Its `Debug` shows no secret.
#[derive(Clone, PartialEq, Eq)]
pub struct RelayToken {
    text: String,
}

impl RelayToken {
    /// A fresh random token.
    pub fn random() -> anyhow::Result<Self> {
        let mut bytes = [0u8; RANDOM_BYTES];
        getrandom::fill(&mut bytes)
            .map_err(|error| anyhow::anyhow!("no randomness for the relay token: {error}"))?;
        Ok(Self {
            text: hex::encode(bytes),
        })
    }

    /// The token given with `--relay-token` (for tests), or else a random one.
    pub fn for_launch(given: Option<&RelayToken>) -> anyhow::Result<Self> {
        given.cloned().map_or_else(Self::random, Ok)
    }

    /// The token as the page carries it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether `presented` is this token. Both sides are hashed first, so the comparison
    /// takes the same time whatever the presented value's length or content.
    pub fn matches(&self, presented: &[u8]) -> bool {
        let expected = Sha256::digest(self.text.as_bytes());
        let presented = Sha256::digest(presented);
        expected.ct_eq(&presented).into()
    }
}

impl fmt::Debug for RelayToken {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("RelayToken(<secret>)")
    }
}

impl std::str::FromStr for RelayToken {
    type Err = String;

    /// A `--relay-token` value: long enough, and only characters that are safe both in a
    /// header and in the page's attribute.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() < MIN_GIVEN_LEN {
            return Err(format!(
                "a relay token must be at least {MIN_GIVEN_LEN} characters"
            ));
        }
        if !text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
        {
            return Err("a relay token may only hold letters, digits, '-' and '_'".to_owned());
        }
        Ok(Self {
            text: text.to_owned(),
        })
    }
}

/// Middleware in front of the relay: refuse, before any body is read, a request that does
/// not carry this launch's token.
pub async fn require(
    State(token): State<Arc<RelayToken>>,
    request: Request,
    next: Next,
) -> Response {
    let presented = request.headers().get(RELAY_TOKEN_HEADER);
    let refusal = match presented {
        Some(value) if token.matches(value.as_bytes()) => return next.run(request).await,
        Some(_) => format!(
            "The relay token in {RELAY_TOKEN_HEADER} is not the one of this launch of holdbay \
             serve (restarted since this page loaded? Reload the page). Only the page holdbay \
             serve served knows the token."
        ),
        None => format!(
            "The relay needs the {RELAY_TOKEN_HEADER} header: the token that holdbay serve puts \
             in the page it serves (<meta name=\"{RELAY_TOKEN_META}\">), so only that page can \
             use the relay. Tests and scripts can start holdbay with --relay-token VALUE and \
             send that."
        ),
    };
    let mut response = jsonrpc_error(StatusCode::FORBIDDEN, INVALID_REQUEST, refusal);
    // The relay's own refusals carry its mark, like every answer of the relay.
    response
        .headers_mut()
        .insert(RELAY_MARKER, HeaderValue::from_static("1"));
    response
}

#[cfg(test)]
mod tests {
    use super::{MIN_GIVEN_LEN, RelayToken};

    #[test]
    fn only_the_exact_token_matches() {
        let token: RelayToken = "abcdef0123456789-_XY".parse().expect("token");
        assert!(token.matches(b"abcdef0123456789-_XY"));
        for other in [
            &b""[..],
            b"abcdef0123456789-_X",
            b"abcdef0123456789-_XYZ",
            b"ABCDEF0123456789-_XY",
            b"abcdef0123456789-_XY ",
            b"zbcdef0123456789-_XY",
        ] {
            assert!(!token.matches(other), "{}", String::from_utf8_lossy(other));
        }
    }

    #[test]
    fn random_tokens_are_long_hex_and_differ() {
        let one = RelayToken::random().expect("randomness");
        let two = RelayToken::random().expect("randomness");
        assert_eq!(one.as_str().len(), 64);
        assert!(one.as_str().bytes().all(|byte| byte.is_ascii_hexdigit()));
        assert_ne!(one, two);
        assert!(one.matches(one.as_str().as_bytes()));
        assert!(!one.matches(two.as_str().as_bytes()));
    }

    #[test]
    fn a_given_token_must_be_long_and_plain() {
        assert!("x".repeat(MIN_GIVEN_LEN).parse::<RelayToken>().is_ok());
        assert!("x".repeat(MIN_GIVEN_LEN - 1).parse::<RelayToken>().is_err());
        for unsafe_text in [
            "0123456789abcdef\"",
            "0123456789abcdef<",
            "0123456789 abcdef",
        ] {
            assert!(unsafe_text.parse::<RelayToken>().is_err(), "{unsafe_text}");
        }
    }

    #[test]
    fn debug_shows_no_secret() {
        let token: RelayToken = "secret-secret-secret".parse().expect("token");
        assert!(!format!("{token:?}").contains("secret-secret"));
        let launch = RelayToken::for_launch(Some(&token)).expect("given");
        assert_eq!(launch, token);
    }
}
