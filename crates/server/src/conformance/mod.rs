//! Fixtures for `@modelcontextprotocol/conformance` (`holdbay serve --fixtures
//! conformance`): the tools, prompts and `test://` resources its server scenarios call,
//! by the names the suite expects. Task fixtures run on the demo's task runtime and
//! MRTR fixtures use the demo's sealed rounds, so the suite grades the real machinery.

pub mod completion;
mod content;
mod headers;
mod inputs;
mod jobs;
mod media;
mod mrtr;
pub mod prompts;
pub mod resources;
mod stateless;
mod tasks;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, PromptsCapability, ResourcesCapability, ServerCapabilities, Tool,
};
use serde_json::{Value, json};

use crate::demo::Call;
use crate::demo::catalog::ToolSpec;
use crate::tasks::JobRegistry;

/// The input schema of a tool that takes no arguments.
const NO_ARGUMENTS: fn() -> Value = || json!({ "type": "object", "properties": {} });

/// Register the conformance task fixtures' jobs.
pub fn register_jobs(jobs: &mut JobRegistry) {
    jobs::register(jobs);
}

/// The demo's capabilities plus prompts, resources and completions. No `listChanged`
/// or `subscribe`: the fixtures never change, and declaring them would promise
/// `subscriptions/listen` notifications.
pub fn capabilities(demo: ServerCapabilities) -> ServerCapabilities {
    let mut capabilities = demo;
    capabilities.prompts = Some(PromptsCapability::default());
    capabilities.resources = Some(ResourcesCapability::default());
    capabilities.completions = Some(Default::default());
    capabilities
}

/// The fixture tools, after the demo's own.
pub fn tools() -> Vec<Tool> {
    [
        content::TOOLS,
        headers::TOOLS,
        stateless::TOOLS,
        mrtr::TOOLS,
        tasks::TOOLS,
    ]
    .into_iter()
    .flatten()
    .map(ToolSpec::tool)
    .collect()
}

/// Run a fixture tool; `None` when `call` names no fixture.
pub async fn call_tool(call: &Call<'_>) -> Option<Result<CallToolResponse, ErrorData>> {
    if let Some(response) = content::call(call).await {
        return Some(response);
    }
    if let Some(response) = headers::call(call) {
        return Some(response);
    }
    if let Some(response) = stateless::call(call).await {
        return Some(response);
    }
    if let Some(response) = mrtr::call(call) {
        return Some(response);
    }
    tasks::call(call).await
}
