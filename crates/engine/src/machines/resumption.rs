//! A legacy request whose event stream ended before its answer, picked up again
//! (2025-11-25, transports, "Resumability and Redelivery"; SEP-1699): after the `retry` the
//! server set, the client GETs the endpoint with `Last-Event-ID`, and the server replays
//! what the broken stream would have carried, the answer included. A 2026-07-28 request is
//! never resumed this way: that revision has no GET stream.

use crate::builders::legacy::BodilessRequest;
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::response::ResponseError;
use crate::readers::sse::Resume;
use crate::vocabulary::era::{Era, HEADER_SESSION_ID};
use crate::vocabulary::method::McpMethod;
use crate::vocabulary::protocol::HEADER_PROTOCOL_VERSION;

/// How many times one request's stream is resumed before the client gives up on it.
pub const MAX_RESUMPTIONS: u32 = 5;

/// The wait before resuming when the server set no `retry`.
pub const DEFAULT_RETRY_MS: u64 = 1_000;

/// Resume a broken stream: wait `wait_ms`, then send `request` and read its answer with a
/// reader of the original request (the same id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumption {
    pub wait_ms: u64,
    pub request: BodilessRequest,
}

impl<M: McpMethod> OutgoingRequest<M> {
    /// Whether the answer to this request is still to be had after its stream (or a resumed
    /// one) ended with `error`: a legacy request whose stream named an event to resume
    /// after, ended without the response, and resumed fewer than [`MAX_RESUMPTIONS`] times
    /// (`resumed`) so far.
    pub fn resumption(
        &self,
        resume: Option<&Resume>,
        error: &ResponseError,
        resumed: u32,
    ) -> Option<Resumption> {
        let resume = resume?;
        let resumable = self.era == Era::Legacy
            && matches!(error, ResponseError::NoResponse { .. })
            && resume.last_event_id.is_some()
            && resumed < MAX_RESUMPTIONS;
        if !resumable {
            return None;
        }
        // The version and the session the request went with; nothing of its routing.
        let carried = self
            .headers
            .iter()
            .filter(|(name, _)| {
                name.eq_ignore_ascii_case(HEADER_PROTOCOL_VERSION)
                    || name.eq_ignore_ascii_case(HEADER_SESSION_ID)
            })
            .cloned()
            .collect();
        Some(Resumption {
            wait_ms: resume.retry_ms.unwrap_or(DEFAULT_RETRY_MS),
            request: BodilessRequest::stream(BodilessRequest::RESUMED_STREAM, carried)
                .resumed_after(Some(resume)),
        })
    }
}
