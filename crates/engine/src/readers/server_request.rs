//! A JSON-RPC request from the server (legacy sessions), read as the input request of an
//! MRTR round is: the same typed [`InputRequestKind`], so one card and one
//! [`crate::InputAnswer`] serve both eras.

use rmcp::model::{InputRequest, RequestId};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::vocabulary::events::{InputAsk, InputRequestKind, ServerRequestEvent};

/// The method of a server's liveness check, answered at once with an empty result.
const PING: &str = "ping";

impl ServerRequestEvent {
    /// `message` is a JSON-RPC request (it has a `method` and an `id`); it comes back when
    /// its id is not a string or number, or its method not a string.
    pub(crate) fn read(message: Value) -> Result<Self, Value> {
        let id = message
            .get("id")
            .and_then(|id| RequestId::deserialize(id).ok());
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        match (id, method) {
            (Some(id), Some(method)) => Ok(Self {
                id,
                method,
                json: message,
            }),
            _ => Err(message),
        }
    }

    /// What it asks, read as an MRTR input request is (its `key` is the id as text), so the
    /// same cards and [`crate::InputAnswer`]s serve both eras.
    pub fn ask(&self) -> InputAsk {
        // rmcp's request types read `method` and `params` only.
        let bare = json!({"method": self.method, "params": self.json.get("params")});
        let kind = match serde_json::from_value::<InputRequest>(bare) {
            Ok(request) => InputRequestKind::of_received(&request, Some(&self.json)),
            Err(_) => InputRequestKind::Unknown {
                method: self.method.clone(),
            },
        };
        InputAsk {
            key: self.id.to_string(),
            kind,
            json: self.json.clone(),
        }
    }

    /// `ping`: the client answers it itself, with an empty result.
    pub fn is_ping(&self) -> bool {
        self.method == PING
    }

    /// The server's method, as it spelled it.
    pub fn method(&self) -> &str {
        &self.method
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_elicitation_reads_as_the_form_an_mrtr_round_would_show() {
        let message = json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
            "params": {"message": "Your name?", "requestedSchema": {"type": "object",
                "properties": {"name": {"type": "string", "default": "Ada"}}}}});
        let asked = ServerRequestEvent::read(message.clone()).expect("a request");
        assert_eq!(asked.id, RequestId::Number(7));
        let ask = asked.ask();
        assert_eq!(ask.key, "7");
        assert_eq!(ask.json, message);
        match &ask.kind {
            InputRequestKind::Form { message, schema } => {
                assert_eq!(message, "Your name?");
                assert_eq!(schema["properties"]["name"]["default"], "Ada");
            }
            other => panic!("not a form: {other:?}"),
        }
        assert!(!asked.is_ping());
    }

    #[test]
    fn url_mode_sampling_roots_and_ping_are_told_apart() {
        let url = json!({"jsonrpc": "2.0", "id": "a", "method": "elicitation/create",
            "params": {"mode": "url", "message": "Sign in", "url": "https://example.com/x",
                "elicitationId": "e1"}});
        let read = ServerRequestEvent::read(url).expect("a request");
        assert_eq!(read.id, RequestId::String("a".into()));
        assert!(matches!(read.ask().kind, InputRequestKind::Url { .. }));
        let roots = json!({"jsonrpc": "2.0", "id": 2, "method": "roots/list"});
        assert_eq!(
            ServerRequestEvent::read(roots).ok().map(|r| r.ask().kind),
            Some(InputRequestKind::Roots)
        );
        let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
        assert!(ServerRequestEvent::read(ping).is_ok_and(|r| r.is_ping()));
        let odd = json!({"jsonrpc": "2.0", "id": {"no": 1}, "method": "ping"});
        assert!(ServerRequestEvent::read(odd).is_err());
    }
}
