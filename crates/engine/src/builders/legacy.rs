//! The legacy era's requests (2025-11-25 and earlier): the `initialize` handshake and its
//! `notifications/initialized`, the session header on every later request, answers to the
//! server's own requests, the GET stream (resumed with `Last-Event-ID`) and the session's
//! end (DELETE). The typed methods (`tools/call`, the lists, …) are the modern era's
//! builders; [`Client::use_era`] makes them write legacy requests.

use rmcp::model::{
    CancelTaskParams, CancelledNotificationMethod, CancelledNotificationParam, ClientCapabilities,
    ConstString, GetTaskParams, InitializeRequestParams, InitializedNotificationMethod, RequestId,
};
use serde_json::{Value, json};

use crate::builders::answer::{AnswerError, InputAnswer};
use crate::builders::client::{Client, RequestOptions};
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::sse::Resume;
use crate::vocabulary::era::{
    Era, HEADER_LAST_EVENT_ID, HEADER_SESSION_ID, RESUMED_STREAM_LABEL, SESSION_END_LABEL,
    SESSION_STREAM_LABEL,
};
use crate::vocabulary::events::{ExchangeEvent, InputRequestKind, SentRequest, ServerRequestEvent};
use crate::vocabulary::method::{Initialize, LegacyCancelTask, LegacyGetTask, TaskResult};
use crate::vocabulary::protocol::{self, LATEST_LEGACY_VERSION};

/// A message the client POSTs that is not a request of its own (a notification, or its
/// answer to a server's request): the server acknowledges it with `202 Accepted`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutgoingMessage {
    pub headers: Vec<(String, String)>,
    /// The JSON-RPC message, also the body (`body()`).
    pub json: Value,
    /// What the wire log calls it: the notification's method, or the method answered.
    pub label: String,
}

impl OutgoingMessage {
    /// The body, as sent.
    pub fn body(&self) -> String {
        self.json.to_string()
    }

    /// Why the server's `status` is a refusal of it, if it is one: a message is taken with
    /// `202 Accepted` (any 2xx is let pass).
    pub fn refusal(status: u16) -> Option<String> {
        (!(200..300).contains(&status)).then(|| format!("the server refused it with HTTP {status}"))
    }

    /// Its `Sent` event, for the wire log.
    pub fn sent_event(&self) -> ExchangeEvent {
        ExchangeEvent::Sent(Box::new(SentRequest::decode(
            &self.label,
            &self.body(),
            None,
        )))
    }
}

/// A request with no body: the GET that opens the session's stream (or resumes a request's
/// broken one), or the DELETE that ends the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodilessRequest {
    /// `GET` or `DELETE`.
    pub http_method: &'static str,
    pub headers: Vec<(String, String)>,
    /// What the wire log calls it.
    pub label: &'static str,
}

impl BodilessRequest {
    /// What the wire log calls the GET of the session's own stream.
    pub const SESSION_STREAM: &'static str = SESSION_STREAM_LABEL;
    /// What the wire log calls the GET that resumes a request's broken stream.
    pub const RESUMED_STREAM: &'static str = RESUMED_STREAM_LABEL;
    /// What the wire log calls the DELETE that ends the session.
    pub const SESSION_END: &'static str = SESSION_END_LABEL;

    /// A GET for an event stream with `headers` besides `Accept`.
    pub(crate) fn stream(label: &'static str, headers: Vec<(String, String)>) -> Self {
        let mut all = vec![("Accept".to_owned(), protocol::CONTENT_TYPE_SSE.to_owned())];
        all.extend(headers);
        Self {
            http_method: "GET",
            headers: all,
            label,
        }
    }

    /// The stream resumed after `resume`'s last event, if it names one.
    pub(crate) fn resumed_after(mut self, resume: Option<&Resume>) -> Self {
        if let Some(last) = resume.and_then(|resume| resume.last_event_id.as_ref()) {
            self.headers
                .push((HEADER_LAST_EVENT_ID.to_owned(), last.clone()));
        }
        self
    }

    /// Its `Sent` event, for the wire log.
    pub fn sent_event(&self) -> ExchangeEvent {
        ExchangeEvent::Sent(Box::new(SentRequest::decode(self.label, "", None)))
    }
}

impl Client {
    /// The era requests are written in now.
    pub fn era(&self) -> Era {
        self.era
    }

    /// Write requests in `era` from now on. Entering the legacy era starts without a
    /// session: the next request to send is [`Client::initialize`].
    pub fn use_era(&mut self, era: Era) {
        self.reset_version();
        if era == Era::Legacy {
            self.era = era;
            self.use_version(LATEST_LEGACY_VERSION);
        }
    }

    /// The session the server assigned, once `initialize` was answered (a server may assign
    /// none: then it has no sessions).
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The legacy handshake: this client's newest legacy version, identity and what it
    /// handles (form and URL elicitation; nothing deprecated unless configured).
    pub fn initialize(&mut self) -> OutgoingRequest<Initialize> {
        let mut capabilities: ClientCapabilities = self.config().capabilities.clone();
        // The tasks extension is 2026-07-28's; 2025-11-25's tasks are another shape.
        capabilities.extensions = None;
        let params = InitializeRequestParams::new(capabilities, self.config().client_info.clone())
            .with_protocol_version(crate::builders::client::protocol_version(
                LATEST_LEGACY_VERSION,
            ));
        self.request::<Initialize>(params, &RequestOptions::default())
    }

    /// 2025-11-25's `tasks/get`: the task's state, without its outcome.
    pub fn get_legacy_task(&mut self, task_id: &str) -> OutgoingRequest<LegacyGetTask> {
        self.request(GetTaskParams::new(task_id), &RequestOptions::default())
    }

    /// 2025-11-25's `tasks/cancel`: answered with the task's state.
    pub fn cancel_legacy_task(&mut self, task_id: &str) -> OutgoingRequest<LegacyCancelTask> {
        self.request(CancelTaskParams::new(task_id), &RequestOptions::default())
    }

    /// 2025-11-25's `tasks/result`: the task's outcome once it ends; meanwhile its stream
    /// carries the task's requests to the client.
    pub fn task_result(&mut self, task_id: &str) -> OutgoingRequest<TaskResult> {
        self.request(GetTaskParams::new(task_id), &RequestOptions::default())
    }

    /// `notifications/initialized`, sent once the session is open.
    pub fn initialized(&self) -> OutgoingMessage {
        OutgoingMessage {
            headers: self.message_headers(),
            json: json!({"jsonrpc": "2.0", "method": InitializedNotificationMethod::VALUE}),
            label: InitializedNotificationMethod::VALUE.to_owned(),
        }
    }

    /// The answer to a server's request: `answer` as it would answer the same input
    /// request of an MRTR round. A refused kind that has no refusal result (sampling, an
    /// unknown method) goes back as the JSON-RPC error the refusal is.
    pub fn answer_server_request(
        &self,
        asked: &ServerRequestEvent,
        answer: &InputAnswer,
    ) -> Result<OutgoingMessage, AnswerError> {
        let kind = asked.ask().kind;
        let value = answer.to_response(&kind)?;
        let is_error = matches!(
            kind,
            InputRequestKind::Sampling | InputRequestKind::Unknown { .. }
        ) && matches!(
            answer,
            InputAnswer::Refuse | InputAnswer::Decline | InputAnswer::Cancel
        );
        Ok(self.response_message(asked, is_error, value))
    }

    /// `notifications/cancelled` for the request `request_id` the user stopped, with why: a
    /// 2025-11-25 server takes a closed stream as a lost connection, not a cancellation
    /// (transports, "Cancellation"). `None` in the 2026-07-28 era, where closing the
    /// request's stream is the cancellation.
    pub fn cancelled(&self, request_id: &RequestId, reason: &str) -> Option<OutgoingMessage> {
        if self.era != Era::Legacy {
            return None;
        }
        let params =
            CancelledNotificationParam::new(Some(request_id.clone()), Some(reason.to_owned()));
        Some(OutgoingMessage {
            headers: self.message_headers(),
            json: json!({
                "jsonrpc": "2.0",
                "method": CancelledNotificationMethod::VALUE,
                "params": params,
            }),
            label: CancelledNotificationMethod::VALUE.to_owned(),
        })
    }

    /// The answer to a `ping` from the server: an empty result.
    pub fn answer_ping(&self, asked: &ServerRequestEvent) -> OutgoingMessage {
        self.response_message(asked, false, json!({}))
    }

    /// The GET that opens the session's own stream (the server's requests and notifications
    /// unrelated to a request), resumed after `resume`'s last event when there is one.
    pub fn open_stream(&self, resume: Option<&Resume>) -> BodilessRequest {
        BodilessRequest::stream(BodilessRequest::SESSION_STREAM, self.session_headers(false))
            .resumed_after(resume)
    }

    /// The DELETE that ends the session on the server, when there is one to end; the client
    /// forgets it either way.
    pub fn end_session(&mut self) -> Option<BodilessRequest> {
        let headers = self.session_headers(false);
        self.session_id.take()?;
        Some(BodilessRequest {
            http_method: "DELETE",
            headers,
            label: BodilessRequest::SESSION_END,
        })
    }

    /// A legacy request's session headers: the negotiated version (not on `initialize`,
    /// which negotiates it) and the session, once there is one.
    pub(crate) fn session_headers(&self, initialize: bool) -> Vec<(String, String)> {
        let mut headers = Vec::new();
        if !initialize {
            headers.push((
                protocol::HEADER_PROTOCOL_VERSION.to_owned(),
                self.protocol_version().to_owned(),
            ));
        }
        if let Some(session) = &self.session_id {
            headers.push((HEADER_SESSION_ID.to_owned(), session.clone()));
        }
        headers
    }

    fn message_headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![
            (
                "Content-Type".to_owned(),
                protocol::CONTENT_TYPE_JSON.to_owned(),
            ),
            ("Accept".to_owned(), protocol::ACCEPT.to_owned()),
        ];
        headers.extend(self.session_headers(false));
        headers
    }

    fn response_message(
        &self,
        asked: &ServerRequestEvent,
        is_error: bool,
        value: Value,
    ) -> OutgoingMessage {
        let slot = if is_error { "error" } else { "result" };
        OutgoingMessage {
            headers: self.message_headers(),
            json: json!({"jsonrpc": "2.0", "id": asked.id, slot: value}),
            label: format!("{} (answer)", asked.method()),
        }
    }
}
