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
//!   and [`due_polls`] picks which of many to poll now;
//! - [`Subscription`] reads one `subscriptions/listen` stream, and [`ListenSchedule`] says
//!   when to open the next;
//! - [`Pages`] walks a paginated list to a [`Listing`] that says if it stopped early;
//! - [`ResultCache`] honours `ttlMs`/`cacheScope`;
//! - a tool's `outputSchema`, learned from `tools/list`, is checked against the
//!   `structuredContent` of its results ([`OutputContract`], with the small JSON Schema
//!   checker [`schema_check`]);
//! - a [`Finding`] records what the server did against the spec;
//! - names and titles are shown as [`Shown`] (hidden characters as `⟨U+200B⟩`), and a
//!   [`NameBook`] flags the ones that pass for others;
//! - [`Client::negotiate`] retries once after `-32022`, and [`legacy_server`] tells a server
//!   of an older revision apart (§10.6), each ending in a [`VersionMismatch`] when it fails.
//!
//! Every protocol decision (headers, `_meta`, ids, framing, status handling, result decoding)
//! is made here, once, so the browser app, the native tests and the server all share it.
//!
//! Wire types are `rmcp::model`'s; each response is decoded as the result type of the method
//! that was sent, never through rmcp's whole message enum. Each exchange is decoded once, into
//! typed [`ExchangeEvent`]s as it is read; the scene's model (the `holdbay-scene` crate) and a
//! replayed log ([`decode_recorded`]) read those events, never the bytes again.

mod answer;
pub mod auth;
mod bounds;
mod cache;
mod client;
mod content;
mod decode;
mod events;
mod findings;
pub mod headers;
mod json;
mod limits;
mod listen;
mod listen_schedule;
mod method;
mod mrtr;
mod names;
mod outgoing;
mod pages;
pub mod protocol;
mod refusal;
pub mod relay;
mod response;
pub mod schema_check;
mod sendable;
mod sse;
mod structured;
mod task;
mod uri_template;
mod version;

pub use answer::{AnswerError, InputAnswer};
pub use cache::{AuthContext, ResultCache};
pub use client::{Client, ClientConfig, CompletionTarget, RequestOptions, default_capabilities};
pub use content::{
    MAX_INLINE_BYTES, Media, NotInline, ResourceBody, base64_decoded_len, hex_preview, media,
    offers_completions, resource_body,
};
pub use events::{
    AnswerEvent, AnswerKind, EndEvent, ExchangeDecoder, ExchangeEvent, InputAsk, InputRequestKind,
    NotificationEvent, NotificationKind, RecordedExchange, SentDetail, SentRequest, TimedEvent,
    decode_recorded, decode_recorded_as,
};
pub use findings::{Finding, Rule, Severity};
pub use headers::{MergedHeaders, is_reserved_header, merge_extra_headers};
pub use limits::{
    Limits, MAX_AUTH_DOCUMENT_BYTES, MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_ID_BYTES,
    MAX_INPUT_REQUESTS, MAX_NAME_BYTES, MAX_NOTIFICATIONS_KEPT,
};
pub use listen::{Listen, ListenEvent, ListenFilter, ListenParams, Subscription};
pub use listen_schedule::{
    LISTEN_RETRY_FIRST_MS, LISTEN_RETRY_MAX_MS, ListenEnding, ListenSchedule,
};
pub use method::{
    CallTool, CancelTask, Complete, Discover, GetPrompt, GetTask, ListPrompts,
    ListResourceTemplates, ListResources, ListTools, McpMethod, MethodId, MethodRules,
    ReadResource, RoundFields, UpdateTask,
};
pub use mrtr::{Bounds, ErrorStep, LogicalRequest, MrtrError, Round, Step};
pub use names::{
    HiddenChar, HiddenKind, NameBook, NameField, NameMarks, NameTally, NameWarning, Script, Shown,
    ShownPiece, confusable_mix, script_of, server_name_findings, server_name_marks, skeleton,
};
pub use outgoing::OutgoingRequest;
pub use pages::{
    ListMethod, Listing, MAX_PAGES, MAX_TOOL_PAGES, Pages, PagesError, name_book,
    tool_display_name, tool_title,
};
pub use refusal::refusal_for;
pub use response::{
    Decoded, Outcome, Reply, ResponseError, ResponseReader, SignInNeeded, TaskProblem,
};
pub use sendable::{Unsendable, check_sendable};
pub use sse::{SseDecoder, SseError};
pub use structured::OutputContract;
pub use task::{
    ClientEnding, DEFAULT_POLL_MS, DuePolls, Following, MAX_POLL_MS, MAX_POLLS_IN_FLIGHT,
    MIN_POLL_MS, TaskError, TaskEvent, TaskTracker, due_polls,
};
pub use uri_template::{UriTemplate, UriTemplateError};
pub use version::{
    CLIENT_VERSIONS, LATEST_LEGACY_VERSION, Negotiated, Negotiation, VersionMismatch,
    VersionRejection, legacy_server, newest_common,
};

/// The `rmcp` wire model, re-exported so callers use the very types the engine decodes into.
pub use rmcp::model;
