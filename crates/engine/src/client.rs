//! The client's identity and the commands that build requests.

use std::marker::PhantomData;

use rmcp::model::{
    ClientCapabilities, DiscoverRequestParams, Implementation, JsonRpcRequest,
    PaginatedRequestParams, ProtocolVersion, Request, RequestId, RequestMetaObject,
};

use crate::method::{Discover, ListTools, McpMethod};
use crate::outgoing::OutgoingRequest;
use crate::protocol;
use crate::response::Limits;

/// Who the client says it is and what it declares on every request.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub client_info: Implementation,
    /// Declared per request; only what the client really handles.
    pub capabilities: ClientCapabilities,
    pub limits: Limits,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            client_info: Implementation::new("holdbay", env!("CARGO_PKG_VERSION"))
                .with_title("Holdbay"),
            // Nothing optional is handled yet: no elicitation, no tasks.
            capabilities: ClientCapabilities::default(),
            limits: Limits::default(),
        }
    }
}

/// Builds requests with fresh ids and the 2026-07-28 `_meta` envelope and headers.
#[derive(Debug, Clone)]
pub struct Client {
    config: ClientConfig,
    next_id: i64,
}

impl Client {
    pub fn new(config: ClientConfig) -> Self {
        Self { config, next_id: 1 }
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// `server/discover`.
    pub fn discover(&mut self) -> OutgoingRequest<Discover> {
        self.build(DiscoverRequestParams {})
    }

    /// One page of `tools/list`; `cursor` is the previous page's opaque `nextCursor`.
    pub fn list_tools(&mut self, cursor: Option<String>) -> OutgoingRequest<ListTools> {
        self.build(PaginatedRequestParams::default().with_cursor(cursor))
    }

    fn fresh_id(&mut self) -> RequestId {
        let id = self.next_id;
        self.next_id += 1;
        RequestId::Number(id)
    }

    fn build<M: McpMethod>(&mut self, params: M::Params) -> OutgoingRequest<M> {
        let id = self.fresh_id();
        let mut request: Request<M::Name, M::Params> = Request::new(params);
        request
            .extensions
            .insert(RequestMetaObject::with_client_context(
                ProtocolVersion::V_2026_07_28,
                self.config.client_info.clone(),
                self.config.capabilities.clone(),
            ));
        let body = serde_json::to_string(&JsonRpcRequest::new(id.clone(), request))
            // Serializing rmcp's own request types into a String has no failure mode short of
            // a bug in those types; an empty body would be rejected loudly by any server.
            .unwrap_or_default();
        let headers = vec![
            ("Content-Type", protocol::CONTENT_TYPE_JSON.to_owned()),
            ("Accept", protocol::ACCEPT.to_owned()),
            (
                protocol::HEADER_PROTOCOL_VERSION,
                protocol::PROTOCOL_VERSION.to_owned(),
            ),
            (protocol::HEADER_METHOD, M::name().to_owned()),
        ];
        OutgoingRequest {
            id,
            headers,
            body,
            limits: self.config.limits,
            method: PhantomData,
        }
    }
}

impl Default for Client {
    fn default() -> Self {
        Self::new(ClientConfig::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn body_of<M: McpMethod>(request: &OutgoingRequest<M>) -> Value {
        serde_json::from_str(request.body()).expect("the engine builds valid JSON")
    }

    #[test]
    fn discover_carries_the_meta_envelope() {
        let mut client = Client::default();
        let request = client.discover();
        let body = body_of(&request);
        assert_eq!(body["jsonrpc"], "2.0");
        assert_eq!(body["method"], "server/discover");
        let meta = &body["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"],
            "holdbay"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"],
            json!({})
        );
    }

    #[test]
    fn discover_headers_mirror_method_and_version() {
        let mut client = Client::default();
        let request = client.discover();
        let header = |name: &str| {
            request
                .headers()
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(header("content-type"), Some("application/json"));
        assert_eq!(
            header("accept"),
            Some("application/json, text/event-stream")
        );
        assert_eq!(header("mcp-protocol-version"), Some("2026-07-28"));
        assert_eq!(header("mcp-method"), Some("server/discover"));
        assert_eq!(header("mcp-name"), None);
    }

    #[test]
    fn every_request_gets_a_fresh_non_null_id() {
        let mut client = Client::default();
        let ids: Vec<Value> = (0..5)
            .map(|i| {
                if i % 2 == 0 {
                    body_of(&client.discover())["id"].clone()
                } else {
                    body_of(&client.list_tools(None))["id"].clone()
                }
            })
            .collect();
        for (i, id) in ids.iter().enumerate() {
            assert!(id.is_number(), "id {id} must be a number");
            assert!(!ids[..i].contains(id), "id {id} was reused");
        }
    }

    #[test]
    fn list_tools_sends_the_cursor_only_when_given() {
        let mut client = Client::default();
        let first = body_of(&client.list_tools(None));
        assert!(first["params"].get("cursor").is_none());
        let next = body_of(&client.list_tools(Some(String::new())));
        // An empty string is a valid cursor and must be sent as-is.
        assert_eq!(next["params"]["cursor"], "");
    }
}
