//! Holdbay's protocol core for MCP revision 2026-07-28, in the sans-IO style.
//!
//! The engine never touches a socket or a clock. The caller asks it for a request to send
//! ([`Client`]), performs the HTTP POST itself, and hands the response back piece by piece
//! ([`ResponseReader::push_chunk`], then [`ResponseReader::finish_decoded`]). Time is an
//! argument (milliseconds on the caller's clock), so every state machine is deterministic:
//!
//! - [`LogicalRequest`] tracks one request and its MRTR rounds, within [`Bounds`];
//! - [`InputAnswer`] is the user's answer to an input request; the engine writes its JSON;
//! - [`TaskTracker`] tracks one task of the tasks extension (polls, input, terminal states),
//!   and [`due_polls`] picks which of many to poll now; [`TaskBook`] owns them all and says
//!   what to send and when (sans-IO, the time an argument);
//! - [`Subscription`] reads one `subscriptions/listen` stream, and [`ListenSchedule`] says
//!   when to open the next;
//! - [`Pages`] walks a paginated list to a [`Listing`] that says if it stopped early;
//! - [`ResultCache`] honours `ttlMs`/`cacheScope`;
//! - a tool's `outputSchema`, learned from `tools/list`, is checked against the
//!   `structuredContent` of its results ([`OutputContract`], with the small JSON Schema
//!   checker [`schema_check`]);
//! - a tool's `inputSchema` or an elicitation's `requestedSchema` is read as a [`FormSchema`]
//!   whose fields check values through the same checker;
//! - a [`Finding`] records what the server did against the spec;
//! - names and titles are shown as [`Shown`] (hidden characters as `⟨U+200B⟩`), and a
//!   [`NameBook`] flags the ones that pass for others;
//! - [`Client::negotiate`] retries once after `-32022`, and [`legacy_server`] tells a server
//!   of an older revision apart (§10.6), each ending in a [`VersionMismatch`] when it fails;
//! - a dual-era client: [`Client::detect_era`] follows a legacy server (versioning.mdx) as
//!   the user's [`EraChoice`] allows, and [`Client::use_era`] makes every builder write
//!   2025-11-25 requests: `initialize` and its session ([`Client::open_session`]), the
//!   server's own requests read as [`ServerRequestEvent`]s and answered with the same
//!   [`InputAnswer`]s as MRTR rounds; the session's own GET stream ([`SessionStream`]),
//!   and a request's broken stream resumed with `Last-Event-ID` ([`Resumption`]).
//!
//! Every protocol decision (headers, `_meta`, ids, framing, status handling, result decoding)
//! is made here, once, so the browser app, the native tests and the server all share it.
//!
//! # Floors
//!
//! The modules stand in four floors, one folder each; a floor imports only the floors below
//! it, never one above:
//!
//! 1. [`vocabulary`]: the wire's words. Methods with their params and outputs
//!    ([`McpMethod`], [`MethodId`]), the typed events of an exchange ([`ExchangeEvent`]),
//!    findings, limits, the protocol's constants.
//! 2. [`readers`]: bytes and JSON from a server into those words, once: a response
//!    ([`ResponseReader`]), SSE framing, notifications, a recorded request body, content,
//!    names, schemas.
//! 3. [`builders`]: each request the client sends, body and headers ([`Client`],
//!    [`OutgoingRequest`], which hands back the reader of its own response), and the answers
//!    it writes ([`InputAnswer`]).
//! 4. [`machines`]: what spans exchanges: MRTR rounds, tasks, listen streams, pages, version
//!    negotiation, the cache, a recorded log read back.
//!
//! [`auth`] is a wing of its own (the authorization flow, sans-IO); the readers use its
//! challenge reader, and it uses only the vocabulary.
//!
//! Wire types are `rmcp::model`'s; each response is decoded as the result type of the method
//! that was sent, never through rmcp's whole message enum. Each exchange is decoded once, into
//! typed [`ExchangeEvent`]s as it is read; the scene's model (the `holdbay-scene` crate) and a
//! replayed log ([`decode_recorded`]) read those events, never the bytes again.

pub mod auth;
pub mod builders;
pub mod machines;
pub mod readers;
pub mod vocabulary;

// The public paths callers have always used, each the one item of its floor.
pub use builders::headers;
pub use readers::schema_check;
pub use vocabulary::{era, protocol, relay, stdio};

pub use builders::answer::{AnswerError, InputAnswer};
pub use builders::client::{
    Client, ClientConfig, CompletionTarget, RequestOptions, default_capabilities,
};
pub use builders::headers::{MergedHeaders, is_reserved_header, merge_extra_headers};
pub use builders::legacy::{BodilessRequest, OutgoingMessage};
pub use builders::outgoing::OutgoingRequest;
pub use builders::refusal::refusal_for;
pub use builders::sendable::{Unsendable, check_sendable};
pub use builders::uri_template::{UriTemplate, UriTemplateError};
pub use machines::cache::{AuthContext, ResultCache};
/// Checking a server against the protocol's rules (`holdbay check`, the app's card).
pub use machines::check;
pub use machines::era::{EraDecision, OpenedSession, SessionRefused};
pub use machines::listen::{ListenEvent, Subscription};
pub use machines::listen_schedule::{
    LISTEN_RETRY_FIRST_MS, LISTEN_RETRY_MAX_MS, ListenEnding, ListenSchedule,
};
pub use machines::mrtr::{Bounds, ErrorStep, LogicalRequest, MrtrError, Round, Step};
pub use machines::pages::{
    Listing, MAX_PAGES, MAX_TOOL_PAGES, Pages, PagesError, name_book, tool_display_name, tool_title,
};
pub use machines::replay::{
    ExchangeDecoder, RecordedExchange, TimedEvent, decode_recorded, decode_recorded_as,
};
pub use machines::resumption::{MAX_RESUMPTIONS, Resumption};
pub use machines::session_stream::{SessionStream, StreamState};
pub use machines::task::{
    ClientEnding, DEFAULT_POLL_MS, DuePolls, Fetched, Following, MAX_POLL_MS, MAX_POLLS_IN_FLIGHT,
    MIN_POLL_MS, PollProblem, SaveNeeded, SnapshotSeen, TaskBook, TaskChanges, TaskError,
    TaskEvent, TaskTracker, TaskTransmit, TrackedTask, TransmitKind, due_polls,
};
pub use machines::version::{
    Negotiated, Negotiation, VersionMismatch, legacy_server, newest_common,
};
pub use readers::content::{
    MAX_INLINE_BYTES, Media, NotInline, ResourceBody, base64_decoded_len, hex_preview, media,
    offers_completions, resource_body,
};
pub use readers::form::{FieldChoice, FieldKind, FormField, FormSchema, TextFormat};
pub use readers::names::{
    HiddenChar, HiddenKind, NameBook, NameField, NameMarks, NameTally, NameWarning, Script, Shown,
    ShownPiece, confusable_mix, script_of, server_name_findings, server_name_marks, skeleton,
};
pub use readers::response::{
    Decoded, Outcome, Reply, ResponseError, ResponseReader, SignInNeeded, TaskProblem,
};
pub use readers::sse::{Resume, SseDecoder, SseError};
pub use readers::structured::OutputContract;
pub use readers::version_rejection::VersionRejection;
pub use vocabulary::era::{Binding, Era, EraChoice, LEGACY_VERSIONS};
pub use vocabulary::events::{
    AnswerEvent, AnswerKind, EndEvent, ExchangeEvent, InputAsk, InputRequestKind,
    NotificationEvent, NotificationKind, SentDetail, SentRequest, ServerRequestEvent,
};
pub use vocabulary::findings::{Finding, Rule, Severity};
pub use vocabulary::limits::{
    Limits, MAX_AUTH_DOCUMENT_BYTES, MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_ID_BYTES,
    MAX_INPUT_REQUESTS, MAX_NAME_BYTES, MAX_NOTIFICATIONS_KEPT,
};
pub use vocabulary::list_method::ListMethod;
pub use vocabulary::listen_params::{ListenFilter, ListenParams};
pub use vocabulary::method::{
    CallTool, CancelTask, Complete, Discover, GetPrompt, GetTask, Initialize, LegacyCancelTask,
    LegacyGetTask, ListPrompts, ListResourceTemplates, ListResources, ListTools, Listen, McpMethod,
    MethodId, MethodRules, ReadResource, RoundFields, TaskResult, UpdateTask,
};
pub use vocabulary::protocol::{CLIENT_VERSIONS, LATEST_LEGACY_VERSION};

/// The `rmcp` wire model, re-exported so callers use the very types the engine decodes into.
pub use rmcp::model;
