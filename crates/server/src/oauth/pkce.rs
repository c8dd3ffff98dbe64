//! The server's side of PKCE (RFC 7636): S256 only, as OAuth 2.1 and MCP require.

use holdbay_engine::auth::s256_challenge;
use subtle::ConstantTimeEq;

/// Whether `challenge` is shaped like an S256 challenge (43 base64url characters).
pub fn is_s256_challenge(challenge: &str) -> bool {
    challenge.len() == 43
        && challenge
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// Whether `verifier` (43–128 unreserved characters) hashes to `challenge`.
pub fn verifies(verifier: &str, challenge: &str) -> bool {
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"-._~".contains(&byte));
    if !well_formed {
        return false;
    }
    let computed = s256_challenge(verifier);
    computed.as_bytes().ct_eq(challenge.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::{is_s256_challenge, verifies};

    /// RFC 7636 Appendix B.
    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    #[test]
    fn the_rfc_example_verifies_and_a_changed_verifier_does_not() {
        assert!(is_s256_challenge(CHALLENGE));
        assert!(verifies(VERIFIER, CHALLENGE));
        assert!(!verifies(&VERIFIER.replace('d', "e"), CHALLENGE));
        assert!(!verifies("short", CHALLENGE));
    }
}
