//! The wire log: every HTTP exchange the app makes, recorded as it happens, and its JSON
//! export (which can be imported again to look at a session offline).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The `format` field of an exported log.
pub const EXPORT_FORMAT: &str = "holdbay-wire-log";
pub const EXPORT_VERSION: u32 = 1;

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

/// How far an exchange had got before a change: what a listener has already seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    pub responded: bool,
    pub chunks: usize,
    pub ended: bool,
}

impl Progress {
    pub fn of(entry: &WireEntry) -> Self {
        Self {
            responded: entry.status.is_some(),
            chunks: entry.body.len(),
            ended: entry.finished_after.is_some(),
        }
    }
}

/// Told of every change to this page's traffic: the entry as it is now, and how far it had
/// got before (`None`: it was just sent).
pub type WireListener = Box<dyn Fn(&WireEntry, Option<Progress>)>;

/// An exported log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireExport {
    pub format: String,
    pub version: u32,
    pub exported_at: f64,
    pub entries: Vec<WireEntry>,
}

/// This page's log keeps at most this many exchanges; older ones are dropped (and counted),
/// so a page polling many tasks for hours stays small.
pub const MAX_LIVE_ENTRIES: usize = 2_000;

/// The log of this page, shared by every panel. `Copy`: it is a bundle of signals.
///
/// An imported file is shown *instead of* this page's traffic, which keeps being recorded
/// underneath, so going back to live loses nothing.
///
/// Readers are notified at most once per animation frame, however many exchanges and body
/// pieces arrive meanwhile; listeners (`listen`) are told of every change as it happens.
#[derive(Debug, Clone, Copy)]
pub struct WireLog {
    live: StoredValue<Vec<WireEntry>>,
    /// Exchanges dropped from the front of `live` to keep it within `MAX_LIVE_ENTRIES`.
    dropped: StoredValue<usize>,
    next_id: StoredValue<u64>,
    /// Bumped (at most once per animation frame) when `live` changed.
    revision: RwSignal<u64>,
    frame_pending: StoredValue<bool>,
    /// The imported file's exchanges, while one is shown.
    imported: RwSignal<Option<Vec<WireEntry>>>,
    /// A copy of what is shown, made at most once per frame and only while someone reads it.
    shown: Memo<Vec<WireEntry>>,
    listeners: StoredValue<Vec<WireListener>, LocalStorage>,
}

impl Default for WireLog {
    fn default() -> Self {
        Self::new()
    }
}

impl WireLog {
    pub fn new() -> Self {
        let live = StoredValue::new(Vec::new());
        let revision = RwSignal::new(0);
        let imported: RwSignal<Option<Vec<WireEntry>>> = RwSignal::new(None);
        // Every recompute is a change: comparing two copies costs as much as making one.
        let shown = Memo::new_with_compare(
            move |_| {
                revision.track();
                imported
                    .with(Clone::clone)
                    .unwrap_or_else(|| live.get_value())
            },
            |_, _| true,
        );
        Self {
            live,
            dropped: StoredValue::new(0),
            next_id: StoredValue::new(1),
            revision,
            frame_pending: StoredValue::new(false),
            imported,
            shown,
            listeners: StoredValue::new_local(Vec::new()),
        }
    }

    /// Start recording an exchange; returns its id.
    pub fn begin(&self, mut entry: WireEntry) -> u64 {
        let id = self.next_id.try_get_value().unwrap_or(1);
        self.next_id.try_set_value(id + 1);
        entry.id = id;
        self.listeners
            .with_value(|listeners| listeners.iter().for_each(|listen| listen(&entry, None)));
        let dropped = self
            .live
            .try_update_value(|entries| {
                entries.push(entry);
                let excess = entries.len().saturating_sub(MAX_LIVE_ENTRIES);
                entries.drain(..excess);
                excess
            })
            .unwrap_or(0);
        if dropped > 0 {
            self.dropped.try_update_value(|count| *count += dropped);
        }
        self.changed();
        id
    }

    /// Be told of every change to this page's traffic, as it happens.
    pub fn listen(&self, listener: impl Fn(&WireEntry, Option<Progress>) + 'static) {
        self.listeners
            .update_value(|listeners| listeners.push(Box::new(listener)));
    }

    /// Change a recorded exchange (status, headers, another body piece, the end).
    pub fn update(&self, id: u64, change: impl FnOnce(&mut WireEntry)) {
        let found = self.live.try_update_value(|entries| {
            let entry = entries.iter_mut().rev().find(|entry| entry.id == id)?;
            let before = Progress::of(entry);
            change(entry);
            self.listeners.with_value(|listeners| {
                listeners
                    .iter()
                    .for_each(|listen| listen(entry, Some(before)))
            });
            Some(())
        });
        if found.flatten().is_some() {
            self.changed();
        }
    }

    /// Notify readers on the next animation frame (once, however many changes come first).
    fn changed(&self) {
        if self.frame_pending.try_get_value() != Some(false) {
            return;
        }
        self.frame_pending.set_value(true);
        let (pending, revision) = (self.frame_pending, self.revision);
        request_animation_frame(move || {
            pending.try_set_value(false);
            revision.try_update(|r| *r += 1);
        });
    }

    /// Read what the log shows (the imported file, else this page's traffic) without a
    /// copy; tracked, so a reactive scope re-runs when it changes.
    pub fn with_shown<R>(&self, read: impl FnOnce(&[WireEntry]) -> R) -> R {
        self.revision.track();
        self.imported.track();
        self.read_shown(read)
    }

    fn read_shown<R>(&self, read: impl FnOnce(&[WireEntry]) -> R) -> R {
        if self.imported.with_untracked(Option::is_some) {
            self.imported
                .with_untracked(|imported| read(imported.as_deref().unwrap_or(&[])))
        } else {
            self.live.with_value(|entries| read(entries))
        }
    }

    /// One shown exchange by id, untracked.
    pub fn shown_entry(&self, id: u64) -> Option<WireEntry> {
        let find = |entries: &Vec<WireEntry>| entries.iter().rev().find(|e| e.id == id).cloned();
        match self
            .imported
            .with_untracked(|imported| imported.as_ref().map(find))
        {
            Some(found) => found,
            None => self.live.with_value(find),
        }
    }

    /// How many of this page's exchanges were dropped to keep the log small (tracked).
    pub fn dropped(&self) -> usize {
        self.revision.track();
        self.dropped.try_get_value().unwrap_or(0)
    }

    /// What the log shows: the imported file, else this page's traffic (copied once per
    /// frame while read; `with_shown` reads without a copy).
    pub fn entries(&self) -> Signal<Vec<WireEntry>> {
        self.shown.into()
    }

    /// This page's own traffic, even while an imported file is shown.
    pub fn live_entries(&self) -> Signal<Vec<WireEntry>> {
        let (live, revision) = (self.live, self.revision);
        Signal::derive(move || {
            revision.track();
            live.get_value()
        })
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
        self.live.set_value(Vec::new());
        self.dropped.set_value(0);
        self.imported.set(None);
        self.changed();
    }

    /// What the log shows, as a JSON file.
    pub fn export_json(&self, now: f64) -> String {
        let export = WireExport {
            format: EXPORT_FORMAT.to_owned(),
            version: EXPORT_VERSION,
            exported_at: now,
            entries: self.read_shown(<[WireEntry]>::to_vec),
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
