//! One recorded HTTP exchange: what went out, what came back piece by piece, and the typed
//! events the engine decoded from it (once, as it arrived).

use holdbay_engine::{AnswerEvent, AnswerKind, ExchangeEvent, SentDetail, SentRequest, TimedEvent};
use serde::{Deserialize, Serialize};

use super::budget::{BODY_KEPT_BYTES, REFUSED_BODY_KEPT_BYTES, prefix_within};

/// One HTTP exchange.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireEntry {
    pub id: u64,
    /// The MCP method (`tools/call`, `tasks/get`, …).
    pub method: String,
    /// The `Mcp-Name` header: a tool name, a prompt, a URI or a task id.
    #[serde(default)]
    pub name: Option<String>,
    /// The MCP server the request was for.
    pub server: String,
    /// What was fetched: the server itself, or the relay.
    pub url: String,
    #[serde(default)]
    pub relayed: bool,
    /// Wall-clock milliseconds since the Unix epoch.
    pub started_at: f64,
    pub request_headers: Vec<(String, String)>,
    /// Request headers whose values were withheld from the log (credentials, and the
    /// user's extra headers not marked as shareable).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withheld_headers: Vec<String>,
    pub request_body: String,
    #[serde(default)]
    pub status: Option<u16>,
    #[serde(default)]
    pub response_headers: Vec<(String, String)>,
    /// Milliseconds after `started_at` when the status line arrived.
    #[serde(default)]
    pub responded_after: Option<f64>,
    /// The body as it arrived, piece by piece (SSE events show up one by one).
    #[serde(default)]
    pub body: Vec<WireChunk>,
    /// Bytes of the body not kept: past [`BODY_KEPT_BYTES`], or read before the engine
    /// refused the body as too large.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub body_dropped: usize,
    /// The engine refused the body as too large: only its start is kept
    /// ([`REFUSED_BODY_KEPT_BYTES`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub body_refused: bool,
    /// Milliseconds after `started_at` when the body ended.
    #[serde(default)]
    pub finished_after: Option<f64>,
    /// Why the exchange failed at the HTTP level (unreachable, aborted, broken body).
    #[serde(default)]
    pub error: Option<String>,
    /// The client aborted it (Stop, or a listen stream it closed on purpose).
    #[serde(default)]
    pub stopped: bool,
    /// Which round of its logical request the request was, as the engine numbered it when
    /// it was sent (the wire does not carry it, so the log keeps it for a replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// An authorization exchange (discovery, registration, token, the browser's trip to
    /// the authorization server and back) rather than an MCP request: `method` is then the
    /// purpose's label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<holdbay_engine::auth::Purpose>,
    /// What the engine decoded from this exchange, in order, as it arrived. Not exported or
    /// kept: an imported or restored exchange is decoded from its bytes by the same engine.
    #[serde(skip)]
    pub events: Vec<TimedEvent>,
    /// Bytes of `body`, counted as pieces are kept (see [`WireEntry::retained_bytes`]).
    #[serde(skip)]
    pub body_bytes: usize,
    /// Notifications the engine passed on as not kept (past its bound on one exchange):
    /// counted here, never stored in `events`.
    #[serde(skip)]
    pub notifications_not_kept: u64,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// A piece of a response body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireChunk {
    /// Milliseconds after the request started.
    pub after: f64,
    pub text: String,
}

impl WireEntry {
    /// Add a piece of the response body, keeping at most [`BODY_KEPT_BYTES`] of it; the
    /// rest is counted in `body_dropped`.
    pub fn keep_body(&mut self, after: f64, text: &str) {
        let room = BODY_KEPT_BYTES.saturating_sub(self.body_bytes);
        let kept = prefix_within(text, room);
        self.body_dropped += text.len() - kept.len();
        if !kept.is_empty() {
            self.body_bytes += kept.len();
            self.body.push(WireChunk {
                after,
                text: kept.to_owned(),
            });
        }
    }

    /// The engine refused the body as too large: keep only its first
    /// [`REFUSED_BODY_KEPT_BYTES`] (enough to see what it was), count the rest as dropped.
    pub fn keep_refused_head(&mut self) {
        let mut room = REFUSED_BODY_KEPT_BYTES;
        let mut freed = 0;
        self.body.retain_mut(|chunk| {
            let kept = prefix_within(&chunk.text, room).len();
            room -= kept;
            freed += chunk.text.len() - kept;
            chunk.text.truncate(kept);
            chunk.text.shrink_to_fit();
            kept > 0
        });
        self.body_dropped += freed;
        self.body_bytes = self.body_bytes.saturating_sub(freed);
        self.body_refused = true;
    }

    /// Take in events as the engine decoded them: each kept one is stored, a notification
    /// past the engine's bound is only counted.
    pub fn store_events(&mut self, events: impl IntoIterator<Item = TimedEvent>) {
        for timed in events {
            if timed.event.is_kept() {
                self.events.push(timed);
            } else {
                self.notifications_not_kept += 1;
            }
        }
    }

    /// Count `body` again (an entry restored or imported, whose count was not kept).
    pub fn recount(&mut self) {
        self.body_bytes = self.body.iter().map(|chunk| chunk.text.len()).sum();
    }

    /// About how many bytes the log holds for this exchange: bodies, headers, error.
    pub fn retained_bytes(&self) -> usize {
        let headers = |list: &[(String, String)]| -> usize {
            list.iter()
                .map(|(name, value)| name.len() + value.len())
                .sum()
        };
        self.request_body.len()
            + self.body_bytes
            + headers(&self.request_headers)
            + headers(&self.response_headers)
            + self.error.as_ref().map_or(0, String::len)
    }

    /// The whole response body so far.
    pub fn body_text(&self) -> String {
        self.body.iter().map(|chunk| chunk.text.as_str()).collect()
    }

    /// Whether the exchange is over (its body ended, or it failed).
    pub fn is_finished(&self) -> bool {
        self.finished_after.is_some()
    }

    /// The task this exchange concerns, if any: the task a `tasks/*` request names, or the
    /// task a response created. Read from the decoded events, never from the text.
    pub fn task_id(&self) -> Option<&str> {
        self.events.iter().find_map(|timed| match &timed.event {
            ExchangeEvent::Sent(sent) => match &sent.detail {
                SentDetail::TaskGet { task_id }
                | SentDetail::TaskUpdate { task_id, .. }
                | SentDetail::TaskCancel { task_id } => Some(task_id.as_str()),
                _ => None,
            },
            ExchangeEvent::Answered(answer) => match &answer.kind {
                AnswerKind::Task(task) => Some(task.task_id.as_str()),
                _ => None,
            },
            _ => None,
        })
    }

    /// The request as the engine sent (or decoded) it.
    pub fn sent(&self) -> Option<&SentRequest> {
        self.events.iter().find_map(|timed| match &timed.event {
            ExchangeEvent::Sent(sent) => Some(sent.as_ref()),
            _ => None,
        })
    }

    /// The JSON-RPC response, once decoded.
    pub fn answer(&self) -> Option<&AnswerEvent> {
        self.events.iter().find_map(|timed| match &timed.event {
            ExchangeEvent::Answered(answer) => Some(answer.as_ref()),
            _ => None,
        })
    }

    /// Whether the log withheld `name`'s value.
    pub fn is_withheld(&self, name: &str) -> bool {
        self.withheld_headers
            .iter()
            .any(|withheld| withheld.eq_ignore_ascii_case(name))
    }

    /// A request header, by name (any case).
    pub fn request_header(&self, name: &str) -> Option<&str> {
        self.request_headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// A response header, by name (any case).
    pub fn response_header(&self, name: &str) -> Option<&str> {
        self.response_headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}
