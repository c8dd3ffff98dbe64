//! The methods the client sends, each tied to the rmcp types of its params and result, so a
//! response is decoded by the method that was sent.

use rmcp::model::{
    ConstString, DiscoverRequestMethod, DiscoverRequestParams, DiscoverResult,
    ListToolsRequestMethod, ListToolsResult, PaginatedRequestParams,
};
use serde::{Serialize, de::DeserializeOwned};

/// One client → server request method of MCP 2026-07-28.
pub trait McpMethod {
    /// rmcp's constant method name (`server/discover`, …).
    type Name: ConstString + Serialize;
    /// The params, without `_meta` (the engine adds it).
    type Params: Serialize;
    /// The `complete` result.
    type Output: DeserializeOwned;
    /// Whether the result is a `CacheableResult` (`ttlMs`/`cacheScope` required in 2026-07-28).
    const CACHEABLE: bool;

    /// The method name as sent on the wire.
    fn name() -> &'static str {
        <Self::Name as ConstString>::VALUE
    }
}

/// `server/discover`: the server's versions, capabilities and identity.
#[derive(Debug, Clone, Copy)]
pub struct Discover;

impl McpMethod for Discover {
    type Name = DiscoverRequestMethod;
    type Params = DiscoverRequestParams;
    type Output = DiscoverResult;
    const CACHEABLE: bool = true;
}

/// `tools/list`: one page of the server's tools.
#[derive(Debug, Clone, Copy)]
pub struct ListTools;

impl McpMethod for ListTools {
    type Name = ListToolsRequestMethod;
    type Params = PaginatedRequestParams;
    type Output = ListToolsResult;
    const CACHEABLE: bool = true;
}
