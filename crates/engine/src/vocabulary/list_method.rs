//! The paginated list methods (§11): `PaginatedRequestParams` in, one page of items out,
//! each method saying which capability offers it and what its items are called.

use std::fmt::Debug;

use rmcp::model::{
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool,
};

use crate::vocabulary::method::{
    ListPrompts, ListResourceTemplates, ListResources, ListTools, McpMethod,
};

/// A paginated list method (§11): `PaginatedRequestParams` in, one page of items out.
pub trait ListMethod: McpMethod<Params = PaginatedRequestParams> {
    /// What the list holds.
    type Item: Debug + Clone;

    /// A page's items, in server order, and its `nextCursor`.
    fn split_page(page: Self::Output) -> (Vec<Self::Item>, Option<String>);

    /// Whether a server with these capabilities offers the list: calling a method gated by a
    /// capability the server did not advertise only earns `-32601` (§4).
    fn offered_by(capabilities: &ServerCapabilities) -> bool;

    /// The item's `name`, which [`crate::Limits::max_name_bytes`] bounds.
    fn name_of(item: &Self::Item) -> &str;

    /// The item's display title, when it has one besides its name.
    fn title_of(item: &Self::Item) -> Option<&str>;

    /// What identifies the item besides its names, where a search looks: its description
    /// and, for a resource or a template, its URI.
    fn searched_text(item: &Self::Item) -> [Option<&str>; 2];

    /// The items a 2025-11-25 server runs as tasks when asked (`execution.taskSupport`
    /// `optional` or `required`; rmcp's types drop `execution`), read from a raw page.
    fn task_capable(_raw_page: &serde_json::Value) -> Vec<String> {
        Vec::new()
    }

    /// What the list calls one item, for messages.
    const ITEM: &'static str;
    /// What it calls several.
    const ITEMS: &'static str;
}

impl ListMethod for ListTools {
    type Item = Tool;

    fn split_page(page: ListToolsResult) -> (Vec<Tool>, Option<String>) {
        (page.tools, page.next_cursor)
    }

    fn offered_by(capabilities: &ServerCapabilities) -> bool {
        capabilities.tools.is_some()
    }

    fn task_capable(raw_page: &serde_json::Value) -> Vec<String> {
        let tools = raw_page.get("tools").and_then(serde_json::Value::as_array);
        tools
            .into_iter()
            .flatten()
            .filter(|tool| {
                let support = tool.pointer("/execution/taskSupport");
                matches!(
                    support.and_then(serde_json::Value::as_str),
                    Some("optional" | "required")
                )
            })
            .filter_map(|tool| tool.get("name")?.as_str().map(str::to_owned))
            .collect()
    }

    fn name_of(item: &Tool) -> &str {
        &item.name
    }

    fn title_of(item: &Tool) -> Option<&str> {
        tool_title(item)
    }

    fn searched_text(item: &Tool) -> [Option<&str>; 2] {
        [item.description.as_deref(), None]
    }

    const ITEM: &'static str = "tool";
    const ITEMS: &'static str = "tools";
}

impl ListMethod for ListPrompts {
    type Item = Prompt;

    fn split_page(page: ListPromptsResult) -> (Vec<Prompt>, Option<String>) {
        (page.prompts, page.next_cursor)
    }

    fn offered_by(capabilities: &ServerCapabilities) -> bool {
        capabilities.prompts.is_some()
    }

    fn name_of(item: &Prompt) -> &str {
        &item.name
    }

    fn title_of(item: &Prompt) -> Option<&str> {
        item.title.as_deref()
    }

    fn searched_text(item: &Prompt) -> [Option<&str>; 2] {
        [item.description.as_deref(), None]
    }

    const ITEM: &'static str = "prompt";
    const ITEMS: &'static str = "prompts";
}

impl ListMethod for ListResources {
    type Item = Resource;

    fn split_page(page: ListResourcesResult) -> (Vec<Resource>, Option<String>) {
        (page.resources, page.next_cursor)
    }

    fn offered_by(capabilities: &ServerCapabilities) -> bool {
        capabilities.resources.is_some()
    }

    fn name_of(item: &Resource) -> &str {
        &item.name
    }

    fn title_of(item: &Resource) -> Option<&str> {
        item.title.as_deref()
    }

    fn searched_text(item: &Resource) -> [Option<&str>; 2] {
        [item.description.as_deref(), Some(&item.uri)]
    }

    const ITEM: &'static str = "resource";
    const ITEMS: &'static str = "resources";
}

impl ListMethod for ListResourceTemplates {
    type Item = ResourceTemplate;

    fn split_page(page: ListResourceTemplatesResult) -> (Vec<ResourceTemplate>, Option<String>) {
        (page.resource_templates, page.next_cursor)
    }

    /// Templates come with the `resources` capability; there is no flag of their own.
    fn offered_by(capabilities: &ServerCapabilities) -> bool {
        capabilities.resources.is_some()
    }

    fn name_of(item: &ResourceTemplate) -> &str {
        &item.name
    }

    fn title_of(item: &ResourceTemplate) -> Option<&str> {
        item.title.as_deref()
    }

    fn searched_text(item: &ResourceTemplate) -> [Option<&str>; 2] {
        [item.description.as_deref(), Some(&item.uri_template)]
    }

    const ITEM: &'static str = "resource template";
    const ITEMS: &'static str = "resource templates";
}

/// The name to show for a tool: `title`, then `annotations.title`, then `name` (the spec's
/// display order).
pub fn tool_display_name(tool: &Tool) -> &str {
    tool_title(tool).unwrap_or(&tool.name)
}

/// A tool's display title, when it has one: `title`, then `annotations.title`.
pub fn tool_title(tool: &Tool) -> Option<&str> {
    tool.title
        .as_deref()
        .or_else(|| tool.annotations.as_ref()?.title.as_deref())
}
