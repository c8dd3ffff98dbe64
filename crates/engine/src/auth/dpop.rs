//! DPoP (RFC 9449), as a public browser client meets it: the proof JWT a request carries
//! (§4.2), the `DPoP` token type (§5, §7.1), and the nonces the authorization server (§8)
//! and the MCP server (§9) may demand. The app holds an ES256 key made by WebCrypto that
//! never leaves the browser (not extractable) and signs what [`proof_signing_input`]
//! writes; the engine writes and reads everything else.
//!
//! By hand, not a JOSE crate: a proof is two small JSON objects joined in base64url, and
//! the crates that sign (`jsonwebtoken`, `josekit`) bring RSA and EdDSA back ends the wasm
//! would carry for nothing, while the signature itself is WebCrypto's.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::AuthError;
use super::challenge::demands_dpop_nonce;
use super::request::{AuthResponse, ProofFor};

/// The one algorithm this client signs with: ECDSA P-256 with SHA-256 (WebCrypto has it
/// everywhere).
pub const DPOP_ALG: &str = "ES256";
/// The request header that carries the proof.
pub const DPOP_HEADER: &str = "DPoP";
/// The response header that carries a server's nonce.
pub const DPOP_NONCE_HEADER: &str = "DPoP-Nonce";
/// The `error` of the authorization server's nonce demand.
const USE_DPOP_NONCE: &str = "use_dpop_nonce";
/// Retries with a new nonce for one request: a server that keeps asking is not obeyed
/// for ever.
pub const MAX_NONCE_RETRIES: u8 = 2;

/// The public half of the client's P-256 key, as JWK coordinates (base64url, 32 bytes
/// each).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DpopPublicKey {
    pub x: String,
    pub y: String,
}

/// A proof for a token request (code exchange or refresh) to `token_endpoint`.
pub fn token_proof(token_endpoint: &str, nonce: Option<String>) -> ProofFor {
    ProofFor {
        htm: "POST".to_owned(),
        htu: htu(token_endpoint),
        nonce,
        ath: None,
    }
}

/// A proof for an MCP request with `method` to `url` that carries `access_token`.
pub fn resource_proof(
    method: &str,
    url: &str,
    access_token: &str,
    nonce: Option<String>,
) -> ProofFor {
    ProofFor {
        htm: method.to_ascii_uppercase(),
        htu: htu(url),
        nonce,
        ath: Some(URL_SAFE_NO_PAD.encode(Sha256::digest(access_token.as_bytes()))),
    }
}

/// `url` without its query and fragment; a text that is no URL is cut at the first `?`
/// or `#` all the same.
pub fn htu(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            parsed.set_query(None);
            parsed.set_fragment(None);
            parsed.into()
        }
        Err(_) => url.split(['?', '#']).next().unwrap_or_default().to_owned(),
    }
}

/// The bytes to sign: `base64url(header) . base64url(claims)`. `jti` must be fresh per
/// request (the server rejects a replay); `iat_secs` is the caller's clock in seconds.
pub fn proof_signing_input(
    key: &DpopPublicKey,
    proof: &ProofFor,
    iat_secs: u64,
    jti: &str,
) -> String {
    let header = json!({
        "typ": "dpop+jwt",
        "alg": DPOP_ALG,
        "jwk": { "kty": "EC", "crv": "P-256", "x": key.x, "y": key.y },
    });
    let mut claims = json!({
        "jti": jti,
        "htm": proof.htm,
        "htu": proof.htu,
        "iat": iat_secs,
    });
    if let Some(map) = claims.as_object_mut() {
        if let Some(nonce) = &proof.nonce {
            map.insert("nonce".into(), nonce.clone().into());
        }
        if let Some(ath) = &proof.ath {
            map.insert("ath".into(), ath.clone().into());
        }
    }
    format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    )
}

/// The proof: the signing input and the signature, which must be ES256's raw `r || s`
/// (64 bytes, as WebCrypto returns it).
pub fn proof_jwt(signing_input: &str, signature: &[u8]) -> Result<String, AuthError> {
    if signature.len() != 64 {
        return Err(AuthError::Config {
            reason: format!(
                "the browser's ES256 signature is {} bytes, not the 64 of r || s",
                signature.len()
            ),
        });
    }
    Ok(format!(
        "{signing_input}.{}",
        URL_SAFE_NO_PAD.encode(signature)
    ))
}

/// A `jti` from 16 random bytes.
pub fn jti(random: &[u8; 16]) -> String {
    URL_SAFE_NO_PAD.encode(random)
}

fn nonce_of(headers: &[(String, String)]) -> Option<String> {
    headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(DPOP_NONCE_HEADER))
        .map(|(_, value)| value.trim().to_owned())
        .filter(|nonce| !nonce.is_empty())
}

/// The nonce the authorization server demands (§8): a 400 whose error is
/// `use_dpop_nonce`, with the nonce in `DPoP-Nonce`.
pub fn token_nonce_demand(response: &AuthResponse) -> Option<String> {
    if response.status != 400 {
        return None;
    }
    let body: serde_json::Value = serde_json::from_slice(&response.body).ok()?;
    (body.get("error")?.as_str()? == USE_DPOP_NONCE)
        .then(|| nonce_of(&response.headers))
        .flatten()
}

/// The nonce the MCP server demands (§9): a 401 whose `DPoP` challenge says
/// `error="use_dpop_nonce"`, with the nonce in `DPoP-Nonce`.
pub fn resource_nonce_demand(status: u16, headers: &[(String, String)]) -> Option<String> {
    if status != 401 || !demands_dpop_nonce(headers) {
        return None;
    }
    nonce_of(headers)
}

/// Whether the authorization server signs DPoP-bound tokens with a key this client has.
pub fn as_accepts_es256(algs: Option<&[String]>) -> bool {
    algs.is_some_and(|algs| algs.iter().any(|alg| alg == DPOP_ALG))
}
