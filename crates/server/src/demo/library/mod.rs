//! The demo's prompts, resources, resource template and completions: a prompt and a
//! template whose `prompts/get` and `resources/read` pause for input (MRTR, through the
//! same sealed rounds as the tools), static text and blob resources, and a prompt whose
//! messages carry every content kind.

pub mod completion;
pub mod media;
pub mod prompts;
pub mod resources;

use rmcp::model::{PromptsCapability, ResourcesCapability, ServerCapabilities};

/// Prompts, resources and completions. No `listChanged` or `subscribe`: nothing changes,
/// and declaring them would promise `subscriptions/listen` notifications.
pub fn capabilities(mut capabilities: ServerCapabilities) -> ServerCapabilities {
    capabilities.prompts = Some(PromptsCapability::default());
    capabilities.resources = Some(ResourcesCapability::default());
    capabilities.completions = Some(Default::default());
    capabilities
}
