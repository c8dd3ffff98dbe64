//! The authorization flow's HTTP: each request the engine asks for, fetched without
//! cookies, directly or through the relay, read within the engine's bound on a document, and
//! recorded in the wire log with its secrets redacted (the engine's redaction).
//!
//! Route: the connection's. A direct fetch the browser cannot read (the host sends no CORS
//! headers, as many authorization servers do for discovery) is tried once more through
//! the relay when this page has one, and the log shows both tries.

use gloo_net::http::{Method, RequestBuilder};
use holdbay_engine::MAX_AUTH_DOCUMENT_BYTES;
use holdbay_engine::auth::{AuthRequest, AuthResponse, DPOP_HEADER, HttpMethod, logged_answer};
use holdbay_engine::relay::RELAY_TOKEN_HEADER;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, RequestCredentials};

use super::dpop::{self, DpopKey};
use crate::clock::now_ms;
use crate::connection::{Connection, relay_url};
use crate::link::relay_token;
use crate::wire::{WireEntry, WireLog};

/// Seconds an authorization request may take.
const DEADLINE_SECS: u32 = 30;

/// Perform `request` for the flow. `Err`: no HTTP answer (network, CORS), in words.
/// A request that asks for a DPoP proof gets a fresh one per try, signed with `key`.
pub async fn perform(
    log: WireLog,
    connection: &Connection,
    request: &AuthRequest,
    key: Option<&DpopKey>,
) -> Result<AuthResponse, String> {
    let relay = relay_token::from_page();
    if connection.via_relay {
        let Some(token) = relay else {
            return Err(format!(
                "{} was to go through the relay, but this page was not served by holdbay \
                 serve, which runs it",
                request.url
            ));
        };
        return attempt(log, connection, request, key, Some(&token)).await;
    }
    match attempt(log, connection, request, key, None).await {
        Ok(response) => Ok(response),
        Err(direct) => match relay {
            Some(token) => attempt(log, connection, request, key, Some(&token))
                .await
                .map_err(|relayed| format!("directly: {direct}; through the relay: {relayed}")),
            None => Err(format!(
                "{direct} (the host may send no CORS headers; open this page from holdbay \
                 serve to reach it through the relay)"
            )),
        },
    }
}

/// One try, directly or (with the relay's token) through the relay.
async fn attempt(
    log: WireLog,
    connection: &Connection,
    request: &AuthRequest,
    key: Option<&DpopKey>,
    relay: Option<&str>,
) -> Result<AuthResponse, String> {
    let proof = match (&request.dpop, key) {
        (Some(what), Some(key)) => vec![(DPOP_HEADER.to_owned(), dpop::proof(key, what).await?)],
        _ => Vec::new(),
    };
    let shown = request.redacted();
    let started = now_ms() as f64;
    let fetched = match relay {
        Some(_) => relay_url(&request.url),
        None => request.url.clone(),
    };
    // The proof is no secret (it is bound to this request and this page's key), and
    // showing it lets a developer read what the server checked.
    let mut headers = shown.headers.clone();
    headers.extend(proof.iter().cloned());
    if let Some(body) = &request.body {
        headers.push(("Content-Type".to_owned(), body.content_type().to_owned()));
    }
    let id = log.begin(WireEntry {
        method: request.purpose.label().to_owned(),
        auth: Some(request.purpose),
        name: Some(format!(
            "{} {}",
            request.method.as_str(),
            holdbay_engine::auth::redacted_url(&request.url)
        )),
        server: connection.server.clone(),
        url: match relay {
            Some(_) => relay_url(&holdbay_engine::auth::redacted_url(&request.url)),
            None => holdbay_engine::auth::redacted_url(&request.url),
        },
        relayed: relay.is_some(),
        started_at: started,
        withheld_headers: headers
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case("authorization"))
            .map(|(name, _)| name.clone())
            .collect(),
        request_headers: headers,
        request_body: shown.body.map(|body| body.encoded()).unwrap_or_default(),
        ..WireEntry::default()
    });
    let after = move || (now_ms() as f64 - started).max(0.0);
    let fail = |reason: String| {
        log.update(id, |entry| {
            entry.finished_after = Some(after());
            entry.error = Some(reason.clone());
        });
        reason
    };
    let response = send(request, &proof, &fetched, relay).await.map_err(fail)?;
    let status = response.status();
    let response_headers: Vec<(String, String)> = response.headers().entries().collect();
    log.update(id, |entry| {
        entry.status = Some(status);
        entry.response_headers = response_headers.clone();
        entry.responded_after = Some(after());
    });
    let body = read_bounded(&response).await.map_err(fail)?;
    let shown_body = logged_answer(request.purpose, &body);
    log.update(id, |entry| {
        entry.keep_body(after(), &shown_body);
        entry.finished_after = Some(after());
    });
    Ok(AuthResponse {
        status,
        headers: response_headers,
        body,
    })
}

async fn send(
    request: &AuthRequest,
    proof: &[(String, String)],
    url: &str,
    relay: Option<&str>,
) -> Result<gloo_net::http::Response, String> {
    let headers = web_sys::Headers::new().map_err(|_| "the browser refused to make headers")?;
    for (name, value) in request.headers.iter().chain(proof) {
        headers
            .set(name, value)
            .map_err(|_| format!("the browser refused header {name}"))?;
    }
    if let Some(token) = relay {
        let _ = headers.set(RELAY_TOKEN_HEADER, token);
    }
    let builder = RequestBuilder::new(url)
        .method(match request.method {
            HttpMethod::Get => Method::GET,
            HttpMethod::Post => Method::POST,
        })
        .credentials(RequestCredentials::Omit)
        .abort_signal(Some(&web_sys::AbortSignal::timeout_with_u32(
            DEADLINE_SECS * 1000,
        )));
    let built = match &request.body {
        Some(body) => {
            let _ = headers.set("Content-Type", body.content_type());
            builder
                .headers(gloo_net::http::Headers::from_raw(headers))
                .body(body.encoded())
        }
        None => {
            let _ = headers.set("Accept", "application/json");
            builder
                .headers(gloo_net::http::Headers::from_raw(headers))
                .build()
        }
    }
    .map_err(|error| error.to_string())?;
    built.send().await.map_err(|error| match error {
        gloo_net::Error::JsError(js) if js.name == "TimeoutError" || js.name == "AbortError" => {
            format!("no answer from {url} within {DEADLINE_SECS} s")
        }
        other => format!("could not reach {url}: {other}"),
    })
}

/// The body, but never more than one byte past the engine's bound on a document (the
/// engine then refuses it as too large; the rest is not downloaded).
async fn read_bounded(response: &gloo_net::http::Response) -> Result<Vec<u8>, String> {
    let Some(stream) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut body = Vec::new();
    loop {
        let step = JsFuture::from(reader.read())
            .await
            .map_err(|_| "the connection broke while reading the answer".to_owned())?;
        let done = Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|done| done.as_bool())
            .unwrap_or(true);
        if done {
            return Ok(body);
        }
        let Ok(value) = Reflect::get(&step, &"value".into()) else {
            return Ok(body);
        };
        let chunk = Uint8Array::new(&value);
        let room = (MAX_AUTH_DOCUMENT_BYTES + 1).saturating_sub(body.len()) as u32;
        let take = chunk.length().min(room);
        body.extend_from_slice(&chunk.subarray(0, take).to_vec());
        if body.len() > MAX_AUTH_DOCUMENT_BYTES {
            let cancelled = JsFuture::from(reader.cancel());
            wasm_bindgen_futures::spawn_local(async move {
                let _ = cancelled.await;
            });
            return Ok(body);
        }
    }
}
