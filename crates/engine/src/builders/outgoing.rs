//! A request ready to POST: id, headers and JSON body, all decided by the engine.

use std::marker::PhantomData;

use rmcp::model::{JsonRpcRequest, ProgressToken, Request, RequestId, RequestMetaObject};

use crate::readers::response::ResponseReader;
use crate::readers::structured::OutputContract;
use crate::vocabulary::era::Era;
use crate::vocabulary::events::{ExchangeEvent, SentRequest};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::method::McpMethod;
use crate::vocabulary::protocol::HEADER_PROTOCOL_VERSION;

/// One JSON-RPC request as it goes on the wire. The caller sends `headers` and `body` with an
/// HTTP POST to the MCP endpoint, then reads the answer with [`OutgoingRequest::reader`].
#[derive(Debug)]
pub struct OutgoingRequest<M: McpMethod> {
    pub(crate) id: RequestId,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
    /// The `_meta` the body carries, kept to write the request's JSON again for its event.
    pub(crate) meta: RequestMetaObject,
    /// The params without `_meta`, kept so a retry can resend them unchanged.
    pub(crate) params: M::Params,
    pub(crate) options: RequestOptions,
    pub(crate) declares_tasks: bool,
    pub(crate) limits: Limits,
    /// Which round of a logical request this is, once a [`crate::LogicalRequest`] numbered
    /// it (a retry or a resend); a first round needs no number.
    pub(crate) round: Option<u32>,
    /// For `tools/call` of a tool with an `outputSchema`: what its result must match.
    pub(crate) output: Option<OutputContract>,
    /// The one retry after a `-32022` (a second one ends the negotiation).
    pub(crate) version_retry: bool,
    /// The era it is written in: a legacy answer is read by legacy rules.
    pub(crate) era: Era,
    pub(crate) method: PhantomData<M>,
}

// By hand: a derive would ask the method's marker type to be `Clone` too.
impl<M: McpMethod> Clone for OutgoingRequest<M> {
    fn clone(&self) -> Self {
        Self {
            id: self.id.clone(),
            headers: self.headers.clone(),
            body: self.body.clone(),
            meta: self.meta.clone(),
            params: self.params.clone(),
            options: self.options.clone(),
            declares_tasks: self.declares_tasks,
            limits: self.limits,
            round: self.round,
            output: self.output.clone(),
            version_retry: self.version_retry,
            era: self.era,
            method: PhantomData,
        }
    }
}

impl<M: McpMethod> OutgoingRequest<M> {
    /// The JSON-RPC id; the response must carry the same one.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The JSON-RPC method.
    pub fn method(&self) -> &'static str {
        M::name()
    }

    /// The HTTP request headers, names as the spec spells them.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The JSON body.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// The bounds its answer is read within, and its headers sent within
    /// ([`crate::check_sendable`]).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The params as sent (without `_meta`).
    pub fn params(&self) -> &M::Params {
        &self.params
    }

    /// Which round of its logical request this is, when a [`crate::LogicalRequest`]
    /// numbered it (`None` for a request built directly: a first round, or no round at all).
    pub fn round(&self) -> Option<u32> {
        self.round
    }

    /// Whether this is the one retry with another protocol version after a `-32022`.
    pub fn is_version_retry(&self) -> bool {
        self.version_retry
    }

    /// The protocol revision it carries (`_meta` and `MCP-Protocol-Version`; a legacy
    /// request only the header, and `initialize` neither).
    pub fn protocol_version(&self) -> String {
        self.meta
            .protocol_version()
            .map(|version| version.as_str().to_owned())
            .or_else(|| {
                self.headers
                    .iter()
                    .find(|(name, _)| name == HEADER_PROTOCOL_VERSION)
                    .map(|(_, value)| value.clone())
            })
            .unwrap_or_default()
    }

    /// The era it is written in.
    pub fn era(&self) -> Era {
        self.era
    }

    /// Whether this request declared the tasks extension (in 2025-11-25: asked for a task
    /// with `params.task`).
    pub fn declares_tasks(&self) -> bool {
        self.declares_tasks
    }

    /// A 2025-11-25 request that asks the server to run it as a task (`params.task`).
    pub fn asks_legacy_task(&self) -> bool {
        self.era == Era::Legacy && self.declares_tasks
    }

    /// The `Sent` event of this request: its JSON written from the typed params and `_meta`
    /// the body was written from (the body text is not parsed).
    pub fn sent_event(&self) -> ExchangeEvent {
        let (request, _) =
            request_json::<M, _>(&self.id, &self.params, self.meta.clone(), |request| {
                serde_json::to_value(request)
            });
        let mut request = request.unwrap_or_default();
        if self.asks_legacy_task() {
            request = with_legacy_task(request);
        }
        ExchangeEvent::Sent(Box::new(
            SentRequest::from_json(
                M::name(),
                request,
                M::routing_name(&self.params),
                self.declares_tasks,
            )
            .with_round(self.round),
        ))
    }

    /// Start reading the HTTP response to this request, once its status and
    /// `Content-Type` are known.
    pub fn reader(&self, status: u16, content_type: Option<&str>) -> ResponseReader<M> {
        ResponseReader::new(
            Some(self.id.clone()),
            self.declares_tasks,
            status,
            content_type,
            self.limits,
        )
        .with_output(self.output.clone())
        .in_era(self.era)
    }

    /// The tool's `outputSchema` this request's result is checked against, if any.
    pub fn output_contract(&self) -> Option<&OutputContract> {
        self.output.as_ref()
    }
}

/// Per-request choices.
#[derive(Debug, Clone, Default)]
pub struct RequestOptions {
    /// Ask for `notifications/progress` on this request's stream.
    pub progress_token: Option<ProgressToken>,
    /// For `tools/call`: declare the tasks extension, accepting a task as the answer.
    pub accept_task: bool,
}

/// Write the JSON-RPC request of `params` with its `_meta`, with `write` (to text for the
/// body, to a `Value` for the `Sent` event: the same serialization either way). The `_meta`
/// comes back, for the caller to keep.
pub(crate) fn request_json<M: McpMethod, T>(
    id: &RequestId,
    params: &M::Params,
    meta: RequestMetaObject,
    write: impl FnOnce(&JsonRpcRequest<Request<M::Name, M::Params>>) -> serde_json::Result<T>,
) -> (serde_json::Result<T>, RequestMetaObject) {
    let mut request: Request<M::Name, M::Params> = Request::new(params.clone());
    // A legacy request without a progress token has no `_meta` at all.
    if !meta.is_empty() {
        request.extensions.insert(meta);
    }
    let mut request = JsonRpcRequest::new(id.clone(), request);
    let written = write(&request);
    let meta = request
        .request
        .extensions
        .remove::<RequestMetaObject>()
        .unwrap_or_default();
    (written, meta)
}

/// `request` with 2025-11-25's `params.task`: run it as a task, kept as long as the server
/// likes (no `ttl` asked for).
pub(crate) fn with_legacy_task(mut request: serde_json::Value) -> serde_json::Value {
    if let Some(params) = request
        .get_mut("params")
        .and_then(serde_json::Value::as_object_mut)
    {
        params.insert("task".to_owned(), serde_json::json!({}));
    }
    request
}
