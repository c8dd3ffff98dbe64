//! `subscriptions/listen`: one open event stream, acknowledged first, carrying only the
//! notifications that were asked for, each tagged with the listen request's id.

use rmcp::model::{
    ConstString, DetailedTask, RequestId, SubscriptionsAcknowledgedNotificationMethod,
};
use serde::Deserialize;
use serde_json::Value;

use crate::builders::outgoing::OutgoingRequest;
use crate::readers::notification::Unread;
use crate::readers::notification_keep::NotificationKeep;
use crate::readers::response::{ResponseError, ResponseReader};
use crate::readers::sse::SseDecoder;
use crate::vocabulary::events::{
    AnswerEvent, AnswerKind, ExchangeEvent, NotificationEvent, NotificationKind,
};
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::listen_params::ListenFilter;
use crate::vocabulary::method::Listen;
use crate::vocabulary::protocol::{META_SUBSCRIPTION_ID, is_event_stream};

/// What a listen stream delivered.
#[derive(Debug, Clone, PartialEq)]
pub enum ListenEvent {
    /// The server agreed to this filter (maybe less than asked).
    Acknowledged {
        filter: ListenFilter,
    },
    /// A task's full state, as `tasks/get` would return it: update the tracker, no poll.
    TaskSnapshot {
        task: DetailedTask,
        message: Value,
    },
    ToolsListChanged,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated {
        uri: String,
    },
    /// The server ended the stream with its result.
    Ended,
    /// The stream closed without the result: reconnect, and poll tasks meanwhile.
    Dropped,
    /// The listen request itself failed (e.g. a JSON error instead of a stream).
    Failed(ResponseError),
    Finding(Finding),
}

impl ListenEvent {
    /// The server refused `subscriptions/listen` itself (no such method, or an HTTP status
    /// that says the endpoint does not take it): opening the stream again cannot help, so
    /// the client should poll instead until it connects anew.
    pub fn is_refusal(&self) -> bool {
        let Self::Failed(error) = self else {
            return false;
        };
        match error.rpc_code() {
            Some(code) => code == rmcp::model::ErrorCode::METHOD_NOT_FOUND.0,
            None => matches!(error.http_status(), Some(404 | 405 | 501)),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    AwaitingAcknowledgement,
    Active,
    Over,
}

enum Body {
    Stream(Box<SseDecoder>),
    /// Not an event stream: an error response, read as one.
    Other(Box<ResponseReader<Listen>>),
}

/// One open `subscriptions/listen` stream.
pub struct Subscription {
    id: RequestId,
    id_value: Value,
    requested: ListenFilter,
    acknowledged: Option<ListenFilter>,
    state: State,
    body: Body,
    /// The exchange's events not yet taken ([`Subscription::take_events`]).
    events: Vec<ExchangeEvent>,
    limits: Limits,
    /// The notifications read so far, and which of them a log keeps.
    notes: NotificationKeep,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("id", &self.id)
            .field("requested", &self.requested)
            .field("acknowledged", &self.acknowledged)
            .field("state", &self.state)
            .finish()
    }
}

impl Subscription {
    /// Start reading the response to `request` once its status and media type are known.
    pub fn open(
        request: &OutgoingRequest<Listen>,
        status: u16,
        content_type: Option<&str>,
    ) -> Self {
        Self::open_parts(
            request.id.clone(),
            request.params.notifications.clone(),
            status,
            content_type,
            request.limits,
        )
    }

    /// The same, from the listen request's id and filter (e.g. a request sent by another
    /// client, replayed).
    pub fn open_parts(
        id: RequestId,
        requested: ListenFilter,
        status: u16,
        content_type: Option<&str>,
        limits: crate::vocabulary::limits::Limits,
    ) -> Self {
        Self::open_recorded(Some(id), requested, status, content_type, limits)
    }

    /// The same, for a recorded listen request whose id may be unknown (its body was not
    /// JSON-RPC): then no notification carries the right subscription id.
    pub(crate) fn open_recorded(
        id: Option<RequestId>,
        requested: ListenFilter,
        status: u16,
        content_type: Option<&str>,
        limits: crate::vocabulary::limits::Limits,
    ) -> Self {
        let event_stream = is_event_stream(content_type);
        let mut events = Vec::new();
        let body = if (200..300).contains(&status) && event_stream {
            events.push(ExchangeEvent::Responded {
                status,
                event_stream,
            });
            Body::Stream(Box::default())
        } else {
            let mut reader = ResponseReader::new(id.clone(), true, status, content_type, limits);
            events.extend(reader.take_events());
            Body::Other(Box::new(reader))
        };
        Self {
            id_value: id.clone().map_or(Value::Null, RequestId::into_json_value),
            id: id.unwrap_or(RequestId::Number(0)),
            requested,
            acknowledged: None,
            state: State::AwaitingAcknowledgement,
            body,
            events,
            limits,
            notes: NotificationKeep::default(),
        }
    }

    /// The listen request's id, which every notification on the stream must carry.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// What the server agreed to, once it has.
    pub fn acknowledged(&self) -> Option<&ListenFilter> {
        self.acknowledged.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.state == State::Over
    }

    /// The exchange's events read so far and not yet taken: `Responded`, every
    /// notification, the end (`Answered`) and the findings, in order.
    pub fn take_events(&mut self) -> Vec<ExchangeEvent> {
        std::mem::take(&mut self.events)
    }

    /// Feed the next chunk of the stream.
    pub fn handle_chunk(&mut self, chunk: &[u8]) -> Vec<ListenEvent> {
        let messages = match &mut self.body {
            Body::Other(reader) => {
                reader.push_chunk(chunk);
                return Vec::new();
            }
            Body::Stream(decoder) => decoder.push(chunk),
        };
        self.take_messages(messages)
    }

    /// The stream ended.
    pub fn handle_end(&mut self) -> Vec<ListenEvent> {
        let body = std::mem::replace(&mut self.body, Body::Stream(Box::default()));
        let mut events = match body {
            Body::Other(reader) => {
                self.state = State::Over;
                let decoded = reader.finish_decoded();
                self.events.extend(decoded.events);
                return vec![match decoded.result {
                    Err(error) => ListenEvent::Failed(error),
                    // A JSON result instead of a stream: the server ended at once.
                    Ok(_) => ListenEvent::Ended,
                }];
            }
            Body::Stream(mut decoder) => {
                let messages = decoder.finish();
                self.take_messages(messages)
            }
        };
        if self.state != State::Over {
            self.state = State::Over;
            events.push(ListenEvent::Dropped);
        }
        events
    }

    fn take_messages(
        &mut self,
        messages: Result<Vec<String>, crate::readers::sse::SseError>,
    ) -> Vec<ListenEvent> {
        let messages = match messages {
            Ok(messages) => messages,
            Err(error) => {
                self.state = State::Over;
                let error = ResponseError::from(error);
                self.events
                    .push(ExchangeEvent::Answered(Box::new(AnswerEvent {
                        json: Value::Null,
                        kind: AnswerKind::of_failure(&error),
                    })));
                return vec![ListenEvent::Failed(error), ListenEvent::Dropped];
            }
        };
        let mut events = Vec::new();
        for text in messages {
            if self.state == State::Over {
                break;
            }
            match crate::readers::json::from_str(&text) {
                Ok(message) => self.take_message(message, &mut events),
                Err(error) => events.push(ListenEvent::Failed(ResponseError::MalformedJson {
                    detail: format!("in a listen event: {error}"),
                })),
            }
        }
        for event in &events {
            if let ListenEvent::Finding(finding) = event {
                self.events.push(ExchangeEvent::Finding(finding.clone()));
            }
        }
        events
    }

    fn finding(rule: Rule, explanation: String, message: &Value) -> ListenEvent {
        ListenEvent::Finding(Finding::new(rule, explanation, Some(message.clone())))
    }

    /// A response: the graceful end (or an error) of the listen request.
    fn take_response(&mut self, message: Value, events: &mut Vec<ListenEvent>) {
        self.state = State::Over;
        let kind = if let Some(error) = message.get("error") {
            // An error ending an event stream came with the stream's 200.
            let error = rmcp::model::ErrorData::deserialize(error).unwrap_or_default();
            let error = ResponseError::rpc(200, error);
            let kind = AnswerKind::of_failure(&error);
            events.push(ListenEvent::Failed(error));
            kind
        } else {
            events.push(ListenEvent::Ended);
            AnswerKind::Complete { tool_error: false }
        };
        self.events
            .push(ExchangeEvent::Answered(Box::new(AnswerEvent {
                json: message,
                kind,
            })));
    }

    fn take_message(&mut self, message: Value, events: &mut Vec<ListenEvent>) {
        if message.get("method").is_none() {
            return self.take_response(message, events);
        }
        let (note, unread) = NotificationEvent::decode_checked(message, &self.limits);
        self.judge(&note, unread, events);
        self.notes.admit(note, &self.limits, &mut self.events);
    }

    /// What a notification on the stream means for the subscription.
    fn judge(
        &mut self,
        note: &NotificationEvent,
        unread: Option<Unread>,
        events: &mut Vec<ListenEvent>,
    ) {
        let method = note.method();
        let message = &note.json;
        let tagged = message
            .pointer("/params/_meta")
            .and_then(|meta| meta.get(META_SUBSCRIPTION_ID));
        if tagged != Some(&self.id_value) {
            // Not for this subscription (or untagged): never act on it.
            events.push(Self::finding(
                Rule::ListenWrongSubscriptionId,
                format!(
                    "{method} on the listen stream carries subscriptionId {}, expected {}",
                    tagged.map_or_else(|| "(none)".to_owned(), Value::to_string),
                    self.id_value
                ),
                message,
            ));
            return;
        }
        if self.state == State::AwaitingAcknowledgement {
            if method != SubscriptionsAcknowledgedNotificationMethod::VALUE {
                events.push(Self::finding(
                    Rule::ListenNotAcknowledgedFirst,
                    format!(
                        "{method} arrived before {}",
                        SubscriptionsAcknowledgedNotificationMethod::VALUE
                    ),
                    message,
                ));
                return;
            }
            // An acknowledgement whose filter does not read grants nothing.
            let filter = match &note.kind {
                NotificationKind::ListenAcknowledged(filter) => filter.clone(),
                _ => ListenFilter::default(),
            };
            if filter != self.requested {
                events.push(Self::finding(
                    Rule::ListenFilterNarrowed,
                    "the server acknowledged a different filter than the one requested".into(),
                    message,
                ));
            }
            self.state = State::Active;
            self.acknowledged = Some(filter.clone());
            events.push(ListenEvent::Acknowledged { filter });
            return;
        }
        let allowed = self.acknowledged.clone().unwrap_or_default();
        match unread {
            Some(Unread::Schema(error)) => {
                return events.push(Self::finding(
                    Rule::MalformedResult,
                    format!("{method} does not match the schema: {error}"),
                    message,
                ));
            }
            // Not acted on: the task's next `tasks/get` meets the same bound and ends it.
            Some(Unread::OverBound(error)) => {
                if let Some(finding) = error.finding() {
                    // Without the message: over a bound, it is too big to keep twice.
                    events.push(ListenEvent::Finding(Finding {
                        explanation: format!("{method}: {}", finding.explanation),
                        ..finding
                    }));
                }
                return;
            }
            None => {}
        }
        let listen_event = match &note.kind {
            NotificationKind::Task(task) if allowed.allows_task(&task.task.task_id) => {
                ListenEvent::TaskSnapshot {
                    task: task.as_ref().clone(),
                    message: message.clone(),
                }
            }
            NotificationKind::ToolsListChanged if allowed.tools_list_changed == Some(true) => {
                ListenEvent::ToolsListChanged
            }
            NotificationKind::PromptsListChanged if allowed.prompts_list_changed == Some(true) => {
                ListenEvent::PromptsListChanged
            }
            NotificationKind::ResourcesListChanged
                if allowed.resources_list_changed == Some(true) =>
            {
                ListenEvent::ResourcesListChanged
            }
            NotificationKind::ResourceUpdated { uri }
                if allowed.resource_subscriptions.is_some() =>
            {
                ListenEvent::ResourceUpdated { uri: uri.clone() }
            }
            _ => Self::finding(
                Rule::ListenUnrequestedNotification,
                format!("{method} arrived on a listen stream that did not subscribe to it"),
                message,
            ),
        };
        events.push(listen_event);
    }
}

#[cfg(test)]
mod tests;
