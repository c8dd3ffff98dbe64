//! Structured findings: what a server did that breaks (or strains) a rule of the 2026-07-28
//! reference. The app turns these into a server report card.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How strong the rule is that the server broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A MUST was broken; the engine rejected or worked around the message.
    Must,
    /// A SHOULD was broken.
    Should,
    /// Legal but notable, e.g. the shape of an older protocol revision.
    Info,
}

/// The rules the engine checks, each with a stable id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// `resultType` absent: an older server; treated as `complete`.
    ResultTypeMissing,
    /// A cacheable result without `ttlMs` or `cacheScope`.
    CacheHintsMissing,
    /// A `resultType` the client does not recognise.
    UnknownResultType,
    /// `input_required` on a method other than tools/call, prompts/get, resources/read.
    InputRequiredNotAllowed,
    /// An `input_required` result with neither `inputRequests` nor `requestState`.
    InputRequiredEmpty,
    /// `task` on a request that did not declare the tasks extension.
    TaskWithoutExtension,
    /// `task` on a method other than tools/call.
    TaskOnWrongMethod,
    /// `requestState` on a result that is not `input_required`.
    RequestStateOnNonMrtrResult,
    /// A task in a terminal state reported a different status later.
    TerminalTaskChanged,
    /// A task status the state machine does not allow (e.g. a reply about another task).
    TaskMismatch,
    /// A tool whose `x-mcp-header` annotations are invalid; the tool is dropped.
    InvalidMcpHeaderAnnotation,
    /// A response whose id is not the request's.
    WrongResponseId,
    /// A listen stream whose first message was not the acknowledgement.
    ListenNotAcknowledgedFirst,
    /// The acknowledged subscription filter differs from the one requested.
    ListenFilterNarrowed,
    /// A notification on a listen stream without the right `subscriptionId`.
    ListenWrongSubscriptionId,
    /// A notification type that was not subscribed to arrived on a listen stream.
    ListenUnrequestedNotification,
    /// A result that does not match its schema.
    MalformedResult,
    /// A tool's `structuredContent` that does not match the tool's `outputSchema`.
    OutputSchemaMismatch,
    /// A successful result of a tool with an `outputSchema`, without `structuredContent`.
    StructuredContentMissing,
    /// A `-32022` (unsupported protocol version) on an HTTP status other than 400.
    UnsupportedVersionStatus,
    /// A `-32022` without `data: {supported: string[], requested: string}`.
    UnsupportedVersionData,
    /// A `-32022` refusing a version that the server's own `supported` list names.
    VersionRejectedThoughListed,
    /// A number beyond a 64-bit float's range (`1e400`): valid JSON, read as `null`.
    NumberOutOfRange,
    /// More input requests in one round or snapshot than [`crate::Limits::max_input_requests`].
    TooManyInputRequests,
    /// More notifications on one exchange than [`crate::Limits::max_notifications_kept`].
    TooManyNotifications,
    /// An id the server chose (a `taskId`, an `inputRequests` key, an `elicitationId`) over
    /// [`crate::Limits::max_id_bytes`].
    IdTooLong,
    /// A tool's, prompt's, resource's or template's `name` over
    /// [`crate::Limits::max_name_bytes`]; the item is left out.
    NameTooLong,
    /// A body whose `Content-Type` contradicts it (JSON labelled `text/event-stream`, or an
    /// event stream labelled `application/json`).
    ContentTypeMismatch,
    /// A name or title with characters that do not show as themselves (zero-width, bidi
    /// controls, other format or control characters, fillers, odd spaces): each is drawn as
    /// a marker such as `⟨U+200B⟩` ([`crate::readers::names::Shown`]).
    NameInvisibleChars,
    /// A name that can pass for another: it mixes scripts whose letters look alike, writes the
    /// markers' brackets, or reads the same as another name of its list (both are flagged).
    NameLookAlike,
    /// Protected resource metadata whose `resource` is not the MCP server the client asked.
    PrmResourceMismatch,
    /// Protected resource metadata without `authorization_servers`.
    PrmNoAuthorizationServers,
    /// Authorization server metadata whose `issuer` is not the issuer it was fetched for.
    AsIssuerMismatch,
    /// Authorization server metadata without `S256` in `code_challenge_methods_supported`.
    PkceS256Unsupported,
    /// An authorization server endpoint that is not HTTPS (nor loopback).
    AuthEndpointNotHttps,
    /// A token response whose `token_type` is not `Bearer`.
    TokenTypeNotBearer,
    /// An authorization response whose `iss` is not the recorded issuer.
    AuthorizationIssMismatch,
    /// An authorization response without `iss` from a server that advertised it.
    AuthorizationIssMissing,
    /// A JSON-RPC request from the server in the 2026-07-28 era, which has none (it asks
    /// through `input_required` instead); it is not answered.
    ServerRequestInModernEra,
    /// A server whose answers contradict the era it speaks: a legacy session's result with
    /// a 2026-07-28 `resultType`, or an `initialize` answered with a modern version.
    EraContradiction,
    /// A legacy `initialize` answered with a protocol version the client did not offer.
    LegacyVersionUnsupported,
    /// A legacy session's request refused for a missing or unknown session (HTTP 404): the
    /// session ended on the server's side; the client opens a new one.
    LegacySessionEnded,
    /// A legacy session the server no longer knows, refused with a status other than 404
    /// (a 400 naming the session): 2025-11-25 requires 404, the client's cue to start anew.
    LegacySessionWrongStatus,
    /// A legacy session's GET stream answered with neither an event stream nor HTTP 405
    /// (2025-11-25 allows only those), or an event on it that is not JSON.
    LegacyStreamRefused,
}

impl Rule {
    /// The stable id shown on the report card (`result-type-missing`, …).
    pub fn id(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    pub fn severity(self) -> Severity {
        match self {
            Rule::ResultTypeMissing | Rule::CacheHintsMissing => Severity::Info,
            Rule::ListenFilterNarrowed | Rule::NumberOutOfRange => Severity::Info,
            // Legal in the letter (the client retries once), but the server contradicts itself.
            Rule::VersionRejectedThoughListed => Severity::Info,
            Rule::ListenUnrequestedNotification => Severity::Should,
            // The client's own bounds: no rule of the spec sets these numbers.
            Rule::TooManyInputRequests | Rule::TooManyNotifications => Severity::Info,
            Rule::IdTooLong | Rule::NameTooLong => Severity::Info,
            // No rule of the spec forbids such names; they are a warning for people.
            Rule::NameInvisibleChars | Rule::NameLookAlike => Severity::Info,
            // A server may end a session at any time (2025-11-25 transports, session management).
            Rule::LegacySessionEnded => Severity::Info,
            _ => Severity::Must,
        }
    }
}

/// One observation about the server, with the message it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    /// One line, for people.
    pub explanation: String,
    /// The JSON it came from (a result, a notification), when there is one.
    pub message: Option<Value>,
}

impl Finding {
    pub fn new(rule: Rule, explanation: impl Into<String>, message: Option<Value>) -> Self {
        Self {
            rule,
            severity: rule.severity(),
            explanation: explanation.into(),
            message,
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.severity {
            Severity::Must => "MUST",
            Severity::Should => "SHOULD",
            Severity::Info => "info",
        };
        write!(f, "[{} {level}] {}", self.rule.id(), self.explanation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_kebab_case() {
        assert_eq!(Rule::ResultTypeMissing.id(), "result-type-missing");
        assert_eq!(Rule::TerminalTaskChanged.id(), "terminal-task-changed");
    }

    #[test]
    fn findings_read_as_one_line() {
        let finding = Finding::new(
            Rule::WrongResponseId,
            "the response answers request 9",
            None,
        );
        assert_eq!(
            finding.to_string(),
            "[wrong-response-id MUST] the response answers request 9"
        );
    }
}
