//! The MCP request handler behind `/mcp`: it asks the active fixture sets ([`ActiveSets`])
//! for tools, prompts, resources and completions, and the task runtime for tasks. One
//! instance serves one request (2026-07-28 is stateless); all state lives in [`Shared`].

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams,
    CompleteResult, GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::sets::{ActiveSets, one_page};
use crate::demo::{INSTRUCTIONS, SERVER_NAME, SERVER_TITLE};
use crate::fixture_kit::{Asked, Call};
use crate::principal::Principal;
use crate::shared::Shared;

#[derive(Clone)]
pub struct FixtureServer {
    shared: Arc<Shared>,
    sets: Arc<ActiveSets>,
}

impl FixtureServer {
    pub fn new(shared: Arc<Shared>, sets: Arc<ActiveSets>) -> Self {
        Self { shared, sets }
    }

    fn asked<'a, P>(
        &'a self,
        params: &'a P,
        context: &'a RequestContext<RoleServer>,
    ) -> Asked<'a, P> {
        Asked {
            shared: &self.shared,
            context,
            params,
        }
    }
}

impl ServerHandler for FixtureServer {
    fn get_info(&self) -> ServerConfig {
        let base = ServerCapabilities::builder()
            .enable_tools()
            .enable_tasks()
            .build();
        let capabilities = self
            .sets
            .iter()
            .fold(base, |capabilities, set| set.capabilities(capabilities));
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"))
                    .with_title(SERVER_TITLE),
            )
            .with_instructions(INSTRUCTIONS)
    }

    // A modern-only server: no `initialize`, no sessions.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2026_07_28])
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request.and_then(|request| request.cursor);
        self.sets.list_tools(cursor.as_deref())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.sets.tool(name)
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
        self.sets.call(&call).await
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

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        one_page("prompts/list", cursor_of(&request))?;
        let prompts = self.sets.iter().flat_map(|set| set.prompts()).collect();
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let asked = self.asked(&request, &context);
        self.sets
            .iter()
            .find_map(|set| set.get_prompt(&asked))
            .unwrap_or_else(|| {
                Err(ErrorData::invalid_params(
                    format!("unknown prompt: {}", request.name),
                    None,
                ))
            })
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        one_page("resources/list", cursor_of(&request))?;
        let resources = self.sets.iter().flat_map(|set| set.resources()).collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        one_page("resources/templates/list", cursor_of(&request))?;
        let templates = self
            .sets
            .iter()
            .flat_map(|set| set.resource_templates())
            .collect();
        Ok(ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let asked = self.asked(&request, &context);
        self.sets
            .iter()
            .find_map(|set| set.read_resource(&asked))
            .unwrap_or_else(|| {
                Err(ErrorData::resource_not_found(
                    format!("no resource at {}", request.uri),
                    Some(serde_json::json!({ "uri": request.uri })),
                ))
            })
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.sets
            .iter()
            .find_map(|set| set.complete(&request))
            .unwrap_or_else(|| Ok(CompleteResult::default()))
    }
}

fn cursor_of(request: &Option<PaginatedRequestParams>) -> Option<&str> {
    request
        .as_ref()
        .and_then(|request| request.cursor.as_deref())
}
