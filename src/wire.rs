//! The wire log: every HTTP exchange the app makes, recorded as it happens, and its JSON
//! export (which can be imported again to look at a session offline).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The `format` field of an exported log.
pub const EXPORT_FORMAT: &str = "holdbay-wire-log";
pub const EXPORT_VERSION: u32 = 1;

/// One HTTP exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    pub request_body: String,
    #[serde(default)]
    pub status: Option<u16>,
    #[serde(default)]
    pub response_headers: Vec<(String, String)>,
    /// The body as it arrived, piece by piece (SSE events show up one by one).
    #[serde(default)]
    pub body: Vec<WireChunk>,
    /// Milliseconds after `started_at` when the body ended.
    #[serde(default)]
    pub finished_after: Option<f64>,
    /// Why the exchange failed at the HTTP level (unreachable, aborted, broken body).
    #[serde(default)]
    pub error: Option<String>,
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
    /// The whole response body so far.
    pub fn body_text(&self) -> String {
        self.body.iter().map(|chunk| chunk.text.as_str()).collect()
    }

    /// The `taskId` this exchange concerns, if any (from `Mcp-Name` on `tasks/*`, or a
    /// task the response created).
    pub fn task_id(&self) -> Option<String> {
        if self.method.starts_with("tasks/") {
            return self.name.clone();
        }
        let body = self.body_text();
        let start = body.find("\"resultType\":\"task\"")?;
        let id_at = body[start..].find("\"taskId\":\"")? + start + 10;
        let end = body[id_at..].find('"')? + id_at;
        Some(body[id_at..end].to_owned())
    }
}

/// An exported log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireExport {
    pub format: String,
    pub version: u32,
    pub exported_at: f64,
    pub entries: Vec<WireEntry>,
}

/// The log of this page, shared by every panel. `Copy`: it is a bundle of signals.
///
/// An imported file is shown *instead of* this page's traffic, which keeps being recorded
/// underneath, so going back to live loses nothing.
#[derive(Debug, Clone, Copy)]
pub struct WireLog {
    live: RwSignal<Vec<WireEntry>>,
    next_id: RwSignal<u64>,
    /// The imported file's exchanges, while one is shown.
    imported: RwSignal<Option<Vec<WireEntry>>>,
    shown: Signal<Vec<WireEntry>>,
}

impl Default for WireLog {
    fn default() -> Self {
        Self::new()
    }
}

impl WireLog {
    pub fn new() -> Self {
        let live = RwSignal::new(Vec::new());
        let imported: RwSignal<Option<Vec<WireEntry>>> = RwSignal::new(None);
        let shown = Signal::derive(move || imported.get().unwrap_or_else(|| live.get()));
        Self {
            live,
            next_id: RwSignal::new(1),
            imported,
            shown,
        }
    }

    /// Start recording an exchange; returns its id.
    pub fn begin(&self, mut entry: WireEntry) -> u64 {
        let id = self.next_id.get_untracked();
        self.next_id.set(id + 1);
        entry.id = id;
        self.live.update(|entries| entries.push(entry));
        id
    }

    /// Change a recorded exchange (status, headers, another body piece, the end).
    pub fn update(&self, id: u64, change: impl FnOnce(&mut WireEntry)) {
        self.live.update(|entries| {
            if let Some(entry) = entries.iter_mut().rev().find(|entry| entry.id == id) {
                change(entry);
            }
        });
    }

    /// What the log shows: the imported file, else this page's traffic.
    pub fn entries(&self) -> Signal<Vec<WireEntry>> {
        self.shown
    }

    /// This page's own traffic, even while an imported file is shown.
    pub fn live_entries(&self) -> Signal<Vec<WireEntry>> {
        self.live.into()
    }

    pub fn is_imported(&self) -> Signal<bool> {
        let imported = self.imported;
        Signal::derive(move || imported.with(Option::is_some))
    }

    /// Stop showing an imported file; this page's traffic is shown again.
    pub fn show_live(&self) {
        self.imported.set(None);
    }

    pub fn clear(&self) {
        self.live.set(Vec::new());
        self.imported.set(None);
    }

    /// What the log shows, as a JSON file.
    pub fn export_json(&self, now: f64) -> String {
        let export = WireExport {
            format: EXPORT_FORMAT.to_owned(),
            version: EXPORT_VERSION,
            exported_at: now,
            entries: self.shown.get_untracked(),
        };
        serde_json::to_string_pretty(&export).unwrap_or_else(|_| "{}".to_owned())
    }

    /// Show an exported log instead of this page's traffic.
    pub fn import_json(&self, text: &str) -> Result<usize, String> {
        let export = parse_export(text)?;
        let count = export.entries.len();
        self.imported.set(Some(export.entries));
        Ok(count)
    }
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
