//! What each input request asks for, read from rmcp's typed request and the JSON as sent.

use rmcp::model::{
    ConstString, CreateMessageRequestMethod, ElicitRequestParams, ElicitationCreateRequestMethod,
    InputRequest, InputRequests, JsonObject, ListRootsRequestMethod,
};
use serde_json::Value;

use crate::vocabulary::events::{InputAsk, InputRequestKind};

impl InputAsk {
    /// The asks of an `inputRequests` map, in the server's key order. `received` is the map
    /// as the server sent it (its order, and each request's real JSON); the typed map says
    /// what each request is.
    pub fn from_requests(requests: &InputRequests, received: Option<&Value>) -> Vec<InputAsk> {
        server_order(requests, received)
            .iter()
            .filter_map(|key| Self::of_key(requests, key, received))
            .collect()
    }

    /// The ask under `key`: its kind, and its JSON as the server sent it when `received` has
    /// it (else as rmcp writes the typed request back, which keeps the schema's order).
    pub(crate) fn of_key(
        requests: &InputRequests,
        key: &str,
        received: Option<&Value>,
    ) -> Option<InputAsk> {
        let request = requests.get(key)?;
        let json = received.and_then(|received| received.get(key));
        Some(InputAsk {
            key: key.to_owned(),
            kind: InputRequestKind::of_received(request, json),
            json: json
                .cloned()
                .unwrap_or_else(|| serde_json::to_value(request).unwrap_or_default()),
        })
    }
}

/// The `inputRequests` object inside a message as received: a result (`tasks/get`, an MRTR
/// round), a notification (`notifications/tasks`), or a whole JSON-RPC response.
pub(crate) fn received_input_requests(message: &Value) -> Option<&Value> {
    message
        .get("inputRequests")
        .or_else(|| message.pointer("/params/inputRequests"))
        .or_else(|| message.pointer("/result/inputRequests"))
}

/// The keys of `requests` in the server's order: as they stand in `received` (serde_json
/// keeps the wire order), then any it lacks, in key order.
pub(crate) fn server_order(requests: &InputRequests, received: Option<&Value>) -> Vec<String> {
    let received = received.and_then(Value::as_object);
    let in_received_order = received
        .into_iter()
        .flat_map(|received| received.keys())
        .filter(|key| requests.contains_key(*key));
    let the_rest = requests
        .keys()
        .filter(|key| !received.is_some_and(|received| received.contains_key(*key)));
    in_received_order.chain(the_rest).cloned().collect()
}

impl InputRequestKind {
    /// The kind of a typed input request (rmcp's model).
    pub fn of(request: &InputRequest) -> Self {
        Self::of_received(request, None)
    }

    /// The kind of a typed input request; a form's schema is taken from `received` (the
    /// request as sent) when given, so it keeps the server's exact JSON.
    pub fn of_received(request: &InputRequest, received: Option<&Value>) -> Self {
        match request {
            InputRequest::Elicitation(elicit) => match &elicit.params {
                ElicitRequestParams::FormElicitationParams {
                    message,
                    requested_schema,
                    ..
                } => Self::Form {
                    message: message.clone(),
                    schema: received
                        .and_then(|json| json.get("params")?.get("requestedSchema")?.as_object())
                        .cloned()
                        .unwrap_or_else(|| as_object(serde_json::to_value(requested_schema))),
                },
                ElicitRequestParams::UrlElicitationParams { message, url, .. } => Self::Url {
                    message: message.clone(),
                    url: url.clone(),
                },
                #[allow(unreachable_patterns)] // rmcp's enum is non-exhaustive
                _ => Self::Unknown {
                    method: request_method(request),
                },
            },
            InputRequest::CreateMessage(_) => Self::Sampling,
            InputRequest::ListRoots(_) => Self::Roots,
            #[allow(unreachable_patterns)]
            _ => Self::Unknown {
                method: request_method(request),
            },
        }
    }

    /// The input request's method as the wire spells it.
    pub fn method_name(&self) -> &str {
        match self {
            Self::Form { .. } | Self::Url { .. } => ElicitationCreateRequestMethod::VALUE,
            Self::Sampling => CreateMessageRequestMethod::VALUE,
            Self::Roots => ListRootsRequestMethod::VALUE,
            Self::Unknown { method } => method,
        }
    }

    /// `form` or `url` for an elicitation.
    pub fn mode_name(&self) -> Option<&'static str> {
        match self {
            Self::Form { .. } => Some("form"),
            Self::Url { .. } => Some("url"),
            _ => None,
        }
    }

    /// The message shown with the request, when it has one.
    pub fn message(&self) -> Option<&str> {
        match self {
            Self::Form { message, .. } | Self::Url { message, .. } => Some(message),
            _ => None,
        }
    }

    /// Whether this client declared the kind (form and URL elicitation): the others are
    /// declined unless the user chooses otherwise.
    pub fn is_declared(&self) -> bool {
        matches!(self, Self::Form { .. } | Self::Url { .. })
    }
}

fn as_object(value: Result<Value, serde_json::Error>) -> JsonObject {
    match value {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

fn request_method(request: &InputRequest) -> String {
    serde_json::to_value(request)
        .ok()
        .and_then(|value| value.get("method")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}
