//! The page's DPoP key (RFC 9449) and the proofs signed with it. The key is an ECDSA P-256
//! pair made by WebCrypto with its private half not extractable: no script, not even this
//! one, can read it, and it lives only as long as the page. A token bound to it is
//! therefore never remembered across a reload (it could not be used without the key). The
//! engine writes each proof (`holdbay_engine::auth::proof_signing_input`); this signs it.
//! In the engine-work chunk: only a sign-in or a DPoP-bound token reaches it.

use holdbay_engine::auth::{
    DPOP_HEADER, DpopPublicKey, ProofFor, TokenSet, jti, proof_jwt, proof_signing_input,
    resource_proof,
};
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{CryptoKey, SubtleCrypto};

use super::Auth;
use crate::split::{ChunkMissing, engine_work};

/// Signing the headers of one MCP request.
pub type Signing = std::pin::Pin<Box<dyn std::future::Future<Output = Signed>>>;
type Signed = Result<Vec<(String, String)>, String>;

engine_work! {
    /// [`resource_headers`], in the engine-work chunk (only a DPoP-bound token needs it).
    pub fn resource_headers_with(
        auth: Auth,
        server: String,
        tokens: TokenSet,
    ) -> Result<Signing, ChunkMissing> {
        Ok(Box::pin(resource_headers(auth, server, tokens)))
    }
}

/// The key pair: the private half as an opaque handle, the public half as JWK coordinates.
#[derive(Clone)]
pub struct DpopKey {
    private: CryptoKey,
    public: DpopPublicKey,
}

/// Whether this page can sign proofs: WebCrypto is there only in a secure context
/// (HTTPS, or `localhost`/`127.0.0.1`).
pub fn available() -> bool {
    subtle().is_ok()
}

fn subtle() -> Result<SubtleCrypto, String> {
    let crypto = web_sys::window()
        .ok_or("no browser window")?
        .crypto()
        .map_err(|_| "this browser offers no WebCrypto".to_owned())?;
    // `subtle` is undefined outside a secure context.
    let subtle = Reflect::get(&crypto, &"subtle".into()).unwrap_or(JsValue::UNDEFINED);
    if subtle.is_undefined() || subtle.is_null() {
        return Err("WebCrypto's subtle API is only offered to HTTPS pages and localhost".into());
    }
    Ok(crypto.subtle())
}

fn object(pairs: &[(&str, &str)]) -> Object {
    let object = Object::new();
    for (name, value) in pairs {
        let _ = Reflect::set(&object, &(*name).into(), &(*value).into());
    }
    object
}

fn refused(what: &str) -> impl Fn(JsValue) -> String + '_ {
    move |error| {
        let detail = Reflect::get(&error, &"message".into())
            .ok()
            .and_then(|message| message.as_string())
            .unwrap_or_default();
        format!("WebCrypto refused to {what}: {detail}")
    }
}

impl DpopKey {
    /// Whether the private half could be read back (never, as made here).
    pub fn private_extractable(&self) -> bool {
        self.private.extractable()
    }
}

/// A new key pair, its private half not extractable.
pub async fn generate() -> Result<DpopKey, String> {
    let subtle = subtle()?;
    let usages = Array::of1(&"sign".into());
    let pair = JsFuture::from(
        subtle
            .generate_key_with_object(
                &object(&[("name", "ECDSA"), ("namedCurve", "P-256")]),
                false,
                &usages,
            )
            .map_err(refused("make a P-256 key"))?,
    )
    .await
    .map_err(refused("make a P-256 key"))?;
    let half = |name: &str| -> Result<CryptoKey, String> {
        Reflect::get(&pair, &name.into())
            .ok()
            .and_then(|key| key.dyn_into::<CryptoKey>().ok())
            .ok_or_else(|| format!("WebCrypto made a key pair without a {name}"))
    };
    let (private, public) = (half("privateKey")?, half("publicKey")?);
    let jwk = JsFuture::from(
        subtle
            .export_key("jwk", &public)
            .map_err(refused("export the public key"))?,
    )
    .await
    .map_err(refused("export the public key"))?;
    let coordinate = |name: &str| {
        Reflect::get(&jwk, &name.into())
            .ok()
            .and_then(|value| value.as_string())
            .ok_or_else(|| format!("the exported public key has no {name}"))
    };
    Ok(DpopKey {
        private,
        public: DpopPublicKey {
            x: coordinate("x")?,
            y: coordinate("y")?,
        },
    })
}

/// The page's key, made on first use.
pub async fn key(auth: Auth) -> Result<DpopKey, String> {
    if let Some(key) = auth.dpop_key() {
        return Ok(key);
    }
    let key = generate().await?;
    auth.keep_dpop_key(key.clone());
    Ok(key)
}

/// A fresh proof (new `jti`, this second's `iat`) for `what`, signed with `key`.
pub async fn proof(key: &DpopKey, what: &ProofFor) -> Result<String, String> {
    let random = super::random_bytes::<16>()?;
    let iat = crate::clock::now_ms() / 1000;
    let input = proof_signing_input(&key.public, what, iat, &jti(&random));
    let signature = JsFuture::from(
        subtle()?
            .sign_with_object_and_u8_array(
                &object(&[("name", "ECDSA"), ("hash", "SHA-256")]),
                &key.private,
                input.as_bytes(),
            )
            .map_err(refused("sign a DPoP proof"))?,
    )
    .await
    .map_err(refused("sign a DPoP proof"))?;
    let signature = Uint8Array::new(&signature).to_vec();
    proof_jwt(&input, &signature).map_err(|error| error.to_string())
}

/// The headers an MCP request (`POST` to `server`) carries with a DPoP-bound token: the
/// `DPoP` scheme and a fresh proof, with the server's last nonce.
pub async fn resource_headers(auth: Auth, server: String, tokens: TokenSet) -> Signed {
    let key = key(auth).await?;
    let what = resource_proof(
        "POST",
        &server,
        &tokens.access_token,
        auth.resource_nonce(&server),
    );
    let proof = proof(&key, &what).await?;
    Ok(vec![
        ("Authorization".to_owned(), tokens.authorization_header()),
        (DPOP_HEADER.to_owned(), proof),
    ])
}
