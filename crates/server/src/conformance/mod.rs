//! The fixture set for `@modelcontextprotocol/conformance` (`holdbay serve --fixtures
//! conformance`): the tools, prompts and `test://` resources its server scenarios call,
//! by the names the suite expects. Task fixtures run on the server's durable task runtime
//! and MRTR fixtures on the sealed rounds every set uses, so the suite grades the real
//! machinery.

mod completion;
mod content;
mod headers;
mod inputs;
mod jobs;
mod media;
mod mrtr;
mod prompts;
mod resources;
mod stateless;
mod tasks;

use rmcp::ErrorData;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse, Prompt,
    PromptsCapability, ReadResourceRequestParams, ReadResourceResponse, Resource, ResourceTemplate,
    ResourcesCapability, ServerCapabilities,
};

use crate::fixture_kit::{Asked, FixtureSet, Tool};
use crate::tasks::JobRegistry;

/// The suite's fixtures, listed after the demo's.
pub struct ConformanceSet;

impl FixtureSet for ConformanceSet {
    fn tools(&self) -> Vec<&'static Tool> {
        [
            content::TOOLS,
            headers::TOOLS,
            stateless::TOOLS,
            mrtr::TOOLS,
            tasks::TOOLS,
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Prompts, resources and completions. No `listChanged` or `subscribe`: the fixtures
    /// never change, and declaring them would promise `subscriptions/listen` notifications.
    fn capabilities(&self, mut capabilities: ServerCapabilities) -> ServerCapabilities {
        capabilities.prompts = Some(PromptsCapability::default());
        capabilities.resources = Some(ResourcesCapability::default());
        capabilities.completions = Some(Default::default());
        capabilities
    }

    fn register_jobs(&self, registry: &mut JobRegistry) {
        jobs::register(registry);
    }

    fn prompts(&self) -> Vec<Prompt> {
        prompts::list()
    }

    fn get_prompt(
        &self,
        asked: &Asked<'_, GetPromptRequestParams>,
    ) -> Option<Result<GetPromptResponse, ErrorData>> {
        prompts::get(asked.params)
    }

    fn resources(&self) -> Vec<Resource> {
        resources::list()
    }

    fn resource_templates(&self) -> Vec<ResourceTemplate> {
        resources::templates()
    }

    fn read_resource(
        &self,
        asked: &Asked<'_, ReadResourceRequestParams>,
    ) -> Option<Result<ReadResourceResponse, ErrorData>> {
        resources::read(&asked.params.uri).map(|result| Ok(result.into()))
    }

    fn complete(
        &self,
        request: &CompleteRequestParams,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        completion::complete(request)
    }
}
