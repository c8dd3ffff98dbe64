//! `--fixtures many-tools`: the scale of a large real server. `tools/list` lists 10,000 tools
//! (the demo's own first, then generated ones with realistic names, titles, descriptions and
//! input schemas, `github_create_issue` and its like), [`PAGE_SIZE`] a page through
//! `nextCursor` as a server with that many tools pages them. A generated tool answers a call
//! with what it was sent and changes nothing. Measured by `tests/e2e/bench-tools.mjs`.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject, Tool};
use serde_json::{Value, json};

/// Tools listed in all, the demo's own included.
pub const TOTAL: usize = 10_000;
/// Tools on one page of `tools/list`.
pub const PAGE_SIZE: usize = 500;

/// The services the generated tools act on: `(name prefix, how the service is written)`.
const SERVICES: [(&str, &str); 25] = [
    ("github", "GitHub"),
    ("gitlab", "GitLab"),
    ("jira", "Jira"),
    ("linear", "Linear"),
    ("slack", "Slack"),
    ("notion", "Notion"),
    ("confluence", "Confluence"),
    ("gdrive", "Google Drive"),
    ("gmail", "Gmail"),
    ("calendar", "Google Calendar"),
    ("salesforce", "Salesforce"),
    ("hubspot", "HubSpot"),
    ("stripe", "Stripe"),
    ("shopify", "Shopify"),
    ("postgres", "PostgreSQL"),
    ("bigquery", "BigQuery"),
    ("s3", "Amazon S3"),
    ("kubernetes", "Kubernetes"),
    ("datadog", "Datadog"),
    ("sentry", "Sentry"),
    ("pagerduty", "PagerDuty"),
    ("figma", "Figma"),
    ("asana", "Asana"),
    ("trello", "Trello"),
    ("zendesk", "Zendesk"),
];

/// What a generated tool does; decides its description and its input schema.
#[derive(Debug, Clone, Copy)]
enum Verb {
    List,
    Get,
    Search,
    Create,
    Update,
    Delete,
    Archive,
    Restore,
    Export,
    Import,
    Assign,
    Comment,
    Share,
    Move,
    Copy,
    Lock,
    Unlock,
    Tag,
    Watch,
    Summarize,
}

const VERBS: [Verb; 20] = [
    Verb::List,
    Verb::Get,
    Verb::Search,
    Verb::Create,
    Verb::Update,
    Verb::Delete,
    Verb::Archive,
    Verb::Restore,
    Verb::Export,
    Verb::Import,
    Verb::Assign,
    Verb::Comment,
    Verb::Share,
    Verb::Move,
    Verb::Copy,
    Verb::Lock,
    Verb::Unlock,
    Verb::Tag,
    Verb::Watch,
    Verb::Summarize,
];

/// What the tools act on: `(one, many)`.
const OBJECTS: [(&str, &str); 20] = [
    ("issue", "issues"),
    ("pull_request", "pull_requests"),
    ("repository", "repositories"),
    ("branch", "branches"),
    ("release", "releases"),
    ("label", "labels"),
    ("milestone", "milestones"),
    ("project", "projects"),
    ("user", "users"),
    ("team", "teams"),
    ("comment", "comments"),
    ("file", "files"),
    ("folder", "folders"),
    ("page", "pages"),
    ("ticket", "tickets"),
    ("invoice", "invoices"),
    ("customer", "customers"),
    ("order", "orders"),
    ("alert", "alerts"),
    ("report", "reports"),
];

impl Verb {
    /// The verb as a tool name writes it.
    fn word(self) -> &'static str {
        match self {
            Self::List => "list",
            Self::Get => "get",
            Self::Search => "search",
            Self::Create => "create",
            Self::Update => "update",
            Self::Delete => "delete",
            Self::Archive => "archive",
            Self::Restore => "restore",
            Self::Export => "export",
            Self::Import => "import",
            Self::Assign => "assign",
            Self::Comment => "comment_on",
            Self::Share => "share",
            Self::Move => "move",
            Self::Copy => "copy",
            Self::Lock => "lock",
            Self::Unlock => "unlock",
            Self::Tag => "tag",
            Self::Watch => "watch",
            Self::Summarize => "summarize",
        }
    }

    /// Whether the name takes the object's plural (`list_issues`).
    fn many(self) -> bool {
        matches!(
            self,
            Self::List | Self::Search | Self::Export | Self::Import
        )
    }

    fn description(self, object: &str, many: &str, service: &str) -> String {
        // "a label", "an issue".
        let a = if object.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        match self {
            Self::List => format!(
                "List the {many} in {service}, newest first, a page at a time. Filter by state \
                 and project; pass the returned cursor to get the next page."
            ),
            Self::Get => format!(
                "Get one {object} from {service} by its id, with every field {service} keeps \
                 for it and the links to related items."
            ),
            Self::Search => format!(
                "Search {service} {many} by text. Matches titles and bodies; returns the best \
                 matches first with a short excerpt of each."
            ),
            Self::Create => format!(
                "Create a new {object} in {service}. Fields left out take {service}'s defaults; \
                 returns the new {object}'s id and URL."
            ),
            Self::Update => format!(
                "Change fields of an existing {object} in {service}. Only the fields given are \
                 changed; the others keep their values."
            ),
            Self::Delete => format!(
                "Delete {a} {object} from {service} for good. Asks for confirmation: deleted \
                 items cannot be restored."
            ),
            Self::Archive => format!(
                "Archive {a} {object} in {service}: it leaves the default views but keeps its \
                 history, and can be restored."
            ),
            Self::Restore => format!(
                "Restore an archived {object} in {service} to where it was, with its history."
            ),
            Self::Export => format!(
                "Export {many} from {service} as CSV, JSON or PDF; returns a download link \
                 that stays valid for one hour."
            ),
            Self::Import => format!(
                "Import {many} into {service} from a file at a URL. A dry run reports what \
                 would change without changing anything."
            ),
            Self::Assign => format!(
                "Assign {a} {object} in {service} to a person, or clear its assignee when none \
                 is given."
            ),
            Self::Comment => format!(
                "Add a comment to {a} {object} in {service}. Markdown is kept; mentions notify \
                 the people mentioned."
            ),
            Self::Share => format!(
                "Share {a} {object} in {service} with someone by email, as a viewer or an editor."
            ),
            Self::Move => format!("Move {a} {object} in {service} to another project or folder."),
            Self::Copy => format!(
                "Copy {a} {object} in {service}, optionally into another project; the copy gets \
                 a new id."
            ),
            Self::Lock => format!(
                "Lock {a} {object} in {service} so that nobody can change it until it is unlocked."
            ),
            Self::Unlock => format!("Unlock a locked {object} in {service}."),
            Self::Tag => {
                format!("Set the tags of {a} {object} in {service}, replacing its old ones.")
            }
            Self::Watch => format!(
                "Watch {a} {object} in {service}: get notified of its changes, all of them or \
                 only mentions."
            ),
            Self::Summarize => {
                format!(
                    "Summarize {a} {object} in {service} and its discussion in a few sentences."
                )
            }
        }
    }

    fn schema(self, object: &str, service: &str) -> Value {
        let id =
            json!({ "type": "string", "description": format!("The {object}'s id in {service}.") });
        let limit = json!({ "type": "integer", "minimum": 1, "maximum": 100, "default": 25,
                            "description": "How many to return at most." });
        match self {
            Self::List => json!({
                "type": "object",
                "properties": {
                    "project": { "type": "string", "description": "Only this project's." },
                    "state": { "type": "string", "enum": ["open", "closed", "all"], "default": "open" },
                    "limit": limit,
                    "cursor": { "type": "string", "description": "The cursor of the previous page." }
                }
            }),
            Self::Search => json!({
                "type": "object",
                "properties": {
                    "query": { "type": "string", "minLength": 1, "description": "Words to look for." },
                    "limit": limit
                },
                "required": ["query"]
            }),
            Self::Create => json!({
                "type": "object",
                "properties": {
                    "title": { "type": "string", "minLength": 1, "maxLength": 256 },
                    "body": { "type": "string", "description": "Markdown." },
                    "labels": { "type": "array", "items": { "type": "string" } },
                    "assignee": { "type": "string", "description": "A user name." },
                    "priority": { "type": "string", "enum": ["low", "normal", "high", "urgent"] }
                },
                "required": ["title"]
            }),
            Self::Update => json!({
                "type": "object",
                "properties": {
                    "id": id,
                    "title": { "type": "string" },
                    "body": { "type": "string" },
                    "state": { "type": "string", "enum": ["open", "closed"] }
                },
                "required": ["id"]
            }),
            Self::Delete => json!({
                "type": "object",
                "properties": {
                    "id": id,
                    "confirm": { "type": "boolean", "description": "Must be true." }
                },
                "required": ["id", "confirm"]
            }),
            Self::Export => json!({
                "type": "object",
                "properties": {
                    "ids": { "type": "array", "items": { "type": "string" }, "description": "All when left out." },
                    "format": { "type": "string", "enum": ["csv", "json", "pdf"], "default": "csv" }
                },
                "required": ["format"]
            }),
            Self::Import => json!({
                "type": "object",
                "properties": {
                    "source_url": { "type": "string", "format": "uri" },
                    "dry_run": { "type": "boolean", "default": true }
                },
                "required": ["source_url"]
            }),
            Self::Assign => json!({
                "type": "object",
                "properties": { "id": id, "assignee": { "type": "string", "description": "A user name." } },
                "required": ["id"]
            }),
            Self::Comment => json!({
                "type": "object",
                "properties": { "id": id, "text": { "type": "string", "minLength": 1 } },
                "required": ["id", "text"]
            }),
            Self::Share => json!({
                "type": "object",
                "properties": {
                    "id": id,
                    "email": { "type": "string", "format": "email" },
                    "role": { "type": "string", "enum": ["viewer", "editor"], "default": "viewer" }
                },
                "required": ["id", "email"]
            }),
            Self::Move | Self::Copy => json!({
                "type": "object",
                "properties": { "id": id, "destination": { "type": "string", "description": "A project or folder id." } },
                "required": ["id", "destination"]
            }),
            Self::Lock => json!({
                "type": "object",
                "properties": { "id": id, "reason": { "type": "string" } },
                "required": ["id"]
            }),
            Self::Tag => json!({
                "type": "object",
                "properties": { "id": id, "tags": { "type": "array", "items": { "type": "string" }, "uniqueItems": true } },
                "required": ["id", "tags"]
            }),
            Self::Watch => json!({
                "type": "object",
                "properties": { "id": id, "notify": { "type": "string", "enum": ["all", "mentions"], "default": "all" } },
                "required": ["id"]
            }),
            Self::Summarize => json!({
                "type": "object",
                "properties": { "id": id, "max_words": { "type": "integer", "minimum": 20, "maximum": 400, "default": 120 } },
                "required": ["id"]
            }),
            Self::Get | Self::Archive | Self::Restore | Self::Unlock => json!({
                "type": "object",
                "properties": { "id": id },
                "required": ["id"]
            }),
        }
    }
}

/// How many tools one service has: every verb on every object.
const PER_SERVICE: usize = VERBS.len() * OBJECTS.len();

/// The parts of generated tool `index`: `(service, verb, object)`.
fn parts(
    index: usize,
) -> (
    (&'static str, &'static str),
    Verb,
    (&'static str, &'static str),
) {
    (
        SERVICES[index / PER_SERVICE % SERVICES.len()],
        VERBS[index / OBJECTS.len() % VERBS.len()],
        OBJECTS[index % OBJECTS.len()],
    )
}

fn generated_name(index: usize) -> String {
    let ((service, _), verb, (one, many)) = parts(index);
    let object = if verb.many() { many } else { one };
    format!("{service}_{}_{object}", verb.word())
}

/// Generated tool `index`.
fn generated(index: usize) -> Tool {
    let ((_, service), verb, (one, many)) = parts(index);
    let object = one.replace('_', " ");
    let objects = many.replace('_', " ");
    let schema: JsonObject = match verb.schema(&object, service) {
        Value::Object(schema) => schema,
        _ => JsonObject::default(),
    };
    let mut tool = Tool::new(
        generated_name(index),
        verb.description(&object, &objects, service),
        Arc::new(schema),
    );
    let verb_words = verb.word().replace('_', " ");
    let shown_object = if verb.many() { objects } else { object };
    tool.title = Some(format!("{service}: {verb_words} {shown_object}"));
    tool
}

/// The generated tools that follow `base` (the tools listed without this fixture) up to
/// [`TOTAL`].
fn generated_count(base: usize) -> usize {
    TOTAL.saturating_sub(base).min(PER_SERVICE * SERVICES.len())
}

/// One page of the whole list: `base` first, then the generated tools; the page after
/// `cursor` (the first when `None`) and the next page's cursor. An unknown cursor is invalid
/// params (-32602), as the spec asks.
pub fn page(
    base: Vec<Tool>,
    cursor: Option<&str>,
) -> Result<(Vec<Tool>, Option<String>), ErrorData> {
    let total = base.len() + generated_count(base.len());
    let start = match cursor {
        None => 0,
        Some(cursor) => parse_cursor(cursor)
            .filter(|start| *start < total)
            .ok_or_else(|| {
                ErrorData::invalid_params(format!("unknown cursor: {cursor:?}"), None)
            })?,
    };
    let end = (start + PAGE_SIZE).min(total);
    let base_len = base.len();
    let mut tools: Vec<Tool> = base.into_iter().skip(start).take(end - start).collect();
    tools.extend((start.max(base_len)..end).map(|at| generated(at - base_len)));
    let next = (end < total).then(|| cursor_of(end));
    Ok((tools, next))
}

/// The cursor of the page starting at `start`: opaque to clients.
fn cursor_of(start: usize) -> String {
    format!("many-tools:{start}")
}

fn parse_cursor(cursor: &str) -> Option<usize> {
    cursor.strip_prefix("many-tools:")?.parse().ok()
}

/// The generated tool named `name`, when there is one after `base` tools.
pub fn tool(base: usize, name: &str) -> Option<Tool> {
    index_of(name)
        .filter(|index| *index < generated_count(base))
        .map(generated)
}

/// Which generated tool `name` is, read from its parts.
fn index_of(name: &str) -> Option<usize> {
    let (s, rest) = SERVICES.iter().enumerate().find_map(|(at, (service, _))| {
        Some((at, name.strip_prefix(service)?.strip_prefix('_')?))
    })?;
    let (v, object) = VERBS
        .iter()
        .enumerate()
        .find_map(|(at, verb)| Some((at, rest.strip_prefix(verb.word())?.strip_prefix('_')?)))?;
    let o = OBJECTS.iter().position(|(one, many)| {
        if VERBS[v].many() {
            *many == object
        } else {
            *one == object
        }
    })?;
    Some(s * PER_SERVICE + v * OBJECTS.len() + o)
}

/// A generated tool's answer: what it was sent; nothing is changed anywhere.
pub fn call(name: &str, arguments: &JsonObject) -> CallToolResponse {
    let sent = serde_json::to_string(arguments).unwrap_or_default();
    CallToolResult::success(vec![ContentBlock::text(format!(
        "{name} is a generated fixture tool: it changed nothing. It was sent {sent}."
    ))])
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(count: usize) -> Vec<Tool> {
        (0..count)
            .map(|at| {
                Tool::new(
                    format!("base_{at}"),
                    "a base tool",
                    Arc::new(JsonObject::default()),
                )
            })
            .collect()
    }

    #[test]
    fn the_pages_list_every_tool_once_base_first() {
        let mut names = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let (tools, next) = page(base(13), cursor.as_deref()).expect("a page");
            assert!(tools.len() <= PAGE_SIZE);
            names.extend(tools.into_iter().map(|tool| tool.name.to_string()));
            pages += 1;
            match next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(pages, TOTAL.div_ceil(PAGE_SIZE));
        assert_eq!(names.len(), TOTAL);
        assert_eq!(names[0], "base_0");
        assert_eq!(names[12], "base_12");
        assert_eq!(names[13], "github_list_issues");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), TOTAL, "no name twice");
    }

    #[test]
    fn an_unknown_cursor_is_invalid_params() {
        for cursor in ["", "page-2", "many-tools:x", "many-tools:10000"] {
            let error = page(base(0), Some(cursor)).expect_err(cursor);
            assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        }
    }

    #[test]
    fn every_generated_tool_is_found_by_its_name() {
        for index in [0, 1, 19, 20, 399, 400, 9_986] {
            let name = generated_name(index);
            assert_eq!(index_of(&name), Some(index), "{name}");
            assert_eq!(tool(13, &name).map(|t| t.name.to_string()), Some(name));
        }
        assert_eq!(tool(13, "github_fly_issue"), None);
        assert_eq!(tool(13, &generated_name(9_987)), None, "past the total");
    }

    #[test]
    fn a_generated_tool_has_a_title_a_description_and_an_object_schema() {
        let tool = generated(3 * PER_SERVICE + 3 * OBJECTS.len());
        assert_eq!(tool.name, "linear_create_issue");
        assert_eq!(tool.title.as_deref(), Some("Linear: create issue"));
        assert!(
            tool.description
                .as_deref()
                .is_some_and(|d| d.contains("Linear"))
        );
        assert_eq!(tool.input_schema.get("type"), Some(&json!("object")));
        assert_eq!(tool.input_schema.get("required"), Some(&json!(["title"])));
    }
}
