//! DPoP proofs (RFC 9449) as a server checks them: signed by a P-256 key as WebCrypto
//! would sign, verified here with the `p256` crate; and the nonce demands of both servers.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use serde_json::Value;

use super::*;

fn key_pair() -> (SigningKey, DpopPublicKey) {
    let signing = SigningKey::from_slice(&[0x42; 32]).expect("a valid scalar");
    let point = signing.verifying_key().to_encoded_point(false);
    let coordinate =
        |c: Option<&p256::FieldBytes>| URL_SAFE_NO_PAD.encode(c.expect("uncompressed"));
    let public = DpopPublicKey {
        x: coordinate(point.x()),
        y: coordinate(point.y()),
    };
    (signing, public)
}

fn part(jwt: &str, at: usize) -> Value {
    let piece = jwt.split('.').nth(at).expect("three parts");
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(piece).expect("base64url")).expect("JSON")
}

/// What a server does (RFC 9449 §4.3 steps 4–6): the key from the header, the signature
/// over the first two parts.
fn verifies(jwt: &str) -> bool {
    let header = part(jwt, 0);
    let coordinate = |name: &str| {
        URL_SAFE_NO_PAD
            .decode(header["jwk"][name].as_str().unwrap())
            .unwrap()
    };
    let mut sec1 = vec![4u8];
    sec1.extend(coordinate("x"));
    sec1.extend(coordinate("y"));
    let key = VerifyingKey::from_sec1_bytes(&sec1).expect("a P-256 point");
    let (input, signature) = jwt.rsplit_once('.').unwrap();
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
    key.verify(input.as_bytes(), &signature).is_ok()
}

fn signed(input: &str, key: &SigningKey) -> String {
    let signature: Signature = key.sign(input.as_bytes());
    proof_jwt(input, &signature.to_bytes()).expect("64 bytes")
}

#[test]
fn a_resource_proof_has_the_rfc_header_and_claims_and_verifies() {
    let (signing, public) = key_pair();
    // RFC 9449 §7.1's example token and its ath.
    let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU";
    let proof = resource_proof(
        "post",
        "https://mcp.example/mcp?x=1#f",
        token,
        Some("n-1".into()),
    );
    let input = proof_signing_input(&public, &proof, 1_700_000_000, &jti(&[9; 16]));
    let jwt = signed(&input, &signing);
    assert!(verifies(&jwt));
    let header = part(&jwt, 0);
    assert_eq!(header["typ"], "dpop+jwt");
    assert_eq!(header["alg"], "ES256");
    assert_eq!(header["jwk"]["kty"], "EC");
    assert_eq!(header["jwk"]["crv"], "P-256");
    assert!(header["jwk"].get("d").is_none(), "never the private key");
    let claims = part(&jwt, 1);
    assert_eq!(claims["htm"], "POST");
    assert_eq!(
        claims["htu"], "https://mcp.example/mcp",
        "no query, no fragment"
    );
    assert_eq!(claims["iat"], 1_700_000_000u64);
    assert_eq!(claims["nonce"], "n-1");
    assert_eq!(claims["ath"], "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo");
    assert_eq!(claims["jti"], URL_SAFE_NO_PAD.encode([9; 16]));
}

#[test]
fn a_token_proof_has_no_ath_and_a_tampered_proof_does_not_verify() {
    let (signing, public) = key_pair();
    let proof = token_proof("http://localhost:4000/token", None);
    let jwt = signed(&proof_signing_input(&public, &proof, 1, "j"), &signing);
    let claims = part(&jwt, 1);
    assert!(claims.get("ath").is_none() && claims.get("nonce").is_none());
    assert_eq!(claims["htu"], "http://localhost:4000/token");
    let other = proof_signing_input(
        &public,
        &token_proof("http://evil.example/token", None),
        1,
        "j",
    );
    let signature = jwt.rsplit_once('.').unwrap().1;
    assert!(!verifies(&format!("{other}.{signature}")));
}

#[test]
fn a_signature_that_is_not_raw_r_and_s_is_refused() {
    assert!(
        proof_jwt("a.b", &[0; 70]).is_err(),
        "DER is not what a JWS carries"
    );
    assert!(proof_jwt("a.b", &[0; 64]).is_ok());
}

#[test]
fn htu_drops_query_and_fragment_even_from_text_that_is_no_url() {
    assert_eq!(htu("https://a.example/p?q=1"), "https://a.example/p");
    assert_eq!(htu("https://a.example/p#f"), "https://a.example/p");
    assert_eq!(htu("not a url?q#f"), "not a url");
}

fn response(status: u16, headers: &[(&str, &str)], body: &str) -> AuthResponse {
    AuthResponse {
        status,
        headers: headers
            .iter()
            .map(|(n, v)| ((*n).into(), (*v).into()))
            .collect(),
        body: body.as_bytes().to_vec(),
    }
}

#[test]
fn the_token_endpoints_nonce_demand_needs_its_status_error_and_header() {
    let demand = response(
        400,
        &[("dpop-nonce", "abc")],
        r#"{"error":"use_dpop_nonce"}"#,
    );
    assert_eq!(token_nonce_demand(&demand).as_deref(), Some("abc"));
    let no_header = response(400, &[], r#"{"error":"use_dpop_nonce"}"#);
    assert_eq!(token_nonce_demand(&no_header), None);
    let other_error = response(
        400,
        &[("DPoP-Nonce", "abc")],
        r#"{"error":"invalid_grant"}"#,
    );
    assert_eq!(token_nonce_demand(&other_error), None);
    let not_json = response(400, &[("DPoP-Nonce", "abc")], "<html>");
    assert_eq!(token_nonce_demand(&not_json), None);
}

#[test]
fn the_mcp_servers_nonce_demand_is_not_a_sign_in_but_a_dpop_challenge_is() {
    let demand = vec![
        (
            "WWW-Authenticate".to_owned(),
            r#"DPoP error="use_dpop_nonce", resource_metadata="http://s/prm""#.to_owned(),
        ),
        ("DPoP-Nonce".to_owned(), "rs-1".to_owned()),
    ];
    assert_eq!(resource_nonce_demand(401, &demand).as_deref(), Some("rs-1"));
    assert_eq!(
        sign_in_needed(401, &demand),
        None,
        "the token is fine: no sign-in"
    );
    assert_eq!(resource_nonce_demand(403, &demand), None);
    let challenge = vec![(
        "www-authenticate".to_owned(),
        r#"DPoP resource_metadata="http://s/.well-known/oauth-protected-resource/mcp""#.to_owned(),
    )];
    let needed = sign_in_needed(401, &challenge).expect("a DPoP challenge asks for a sign-in");
    assert_eq!(
        needed.challenge.resource_metadata.as_deref(),
        Some("http://s/.well-known/oauth-protected-resource/mcp")
    );
    assert_eq!(resource_nonce_demand(401, &challenge), None);
}
