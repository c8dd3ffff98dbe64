//! A fixture set: the tools, prompts, resources and completions that the demo, or one
//! `--fixtures` choice, brings, with the task jobs its tools start. The MCP handler asks
//! each active set in turn; the first that knows a name answers it.

use std::sync::Arc;

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse, Prompt,
    ReadResourceRequestParams, ReadResourceResponse, Resource, ResourceTemplate,
    ServerCapabilities,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::tool::Tool;
use crate::shared::Shared;
use crate::tasks::JobRegistry;

/// A request for a prompt or a resource, as a set sees it: the shared state and the
/// request's context besides its parameters, for the ones that pause for input.
pub struct Asked<'a, P> {
    pub shared: &'a Arc<Shared>,
    pub context: &'a RequestContext<RoleServer>,
    pub params: &'a P,
}

pub trait FixtureSet: Send + Sync {
    /// The set's tools, in the order `tools/list` shows them.
    fn tools(&self) -> Vec<&'static Tool>;

    /// `capabilities` with what this set serves added.
    fn capabilities(&self, capabilities: ServerCapabilities) -> ServerCapabilities {
        capabilities
    }

    /// The task jobs this set's tools start.
    fn register_jobs(&self, _jobs: &mut JobRegistry) {}

    fn prompts(&self) -> Vec<Prompt> {
        Vec::new()
    }

    /// `prompts/get`; `None` when this set has no prompt of that name.
    fn get_prompt(
        &self,
        _asked: &Asked<'_, GetPromptRequestParams>,
    ) -> Option<Result<GetPromptResponse, ErrorData>> {
        None
    }

    fn resources(&self) -> Vec<Resource> {
        Vec::new()
    }

    fn resource_templates(&self) -> Vec<ResourceTemplate> {
        Vec::new()
    }

    /// `resources/read`; `None` when this set has no resource at that URI.
    fn read_resource(
        &self,
        _asked: &Asked<'_, ReadResourceRequestParams>,
    ) -> Option<Result<ReadResourceResponse, ErrorData>> {
        None
    }

    /// `completion/complete`; `None` when this set has nothing to suggest for that argument.
    fn complete(
        &self,
        _request: &CompleteRequestParams,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        None
    }
}
