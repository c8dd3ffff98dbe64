//! The token part: what the client's current access token says, for the inspector and the
//! lane. Built from the engine's [`TokenSet`] without keeping the token itself: issuer,
//! scope, resource, expiry and, when the token is a JWT, its header and claims (read by
//! the engine's [`jwt_parts`]; the signature is never read). Nothing here leaves the page.

use holdbay_engine::auth::{JwtParts, TokenSet, jwt_parts};
use serde_json::{Value, json};

use crate::ui::format::rough_remaining;

/// What the Scene shows of an access token. Holds no secret: neither the token nor the
/// refresh token.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenView {
    pub issuer: String,
    pub scope: Option<String>,
    pub resource: String,
    /// On the page's clock (ms since the epoch); `None` when the server gave no lifetime.
    pub expires_at_ms: Option<u64>,
    /// The header and claims, when the access token is a JWT.
    pub jwt: Option<JwtParts>,
}

impl TokenView {
    pub fn of(tokens: &TokenSet) -> Self {
        Self {
            issuer: tokens.issuer.clone(),
            scope: tokens.scope.clone(),
            resource: tokens.resource.clone(),
            expires_at_ms: tokens.expires_at_ms,
            jwt: jwt_parts(&tokens.access_token),
        }
    }

    /// `expires 14:03:22 (in 58 min)`, `expired at 14:03:22`, or `no expiry given`, with
    /// `clock` naming a time of day.
    pub fn expiry_text(&self, now_ms: f64, clock: impl Fn(f64) -> String) -> String {
        let Some(at) = self.expires_at_ms else {
            return "no expiry given".to_owned();
        };
        let at = at as f64;
        match rough_remaining(at - now_ms) {
            Some(left) => format!("expires {} (in {left})", clock(at)),
            None => format!("expired at {}", clock(at)),
        }
    }

    /// The lane's short form: `expires in 58 min`, `expired`, or `no expiry given`.
    pub fn expiry_short(&self, now_ms: f64) -> String {
        let Some(at) = self.expires_at_ms else {
            return "no expiry given".to_owned();
        };
        match rough_remaining(at as f64 - now_ms) {
            Some(left) => format!("expires in {left}"),
            None => "expired".to_owned(),
        }
    }

    /// The inspector's JSON: `issuer`, `scope`, `resource`, `expiresAtMs`, and `jwt` (its
    /// `header` and `claims`, or `null` for an opaque token).
    pub fn json(&self) -> Value {
        json!({
            "issuer": self.issuer,
            "scope": self.scope,
            "resource": self.resource,
            "expiresAtMs": self.expires_at_ms,
            "jwt": self.jwt.as_ref().map(|parts| json!({
                "header": parts.header,
                "claims": parts.claims,
            })),
        })
    }
}
