//! The methods the client sends, each tied to the rmcp types of its params and result, so a
//! response is decoded by the method that was sent.

use rmcp::model::{
    CallToolRequestMethod, CallToolRequestParams, CallToolResult, CancelTaskMethod,
    CancelTaskParams, CompleteRequestMethod, CompleteRequestParams, CompleteResult, ConstString,
    DiscoverRequestMethod, DiscoverRequestParams, DiscoverResult, GetPromptRequestMethod,
    GetPromptRequestParams, GetPromptResult, GetTaskMethod, GetTaskParams, GetTaskResult,
    InitializeRequestParams, InitializeResult, InitializeResultMethod, InputResponses, JsonObject,
    ListPromptsRequestMethod, ListPromptsResult, ListResourceTemplatesRequestMethod,
    ListResourceTemplatesResult, ListResourcesRequestMethod, ListResourcesResult,
    ListToolsRequestMethod, ListToolsResult, PaginatedRequestParams, ReadResourceRequestMethod,
    ReadResourceRequestParams, ReadResourceResult, SubscriptionsListenRequestMethod,
    SubscriptionsListenResult, Task, TaskAckResult, UpdateTaskMethod, UpdateTaskParams,
};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::Value;

use crate::vocabulary::events::AnswerKind;
use crate::vocabulary::listen_params::ListenParams;
pub use crate::vocabulary::method_id::MethodId;

/// Params that can carry an MRTR round's answers (`inputResponses`, `requestState`). Only the
/// three MRTR methods' params have the fields; for the others a round changes nothing.
pub trait RoundFields {
    fn set_round(&mut self, _responses: InputResponses, _request_state: Option<String>) {}
}

macro_rules! round_fields {
    (carry: $($with:ty),*; ignore: $($without:ty),*) => {
        $(impl RoundFields for $with {
            fn set_round(&mut self, responses: InputResponses, request_state: Option<String>) {
                self.input_responses = Some(responses);
                self.request_state = request_state;
            }
        })*
        $(impl RoundFields for $without {})*
    };
}

round_fields!(
    carry: CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams;
    ignore: DiscoverRequestParams, InitializeRequestParams, PaginatedRequestParams, GetTaskParams, UpdateTaskParams,
        CancelTaskParams, CompleteRequestParams, crate::vocabulary::listen_params::ListenParams
);

/// One client → server request method of MCP 2026-07-28.
pub trait McpMethod {
    /// The method as a value, for code that meets methods at run time (a replayed log).
    const ID: MethodId;
    /// rmcp's constant method name (`server/discover`, …).
    type Name: ConstString + Serialize;
    /// The params, without `_meta` (the engine adds it).
    type Params: Serialize + Clone + RoundFields;
    /// The `complete` result.
    type Output: DeserializeOwned;
    /// Whether the result is a `CacheableResult` (`ttlMs`/`cacheScope` required in 2026-07-28).
    const CACHEABLE: bool = false;
    /// Whether the server may answer `input_required` (MRTR).
    const MRTR: bool = false;
    /// Whether the server may answer `task` (when the request declared the extension).
    const MAY_CREATE_TASK: bool = false;
    /// `tasks/get`: a snapshot that some servers mislabel `resultType: "task"`.
    const TASK_SNAPSHOT: bool = false;
    /// The params field `Mcp-Name` mirrors (what [`McpMethod::routing_name`] reads), for
    /// code that meets the request as JSON (a recorded log).
    const NAME_FIELD: Option<&'static str> = None;

    /// The method name as sent on the wire.
    fn name() -> &'static str {
        <Self::Name as ConstString>::VALUE
    }

    /// The `Mcp-Name` header value, for the methods that require it.
    fn routing_name(_params: &Self::Params) -> Option<String> {
        None
    }

    /// For `tools/call`: the tool and its arguments, whose marked values become headers.
    fn tool_call(_params: &Self::Params) -> Option<(&str, Option<&JsonObject>)> {
        None
    }

    /// Decode the `complete` result, by reference: the received JSON stays as it is.
    fn decode_output(result: &Value) -> Result<Self::Output, serde_json::Error> {
        Self::Output::deserialize(result)
    }

    /// What a `complete` answer is on the wire's timeline.
    fn complete_kind(_output: &Self::Output) -> AnswerKind {
        AnswerKind::Complete { tool_error: false }
    }

    /// The params of an MRTR retry: the original params plus this round's answers and the
    /// server's `requestState`, unchanged (absent stays absent).
    fn with_round(
        params: &Self::Params,
        responses: InputResponses,
        request_state: Option<String>,
    ) -> Self::Params {
        let mut retry = params.clone();
        retry.set_round(responses, request_state);
        retry
    }
}

/// `server/discover`: the server's versions, capabilities and identity.
#[derive(Debug, Clone, Copy)]
pub struct Discover;

impl McpMethod for Discover {
    const ID: MethodId = MethodId::Discover;
    type Name = DiscoverRequestMethod;
    type Params = DiscoverRequestParams;
    type Output = DiscoverResult;
    const CACHEABLE: bool = true;
}

/// `initialize`: the legacy handshake (2025-11-25 and earlier) that opens a session.
#[derive(Debug, Clone, Copy)]
pub struct Initialize;

impl McpMethod for Initialize {
    const ID: MethodId = MethodId::Initialize;
    type Name = InitializeResultMethod;
    type Params = InitializeRequestParams;
    type Output = InitializeResult;
}

/// `tools/list`: one page of the server's tools.
#[derive(Debug, Clone, Copy)]
pub struct ListTools;

impl McpMethod for ListTools {
    const ID: MethodId = MethodId::ListTools;
    type Name = ListToolsRequestMethod;
    type Params = PaginatedRequestParams;
    type Output = ListToolsResult;
    const CACHEABLE: bool = true;
}

/// `prompts/list`: one page of the server's prompts.
#[derive(Debug, Clone, Copy)]
pub struct ListPrompts;

impl McpMethod for ListPrompts {
    const ID: MethodId = MethodId::ListPrompts;
    type Name = ListPromptsRequestMethod;
    type Params = PaginatedRequestParams;
    type Output = ListPromptsResult;
    const CACHEABLE: bool = true;
}

/// `resources/list`: one page of the server's resources.
#[derive(Debug, Clone, Copy)]
pub struct ListResources;

impl McpMethod for ListResources {
    const ID: MethodId = MethodId::ListResources;
    type Name = ListResourcesRequestMethod;
    type Params = PaginatedRequestParams;
    type Output = ListResourcesResult;
    const CACHEABLE: bool = true;
}

/// `resources/templates/list`: one page of the server's resource templates.
#[derive(Debug, Clone, Copy)]
pub struct ListResourceTemplates;

impl McpMethod for ListResourceTemplates {
    const ID: MethodId = MethodId::ListResourceTemplates;
    type Name = ListResourceTemplatesRequestMethod;
    type Params = PaginatedRequestParams;
    type Output = ListResourceTemplatesResult;
    const CACHEABLE: bool = true;
}

/// `tools/call`: may ask for input (MRTR) or become a task.
#[derive(Debug, Clone, Copy)]
pub struct CallTool;

impl McpMethod for CallTool {
    const ID: MethodId = MethodId::CallTool;
    type Name = CallToolRequestMethod;
    type Params = CallToolRequestParams;
    type Output = CallToolResult;
    const MRTR: bool = true;
    const MAY_CREATE_TASK: bool = true;
    const NAME_FIELD: Option<&'static str> = Some("name");

    fn decode_output(result: &Value) -> Result<Self::Output, serde_json::Error> {
        crate::vocabulary::decode::call_tool_result(result)
    }

    fn complete_kind(output: &Self::Output) -> AnswerKind {
        AnswerKind::Complete {
            tool_error: output.is_error == Some(true),
        }
    }

    fn routing_name(params: &Self::Params) -> Option<String> {
        Some(params.name.to_string())
    }

    fn tool_call(params: &Self::Params) -> Option<(&str, Option<&JsonObject>)> {
        Some((params.name.as_ref(), params.arguments.as_ref()))
    }
}

/// `prompts/get`: may ask for input (MRTR).
#[derive(Debug, Clone, Copy)]
pub struct GetPrompt;

impl McpMethod for GetPrompt {
    const ID: MethodId = MethodId::GetPrompt;
    type Name = GetPromptRequestMethod;
    type Params = GetPromptRequestParams;
    type Output = GetPromptResult;
    const MRTR: bool = true;
    const NAME_FIELD: Option<&'static str> = Some("name");

    fn routing_name(params: &Self::Params) -> Option<String> {
        Some(params.name.clone())
    }
}

/// `resources/read`: may ask for input (MRTR); cacheable.
#[derive(Debug, Clone, Copy)]
pub struct ReadResource;

impl McpMethod for ReadResource {
    const ID: MethodId = MethodId::ReadResource;
    type Name = ReadResourceRequestMethod;
    type Params = ReadResourceRequestParams;
    type Output = ReadResourceResult;
    const CACHEABLE: bool = true;
    const MRTR: bool = true;
    const NAME_FIELD: Option<&'static str> = Some("uri");

    fn routing_name(params: &Self::Params) -> Option<String> {
        Some(params.uri.clone())
    }
}

/// `completion/complete`: suggestions for one argument of a prompt or a resource template.
#[derive(Debug, Clone, Copy)]
pub struct Complete;

impl McpMethod for Complete {
    const ID: MethodId = MethodId::Complete;
    type Name = CompleteRequestMethod;
    type Params = CompleteRequestParams;
    type Output = CompleteResult;
}

/// `tasks/get` (tasks extension): the task's current state.
#[derive(Debug, Clone, Copy)]
pub struct GetTask;

impl McpMethod for GetTask {
    const ID: MethodId = MethodId::GetTask;
    type Name = GetTaskMethod;
    type Params = GetTaskParams;
    type Output = GetTaskResult;
    const TASK_SNAPSHOT: bool = true;
    const NAME_FIELD: Option<&'static str> = Some("taskId");

    fn decode_output(result: &Value) -> Result<Self::Output, serde_json::Error> {
        crate::vocabulary::decode::get_task_result(result)
    }

    fn complete_kind(output: &Self::Output) -> AnswerKind {
        AnswerKind::TaskSnapshot(Box::new(output.task.clone()))
    }

    fn routing_name(params: &Self::Params) -> Option<String> {
        Some(params.task_id.clone())
    }
}

/// `tasks/update` (tasks extension): answers to a task's input requests.
#[derive(Debug, Clone, Copy)]
pub struct UpdateTask;

impl McpMethod for UpdateTask {
    const ID: MethodId = MethodId::UpdateTask;
    type Name = UpdateTaskMethod;
    type Params = UpdateTaskParams;
    type Output = TaskAckResult;
    const NAME_FIELD: Option<&'static str> = Some("taskId");

    fn routing_name(params: &Self::Params) -> Option<String> {
        Some(params.task_id.clone())
    }
}

/// `tasks/cancel` (tasks extension): a polite request to stop.
#[derive(Debug, Clone, Copy)]
pub struct CancelTask;

impl McpMethod for CancelTask {
    const ID: MethodId = MethodId::CancelTask;
    type Name = CancelTaskMethod;
    type Params = CancelTaskParams;
    type Output = TaskAckResult;
    const NAME_FIELD: Option<&'static str> = Some("taskId");

    fn routing_name(params: &Self::Params) -> Option<String> {
        Some(params.task_id.clone())
    }
}

/// `subscriptions/listen`: its answer is a stream, ended (gracefully) by a result.
#[derive(Debug, Clone, Copy)]
pub struct Listen;

impl McpMethod for Listen {
    const ID: MethodId = MethodId::Listen;
    type Name = SubscriptionsListenRequestMethod;
    type Params = ListenParams;
    type Output = SubscriptionsListenResult;
}

/// 2025-11-25's `tasks/get`: the task's state, without its outcome (`tasks/result` fetches
/// that). Its fields are read into 2026-07-28's names.
#[derive(Debug, Clone, Copy)]
pub struct LegacyGetTask;

impl McpMethod for LegacyGetTask {
    const ID: MethodId = MethodId::GetTask;
    type Name = GetTaskMethod;
    type Params = GetTaskParams;
    type Output = Task;
    const TASK_SNAPSHOT: bool = true;
    const NAME_FIELD: Option<&'static str> = Some("taskId");

    fn decode_output(result: &Value) -> Result<Self::Output, serde_json::Error> {
        crate::vocabulary::decode::legacy_task::legacy_task(result)
    }

    fn complete_kind(output: &Self::Output) -> AnswerKind {
        AnswerKind::TaskStatus(Box::new(output.clone()))
    }
}

/// 2025-11-25's `tasks/cancel`: answered with the task's state (2026-07-28 acknowledges it
/// with an empty result).
#[derive(Debug, Clone, Copy)]
pub struct LegacyCancelTask;

impl McpMethod for LegacyCancelTask {
    const ID: MethodId = MethodId::CancelTask;
    type Name = CancelTaskMethod;
    type Params = CancelTaskParams;
    type Output = Task;
    const NAME_FIELD: Option<&'static str> = Some("taskId");

    fn decode_output(result: &Value) -> Result<Self::Output, serde_json::Error> {
        LegacyGetTask::decode_output(result)
    }

    fn complete_kind(output: &Self::Output) -> AnswerKind {
        AnswerKind::TaskStatus(Box::new(output.clone()))
    }
}

/// `tasks/result`'s method name (2025-11-25; rmcp models only 2026-07-28's tasks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TaskResultMethod;

impl ConstString for TaskResultMethod {
    const VALUE: &str = "tasks/result";
}

impl Serialize for TaskResultMethod {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(Self::VALUE)
    }
}

/// 2025-11-25's `tasks/result`: waits until the task ends, then answers what the task's
/// request would have (a tool call's result, or its error). While it waits, its stream
/// carries the task's own requests to the client (an elicitation).
#[derive(Debug, Clone, Copy)]
pub struct TaskResult;

impl McpMethod for TaskResult {
    const ID: MethodId = MethodId::TaskResult;
    type Name = TaskResultMethod;
    type Params = GetTaskParams;
    type Output = CallToolResult;
    const NAME_FIELD: Option<&'static str> = Some("taskId");

    fn decode_output(result: &Value) -> Result<Self::Output, serde_json::Error> {
        crate::vocabulary::decode::call_tool_result(result)
    }

    fn complete_kind(output: &Self::Output) -> AnswerKind {
        CallTool::complete_kind(output)
    }
}

/// What a method type declares, as a value (see [`McpMethod`]'s constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodRules {
    pub id: MethodId,
    pub name: &'static str,
    pub cacheable: bool,
    pub mrtr: bool,
    pub may_create_task: bool,
    pub task_snapshot: bool,
    /// The params field `Mcp-Name` mirrors.
    pub name_field: Option<&'static str>,
}

impl MethodRules {
    /// The rules of method type `M`.
    pub fn of<M: McpMethod>() -> Self {
        Self {
            id: M::ID,
            name: M::name(),
            cacheable: M::CACHEABLE,
            mrtr: M::MRTR,
            may_create_task: M::MAY_CREATE_TASK,
            task_snapshot: M::TASK_SNAPSHOT,
            name_field: M::NAME_FIELD,
        }
    }
}

impl MethodId {
    /// The rules of the method type this value stands for.
    pub fn rules(self) -> MethodRules {
        match self {
            MethodId::Discover => MethodRules::of::<Discover>(),
            MethodId::Initialize => MethodRules::of::<Initialize>(),
            MethodId::ListTools => MethodRules::of::<ListTools>(),
            MethodId::ListPrompts => MethodRules::of::<ListPrompts>(),
            MethodId::ListResources => MethodRules::of::<ListResources>(),
            MethodId::ListResourceTemplates => MethodRules::of::<ListResourceTemplates>(),
            MethodId::CallTool => MethodRules::of::<CallTool>(),
            MethodId::GetPrompt => MethodRules::of::<GetPrompt>(),
            MethodId::ReadResource => MethodRules::of::<ReadResource>(),
            MethodId::Complete => MethodRules::of::<Complete>(),
            MethodId::GetTask => MethodRules::of::<GetTask>(),
            MethodId::UpdateTask => MethodRules::of::<UpdateTask>(),
            MethodId::CancelTask => MethodRules::of::<CancelTask>(),
            MethodId::Listen => MethodRules::of::<Listen>(),
            MethodId::TaskResult => MethodRules::of::<TaskResult>(),
        }
    }

    /// The method name as sent on the wire.
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The method a wire name stands for, if this client knows it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|id| id.name() == name)
    }

    /// Whether the server may answer `input_required` (MRTR) to this method.
    pub fn may_pause(self) -> bool {
        self.rules().mrtr
    }
}

impl std::fmt::Display for MethodId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_id_round_trips_through_its_wire_name() {
        for id in MethodId::ALL {
            assert_eq!(MethodId::from_name(id.name()), Some(id), "{id:?}");
            assert_eq!(id.rules().id, id);
        }
        assert_eq!(MethodId::CallTool.name(), "tools/call");
        assert_eq!(MethodId::Complete.name(), "completion/complete");
        assert_eq!(MethodId::from_name("made/up"), None);
    }

    #[test]
    fn only_tools_call_prompts_get_and_resources_read_may_pause() {
        let pausing: Vec<MethodId> = MethodId::ALL
            .into_iter()
            .filter(|id| id.may_pause())
            .collect();
        assert_eq!(
            pausing,
            [
                MethodId::CallTool,
                MethodId::GetPrompt,
                MethodId::ReadResource
            ]
        );
    }
}
