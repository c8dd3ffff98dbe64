//! What a `-32022` (`UnsupportedProtocolVersion`) error says: the versions the server
//! speaks, and what it broke in saying it (wire reference §5).

use rmcp::model::{ErrorCode, ErrorData};
use serde_json::Value;

use crate::vocabulary::findings::{Finding, Rule};

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
    /// The rejection in a JSON-RPC `error` that came with HTTP `status`, if it is a
    /// `-32022`.
    pub fn of(status: u16, error: &ErrorData) -> Option<Self> {
        if error.code != ErrorCode::UNSUPPORTED_PROTOCOL_VERSION {
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
            status,
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
