//! Reading an access token that happens to be a JWT (RFC 7519, JWS compact form), so the
//! Scene can show what it says. A pure reader: nothing is verified (the client must not
//! rely on the contents of an access token, RFC 9068 §6), the signature is never decoded
//! or returned, and a token that is not a readable JWT is simply not one.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;

/// Tokens longer than this are not read (a real access token is a few KiB at most).
pub const MAX_JWT_BYTES: usize = 16 * 1024;

/// The readable parts of a JWT: its JOSE header and its claims, both JSON objects.
#[derive(Debug, Clone, PartialEq)]
pub struct JwtParts {
    pub header: Value,
    pub claims: Value,
}

/// The header and claims of `token` when it is a JWS-compact JWT: three base64url segments
/// (no padding), the first two JSON objects. `None` for anything else (an opaque token,
/// a JWE, padding, a token over [`MAX_JWT_BYTES`]); never a panic.
pub fn jwt_parts(token: &str) -> Option<JwtParts> {
    if token.len() > MAX_JWT_BYTES {
        return None;
    }
    let mut segments = token.split('.');
    let (header, claims, signature) = (segments.next()?, segments.next()?, segments.next()?);
    if segments.next().is_some() || !signature.bytes().all(is_base64url) {
        return None;
    }
    Some(JwtParts {
        header: json_object(header)?,
        claims: json_object(claims)?,
    })
}

fn is_base64url(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'
}

/// One base64url segment decoded as a JSON object.
fn json_object(segment: &str) -> Option<Value> {
    let bytes = URL_SAFE_NO_PAD.decode(segment).ok()?;
    let value: Value = serde_json::from_slice(&bytes).ok()?;
    value.is_object().then_some(value)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn segment(value: &Value) -> String {
        URL_SAFE_NO_PAD.encode(value.to_string())
    }

    fn token(header: &Value, claims: &Value, signature: &str) -> String {
        format!("{}.{}.{signature}", segment(header), segment(claims))
    }

    #[test]
    fn a_signed_jwt_gives_its_header_and_claims() {
        let header = json!({"alg": "RS256", "typ": "at+jwt", "kid": "k1"});
        let claims = json!({"iss": "https://as.example.com", "sub": "ada", "scope": "mcp:tools", "exp": 1_900_000_000});
        let parts = jwt_parts(&token(&header, &claims, "c2lnbmF0dXJl")).expect("a JWT");
        assert_eq!(parts, JwtParts { header, claims });
    }

    #[test]
    fn an_unsecured_jwt_with_an_empty_signature_is_read() {
        let parts = jwt_parts(&token(&json!({"alg": "none"}), &json!({"sub": "x"}), ""));
        assert_eq!(parts.map(|p| p.claims), Some(json!({"sub": "x"})));
    }

    #[test]
    fn opaque_tokens_and_other_shapes_are_not_jwts() {
        let header = segment(&json!({"alg": "HS256"}));
        let claims = segment(&json!({"sub": "x"}));
        let not_jwts = [
            String::new(),
            "hb_at_3f9a0c1e5b7d".to_owned(),
            format!("{header}.{claims}"),
            // A JWE has five segments.
            format!("{header}.{claims}.a.b.c"),
            // Padding is not base64url as JWS uses it.
            format!("{header}=.{claims}.sig"),
            format!("{header}.{claims}.sig+nature"),
            // Valid base64url, but not JSON objects.
            format!("{}.{claims}.sig", URL_SAFE_NO_PAD.encode("[1,2]")),
            format!("{header}.{}.sig", URL_SAFE_NO_PAD.encode("not json")),
        ];
        for token in not_jwts {
            assert_eq!(jwt_parts(&token), None, "{token}");
        }
    }

    #[test]
    fn tokens_over_the_bound_are_not_read() {
        let header = json!({"alg": "none"});
        let claims = json!({"pad": "x".repeat(MAX_JWT_BYTES)});
        assert!(token(&header, &claims, "").len() > MAX_JWT_BYTES);
        assert_eq!(jwt_parts(&token(&header, &claims, "")), None);
        let small = json!({"pad": "x".repeat(MAX_JWT_BYTES / 2)});
        assert!(jwt_parts(&token(&header, &small, "")).is_some());
    }

    fn json_leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            ".{0,12}".prop_map(Value::String),
        ]
    }

    fn json_object_strategy() -> impl Strategy<Value = Value> {
        prop::collection::btree_map(".{0,8}", json_leaf(), 0..6)
            .prop_map(|map| Value::Object(map.into_iter().collect()))
    }

    proptest! {
        #[test]
        fn never_panics_on_any_text(text in ".{0,200}") {
            let _ = jwt_parts(&text);
        }

        #[test]
        fn never_panics_on_dotted_base64url_lookalikes(text in "[A-Za-z0-9_=+/.-]{0,300}") {
            let _ = jwt_parts(&text);
        }

        #[test]
        fn never_panics_on_arbitrary_bytes_as_segments(
            a in prop::collection::vec(any::<u8>(), 0..64),
            b in prop::collection::vec(any::<u8>(), 0..64),
        ) {
            let _ = jwt_parts(&format!("{}.{}.sig", URL_SAFE_NO_PAD.encode(a), URL_SAFE_NO_PAD.encode(b)));
        }

        #[test]
        fn reads_back_any_header_and_claims_and_never_the_signature(
            header in json_object_strategy(),
            claims in json_object_strategy(),
            signature in "[A-Za-z0-9_-]{16,40}",
        ) {
            let parts = jwt_parts(&token(&header, &claims, &signature));
            prop_assert_eq!(parts.clone(), Some(JwtParts { header, claims }));
            let shown = format!("{parts:?}");
            prop_assert!(!shown.contains(&signature));
        }
    }
}
