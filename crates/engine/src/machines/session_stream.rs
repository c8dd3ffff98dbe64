//! A legacy session's own GET stream (2025-11-25, transports, "Listening for Messages from
//! the Server"): what the server sends outside any request (its own requests, such as
//! `elicitation/create`, and notifications) arrives here. Sans-IO: the caller opens the
//! stream when [`SessionStream::poll_open`] says, hands over the status, the chunks and the
//! end, and sleeps until [`SessionStream::poll_timeout`].
//!
//! The server may close the stream at any time (SEP-1699): it is opened again after the
//! server's `retry` with `Last-Event-ID`, so nothing sent meanwhile is lost. A server that
//! offers no stream answers `405`, and then none is asked for again.

use serde_json::Value;

use crate::builders::client::Client;
use crate::builders::legacy::BodilessRequest;
use crate::machines::resumption::DEFAULT_RETRY_MS;
use crate::readers::json::from_slice_lenient;
use crate::readers::notification_keep::NotificationKeep;
use crate::readers::sse::{Resume, SseDecoder};
use crate::readers::stream_message::StreamMessages;
use crate::vocabulary::era::Era;
use crate::vocabulary::events::ExchangeEvent;
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::protocol::is_event_stream;

/// Failed openings in a row (an error status, no answer) after which the client stops.
pub const MAX_FAILED_OPENINGS: u32 = 5;

/// The longest wait between two openings after failures (the wait doubles from the retry).
const MAX_BACKOFF_MS: u64 = 30_000;

/// Where the session's stream stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamState {
    /// To be opened at this time (milliseconds on the caller's clock).
    OpenAt(u64),
    /// A GET is on the wire, or its stream is being read.
    Open,
    /// Not opened again: why, in plain words.
    Closed { why: String },
}

/// The session's GET stream, across its reconnections.
pub struct SessionStream {
    state: StreamState,
    resume: Resume,
    decoder: Option<Box<SseDecoder>>,
    notes: NotificationKeep,
    limits: Limits,
    /// Openings in a row that failed (reset by a stream that opened).
    failures: u32,
}

impl std::fmt::Debug for SessionStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionStream")
            .field("state", &self.state)
            .field("resume", &self.resume)
            .field("failures", &self.failures)
            .finish()
    }
}

impl SessionStream {
    /// A stream to open at `now_ms`, read within `limits`.
    pub fn new(now_ms: u64, limits: Limits) -> Self {
        Self {
            state: StreamState::OpenAt(now_ms),
            resume: Resume::default(),
            decoder: None,
            notes: NotificationKeep::default(),
            limits,
            failures: 0,
        }
    }

    pub fn state(&self) -> &StreamState {
        &self.state
    }

    /// The GET to send now, if the stream is due to open (resumed after the last event the
    /// server numbered). `None` while it is open, not due, or closed, or when `client` is
    /// not in a legacy session.
    pub fn poll_open(&mut self, client: &Client, now_ms: u64) -> Option<BodilessRequest> {
        match self.state {
            StreamState::OpenAt(at) if at <= now_ms && client.era() == Era::Legacy => {
                self.state = StreamState::Open;
                self.decoder = None;
                Some(client.open_stream(Some(&self.resume)))
            }
            _ => None,
        }
    }

    /// When to call [`SessionStream::poll_open`] next, if ever.
    pub fn poll_timeout(&self) -> Option<u64> {
        match self.state {
            StreamState::OpenAt(at) => Some(at),
            _ => None,
        }
    }

    /// The GET's answer arrived: its status and `Content-Type`.
    pub fn handle_response(
        &mut self,
        status: u16,
        content_type: Option<&str>,
        now_ms: u64,
    ) -> Vec<ExchangeEvent> {
        let event_stream = is_event_stream(content_type);
        let mut events = vec![ExchangeEvent::Responded {
            status,
            event_stream,
        }];
        match status {
            200..=299 if event_stream => {
                self.failures = 0;
                self.decoder = Some(Box::default());
            }
            405 => self.close(
                "the server offers no stream of its own (HTTP 405): it can only \
                               answer on a request's stream",
            ),
            404 => self.close("the server ended the session (HTTP 404)"),
            _ => {
                let why = if (200..300).contains(&status) {
                    format!(
                        "the server answered the stream's GET with {}, not an event stream",
                        content_type.unwrap_or("no Content-Type")
                    )
                } else {
                    format!("the server refused the stream's GET with HTTP {status}")
                };
                events.push(ExchangeEvent::Finding(Finding::new(
                    Rule::LegacyStreamRefused,
                    format!(
                        "{why}; a 2025-11-25 server must answer it with text/event-stream \
                         or HTTP 405"
                    ),
                    None,
                )));
                self.failed(now_ms, why);
            }
        }
        events
    }

    /// The next piece of the stream: the server's requests and notifications in it.
    pub fn handle_chunk(&mut self, chunk: &[u8]) -> Vec<ExchangeEvent> {
        let Some(decoder) = self.decoder.as_mut() else {
            return Vec::new();
        };
        let mut events = Vec::new();
        match decoder.push(chunk) {
            Ok(texts) => {
                self.resume = decoder.resume().clone();
                self.read(texts, &mut events);
            }
            Err(error) => {
                self.decoder = None;
                events.push(ExchangeEvent::Finding(Finding::new(
                    Rule::LegacyStreamRefused,
                    format!("the session's stream broke: {error}"),
                    None,
                )));
            }
        }
        events
    }

    /// The stream ended (the server closed it, or the connection broke): opened again
    /// after the server's `retry`.
    pub fn handle_end(&mut self, now_ms: u64) -> Vec<ExchangeEvent> {
        let mut events = Vec::new();
        if let Some(mut decoder) = self.decoder.take() {
            if let Ok(texts) = decoder.finish() {
                self.read(texts, &mut events);
            }
            self.resume = decoder.resume().clone();
        }
        if self.state == StreamState::Open {
            let wait = self.resume.retry_ms.unwrap_or(DEFAULT_RETRY_MS);
            self.state = StreamState::OpenAt(now_ms.saturating_add(wait));
        }
        events
    }

    /// The GET got no answer at all (the network, the relay): tried again later, with a
    /// longer wait each time, until [`MAX_FAILED_OPENINGS`].
    pub fn handle_unanswered(&mut self, now_ms: u64, why: &str) {
        self.decoder = None;
        if self.state == StreamState::Open {
            self.failed(now_ms, why.to_owned());
        }
    }

    /// Stop: the session is over, or the user closed the connection.
    pub fn close(&mut self, why: &str) {
        self.decoder = None;
        self.state = StreamState::Closed {
            why: why.to_owned(),
        };
    }

    fn failed(&mut self, now_ms: u64, why: String) {
        self.decoder = None;
        self.failures = self.failures.saturating_add(1);
        if self.failures >= MAX_FAILED_OPENINGS {
            self.state = StreamState::Closed {
                why: format!("{why} ({} times in a row: not asked again)", self.failures),
            };
            return;
        }
        let base = self.resume.retry_ms.unwrap_or(DEFAULT_RETRY_MS);
        let wait = base
            .saturating_mul(1 << self.failures.min(8))
            .min(MAX_BACKOFF_MS);
        self.state = StreamState::OpenAt(now_ms.saturating_add(wait));
    }

    fn read(&mut self, texts: Vec<String>, events: &mut Vec<ExchangeEvent>) {
        let mut messages = StreamMessages {
            era: Era::Legacy,
            limits: &self.limits,
            notes: &mut self.notes,
            events,
        };
        for text in texts {
            let message: Value = match from_slice_lenient(text.as_bytes()) {
                Ok((message, _)) => message,
                Err(error) => {
                    messages.events.push(ExchangeEvent::Finding(Finding::new(
                        Rule::LegacyStreamRefused,
                        format!("an event on the session's stream is not JSON: {error}"),
                        None,
                    )));
                    continue;
                }
            };
            // A response here answers a request whose own stream broke; that request's
            // resumed stream reads it (the server replays it there), so it is only logged.
            let _ = messages.read(message);
        }
    }
}

#[cfg(test)]
mod tests;
