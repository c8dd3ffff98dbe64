//! Every request method this client sends, as a plain value: the word the events and logs
//! use. What each method declares is its type's ([`crate::vocabulary::method::McpMethod`]).

/// Every request method this client sends, as a value. Each method type names its own
/// (`McpMethod::ID`); the rules a value stands for are that type's (`MethodId::rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MethodId {
    Discover,
    /// The legacy handshake (2025-11-25 and earlier).
    Initialize,
    ListTools,
    ListPrompts,
    ListResources,
    ListResourceTemplates,
    CallTool,
    GetPrompt,
    ReadResource,
    Complete,
    GetTask,
    UpdateTask,
    CancelTask,
    Listen,
    /// 2025-11-25's `tasks/result`: a task's outcome, waited for.
    TaskResult,
}

impl MethodId {
    pub const ALL: [MethodId; 15] = [
        MethodId::Discover,
        MethodId::Initialize,
        MethodId::ListTools,
        MethodId::ListPrompts,
        MethodId::ListResources,
        MethodId::ListResourceTemplates,
        MethodId::CallTool,
        MethodId::GetPrompt,
        MethodId::ReadResource,
        MethodId::Complete,
        MethodId::GetTask,
        MethodId::UpdateTask,
        MethodId::CancelTask,
        MethodId::Listen,
        MethodId::TaskResult,
    ];
}
