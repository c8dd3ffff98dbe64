//! What a check sends and gets, as plain HTTP (a probe may send what no well-behaved client
//! would: a header that disagrees with its body, an unknown method), and what it concluded.

use serde::Serialize;
use serde_json::Value;

use super::rules::CheckRule;
use crate::builders::outgoing::OutgoingRequest;
use crate::vocabulary::method::McpMethod;

/// An HTTP request of a probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProbeRequest {
    /// `POST`, `GET` or `OPTIONS`.
    pub http_method: &'static str,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// What it is, for a person: "server/discover with Mcp-Method: tools/list".
    pub label: String,
}

impl ProbeRequest {
    /// `request` as the engine builds it, to be changed by the probe.
    pub(crate) fn of<M: McpMethod>(request: &OutgoingRequest<M>, label: &str) -> Self {
        Self {
            http_method: "POST",
            headers: request.headers().to_vec(),
            body: Some(request.body().to_owned()),
            label: label.to_owned(),
        }
    }

    /// The same with header `name` set to `value` (any case), or removed when `None`.
    pub(crate) fn with_header(mut self, name: &str, value: Option<&str>) -> Self {
        self.headers
            .retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
        if let Some(value) = value {
            self.headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    /// The same with its JSON body changed by `change`.
    pub(crate) fn with_body(mut self, change: impl FnOnce(&mut Value)) -> Self {
        if let Some(mut json) = self
            .body
            .as_deref()
            .and_then(|body| serde_json::from_str::<Value>(body).ok())
        {
            change(&mut json);
            self.body = Some(json.to_string());
        }
        self
    }

    /// The value of header `name` it sends, if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

/// The HTTP answer to a probe's request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProbeResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl ProbeResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// The JSON-RPC response in the body: the body itself, or the event stream's message
    /// that carries a result or an error.
    pub fn message(&self) -> Option<Value> {
        if let Ok(json) = serde_json::from_str::<Value>(&self.body) {
            return Some(json);
        }
        stream_answer(&self.body)
    }

    /// Whether a body read so far already holds the JSON-RPC answer (an event stream's
    /// message with a result or an error): the caller may stop reading.
    pub fn holds_answer(body: &str) -> bool {
        body.contains("\n\n") && stream_answer(body).is_some()
    }

    /// The JSON-RPC error code, if the message is an error.
    pub fn error_code(&self) -> Option<i64> {
        self.message()?.get("error")?.get("code")?.as_i64()
    }

    /// The result object, if the message is a result.
    pub fn result(&self) -> Option<Value> {
        self.message()?.get("result").cloned()
    }
}

/// The message of an event stream that carries a result or an error.
fn stream_answer(body: &str) -> Option<Value> {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|message| message.get("result").is_some() || message.get("error").is_some())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(existing, _)| existing.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

/// One request of a check and what came of it (`Err`: no HTTP answer, and why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeExchange {
    pub request: ProbeRequest,
    pub response: Result<ProbeResponse, String>,
}

/// Written as `{request, response}` or `{request, unanswered: why}`.
impl Serialize for ProbeExchange {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("ProbeExchange", 2)?;
        out.serialize_field("request", &self.request)?;
        match &self.response {
            Ok(response) => out.serialize_field("response", response)?,
            Err(why) => out.serialize_field("unanswered", why)?,
        }
        out.end()
    }
}

/// How a server did on one rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "outcome")]
pub enum Outcome {
    Pass,
    Fail {
        why: String,
    },
    /// The rule does not apply to this server (it does not offer what the rule is about),
    /// or it could not be asked (an earlier answer was missing).
    NotApplicable {
        why: String,
    },
}

/// A rule's verdict, with the exchanges that show it (indexes into the check's exchanges).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub rule: CheckRule,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub evidence: Vec<usize>,
}

impl Verdict {
    pub fn is_fail(&self) -> bool {
        matches!(self.outcome, Outcome::Fail { .. })
    }

    pub fn word(&self) -> &'static str {
        match self.outcome {
            Outcome::Pass => "pass",
            Outcome::Fail { .. } => "fail",
            Outcome::NotApplicable { .. } => "n/a",
        }
    }
}
