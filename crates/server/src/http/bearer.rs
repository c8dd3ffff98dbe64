//! Bearer tokens for `/mcp`: with `--token NAME:SECRET` configured, each request needs
//! `Authorization: Bearer SECRET`, and NAME becomes its [`Principal`]. Without tokens
//! every request is the one local user.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, Method, StatusCode, header};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::error_body::{INVALID_REQUEST, jsonrpc_error};
use crate::options::Token;
use crate::principal::Principal;

/// The configured tokens. Secrets are kept as SHA-256 digests so that comparing them
/// takes the same time whatever their length or content.
#[derive(Debug, Clone)]
pub struct BearerTokens {
    known: Vec<KnownToken>,
}

#[derive(Debug, Clone)]
struct KnownToken {
    secret_digest: [u8; 32],
    user: String,
}

impl BearerTokens {
    pub fn new(tokens: &[Token]) -> Self {
        let known = tokens
            .iter()
            .map(|token| KnownToken {
                secret_digest: digest(&token.secret),
                user: token.user.clone(),
            })
            .collect();
        Self { known }
    }

    /// The user `secret` belongs to. Every token is compared, in constant time.
    fn user_of(&self, secret: &str) -> Option<&str> {
        let presented = digest(secret);
        let mut user = None;
        for token in &self.known {
            let matches: bool = token.secret_digest.ct_eq(&presented).into();
            if matches && user.is_none() {
                user = Some(token.user.as_str());
            }
        }
        user
    }
}

fn digest(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// Middleware: admit the request as its [`Principal`] or answer 401.
pub async fn require(
    State(tokens): State<Arc<BearerTokens>>,
    mut request: Request,
    next: Next,
) -> Response {
    // A preflight carries no credentials by design; the Origin guard answers it.
    if tokens.known.is_empty() || request.method() == Method::OPTIONS {
        request.extensions_mut().insert(Principal::local());
        return next.run(request).await;
    }
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(bearer_secret);
    let Some(secret) = presented else {
        return challenge(
            "Bearer realm=\"holdbay\"",
            "This server needs a bearer token: send Authorization: Bearer SECRET, where SECRET \
             is one given to holdbay with --token NAME:SECRET.",
        );
    };
    let Some(user) = tokens.user_of(secret).map(str::to_owned) else {
        return challenge(
            "Bearer realm=\"holdbay\", error=\"invalid_token\"",
            "The bearer token is not one this server was started with (--token NAME:SECRET).",
        );
    };
    request.extensions_mut().insert(Principal(user));
    next.run(request).await
}

/// The SECRET of `Bearer SECRET` (the scheme is case-insensitive).
fn bearer_secret(authorization: &str) -> Option<&str> {
    let (scheme, secret) = authorization.trim().split_once(' ')?;
    let secret = secret.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !secret.is_empty()).then_some(secret)
}

fn challenge(www_authenticate: &'static str, message: &str) -> Response {
    let mut response = jsonrpc_error(StatusCode::UNAUTHORIZED, INVALID_REQUEST, message);
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(www_authenticate),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::{BearerTokens, bearer_secret};
    use crate::options::Token;

    #[test]
    fn a_secret_finds_its_user_and_nothing_else_does() {
        let tokens = BearerTokens::new(&[
            Token {
                user: "ada".to_owned(),
                secret: "secret-one".to_owned(),
            },
            Token {
                user: "bob".to_owned(),
                secret: "secret-two".to_owned(),
            },
        ]);
        assert_eq!(tokens.user_of("secret-two"), Some("bob"));
        assert_eq!(tokens.user_of("secret-one"), Some("ada"));
        assert_eq!(tokens.user_of("secret-on"), None);
        assert_eq!(tokens.user_of(""), None);
    }

    #[test]
    fn only_the_bearer_scheme_carries_a_secret() {
        assert_eq!(bearer_secret("Bearer abc"), Some("abc"));
        assert_eq!(bearer_secret("bearer  abc "), Some("abc"));
        assert_eq!(bearer_secret("Basic abc"), None);
        assert_eq!(bearer_secret("Bearer "), None);
        assert_eq!(bearer_secret("Bearer"), None);
    }
}
