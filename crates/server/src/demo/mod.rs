//! The demo MCP server that Holdbay's lessons run against: one tool per teaching
//! scenario, durable tasks, sealed `requestState`.

pub mod bookings;
mod call;
pub mod catalog;
pub mod consent;
pub mod library;
pub mod rounds;
pub mod scenarios;

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, GetTaskResult,
    Implementation, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities,
    ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub use call::Call;
pub use consent::ConsentBook;

use crate::options::FixtureSet;
use crate::principal::Principal;
use crate::shared::Shared;
use crate::tasks::JobRegistry;
use scenarios::{
    book_table, bulk_import, connect_account, deploy, echo, endless_questions, flaky_job,
    format_note, plan_migration, quick_sum, run_pipeline, slow_report, summarize_folder,
};

/// Name the app shows after `server/discover`.
pub const SERVER_NAME: &str = "holdbay-demo";

/// Register the task jobs of the scenarios that run as tasks.
pub fn register_jobs(jobs: &mut JobRegistry) {
    jobs.register(run_pipeline::KIND, run_pipeline::Job);
    jobs.register(plan_migration::KIND, plan_migration::Job);
    jobs.register(bulk_import::KIND, bulk_import::Job);
    jobs.register(flaky_job::KIND, flaky_job::Job);
}

/// The demo server. One instance serves one request (2026-07-28 is stateless); all
/// state lives in [`Shared`].
#[derive(Debug, Clone)]
pub struct DemoServer {
    shared: Arc<Shared>,
}

impl DemoServer {
    pub fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }

    fn conformance(&self) -> bool {
        self.shared.fixtures.contains(&FixtureSet::Conformance)
    }

    fn many_tools(&self) -> bool {
        self.shared.fixtures.contains(&FixtureSet::ManyTools)
    }

    /// The tools listed without `--fixtures many-tools`: the demo's, then the conformance
    /// suite's if asked for.
    fn own_tools(&self) -> Vec<Tool> {
        let mut tools = catalog::tools();
        if self.conformance() {
            tools.extend(crate::conformance::tools());
        }
        tools
    }

    async fn dispatch(&self, call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
        match call.tool() {
            "book_table" => book_table::call(call).await,
            "deploy" => deploy::call(call),
            "endless_questions" => endless_questions::call(call),
            "connect_account" => connect_account::call(call),
            "run_pipeline" => run_pipeline::call(call).await,
            "plan_migration" => plan_migration::call(call).await,
            "quick_sum" => quick_sum::call(call),
            "bulk_import" => bulk_import::call(call).await,
            "flaky_job" => flaky_job::call(call).await,
            "slow_report" => slow_report::call(call).await,
            "summarize_folder" => summarize_folder::call(call).await,
            "echo" => echo::call(call),
            "format_note" => format_note::call(call),
            other => {
                if self.many_tools()
                    && crate::many_tools::tool(self.own_tools().len(), other).is_some()
                {
                    return Ok(crate::many_tools::call(other, &call.arguments()));
                }
                if self.conformance()
                    && let Some(response) = crate::conformance::call_tool(call).await
                {
                    return response;
                }
                Err(ErrorData::invalid_params(
                    format!("unknown tool: {other}"),
                    None,
                ))
            }
        }
    }
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = library::capabilities(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        );
        let capabilities = if self.conformance() {
            crate::conformance::capabilities(capabilities)
        } else {
            capabilities
        };
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"))
                    .with_title("Holdbay demo server"),
            )
            .with_instructions(
                "A teaching server for Holdbay: each tool shows one shape of an MCP exchange \
                 (a complete result, input rounds, URL consent, tasks, progress, failure).",
            )
    }

    // A modern-only teaching server: no `initialize`, no sessions.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2026_07_28])
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.own_tools();
        if !self.many_tools() {
            return Ok(ListToolsResult::with_all_items(tools));
        }
        let cursor = request.and_then(|request| request.cursor);
        let (page, next) = crate::many_tools::page(tools, cursor.as_deref())?;
        let mut result = ListToolsResult::with_all_items(page);
        result.next_cursor = next;
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let tools = self.own_tools();
        let count = tools.len();
        tools
            .into_iter()
            .find(|tool| tool.name == name)
            .or_else(|| {
                self.many_tools()
                    .then(|| crate::many_tools::tool(count, name))
                    .flatten()
            })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call {
            shared: &self.shared,
            principal: Principal::of(&context),
            request,
            context: &context,
        };
        self.dispatch(&call).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let owner = Principal::of(&context);
        let task = self
            .shared
            .tasks
            .get(owner.name(), &request.task_id)
            .await?;
        Ok(GetTaskResult::new(task))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = Principal::of(&context);
        self.shared
            .tasks
            .update(owner.name(), &request.task_id, request.input_responses)
            .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = Principal::of(&context);
        self.shared
            .tasks
            .cancel(owner.name(), &request.task_id)
            .await
    }

    // The demo's prompts, resources and completions come first; with `--fixtures
    // conformance` the suite's follow.

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, ErrorData> {
        let mut prompts = library::prompts::list();
        if self.conformance() {
            prompts.extend(crate::conformance::prompts::list().prompts);
        }
        Ok(rmcp::model::ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: rmcp::model::GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, ErrorData> {
        if let Some(response) = library::prompts::get(&self.shared, &request, &context) {
            return response;
        }
        if self.conformance() {
            return crate::conformance::prompts::get(&request);
        }
        Err(ErrorData::invalid_params(
            format!("unknown prompt: {}", request.name),
            None,
        ))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, ErrorData> {
        let mut resources = library::resources::list();
        if self.conformance() {
            resources.extend(crate::conformance::resources::list().resources);
        }
        Ok(rmcp::model::ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, ErrorData> {
        let mut templates = library::resources::templates();
        if self.conformance() {
            templates.extend(crate::conformance::resources::templates().resource_templates);
        }
        Ok(rmcp::model::ListResourceTemplatesResult::with_all_items(
            templates,
        ))
    }

    async fn read_resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, ErrorData> {
        if let Some(response) = library::resources::read(&self.shared, &request, &context) {
            return response;
        }
        if self.conformance() {
            return crate::conformance::resources::read(&request.uri)
                .map(rmcp::model::ReadResourceResponse::from);
        }
        Err(ErrorData::resource_not_found(
            format!("no resource at {}", request.uri),
            Some(serde_json::json!({ "uri": request.uri })),
        ))
    }

    async fn complete(
        &self,
        request: rmcp::model::CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CompleteResult, ErrorData> {
        if let Some(result) = library::completion::complete(&request) {
            return Ok(result);
        }
        if self.conformance() {
            return crate::conformance::completion::complete(&request);
        }
        Ok(rmcp::model::CompleteResult::default())
    }
}
