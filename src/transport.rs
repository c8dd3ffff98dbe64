//! HTTP for the engine's requests: `fetch` POST, the body read as a stream of chunks that go
//! straight into the engine's response reader.

use holdbay_engine::{McpMethod, OutgoingRequest, Reply, ResponseError};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, ReadableStreamDefaultReader, RequestInit, Response};

/// Why an exchange failed: the request never got an HTTP answer, or the answer was bad.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExchangeError {
    #[error(
        "could not reach {url}: {detail}. The server may be down, or it may not allow \
         requests from this page (CORS)."
    )]
    Unreachable { url: String, detail: String },
    #[error("the connection broke while reading the response from {url}: {detail}")]
    BodyInterrupted { url: String, detail: String },
    #[error(transparent)]
    Response(#[from] ResponseError),
}

/// POST `request` to `url` and decode the answer with the engine.
pub async fn exchange<M: McpMethod>(
    url: &str,
    request: &OutgoingRequest<M>,
) -> Result<Reply<M::Output>, ExchangeError> {
    let unreachable = |detail: String| ExchangeError::Unreachable {
        url: url.to_owned(),
        detail,
    };
    let headers = Headers::new().map_err(|e| unreachable(js_text(&e)))?;
    for (name, value) in request.headers() {
        headers
            .set(name, value)
            .map_err(|e| unreachable(js_text(&e)))?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(request.body()));
    let window = web_sys::window().ok_or_else(|| unreachable("no browser window".into()))?;
    let response: Response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| unreachable(js_text(&e)))?
        .dyn_into()
        .map_err(|e| unreachable(js_text(&e)))?;

    let content_type = response.headers().get("content-type").ok().flatten();
    let mut reader = request.reader(response.status(), content_type.as_deref());
    let challenge = response.headers().get("www-authenticate").ok().flatten();
    reader.set_www_authenticate(challenge.as_deref());
    let interrupted = |detail: String| ExchangeError::BodyInterrupted {
        url: url.to_owned(),
        detail,
    };
    if let Some(body) = response.body() {
        let chunks: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
        loop {
            let step = JsFuture::from(chunks.read())
                .await
                .map_err(|e| interrupted(js_text(&e)))?;
            let done = Reflect::get(&step, &"done".into())
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true);
            if done {
                break;
            }
            let value =
                Reflect::get(&step, &"value".into()).map_err(|e| interrupted(js_text(&e)))?;
            reader.push_chunk(&Uint8Array::new(&value).to_vec());
            if reader.has_failed() {
                // The outcome is decided (e.g. too large); stop downloading.
                let _ = chunks.cancel();
                break;
            }
        }
    }
    Ok(reader.finish()?)
}

/// A readable text for a thrown JS value (usually a `TypeError`).
fn js_text(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}
