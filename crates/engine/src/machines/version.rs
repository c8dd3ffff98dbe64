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

use crate::builders::client::Client;
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::response::ResponseError;
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::method::McpMethod;
use crate::vocabulary::protocol::{CLIENT_VERSIONS, LATEST_LEGACY_VERSION};

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

impl Client {
    /// After `sent` failed with `error`: `None` unless the error is a `-32022`
    /// (UnsupportedProtocolVersion). Then either the one retry (a new request, new id, with
    /// the newest version both sides speak, which later requests carry too) or why not:
    /// no version in common, or `sent` was already the retry. The server is asked again
    /// even when its `supported` list names the version it refused (a finding), but only
    /// once.
    pub fn negotiate<M: McpMethod>(
        &mut self,
        sent: &OutgoingRequest<M>,
        error: &ResponseError,
    ) -> Option<Negotiated<M>> {
        let rejection = error.version_rejection()?;
        // What the error itself broke is a finding of its exchange (`ResponseError::finding`).
        let mut findings = Vec::new();
        let sent_version = sent.protocol_version();
        let stop = |mismatch, findings| {
            Some(Negotiated {
                next: Negotiation::Stop(mismatch),
                findings,
            })
        };
        let Some(chosen) = newest_common(&self.config().versions, &rejection.supported) else {
            return stop(
                VersionMismatch::NoCommonVersion {
                    supported: rejection.supported,
                    ours: self.config().versions.clone(),
                },
                findings,
            );
        };
        if sent.version_retry {
            return stop(
                VersionMismatch::RejectedAgain {
                    sent: sent_version,
                    supported: rejection.supported,
                },
                findings,
            );
        }
        if rejection.supported.contains(&sent_version) {
            findings.push(Finding::new(
                Rule::VersionRejectedThoughListed,
                format!(
                    "the server refused protocol version {sent_version} with -32022 although \
                     its own supported list names it"
                ),
                None,
            ));
        }
        self.use_version(&chosen);
        let mut retry = self.request::<M>(sent.params.clone(), &sent.options);
        retry.version_retry = true;
        Some(Negotiated {
            next: Negotiation::Retry(Box::new(retry)),
            findings,
        })
    }
}

/// Whether a server's error is one only a 2026-07-28 server sends (§10.6): `-32020`,
/// `-32021`, `-32022` on a 400, and `-32601` on a 404.
pub(crate) fn is_modern_error(status: u16, code: i32) -> bool {
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
