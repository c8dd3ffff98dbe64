//! `WWW-Authenticate` (RFC 9110 §11.6.1, RFC 6750 §3): challenges with token68 or
//! auth-params, quoted strings with escapes, several challenges in one header.

use serde::{Deserialize, Serialize};

/// One challenge: its scheme and its parameters (names lower-cased, values unquoted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub scheme: String,
    pub params: Vec<(String, String)>,
}

impl Challenge {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// What a `Bearer` challenge tells the client.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BearerChallenge {
    pub resource_metadata: Option<String>,
    pub scope: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// `error="insufficient_scope"`: the token is valid but lacks scope (step-up).
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// The `Bearer` (or `DPoP`, RFC 9449 §7.1: the same parameters) challenge among all
/// `WWW-Authenticate` values of a response (header names compared without case), or
/// `None` when there is none.
pub fn bearer_challenge(headers: &[(String, String)]) -> Option<BearerChallenge> {
    challenges(headers)
        .find(|challenge| {
            challenge.scheme.eq_ignore_ascii_case("bearer")
                || challenge.scheme.eq_ignore_ascii_case("dpop")
        })
        .map(|challenge| BearerChallenge {
            resource_metadata: challenge.param("resource_metadata").map(str::to_owned),
            scope: challenge
                .param("scope")
                .map(str::trim)
                .filter(|scope| !scope.is_empty())
                .map(str::to_owned),
            error: challenge.param("error").map(str::to_owned),
            error_description: challenge.param("error_description").map(str::to_owned),
        })
}

/// A refusal the client can answer by authorizing: which challenge to start from, and
/// whether it is a step-up (the token is valid but lacks scope).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignInNeeded {
    pub status: u16,
    pub challenge: BearerChallenge,
    pub step_up: bool,
}

fn challenges(headers: &[(String, String)]) -> impl Iterator<Item = Challenge> + '_ {
    headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case("www-authenticate"))
        .flat_map(|(_, value)| parse_www_authenticate(value))
}

/// Whether a `DPoP` challenge among `headers` says `error="use_dpop_nonce"` (RFC 9449 §9):
/// the token is fine, the proof lacks the server's nonce. Not a sign-in.
pub fn demands_dpop_nonce(headers: &[(String, String)]) -> bool {
    challenges(headers).any(|challenge| {
        challenge.scheme.eq_ignore_ascii_case("dpop")
            && challenge.param("error") == Some("use_dpop_nonce")
    })
}

/// Whether a response with `status` and `headers` asks for an authorization the client can
/// obtain: a 401 with a `Bearer` (or `DPoP`) challenge, or a 403 whose challenge says
/// `insufficient_scope`. Any other scheme, any other 403 (the token is valid, the answer
/// is no), and a demand for a DPoP nonce are not. The one rule for the page's sign-in and
/// the Scene's challenge.
pub fn sign_in_needed(status: u16, headers: &[(String, String)]) -> Option<SignInNeeded> {
    if !matches!(status, 401 | 403) || demands_dpop_nonce(headers) {
        return None;
    }
    let challenge = bearer_challenge(headers)?;
    let step_up = challenge.is_insufficient_scope();
    (status == 401 || step_up).then_some(SignInNeeded {
        status,
        challenge,
        step_up,
    })
}

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Every challenge of one header value. Malformed pieces are skipped, never a panic.
pub fn parse_www_authenticate(value: &str) -> Vec<Challenge> {
    let chars: Vec<char> = value.chars().collect();
    let mut at = 0;
    let mut challenges: Vec<Challenge> = Vec::new();
    let skip_ws = |at: &mut usize| {
        while *at < chars.len() && (chars[*at] == ' ' || chars[*at] == '\t') {
            *at += 1;
        }
    };
    let token = |at: &mut usize| -> String {
        let start = *at;
        while *at < chars.len() && is_tchar(chars[*at]) {
            *at += 1;
        }
        chars[start..*at].iter().collect()
    };
    while at < chars.len() {
        skip_ws(&mut at);
        if at < chars.len() && chars[at] == ',' {
            at += 1;
            continue;
        }
        let name = token(&mut at);
        if name.is_empty() {
            at += 1; // a stray character: step over it
            continue;
        }
        skip_ws(&mut at);
        if at < chars.len() && chars[at] == '=' {
            // An auth-param of the current challenge.
            at += 1;
            skip_ws(&mut at);
            let value = if at < chars.len() && chars[at] == '"' {
                at += 1;
                let mut out = String::new();
                while at < chars.len() && chars[at] != '"' {
                    if chars[at] == '\\' && at + 1 < chars.len() {
                        at += 1;
                    }
                    out.push(chars[at]);
                    at += 1;
                }
                at += 1; // the closing quote
                out
            } else {
                let start = at;
                while at < chars.len() && chars[at] != ',' && chars[at] != ' ' {
                    at += 1;
                }
                chars[start..at].iter().collect()
            };
            if let Some(current) = challenges.last_mut() {
                current.params.push((name.to_ascii_lowercase(), value));
            }
            continue;
        }
        // A new challenge's scheme; a token68 may follow.
        challenges.push(Challenge {
            scheme: name,
            params: Vec::new(),
        });
        let save = at;
        let word = token(&mut at);
        skip_ws(&mut at);
        let followed_by_eq = at < chars.len() && chars[at] == '=';
        if word.is_empty() || followed_by_eq {
            at = save; // an auth-param (or nothing): read it in the loop
        } else {
            // token68: skip it, with its trailing '='s
            while at < chars.len() && chars[at] == '=' {
                at += 1;
            }
        }
    }
    challenges
}
