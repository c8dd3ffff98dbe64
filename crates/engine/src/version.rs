//! Agreeing on a protocol revision with the server: the one retry after `-32022`
//! (`UnsupportedProtocolVersion`, wire reference §5) and telling a server of an older
//! revision apart (§10.6).
//!
//! The client sends its newest revision first. A `-32022` names the server's `supported`
//! versions; the client retries **once**, as a new request, with the newest version both
//! sides speak, or stops with [`VersionMismatch::NoCommonVersion`]. A second `-32022` ends
//! it ([`VersionMismatch::RejectedAgain`]): nothing loops. A `400`, `404` or `405` without a
//! 2026-07-28 error body means the server speaks an older revision
//! ([`VersionMismatch::Legacy`]); its own message (often "Server not initialized") is a
//! symptom of that, not the cause, so it is not repeated.

use rmcp::model::ErrorCode;
use serde_json::Value;

use crate::findings::{Finding, Rule};
use crate::method::McpMethod;
use crate::outgoing::OutgoingRequest;
use crate::protocol::PROTOCOL_VERSION;
use crate::response::ResponseError;

/// The protocol revisions this client speaks, newest first.
pub const CLIENT_VERSIONS: &[&str] = &[PROTOCOL_VERSION];

/// The newest revision that still had the `initialize` handshake. A server that answers a
/// 2026-07-28 request the way §10.6 describes speaks this revision or an older one.
pub const LATEST_LEGACY_VERSION: &str = "2025-11-25";

/// What a `-32022` error said, read leniently (a malformed `data` is a finding, not a
/// reason to stop reading).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRejection {
    /// `data.supported`, in the server's order; empty when it sent none.
    pub supported: Vec<String>,
    /// `data.requested`, when the server said which version it refused.
    pub requested: Option<String>,
    /// HTTP status the error came with (the wire reference says 400).
    pub status: u16,
    /// Whether `data` had the shape §5 gives it (`supported`: string[], `requested`: string).
    pub well_formed: bool,
}

impl VersionRejection {
    /// The rejection in `error`, if it is a `-32022`.
    pub fn of(error: &ResponseError) -> Option<Self> {
        let ResponseError::Rpc {
            status,
            code,
            error,
            ..
        } = error
        else {
            return None;
        };
        if *code != ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0 {
            return None;
        }
        let data = error.data.as_ref();
        let supported_json = data.and_then(|data| data.get("supported"));
        let supported: Vec<String> = supported_json
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let all_strings = supported_json
            .and_then(Value::as_array)
            .is_some_and(|list| list.iter().all(Value::is_string));
        let requested_json = data.and_then(|data| data.get("requested"));
        let requested = requested_json.and_then(Value::as_str).map(str::to_owned);
        Some(Self {
            supported,
            requested,
            status: *status,
            well_formed: all_strings && requested_json.is_some_and(Value::is_string),
        })
    }

    /// What the server broke in saying it: §5 gives `-32022` HTTP 400 and a `data` of
    /// `{supported, requested}`.
    pub fn findings(&self) -> Vec<Finding> {
        let mut findings = Vec::new();
        if !self.well_formed {
            findings.push(Finding::new(
                Rule::UnsupportedVersionData,
                "the -32022 (unsupported protocol version) error has no valid data \
                 {supported: string[], requested: string}, so the client cannot tell which \
                 versions the server speaks",
                None,
            ));
        }
        if self.status != 400 {
            findings.push(Finding::new(
                Rule::UnsupportedVersionStatus,
                format!(
                    "the -32022 (unsupported protocol version) error came with HTTP {}; the \
                     Streamable HTTP transport gives it HTTP 400",
                    self.status
                ),
                None,
            ));
        }
        findings
    }
}

/// Why the client and the server did not agree on a protocol revision. Each says what
/// happened in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersionMismatch {
    /// §10.6: a 400, 404 or 405 without a 2026-07-28 error body. The server speaks
    /// 2025-11-25 or an older revision.
    #[error(
        "the server speaks an older MCP revision ({LATEST_LEGACY_VERSION} or earlier): it \
         answered the 2026-07-28 request with HTTP {status} and no 2026-07-28 error; Holdbay \
         speaks {}", CLIENT_VERSIONS.join(", ")
    )]
    Legacy { status: u16 },

    /// `-32022` and no version both sides speak.
    #[error(
        "the server and Holdbay have no protocol version in common: the server supports {}, \
         Holdbay speaks {}", listed(supported), ours.join(", ")
    )]
    NoCommonVersion {
        /// The server's `supported` list (empty if it sent none).
        supported: Vec<String>,
        /// The client's versions, newest first.
        ours: Vec<String>,
    },

    /// `-32022` again on the one retry.
    #[error(
        "the server refused protocol version {sent} again after the one retry (it says it \
         supports {}); Holdbay does not retry twice",
        listed(supported)
    )]
    RejectedAgain {
        /// The version the retry carried.
        sent: String,
        supported: Vec<String>,
    },
}

fn listed(versions: &[String]) -> String {
    if versions.is_empty() {
        "nothing it named".to_owned()
    } else {
        versions.join(", ")
    }
}

/// The newest of `ours` (newest first) that `theirs` lists.
pub fn newest_common(ours: &[String], theirs: &[String]) -> Option<String> {
    ours.iter()
        .find(|version| theirs.contains(version))
        .cloned()
}

/// The engine's decision after a `-32022`.
pub enum Negotiation<M: McpMethod> {
    /// Send this once: the same params, a new id, the chosen version in `_meta` and the
    /// `MCP-Protocol-Version` header. The client uses that version from now on.
    Retry(Box<OutgoingRequest<M>>),
    /// Stop, and say why.
    Stop(VersionMismatch),
}

/// A [`Negotiation`] and what the `-32022` showed about the server.
pub struct Negotiated<M: McpMethod> {
    pub next: Negotiation<M>,
    pub findings: Vec<Finding>,
}

impl<M: McpMethod> std::fmt::Debug for Negotiation<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Retry(retry) => f.debug_tuple("Retry").field(&retry.body()).finish(),
            Self::Stop(mismatch) => f.debug_tuple("Stop").field(mismatch).finish(),
        }
    }
}

impl<M: McpMethod> std::fmt::Debug for Negotiated<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Negotiated")
            .field("next", &self.next)
            .field("findings", &self.findings)
            .finish()
    }
}

/// Whether a server's error is one only a 2026-07-28 server sends (§10.6): `-32020`,
/// `-32021`, `-32022` on a 400, and `-32601` on a 404.
fn is_modern_error(status: u16, code: i32) -> bool {
    let modern_400 = [
        ErrorCode::HEADER_MISMATCH.0,
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY.0,
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0,
    ];
    modern_400.contains(&code) || (status == 404 && code == ErrorCode::METHOD_NOT_FOUND.0)
}

/// §10.6, for the first request to a server: a 400, 404 or 405 without a recognised
/// 2026-07-28 error body means the server speaks an older revision. `None` when the failure
/// says nothing about the revision (unreachable, 401/403, 5xx, a modern error, a bad 200).
pub fn legacy_server(error: &ResponseError) -> Option<VersionMismatch> {
    let status = match error {
        ResponseError::HttpStatus { status, .. } => *status,
        ResponseError::Rpc { status, code, .. } if !is_modern_error(*status, *code) => *status,
        _ => return None,
    };
    matches!(status, 400 | 404 | 405).then_some(VersionMismatch::Legacy { status })
}

#[cfg(test)]
mod tests;
