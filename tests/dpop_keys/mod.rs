//! DPoP in a real browser: the page's key is made by WebCrypto and cannot be read back,
//! and a proof it signs verifies with the public key its header carries, as a server
//! checks it (RFC 9449 §4.3).

use holdbay::auth::dpop;
use holdbay_engine::auth::resource_proof;
use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn base64url(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .expect("base64url")
}

fn part(jwt: &str, at: usize) -> serde_json::Value {
    serde_json::from_slice(&base64url(jwt.split('.').nth(at).expect("three parts"))).expect("JSON")
}

fn object(pairs: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    for (name, value) in pairs {
        Reflect::set(&object, &(*name).into(), value).expect("set");
    }
    object
}

/// `crypto.subtle.NAME(args…)`, awaited.
async fn subtle(name: &str, args: &[JsValue]) -> JsValue {
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).expect("crypto");
    let subtle = Reflect::get(&crypto, &"subtle".into()).expect("subtle");
    let function: Function = Reflect::get(&subtle, &name.into())
        .expect(name)
        .unchecked_into();
    let promise: Promise = function
        .apply(&subtle, &args.iter().collect::<Array>())
        .expect(name)
        .unchecked_into();
    JsFuture::from(promise).await.expect(name)
}

#[wasm_bindgen_test]
async fn a_proof_signed_in_the_browser_verifies_with_the_key_in_its_header() {
    assert!(dpop::available(), "the test page is a secure context");
    let key = dpop::generate().await.expect("a P-256 key");
    assert!(
        !key.private_extractable(),
        "the private key cannot be exported"
    );
    let what = resource_proof(
        "POST",
        "http://127.0.0.1:9/mcp?x=1",
        "token-1",
        Some("n-1".into()),
    );
    let jwt = dpop::proof(&key, &what).await.expect("signed");
    let (header, claims) = (part(&jwt, 0), part(&jwt, 1));
    assert_eq!(header["typ"], "dpop+jwt");
    assert!(header["jwk"].get("d").is_none());
    assert_eq!(claims["htu"], "http://127.0.0.1:9/mcp");
    assert_eq!(claims["nonce"], "n-1");
    let now = js_sys::Date::now() / 1000.0;
    let iat = claims["iat"].as_f64().expect("iat");
    assert!(
        (now - iat).abs() < 60.0,
        "iat is this page's clock in seconds"
    );

    let jwk = object(&[
        ("kty", "EC".into()),
        ("crv", "P-256".into()),
        ("x", header["jwk"]["x"].as_str().expect("x").into()),
        ("y", header["jwk"]["y"].as_str().expect("y").into()),
    ]);
    let curve = object(&[("name", "ECDSA".into()), ("namedCurve", "P-256".into())]);
    let public = subtle(
        "importKey",
        &[
            "jwk".into(),
            jwk.into(),
            curve.into(),
            true.into(),
            Array::of1(&"verify".into()).into(),
        ],
    )
    .await;
    let (input, signature) = jwt.rsplit_once('.').expect("a signature");
    let check = |data: &str| {
        let hash = object(&[("name", "ECDSA".into()), ("hash", "SHA-256".into())]);
        [
            hash.into(),
            public.clone(),
            Uint8Array::from(base64url(signature).as_slice()).into(),
            Uint8Array::from(data.as_bytes()).into(),
        ]
    };
    assert_eq!(subtle("verify", &check(input)).await.as_bool(), Some(true));
    let other = input.replacen('.', ".e30", 1);
    assert_eq!(
        subtle("verify", &check(&other)).await.as_bool(),
        Some(false)
    );

    let again = dpop::proof(&key, &what).await.expect("signed");
    assert_ne!(
        part(&again, 1)["jti"],
        claims["jti"],
        "a fresh jti per proof"
    );
}
