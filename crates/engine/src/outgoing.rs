//! A request ready to POST: id, headers and JSON body, all decided by the engine.

use std::marker::PhantomData;

use rmcp::model::RequestId;

use crate::method::McpMethod;
use crate::response::{Limits, ResponseReader};

/// One JSON-RPC request as it goes on the wire. The caller sends `headers` and `body` with an
/// HTTP POST to the MCP endpoint, then reads the answer with [`OutgoingRequest::reader`].
#[derive(Debug, Clone)]
pub struct OutgoingRequest<M: McpMethod> {
    pub(crate) id: RequestId,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) body: String,
    pub(crate) limits: Limits,
    pub(crate) method: PhantomData<M>,
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
    pub fn headers(&self) -> &[(&'static str, String)] {
        &self.headers
    }

    /// The JSON body.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// Start reading the HTTP response to this request, once its status and
    /// `Content-Type` are known.
    pub fn reader(&self, status: u16, content_type: Option<&str>) -> ResponseReader<M> {
        ResponseReader::new(self.id.clone(), status, content_type, self.limits)
    }
}
