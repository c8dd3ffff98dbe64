//! HTTP for the engine's requests: `fetch`, the body read as a stream of chunks that go
//! straight into the engine's response reader, and every exchange recorded in the wire log.

use holdbay_engine::{
    Listen, McpMethod, Outcome, OutgoingRequest, Reply, ResponseError, ResponseReader, Subscription,
};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, Headers, ReadableStreamDefaultReader, RequestInit, Response};

use crate::connection::Connection;
use crate::wire::{WireChunk, WireEntry, WireLog};

/// Why an exchange failed: no HTTP answer, a stop, a broken body, or a bad answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExchangeError {
    #[error("could not reach {url}: {detail}. {hint}")]
    Unreachable {
        url: String,
        detail: String,
        /// Tried directly (not through the relay): the likely cause is CORS.
        direct: bool,
        hint: &'static str,
    },
    #[error("stopped: the request to {url} was aborted")]
    Aborted { url: String },
    #[error("the connection broke while reading the response from {url}: {detail}")]
    BodyInterrupted { url: String, detail: String },
    #[error(transparent)]
    Response(#[from] ResponseError),
}

impl ExchangeError {
    /// A failure the way a CORS refusal fails (the browser hides which it was).
    pub fn could_be_cors(&self) -> bool {
        matches!(self, Self::Unreachable { direct: true, .. })
    }
}

/// Sees the stream messages so far (each a JSON-RPC message as text).
pub type StreamObserver = dyn Fn(&[String]);

/// How to carry one exchange.
#[derive(Clone, Copy)]
pub struct Exchange<'a> {
    pub connection: &'a Connection,
    pub log: Option<WireLog>,
    /// Aborting it stops the fetch (the Stop button).
    pub abort: Option<&'a AbortSignal>,
    /// Called with every stream message so far, whenever a new one arrives.
    pub on_stream: Option<&'a StreamObserver>,
}

impl<'a> Exchange<'a> {
    pub fn new(connection: &'a Connection, log: WireLog) -> Self {
        Self {
            connection,
            log: Some(log),
            abort: None,
            on_stream: None,
        }
    }
}

/// Send `request`; decode an answer that must be `complete`.
pub async fn exchange<M: McpMethod>(
    how: &Exchange<'_>,
    request: &OutgoingRequest<M>,
) -> Result<Reply<M::Output>, ExchangeError> {
    Ok(read(how, request).await?.finish()?)
}

/// Send `request`; decode any outcome its method allows (complete, input_required, task).
pub async fn exchange_outcome<M: McpMethod>(
    how: &Exchange<'_>,
    request: &OutgoingRequest<M>,
) -> Result<Reply<Outcome<M::Output>>, ExchangeError> {
    Ok(read(how, request).await?.finish_outcome()?)
}

/// Open a `subscriptions/listen` stream and hand every chunk to the subscription until
/// `keep_going` says stop or the stream ends.
pub async fn listen(
    how: &Exchange<'_>,
    request: &OutgoingRequest<Listen>,
    mut on_chunk: impl FnMut(&mut Subscription, &[u8]) -> bool,
) -> Result<Subscription, ExchangeError> {
    let sent = send(how, Wire::of(request)).await?;
    let content_type = sent.response.headers().get("content-type").ok().flatten();
    let mut subscription =
        Subscription::open(request, sent.response.status(), content_type.as_deref());
    read_body(how, &sent, &mut |chunk| on_chunk(&mut subscription, chunk)).await?;
    Ok(subscription)
}

async fn read<M: McpMethod>(
    how: &Exchange<'_>,
    request: &OutgoingRequest<M>,
) -> Result<ResponseReader<M>, ExchangeError> {
    let sent = send(how, Wire::of(request)).await?;
    let content_type = sent.response.headers().get("content-type").ok().flatten();
    let mut reader = request.reader(sent.response.status(), content_type.as_deref());
    let challenge = sent
        .response
        .headers()
        .get("www-authenticate")
        .ok()
        .flatten();
    reader.set_www_authenticate(challenge.as_deref());
    let mut seen = 0;
    read_body(how, &sent, &mut |chunk| {
        reader.push_chunk(chunk);
        let messages = reader.stream_messages();
        if messages.len() > seen {
            seen = messages.len();
            if let Some(on_stream) = how.on_stream {
                on_stream(messages);
            }
        }
        // Once the outcome is decided (e.g. too large), stop downloading.
        !reader.has_failed()
    })
    .await?;
    Ok(reader)
}

/// A request that got an HTTP answer, and its log entry.
struct Sent {
    response: Response,
    entry: Option<u64>,
    /// `Date.now()` when it was sent.
    started: f64,
}

/// What `send` needs of a request; not generic, so the fetch code exists once in the wasm.
struct Wire<'r> {
    method: &'static str,
    headers: &'r [(String, String)],
    body: &'r str,
}

impl<'r> Wire<'r> {
    fn of<M: McpMethod>(request: &'r OutgoingRequest<M>) -> Self {
        Self {
            method: request.method(),
            headers: request.headers(),
            body: request.body(),
        }
    }
}

/// `fetch` the request (directly or through the relay) and record it in the log.
async fn send(how: &Exchange<'_>, request: Wire<'_>) -> Result<Sent, ExchangeError> {
    let connection = how.connection;
    let url = connection.fetch_url();
    let mut sent_headers: Vec<(String, String)> = request.headers.to_vec();
    sent_headers.extend(
        connection
            .extra_headers()
            .map(|(name, value)| (name.to_owned(), value.to_owned())),
    );
    let entry = how.log.map(|log| {
        log.begin(WireEntry {
            method: request.method.to_owned(),
            name: header_value(request.headers, "mcp-name"),
            server: connection.server.clone(),
            url: url.clone(),
            relayed: connection.via_relay,
            started_at: js_sys::Date::now(),
            request_headers: redact(&sent_headers),
            request_body: request.body.to_owned(),
            ..Default::default()
        })
    });
    let started = js_sys::Date::now();
    let fail = |error: ExchangeError| {
        record(how, entry, started, |wire| {
            wire.error = Some(error.to_string())
        });
        error
    };
    let unreachable = |detail: String| ExchangeError::Unreachable {
        url: url.clone(),
        detail,
        direct: !connection.via_relay,
        hint: if connection.via_relay {
            "The relay could not be reached: is holdbay serve still running?"
        } else {
            "The server may be down, or it may not allow requests from this page (CORS): \
             try the relay."
        },
    };
    let headers = Headers::new().map_err(|e| fail(unreachable(js_text(&e))))?;
    for (name, value) in &sent_headers {
        headers
            .set(name, value)
            .map_err(|e| fail(unreachable(format!("header {name}: {}", js_text(&e)))))?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(request.body));
    if let Some(signal) = how.abort {
        init.set_signal(Some(signal));
    }
    let window = web_sys::window().ok_or_else(|| fail(unreachable("no browser window".into())))?;
    let fetched = JsFuture::from(window.fetch_with_str_and_init(&url, &init)).await;
    let response: Response = match fetched {
        Ok(value) => value
            .dyn_into()
            .map_err(|e| fail(unreachable(js_text(&e))))?,
        Err(error) if is_abort(&error) => return Err(fail(ExchangeError::Aborted { url })),
        Err(error) => return Err(fail(unreachable(js_text(&error)))),
    };
    let status = response.status();
    let response_headers = response_headers(&response);
    let responded_after = js_sys::Date::now() - started;
    record(how, entry, started, |wire| {
        wire.status = Some(status);
        wire.response_headers = response_headers;
        wire.responded_after = Some(responded_after);
    });
    Ok(Sent {
        response,
        entry,
        started,
    })
}

/// Read the body chunk by chunk into `on_chunk` (which returns false to stop early).
async fn read_body(
    how: &Exchange<'_>,
    sent: &Sent,
    on_chunk: &mut dyn FnMut(&[u8]) -> bool,
) -> Result<(), ExchangeError> {
    let url = how.connection.fetch_url();
    let (entry, started) = (sent.entry, sent.started);
    let Some(body) = sent.response.body() else {
        record(how, entry, started, |_| {});
        return Ok(());
    };
    let chunks: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    loop {
        let step = match JsFuture::from(chunks.read()).await {
            Ok(step) => step,
            Err(error) => {
                let failure = if is_abort(&error) {
                    ExchangeError::Aborted { url: url.clone() }
                } else {
                    ExchangeError::BodyInterrupted {
                        url: url.clone(),
                        detail: js_text(&error),
                    }
                };
                record(how, entry, started, |wire| {
                    wire.error = Some(failure.to_string())
                });
                return Err(failure);
            }
        };
        let done = Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let Ok(value) = Reflect::get(&step, &"value".into()) else {
            break;
        };
        let bytes = Uint8Array::new(&value).to_vec();
        if let (Some(log), Some(id)) = (how.log, entry) {
            let after = js_sys::Date::now() - started;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            log.update(id, |wire| wire.body.push(WireChunk { after, text }));
        }
        if !on_chunk(&bytes) {
            // The promise rejects if the request is aborted later; an unhandled
            // rejection would surface as a page error, so await it and ignore the outcome.
            let cancelled = JsFuture::from(chunks.cancel());
            wasm_bindgen_futures::spawn_local(async move {
                let _ = cancelled.await;
            });
            break;
        }
    }
    record(how, entry, started, |_| {});
    Ok(())
}

/// Update the log entry, stamping when it finished.
fn record(
    how: &Exchange<'_>,
    entry: Option<u64>,
    started: f64,
    change: impl FnOnce(&mut WireEntry),
) {
    if let (Some(log), Some(id)) = (how.log, entry) {
        let after = js_sys::Date::now() - started;
        log.update(id, |wire| {
            change(wire);
            if wire.status.is_none() || wire.error.is_some() || !wire.body.is_empty() {
                wire.finished_after = Some(after);
            }
        });
    }
}

fn header_value(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.clone())
}

/// Credentials never go into the log (it can be exported and shared).
fn redact(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            if name.eq_ignore_ascii_case("authorization") {
                let scheme = value.split_whitespace().next().unwrap_or("");
                (name.clone(), format!("{scheme} •••").trim().to_owned())
            } else {
                (name.clone(), value.clone())
            }
        })
        .collect()
}

/// The response headers the page is allowed to read.
fn response_headers(response: &Response) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Ok(Some(iterator)) = js_sys::try_iter(response.headers().as_ref()) {
        for pair in iterator.flatten() {
            let pair = js_sys::Array::from(&pair);
            if let (Some(name), Some(value)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                headers.push((name, value));
            }
        }
    }
    headers
}

fn is_abort(error: &JsValue) -> bool {
    error
        .dyn_ref::<js_sys::Error>()
        .is_some_and(|e| e.name() == "AbortError")
        || Reflect::get(error, &"name".into())
            .ok()
            .and_then(|name| name.as_string())
            .is_some_and(|name| name == "AbortError")
}

/// A readable text for a thrown JS value (usually a `TypeError`).
fn js_text(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}
