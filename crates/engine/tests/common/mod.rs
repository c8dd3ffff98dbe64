//! Replaying recorded exchanges: the engine builds each request, the test checks it against
//! the recording, then feeds the recorded response back through the engine.
#![allow(dead_code)]

use holdbay_engine::{Decoded, McpMethod, Outcome, OutgoingRequest, Reply, ResponseError};
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
pub struct Transcript {
    pub source: String,
    pub scenario: String,
    pub exchanges: Vec<Exchange>,
}

#[derive(Debug, Deserialize)]
pub struct Exchange {
    pub request: RecordedRequest,
    pub response: RecordedResponse,
}

#[derive(Debug, Deserialize)]
pub struct RecordedRequest {
    pub headers: serde_json::Map<String, Value>,
    pub body: Value,
}

#[derive(Debug, Deserialize)]
pub struct RecordedResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: String,
}

/// The recorded transcripts, in the engine's tests (from the engine's folder, or a sibling
/// crate's that includes this file: `crates/<crate>/../engine`).
pub const TRANSCRIPTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/transcripts");

impl Transcript {
    /// `<TRANSCRIPTS>/<path>`.
    pub fn load(path: &str) -> Self {
        let file = format!("{TRANSCRIPTS}/{path}");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
    }

    pub fn exchange(&self, index: usize) -> &Exchange {
        self.exchanges
            .get(index)
            .unwrap_or_else(|| panic!("{}: no exchange {index}", self.scenario))
    }
}

/// Our client's version changes; the recording's does not. Compare without it.
fn without_client_version(mut body: Value) -> Value {
    if let Some(info) = body
        .pointer_mut("/params/_meta/io.modelcontextprotocol~1clientInfo")
        .and_then(Value::as_object_mut)
    {
        info.remove("version");
    }
    body
}

/// The engine's request must be the one that was recorded: same body (JSON equality),
/// same headers (names case-insensitive, values exact).
pub fn assert_sent_as_recorded<M: McpMethod>(ours: &OutgoingRequest<M>, recorded: &Exchange) {
    let body: Value = serde_json::from_str(ours.body()).expect("the engine builds JSON");
    assert_eq!(
        without_client_version(body),
        without_client_version(recorded.request.body.clone()),
        "request body differs from the recording"
    );
    assert_headers_as_recorded(ours, recorded, &[]);
    assert_eq!(
        ours.headers().len(),
        recorded.request.headers.len(),
        "header count"
    );
}

/// Feed the recorded response to the engine, in small chunks as a network would.
pub fn replay<M: McpMethod>(
    ours: &OutgoingRequest<M>,
    recorded: &Exchange,
) -> Result<Reply<Outcome<M::Output>>, ResponseError> {
    replay_decoded(ours, recorded).result
}

/// The same, with the exchange's events.
pub fn replay_decoded<M: McpMethod>(ours: &OutgoingRequest<M>, recorded: &Exchange) -> Decoded<M> {
    let response = &recorded.response;
    let mut reader = ours.reader(response.status, response.content_type.as_deref());
    for chunk in response.body.as_bytes().chunks(61) {
        reader.push_chunk(chunk);
    }
    reader.finish_decoded()
}

/// Every recorded header but the `ignored` ones (lowercase names) was sent with the same value.
pub fn assert_headers_as_recorded<M: McpMethod>(
    ours: &OutgoingRequest<M>,
    recorded: &Exchange,
    ignored: &[&str],
) {
    for (name, value) in &recorded.request.headers {
        if ignored.contains(&name.to_ascii_lowercase().as_str()) {
            continue;
        }
        let ours_value = ours
            .headers()
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str());
        assert_eq!(ours_value, value.as_str(), "header {name}");
    }
}
