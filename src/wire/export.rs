//! The wire log as a file: its JSON export, reading one back, and decoding a recorded
//! exchange with the engine (the same decode the live exchange went through).

use holdbay_engine::{Discover, ListTools, RecordedExchange, decode_recorded_as};
use serde::{Deserialize, Serialize};

use super::WireEntry;
use crate::split::{ChunkMissing, chunk, engine_work};

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
    // An authorization exchange is not JSON-RPC: there is nothing of MCP to decode.
    if entry.auth.is_some() {
        return set_events(entry, Vec::new());
    }
    let events = with_recorded(entry, holdbay_engine::decode_recorded);
    set_events(entry, events);
}

/// `events` as the entry's own: kept ones stored, the rest counted (as when recorded live).
fn set_events(entry: &mut WireEntry, events: Vec<holdbay_engine::TimedEvent>) {
    entry.events.clear();
    entry.notifications_not_kept = 0;
    entry.store_events(events);
}

/// [`decode_recorded`] for the methods the first screen reads itself (discovery, the tool
/// list), with only their readers; `false` for any other method, whose entry is left as it
/// is.
fn decode_first_screen(entry: &mut WireEntry) -> bool {
    let events = with_recorded(entry, |recorded| {
        decode_recorded_as::<Discover>(recorded)
            .or_else(|| decode_recorded_as::<ListTools>(recorded))
    });
    let decoded = events.is_some();
    if let Some(events) = events {
        set_events(entry, events);
    }
    decoded
}

/// `decode` called with `entry` as the engine's recording.
fn with_recorded<T>(entry: &WireEntry, decode: impl FnOnce(&RecordedExchange<'_>) -> T) -> T {
    let chunks: Vec<(f64, &[u8])> = entry
        .body
        .iter()
        .map(|chunk| (chunk.after, chunk.text.as_bytes()))
        .collect();
    decode(&RecordedExchange {
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
    })
}

/// `entries` (kept from before a reload) with their events decoded. Discovery and the tool
/// list are decoded here; any other method's decoders are in the engine-work chunk
/// (`crate::split`), fetched only when the log holds such an exchange (a page that made
/// calls fetched it already, so a reload finds it in the cache).
pub async fn decoded(mut entries: Vec<WireEntry>) -> Result<Vec<WireEntry>, ChunkMissing> {
    let mut others = 0;
    for entry in &mut entries {
        if !decode_first_screen(entry) {
            others += 1;
        }
    }
    if others > 0 {
        entries = chunk!(decode_others(entries))?;
    }
    Ok(entries)
}

/// An exported log's exchanges, read from `text` and decoded (see [`decoded`]); `Err` with
/// the reason the file is not one.
pub async fn imported(text: String) -> Result<Vec<WireEntry>, String> {
    chunk!(read_export(text)).map_err(|missing| missing.to_string())?
}

engine_work! {
    fn decode_others(entries: Vec<WireEntry>) -> Result<Vec<WireEntry>, ChunkMissing> {
        let mut entries = entries;
        // A decoded exchange has at least its `Sent` event.
        entries
            .iter_mut()
            .filter(|entry| entry.events.is_empty())
            .for_each(decode_recorded);
        Ok(entries)
    }
}

engine_work! {
    fn read_export(text: String) -> Result<Result<Vec<WireEntry>, String>, ChunkMissing> {
        Ok(parse_export(&text).map(|mut export| {
            export.entries.iter_mut().for_each(decode_recorded);
            export.entries
        }))
    }
}
