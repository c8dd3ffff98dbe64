//! The wire log as a file: its JSON export, reading one back, and decoding a recorded
//! exchange with the engine (the same decode the live exchange went through).

use holdbay_engine::RecordedExchange;
use serde::{Deserialize, Serialize};

use super::WireEntry;

/// The `format` field of an exported log.
pub const EXPORT_FORMAT: &str = "holdbay-wire-log";
pub const EXPORT_VERSION: u32 = 1;

/// An exported log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireExport {
    pub format: String,
    pub version: u32,
    pub exported_at: f64,
    pub entries: Vec<WireEntry>,
}

pub(super) fn to_json(now: f64, entries: Vec<WireEntry>) -> String {
    let export = WireExport {
        format: EXPORT_FORMAT.to_owned(),
        version: EXPORT_VERSION,
        exported_at: now,
        entries,
    };
    serde_json::to_string_pretty(&export).unwrap_or_else(|_| "{}".to_owned())
}

/// Read an exported log, with a clear reason when the file is not one.
pub fn parse_export(text: &str) -> Result<WireExport, String> {
    let export: WireExport = serde_json::from_str(text)
        .map_err(|error| format!("this file is not a Holdbay wire log: {error}"))?;
    if export.format != EXPORT_FORMAT {
        return Err(format!(
            "this file is a {:?}, not a {EXPORT_FORMAT:?}",
            export.format
        ));
    }
    if export.version != EXPORT_VERSION {
        return Err(format!(
            "this wire log is version {}; this Holdbay reads version {EXPORT_VERSION}",
            export.version
        ));
    }
    Ok(export)
}

/// Fill `entry.events` by decoding its recorded request and body with the engine (for an
/// imported exchange, or one kept from before a reload).
pub fn decode_recorded(entry: &mut WireEntry) {
    let chunks: Vec<(f64, &[u8])> = entry
        .body
        .iter()
        .map(|chunk| (chunk.after, chunk.text.as_bytes()))
        .collect();
    let recorded = RecordedExchange {
        method: &entry.method,
        name: entry.name.as_deref(),
        request_body: &entry.request_body,
        status: entry.status,
        content_type: entry.response_header("content-type"),
        responded_after: entry.responded_after,
        chunks: &chunks,
        finished_after: entry.finished_after,
        error: entry.error.as_deref(),
        stopped: entry.stopped,
        round: entry.round,
    };
    let events = holdbay_engine::decode_recorded(&recorded);
    entry.events = events;
}
