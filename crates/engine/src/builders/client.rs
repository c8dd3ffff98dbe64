//! The client's identity, its view of the server's tools, and the builder of every request.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use rmcp::model::TASKS_EXTENSION_ID;
use rmcp::model::{
    ArgumentInfo, CallToolRequestParams, CancelTaskParams, ClientCapabilities,
    CompleteRequestParams, CompletionContext, DiscoverRequestParams, GetPromptRequestParams,
    GetTaskParams, Implementation, InputResponses, JsonObject, PaginatedRequestParams,
    ProgressToken, ProtocolVersion, ReadResourceRequestParams, Reference, RequestId,
    RequestMetaObject, Tool, UpdateTaskParams,
};

use crate::builders::headers::{
    HeaderArgumentError, HeaderParam, encode_header_value, keep_valid_tools, param_headers,
};
pub use crate::builders::outgoing::RequestOptions;
use crate::builders::outgoing::{OutgoingRequest, request_json, with_legacy_task};
use crate::readers::structured::OutputContract;
use crate::vocabulary::era::Era;
use crate::vocabulary::findings::Finding;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::list_method::ListMethod;
use crate::vocabulary::listen_params::{ListenFilter, ListenParams};
use crate::vocabulary::method::Listen;
use crate::vocabulary::method::{
    CallTool, CancelTask, Complete, Discover, GetPrompt, GetTask, ListPrompts,
    ListResourceTemplates, ListResources, ListTools, McpMethod, ReadResource, UpdateTask,
};
use crate::vocabulary::method_id::MethodId;
use crate::vocabulary::protocol::{self, CLIENT_VERSIONS};

/// Who the client says it is and what it declares on every request.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub client_info: Implementation,
    /// Declared per request; only what the client really handles.
    pub capabilities: ClientCapabilities,
    pub limits: Limits,
    /// The protocol revisions the client speaks, newest first; it starts with the first and
    /// moves only when a `-32022` says so ([`Client::negotiate`]).
    pub versions: Vec<String>,
}

/// What the engine handles: form and URL elicitation, and the tasks extension. Nothing
/// deprecated (sampling, roots) unless the caller adds it.
pub fn default_capabilities() -> ClientCapabilities {
    serde_json::from_value(serde_json::json!({
        "elicitation": {"form": {}, "url": {}},
        "extensions": {TASKS_EXTENSION_ID: {}}
    }))
    .unwrap_or_default()
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            client_info: Implementation::new("holdbay", env!("CARGO_PKG_VERSION"))
                .with_title("Holdbay"),
            capabilities: default_capabilities(),
            limits: Limits::default(),
            versions: CLIENT_VERSIONS.iter().map(|v| (*v).to_owned()).collect(),
        }
    }
}

/// What a `completion/complete` asks about: a prompt (by name) or a resource template (by
/// its `uriTemplate`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CompletionTarget {
    Prompt(String),
    Template(String),
}

/// Builds requests with fresh ids and the 2026-07-28 `_meta` envelope and headers.
#[derive(Debug, Clone)]
pub struct Client {
    config: ClientConfig,
    next_id: i64,
    /// Progress tokens count on their own, so the JSON-RPC ids a user reads in the wire log
    /// run without gaps.
    next_progress: i64,
    /// Mirrored-argument headers by tool name, from the last `tools/list`.
    tool_headers: BTreeMap<String, Vec<HeaderParam>>,
    /// `outputSchema` by tool name, from the last `tools/list`: results are checked against it.
    output_schemas: BTreeMap<String, Arc<JsonObject>>,
    /// The tools a 2025-11-25 server runs as tasks when asked: only their calls carry
    /// `params.task` (a server refuses it on the others).
    legacy_task_tools: std::collections::BTreeSet<String>,
    /// The revision every request carries, in `_meta` and `MCP-Protocol-Version`.
    version: ProtocolVersion,
    /// The era requests are written in ([`Client::use_era`]).
    pub(crate) era: Era,
    /// A legacy session's `Mcp-Session-Id`, from the server's `initialize` answer.
    pub(crate) session_id: Option<String>,
}

impl Client {
    pub fn new(config: ClientConfig) -> Self {
        let version = newest_version(&config);
        Self {
            config,
            next_id: 1,
            next_progress: 1,
            tool_headers: BTreeMap::new(),
            output_schemas: BTreeMap::new(),
            legacy_task_tools: std::collections::BTreeSet::new(),
            version,
            era: Era::Modern,
            session_id: None,
        }
    }

    /// The protocol revision requests carry now.
    pub fn protocol_version(&self) -> &str {
        self.version.as_str()
    }

    /// Another server: start again from the newest revision the client speaks, in the
    /// modern era, without a session.
    pub fn reset_version(&mut self) {
        self.version = newest_version(&self.config);
        self.era = Era::Modern;
        self.session_id = None;
    }

    /// Speak `version` from now on (the one retry after a `-32022` chose it, or a legacy
    /// server's `initialize` answer).
    pub(crate) fn use_version(&mut self, version: &str) {
        self.version = protocol_version(version);
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Learn the server's tools (from `tools/list`). Tools with invalid `x-mcp-header`
    /// annotations are dropped, each with a finding; the kept tools are returned.
    pub fn learn_tools(&mut self, tools: Vec<Tool>) -> (Vec<Tool>, Vec<Finding>) {
        let (kept, findings) = keep_valid_tools(tools);
        let kept = kept
            .into_iter()
            .map(|(tool, params)| {
                self.tool_headers.insert(tool.name.to_string(), params);
                match &tool.output_schema {
                    Some(schema) => self
                        .output_schemas
                        .insert(tool.name.to_string(), schema.clone()),
                    None => self.output_schemas.remove(tool.name.as_ref()),
                };
                tool
            })
            .collect();
        (kept, findings)
    }

    /// Learn which tools a 2025-11-25 server runs as tasks when asked (from
    /// [`crate::Pages::task_capable`]).
    pub fn learn_task_tools(&mut self, names: &[String]) {
        self.legacy_task_tools.extend(names.iter().cloned());
    }

    /// `server/discover`.
    pub fn discover(&mut self) -> OutgoingRequest<Discover> {
        self.request(DiscoverRequestParams {}, &RequestOptions::default())
    }

    /// One page of `tools/list`; `cursor` is the previous page's opaque `nextCursor`.
    pub fn list_tools(&mut self, cursor: Option<String>) -> OutgoingRequest<ListTools> {
        self.request(
            PaginatedRequestParams::default().with_cursor(cursor),
            &RequestOptions::default(),
        )
    }

    /// One page of `prompts/list`; `cursor` is the previous page's opaque `nextCursor`.
    pub fn list_prompts(&mut self, cursor: Option<String>) -> OutgoingRequest<ListPrompts> {
        self.request(
            PaginatedRequestParams::default().with_cursor(cursor),
            &RequestOptions::default(),
        )
    }

    /// One page of `resources/list`; `cursor` is the previous page's opaque `nextCursor`.
    pub fn list_resources(&mut self, cursor: Option<String>) -> OutgoingRequest<ListResources> {
        self.request(
            PaginatedRequestParams::default().with_cursor(cursor),
            &RequestOptions::default(),
        )
    }

    /// One page of `resources/templates/list`; `cursor` is the previous page's opaque
    /// `nextCursor`.
    pub fn list_resource_templates(
        &mut self,
        cursor: Option<String>,
    ) -> OutgoingRequest<ListResourceTemplates> {
        self.list_page::<ListResourceTemplates>(cursor)
    }

    /// One page of any list method; `cursor` is the previous page's opaque `nextCursor`
    /// (an empty string is a cursor too, §11).
    pub fn list_page<M: ListMethod>(&mut self, cursor: Option<String>) -> OutgoingRequest<M> {
        self.request(
            PaginatedRequestParams::default().with_cursor(cursor),
            &RequestOptions::default(),
        )
    }

    /// `tools/call`, with `Mcp-Param-*` headers for the arguments the tool's schema marks.
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: Option<JsonObject>,
        options: &RequestOptions,
    ) -> Result<OutgoingRequest<CallTool>, HeaderArgumentError> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        if let Some(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        let mirrored = self.mirrored_headers::<CallTool>(&params)?;
        Ok(self.build(params, options, mirrored))
    }

    /// `prompts/get` with the prompt's string arguments, exactly as given (an empty map
    /// sends no `arguments`).
    pub fn get_prompt(
        &mut self,
        name: &str,
        arguments: &BTreeMap<String, String>,
    ) -> OutgoingRequest<GetPrompt> {
        let mut params = GetPromptRequestParams::new(name);
        if !arguments.is_empty() {
            params = params.with_arguments(
                arguments
                    .iter()
                    .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                    .collect(),
            );
        }
        self.request(params, &RequestOptions::default())
    }

    /// `resources/read` of `uri` (for a template, the URI it expanded to).
    pub fn read_resource(&mut self, uri: &str) -> OutgoingRequest<ReadResource> {
        self.request(
            ReadResourceRequestParams::new(uri),
            &RequestOptions::default(),
        )
    }

    /// `completion/complete`: suggestions for `argument` of what `target` names, given what
    /// was typed (`value`) and the other arguments already filled in (`context`, sent only
    /// when not empty).
    pub fn complete(
        &mut self,
        target: &CompletionTarget,
        argument: &str,
        value: &str,
        context: &BTreeMap<String, String>,
    ) -> OutgoingRequest<Complete> {
        let reference = match target {
            CompletionTarget::Prompt(name) => Reference::for_prompt(name.clone()),
            CompletionTarget::Template(uri_template) => {
                Reference::for_resource(uri_template.clone())
            }
        };
        let mut params = CompleteRequestParams::new(reference, ArgumentInfo::new(argument, value));
        let context: std::collections::HashMap<String, String> = context
            .iter()
            .filter(|(name, _)| name.as_str() != argument)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !context.is_empty() {
            params = params.with_context(CompletionContext::with_arguments(context));
        }
        self.request(params, &RequestOptions::default())
    }

    /// `tasks/get`.
    pub fn get_task(&mut self, task_id: &str) -> OutgoingRequest<GetTask> {
        self.request(GetTaskParams::new(task_id), &task_options())
    }

    /// `tasks/update` with answers keyed exactly as the server sent them.
    pub fn update_task(
        &mut self,
        task_id: &str,
        responses: InputResponses,
    ) -> OutgoingRequest<UpdateTask> {
        self.request(UpdateTaskParams::new(task_id, responses), &task_options())
    }

    /// `subscriptions/listen` (declares the tasks extension, needed for `taskIds`).
    pub fn listen(&mut self, filter: ListenFilter) -> OutgoingRequest<Listen> {
        self.request(
            ListenParams {
                notifications: filter,
            },
            &task_options(),
        )
    }

    /// `tasks/cancel`.
    pub fn cancel_task(&mut self, task_id: &str) -> OutgoingRequest<CancelTask> {
        self.request(CancelTaskParams::new(task_id), &task_options())
    }

    /// A progress token unique among this client's requests (each MRTR retry wants its own).
    pub fn progress_token(&mut self) -> ProgressToken {
        let n = self.next_progress;
        self.next_progress += 1;
        ProgressToken(rmcp::model::NumberOrString::String(
            format!("holdbay-progress-{n}").into(),
        ))
    }

    fn fresh_id(&mut self) -> RequestId {
        let id = self.next_id;
        self.next_id += 1;
        RequestId::Number(id)
    }

    /// The capabilities this request declares.
    fn capabilities_for<M: McpMethod>(&self, options: &RequestOptions) -> ClientCapabilities {
        let mut capabilities = self.config.capabilities.clone();
        let declare_tasks = !M::MAY_CREATE_TASK || options.accept_task;
        if !declare_tasks && let Some(extensions) = capabilities.extensions.as_mut() {
            extensions.remove(TASKS_EXTENSION_ID);
            if extensions.is_empty() {
                capabilities.extensions = None;
            }
        }
        capabilities
    }

    /// Build any request: a fresh id, `_meta`, and the headers the method needs.
    pub fn request<M: McpMethod>(
        &mut self,
        params: M::Params,
        options: &RequestOptions,
    ) -> OutgoingRequest<M> {
        // Arguments are checked when a call is first made (`call_tool`); a retry resends them.
        // Should one still not mirror, the header is left out and the server says -32020.
        let mirrored = self.mirrored_headers::<M>(&params).unwrap_or_default();
        self.build(params, options, mirrored)
    }

    fn build<M: McpMethod>(
        &mut self,
        params: M::Params,
        options: &RequestOptions,
        mirrored: Vec<(String, String)>,
    ) -> OutgoingRequest<M> {
        let id = self.fresh_id();
        let capabilities = self.capabilities_for::<M>(options);
        let declares_tasks = match self.era {
            Era::Modern => capabilities
                .extensions
                .as_ref()
                .is_some_and(|e| e.contains_key(TASKS_EXTENSION_ID)),
            // 2025-11-25 asks for a task with `params.task` on the request itself, and only
            // of a tool that says it runs as one.
            Era::Legacy => {
                M::MAY_CREATE_TASK
                    && options.accept_task
                    && M::tool_call(&params)
                        .is_some_and(|(tool, _)| self.legacy_task_tools.contains(tool))
            }
        };
        let mut headers = vec![
            (
                "Content-Type".to_owned(),
                protocol::CONTENT_TYPE_JSON.to_owned(),
            ),
            ("Accept".to_owned(), protocol::ACCEPT.to_owned()),
        ];
        let mut meta = match self.era {
            Era::Modern => {
                headers.push((
                    protocol::HEADER_PROTOCOL_VERSION.to_owned(),
                    self.version.as_str().to_owned(),
                ));
                headers.push((protocol::HEADER_METHOD.to_owned(), M::name().to_owned()));
                if let Some(name) = M::routing_name(&params) {
                    headers.push((protocol::HEADER_NAME.to_owned(), encode_header_value(&name)));
                }
                headers.extend(mirrored);
                RequestMetaObject::with_client_context(
                    self.version.clone(),
                    self.config.client_info.clone(),
                    capabilities,
                )
            }
            // The session carries identity and capabilities; `_meta` only a progress token.
            Era::Legacy => {
                headers.extend(self.session_headers(M::ID == MethodId::Initialize));
                RequestMetaObject::new()
            }
        };
        if let Some(token) = options.progress_token.clone() {
            meta.set_progress_token(token);
        }
        let legacy_task = self.era == Era::Legacy && declares_tasks;
        let (body, meta) = request_json::<M, _>(&id, &params, meta, |request| {
            if legacy_task {
                serde_json::to_value(request).map(|value| with_legacy_task(value).to_string())
            } else {
                serde_json::to_string(request)
            }
        });
        // Serializing rmcp's own request types has no failure mode short of a bug in those
        // types; an empty body would be rejected loudly by any server.
        let body = body.unwrap_or_default();
        let output = M::tool_call(&params).and_then(|(tool, _)| {
            self.output_schemas.get(tool).map(|schema| OutputContract {
                tool: tool.to_owned(),
                schema: schema.clone(),
            })
        });
        OutgoingRequest {
            id,
            headers,
            body,
            meta,
            params,
            options: options.clone(),
            declares_tasks,
            limits: self.config.limits,
            round: None,
            output,
            version_retry: false,
            era: self.era,
            method: PhantomData,
        }
    }

    /// `Mcp-Param-*` for tools/call; arguments were checked when the call was made.
    fn mirrored_headers<M: McpMethod>(
        &self,
        params: &M::Params,
    ) -> Result<Vec<(String, String)>, HeaderArgumentError> {
        match M::tool_call(params) {
            Some((tool, arguments)) => match self.tool_headers.get(tool) {
                Some(mirrored) => param_headers(mirrored, arguments),
                None => Ok(Vec::new()),
            },
            None => Ok(Vec::new()),
        }
    }
}

/// The newest revision of `config` (2026-07-28 if it names none).
fn newest_version(config: &ClientConfig) -> ProtocolVersion {
    config
        .versions
        .first()
        .map_or(ProtocolVersion::V_2026_07_28, |v| protocol_version(v))
}

/// rmcp's `ProtocolVersion` holds any string, but builds one only by deserializing.
pub(crate) fn protocol_version(version: &str) -> ProtocolVersion {
    serde_json::from_value(serde_json::Value::String(version.to_owned()))
        .unwrap_or(ProtocolVersion::V_2026_07_28)
}

/// tasks/* always declare the extension: servers answer -32021 otherwise.
fn task_options() -> RequestOptions {
    RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    }
}

impl Default for Client {
    fn default() -> Self {
        Self::new(ClientConfig::default())
    }
}

#[cfg(test)]
mod tests;
