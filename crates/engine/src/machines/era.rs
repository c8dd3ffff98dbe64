//! Which era a server speaks, and a legacy session's life: detection exactly as
//! versioning.mdx says (a modern request first; on HTTP a `4xx` without a recognised modern
//! error body, on stdio any non-modern error or no answer, means legacy), the `initialize`
//! answer checked, and a session the server ended (HTTP 404) opened again.

use rmcp::model::{DiscoverResult, InitializeResult};

use crate::builders::client::Client;
use crate::builders::outgoing::OutgoingRequest;
use crate::machines::version::{VersionMismatch, is_modern_error, legacy_server};
use crate::readers::response::{Reply, ResponseError};
use crate::vocabulary::era::{
    Binding, Era, EraChoice, HEADER_SESSION_ID, LEGACY_VERSIONS, SESSION_UNKNOWN_STATUS,
};
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::method::McpMethod;

/// What the first failed modern request says about the server's era.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EraDecision {
    /// A legacy server, and the user lets Holdbay follow it: the client now writes legacy
    /// requests, and the next to send is `initialize`. `why` says so in plain words.
    FallBack { why: String },
    /// A legacy server, but the user asked for 2026-07-28 only.
    Stop(VersionMismatch),
}

/// The session a legacy server opened.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedSession {
    /// The revision both now speak.
    pub version: String,
    /// `None` when the server keeps no sessions (it sent no `Mcp-Session-Id`).
    pub session_id: Option<String>,
    pub result: InitializeResult,
    pub findings: Vec<Finding>,
}

impl OpenedSession {
    /// The session as what `server/discover` would have said: the version agreed, the
    /// server's capabilities, identity and instructions (never cached), so one view of a
    /// server serves both eras.
    pub fn as_discovery(&self) -> DiscoverResult {
        let result = &self.result;
        let mut discovery = DiscoverResult::new(
            vec![result.protocol_version.clone()],
            result.capabilities.clone(),
        )
        .with_server_info(result.server_info.clone());
        discovery.instructions = result.instructions.clone();
        discovery
    }
}

/// Why a legacy server's `initialize` answer cannot open a session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionRefused {
    #[error(
        "the server answered initialize with protocol version {version}, which Holdbay does \
         not speak (it speaks {})", LEGACY_VERSIONS.join(" and ")
    )]
    VersionUnsupported { version: String },
    #[error(
        "the server answered initialize with {version}, a revision without initialize: it \
         contradicts itself (it refused the 2026-07-28 request before)"
    )]
    ModernVersion { version: String },
}

impl Client {
    /// After the first request to a server failed with `error`, in the era `choice` allows:
    /// `None` when the failure says nothing about the era (a modern error, 401, 5xx, a
    /// network failure), or the client is already in the legacy era.
    pub fn detect_era(
        &mut self,
        choice: EraChoice,
        binding: Binding,
        error: &ResponseError,
    ) -> Option<EraDecision> {
        if self.era() == Era::Legacy {
            return None;
        }
        let mismatch = match binding {
            Binding::Http => legacy_server(error)?,
            Binding::Stdio => match error {
                ResponseError::Rpc { code, .. } if !is_modern_error(0, *code) => {
                    VersionMismatch::Legacy { status: 0 }
                }
                _ => return None,
            },
        };
        let sign = match (&mismatch, error) {
            (VersionMismatch::Legacy { status }, _) if *status > 0 => {
                format!("HTTP {status} without a 2026-07-28 error")
            }
            (_, ResponseError::Rpc { code, .. }) => format!("error {code}, not a 2026-07-28 one"),
            _ => "an error".to_owned(),
        };
        Some(self.after_legacy_sign(
            choice,
            mismatch,
            &format!("answered a 2026-07-28 request with {sign}"),
        ))
    }

    /// Before the first request: a user who asked for the legacy era gets it at once (no
    /// 2026-07-28 request first); `None` when the era is still to be found or is modern.
    pub fn choose_era(&mut self, choice: EraChoice) -> Option<EraDecision> {
        if choice.first_era() != Era::Legacy {
            return None;
        }
        self.use_era(Era::Legacy);
        Some(EraDecision::FallBack {
            why: format!(
                "{} was asked for (era= in the page's address), so Holdbay opened a session \
                 with initialize without trying 2026-07-28 first",
                Era::Legacy
            ),
        })
    }

    /// stdio (versioning.mdx): the modern probe got no answer in time; a legacy server
    /// ignores a method it does not know.
    pub fn detect_era_after_silence(&mut self, choice: EraChoice) -> Option<EraDecision> {
        if self.era() == Era::Legacy {
            return None;
        }
        let mismatch = VersionMismatch::Legacy { status: 0 };
        Some(self.after_legacy_sign(
            choice,
            mismatch,
            "did not answer a 2026-07-28 request in time",
        ))
    }

    fn after_legacy_sign(
        &mut self,
        choice: EraChoice,
        mismatch: VersionMismatch,
        sign: &str,
    ) -> EraDecision {
        if !choice.may_fall_back() {
            return EraDecision::Stop(mismatch);
        }
        self.use_era(Era::Legacy);
        EraDecision::FallBack {
            why: format!(
                "the server {sign}: it speaks an older revision, so \
                 Holdbay opens a {} session with initialize",
                Era::Legacy
            ),
        }
    }

    /// The server's answer to [`Client::initialize`], with the `Mcp-Session-Id` header of
    /// that answer. On success the client speaks the server's version and sends the session
    /// on every later request; [`Client::initialized`] is the next message.
    pub fn open_session(
        &mut self,
        reply: Reply<InitializeResult>,
        session_id: Option<&str>,
    ) -> Result<OpenedSession, SessionRefused> {
        let version = reply.result.protocol_version.as_str().to_owned();
        if Era::of_version(&version) == Era::Modern {
            return Err(SessionRefused::ModernVersion { version });
        }
        if !LEGACY_VERSIONS.contains(&version.as_str()) {
            return Err(SessionRefused::VersionUnsupported { version });
        }
        self.use_version(&version);
        // An empty or non-visible-ASCII id is not one a client can send back (2025-11-25).
        self.session_id = session_id
            .filter(|id| !id.is_empty() && id.bytes().all(|byte| (0x21..=0x7e).contains(&byte)))
            .map(str::to_owned);
        Ok(OpenedSession {
            version,
            session_id: self.session_id.clone(),
            result: reply.result,
            findings: reply.findings,
        })
    }

    /// `request` again in the session open now (after [`Client::session_lost`] and a new
    /// `initialize`): the same request, carrying the new `Mcp-Session-Id` (or none, if the
    /// server now keeps no sessions).
    pub fn in_current_session<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
    ) -> OutgoingRequest<M> {
        let mut again = request.clone();
        again
            .headers
            .retain(|(name, _)| !name.eq_ignore_ascii_case(HEADER_SESSION_ID));
        if let Some(session) = self.session_id() {
            again
                .headers
                .push((HEADER_SESSION_ID.to_owned(), session.to_owned()));
        }
        again
    }

    /// A legacy request failed with `error`: if it was a 404 to a request that carried a
    /// session, the server ended the session (2025-11-25: the client MUST start a new one).
    /// The client forgets it and says so; the caller sends [`Client::initialize`] again.
    /// Some servers (the TypeScript SDK's examples) answer a 400 whose error names the
    /// session instead: the same end, and a finding of its own.
    pub fn session_lost(&mut self, error: &ResponseError) -> Option<Finding> {
        if self.era() != Era::Legacy {
            return None;
        }
        let (status, message) = match error {
            ResponseError::HttpStatus {
                status,
                body_excerpt,
            } => (*status, body_excerpt.as_str()),
            ResponseError::Rpc {
                status, message, ..
            } => (*status, message.as_str()),
            _ => return None,
        };
        let names_the_session = message.to_ascii_lowercase().contains("session");
        if status != SESSION_UNKNOWN_STATUS && !(status == 400 && names_the_session) {
            return None;
        }
        let session = self.session_id.take()?;
        Some(if status == SESSION_UNKNOWN_STATUS {
            Finding::new(
                Rule::LegacySessionEnded,
                format!(
                    "the server answered HTTP 404 to session {session}: it ended the session, \
                     so Holdbay starts a new one with initialize"
                ),
                None,
            )
        } else {
            Finding::new(
                Rule::LegacySessionWrongStatus,
                format!(
                    "the server refused session {session} with HTTP 400 (\"{message}\"); a \
                     session it no longer knows gets 404 (2025-11-25, session management). \
                     Holdbay starts a new one with initialize"
                ),
                None,
            )
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
