//! The demo fixture set Holdbay's lessons run against: one tool per teaching scenario
//! (durable tasks, sealed `requestState`), and the prompts, resources and completions of
//! its library.

pub mod catalog;
pub mod consent;
pub mod library;
pub mod scenarios;

use rmcp::ErrorData;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse, Prompt,
    ReadResourceRequestParams, ReadResourceResponse, Resource, ResourceTemplate,
    ServerCapabilities,
};

use crate::fixture_kit::{Asked, FixtureSet, Tool};
use crate::tasks::JobRegistry;
use scenarios::{bulk_import, flaky_job, plan_migration, run_pipeline};

/// Name the app shows after `server/discover`.
pub const SERVER_NAME: &str = "holdbay-demo";
/// The title shown beside it.
pub const SERVER_TITLE: &str = "Holdbay demo server";
/// What the server says it is for.
pub const INSTRUCTIONS: &str = "A teaching server for Holdbay: each tool shows one shape of \
                                an MCP exchange (a complete result, input rounds, URL \
                                consent, tasks, progress, failure).";

/// The teaching scenarios and their library: always served.
pub struct DemoSet;

impl FixtureSet for DemoSet {
    fn tools(&self) -> Vec<&'static Tool> {
        catalog::TOOLS.iter().collect()
    }

    fn capabilities(&self, capabilities: ServerCapabilities) -> ServerCapabilities {
        library::capabilities(capabilities)
    }

    fn register_jobs(&self, jobs: &mut JobRegistry) {
        jobs.register(run_pipeline::KIND, run_pipeline::Job);
        jobs.register(plan_migration::KIND, plan_migration::Job);
        jobs.register(bulk_import::KIND, bulk_import::Job);
        jobs.register(flaky_job::KIND, flaky_job::Job);
    }

    fn prompts(&self) -> Vec<Prompt> {
        library::prompts::list()
    }

    fn get_prompt(
        &self,
        asked: &Asked<'_, GetPromptRequestParams>,
    ) -> Option<Result<GetPromptResponse, ErrorData>> {
        library::prompts::get(asked.shared, asked.params, asked.context)
    }

    fn resources(&self) -> Vec<Resource> {
        library::resources::list()
    }

    fn resource_templates(&self) -> Vec<ResourceTemplate> {
        library::resources::templates()
    }

    fn read_resource(
        &self,
        asked: &Asked<'_, ReadResourceRequestParams>,
    ) -> Option<Result<ReadResourceResponse, ErrorData>> {
        library::resources::read(asked.shared, asked.params, asked.context)
    }

    fn complete(
        &self,
        request: &CompleteRequestParams,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        library::completion::complete(request).map(Ok)
    }
}
