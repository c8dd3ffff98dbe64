//! The wire log: every HTTP exchange the app makes, recorded as it happens, and its JSON
//! export (which can be imported again to look at a session offline).

use leptos::prelude::*;

pub mod budget;
pub mod curl;
mod entry;
mod export;
pub mod keep;
mod search;
mod summary;

pub use entry::{WireChunk, WireEntry};
pub use export::{
    EXPORT_FORMAT, EXPORT_VERSION, WireExport, decode_recorded, decoded, parse_export,
};
pub use search::WireQuery;
pub use summary::{ExchangeSummary, MessageView, NoteRow, server_label};

use holdbay_engine::{SentRequest, TimedEvent};

/// Told of every change to this page's traffic: the entry as it is now, and the events the
/// change added to it (all of them when it was just sent, or restored).
pub type WireListener = Box<dyn Fn(&WireEntry, &[TimedEvent])>;

/// This page's log keeps at most this many exchanges; older ones are dropped (and counted),
/// so a page polling many tasks for hours stays small.
pub const MAX_LIVE_ENTRIES: usize = 2_000;
/// Past [`MAX_LIVE_ENTRIES`], this many of the oldest go at once: dropping one at a time
/// moved the whole log in memory on every exchange (hundreds of kilobytes, hundreds of
/// times a second with many tasks polled).
pub const DROPPED_AT_ONCE: usize = MAX_LIVE_ENTRIES / 20;

/// The log of this page, shared by every panel. `Copy`: it is a bundle of signals.
///
/// An imported file is shown *instead of* this page's traffic, which keeps being recorded
/// underneath, so going back to live loses nothing. Exchanges kept from before a reload
/// ([`WireLog::restore`]) join the front of this page's traffic.
///
/// Readers are notified at most once per animation frame, however many exchanges and body
/// pieces arrive meanwhile; listeners (`listen`) are told of every change as it happens.
#[derive(Debug, Clone, Copy)]
pub struct WireLog {
    live: StoredValue<Vec<WireEntry>>,
    /// Exchanges dropped from the front of `live` to keep it within `MAX_LIVE_ENTRIES` and
    /// [`budget::LOG_BYTES`].
    dropped: StoredValue<usize>,
    /// What `live` holds, by [`WireEntry::retained_bytes`].
    bytes: StoredValue<usize>,
    next_id: StoredValue<u64>,
    /// Notified (at most once per animation frame) when `live` changed.
    changed: Trigger,
    frame_pending: StoredValue<bool>,
    /// Bumped when exchanges from before a reload joined the log (whole-log readers such
    /// as the scene's fold rebuild then).
    restored: RwSignal<u64>,
    /// When this page loaded (wall clock, ms): the boundary between restored exchanges and
    /// this page's own.
    loaded_at: f64,
    /// The id of this page's first exchange: every id this page gives is at least this.
    first_id: u64,
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
        let changed = Trigger::new();
        let imported: RwSignal<Option<Vec<WireEntry>>> = RwSignal::new(None);
        // Every recompute is a change: comparing two copies costs as much as making one.
        let shown = Memo::new_with_compare(
            move |_| {
                changed.track();
                imported
                    .with(Clone::clone)
                    .unwrap_or_else(|| live.get_value())
            },
            |_, _| true,
        );
        let loaded_at = crate::clock::now_ms() as f64;
        // Ids grow across reloads (a restored log keeps its ids), so each page starts from
        // its load time: unique, and in order with the exchanges kept before it.
        let first_id = (loaded_at.max(0.0) as u64).saturating_mul(1_000);
        Self {
            live,
            dropped: StoredValue::new(0),
            bytes: StoredValue::new(0),
            next_id: StoredValue::new(first_id),
            changed,
            frame_pending: StoredValue::new(false),
            restored: RwSignal::new(0),
            loaded_at,
            first_id,
            imported,
            shown,
            listeners: StoredValue::new_local(Vec::new()),
        }
    }

    /// Start recording an exchange (its `events` hold at least the `Sent`); returns its id.
    pub fn begin(&self, mut entry: WireEntry) -> u64 {
        let id = self.next_id.try_get_value().unwrap_or(1);
        self.next_id.try_set_value(id + 1);
        entry.id = id;
        // The round number is the client's knowledge, not the wire's: kept for a replay.
        entry.round = entry.sent().and_then(SentRequest::round);
        self.listeners.with_value(|listeners| {
            listeners
                .iter()
                .for_each(|listen| listen(&entry, &entry.events))
        });
        entry.recount();
        self.bytes
            .try_update_value(|bytes| *bytes += entry.retained_bytes());
        self.live.try_update_value(|entries| entries.push(entry));
        self.within_budget();
        self.changed();
        id
    }

    /// Drop the oldest exchanges when the log holds more than [`MAX_LIVE_ENTRIES`]
    /// ([`DROPPED_AT_ONCE`] of them), and the oldest finished ones while it holds more than
    /// [`budget::LOG_BYTES`] (one still open stays: it is bounded by
    /// [`budget::BODY_KEPT_BYTES`]).
    fn within_budget(&self) {
        let Some((dropped, freed)) = self.live.try_update_value(|entries| {
            let mut bytes = self.bytes.get_value();
            let (mut dropped, mut freed) = (0, 0);
            if entries.len() > MAX_LIVE_ENTRIES {
                let excess = entries.len() - (MAX_LIVE_ENTRIES - DROPPED_AT_ONCE);
                for gone in entries.drain(..excess) {
                    let gone = gone.retained_bytes();
                    bytes = bytes.saturating_sub(gone);
                    freed += gone;
                    dropped += 1;
                }
            }
            while entries.len() > 1
                && (entries.len() > MAX_LIVE_ENTRIES || bytes > budget::LOG_BYTES)
            {
                let oldest = if bytes > budget::LOG_BYTES {
                    entries.iter().position(WireEntry::is_finished).unwrap_or(0)
                } else {
                    0
                };
                let gone = entries.remove(oldest).retained_bytes();
                bytes = bytes.saturating_sub(gone);
                freed += gone;
                dropped += 1;
            }
            (dropped, freed)
        }) else {
            return;
        };
        if dropped > 0 {
            self.dropped.try_update_value(|count| *count += dropped);
            self.bytes
                .try_update_value(|bytes| *bytes = bytes.saturating_sub(freed));
        }
    }

    /// Bytes this page's log holds (bodies, headers), untracked.
    pub fn retained_bytes(&self) -> usize {
        self.bytes.try_get_value().unwrap_or(0)
    }

    /// Be told of every change to this page's traffic, as it happens.
    pub fn listen(&self, listener: impl Fn(&WireEntry, &[TimedEvent]) + 'static) {
        self.listeners
            .update_value(|listeners| listeners.push(Box::new(listener)));
    }

    /// Change a recorded exchange (status, headers, another body piece, new events, the end).
    pub fn update(&self, id: u64, change: impl FnOnce(&mut WireEntry)) {
        let found = self.live.try_update_value(|entries| {
            let entry = entries.iter_mut().rev().find(|entry| entry.id == id)?;
            let known = entry.events.len();
            let before = entry.retained_bytes();
            change(entry);
            let after = entry.retained_bytes();
            self.bytes
                .try_update_value(|bytes| *bytes = (*bytes + after).saturating_sub(before));
            let added = entry.events.get(known..).unwrap_or_default();
            self.listeners
                .with_value(|listeners| listeners.iter().for_each(|listen| listen(entry, added)));
            Some(())
        });
        if found.flatten().is_some() {
            self.within_budget();
            self.changed();
        }
    }

    /// Add what the engine decoded to a recorded exchange: kept events are stored; a
    /// notification past the engine's bound on one exchange is only counted. Listeners are
    /// told of every event, in order, kept or not (the scene and a call's progress follow a
    /// flood to its end without the log holding it).
    pub fn add_events(&self, id: u64, events: Vec<TimedEvent>) {
        if events.iter().all(|timed| timed.event.is_kept()) {
            return self.update(id, |entry| entry.events.extend(events));
        }
        let found = self.live.try_update_value(|entries| {
            let entry = entries.iter_mut().rev().find(|entry| entry.id == id)?;
            for timed in &events {
                if timed.event.is_kept() {
                    entry.events.push(timed.clone());
                } else {
                    entry.notifications_not_kept += 1;
                }
            }
            self.listeners
                .with_value(|listeners| listeners.iter().for_each(|listen| listen(entry, &events)));
            Some(())
        });
        if found.flatten().is_some() {
            self.changed();
        }
    }

    /// Exchanges kept from before a reload (already decoded) join the front of the log,
    /// older than everything this page recorded; returns how many joined.
    pub fn restore(&self, mut kept: Vec<WireEntry>) -> usize {
        let known: std::collections::HashSet<u64> = self
            .live
            .with_value(|live| live.iter().map(|e| e.id).collect());
        kept.retain(|entry| !known.contains(&entry.id));
        kept.sort_by_key(|entry| entry.id);
        kept.iter_mut().for_each(WireEntry::recount);
        let count = kept.len();
        if count == 0 {
            return 0;
        }
        self.live.update_value(|live| {
            let room = MAX_LIVE_ENTRIES.saturating_sub(live.len());
            let skip = kept.len().saturating_sub(room);
            kept.drain(..skip);
            kept.append(live);
            *live = kept;
        });
        let bytes = self
            .live
            .with_value(|live| live.iter().map(WireEntry::retained_bytes).sum());
        self.bytes.set_value(bytes);
        self.within_budget();
        self.restored.update(|n| *n += 1);
        self.changed();
        count
    }

    /// Bumped when exchanges from before a reload joined (tracked).
    pub fn restored(&self) -> Signal<u64> {
        self.restored.into()
    }

    /// When this page loaded (wall clock, ms).
    pub fn loaded_at(&self) -> f64 {
        self.loaded_at
    }

    /// Whether this page recorded `entry` (it was not kept from before a reload).
    pub fn recorded_here(&self, entry: &WireEntry) -> bool {
        entry.id >= self.first_id
    }

    /// Notify readers on the next animation frame (once, however many changes come first).
    fn changed(&self) {
        if self.frame_pending.try_get_value() != Some(false) {
            return;
        }
        self.frame_pending.set_value(true);
        let (pending, changed) = (self.frame_pending, self.changed);
        request_animation_frame(move || {
            pending.try_set_value(false);
            changed.notify();
        });
    }

    /// Read what the log shows (the imported file, else this page's traffic) without a
    /// copy; tracked, so a reactive scope re-runs when it changes.
    pub fn with_shown<R>(&self, read: impl FnOnce(&[WireEntry]) -> R) -> R {
        self.changed.track();
        self.imported.track();
        self.read_shown(read)
    }

    /// Read what the log shows in place, untracked.
    pub fn with_shown_untracked<R>(&self, read: impl FnOnce(&[WireEntry]) -> R) -> R {
        self.read_shown(read)
    }

    /// Read this page's own traffic (restored exchanges included) in place, untracked.
    pub fn with_live<R>(&self, read: impl FnOnce(&[WireEntry]) -> R) -> R {
        self.live.with_value(|entries| read(entries))
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
        self.changed.track();
        self.dropped_untracked()
    }

    pub fn dropped_untracked(&self) -> usize {
        self.dropped.try_get_value().unwrap_or(0)
    }

    /// What the log shows: the imported file, else this page's traffic (copied once per
    /// frame while read; `with_shown` reads without a copy).
    pub fn entries(&self) -> Signal<Vec<WireEntry>> {
        self.shown.into()
    }

    /// This page's own traffic, even while an imported file is shown.
    pub fn live_entries(&self) -> Signal<Vec<WireEntry>> {
        let (live, changed) = (self.live, self.changed);
        Signal::derive(move || {
            changed.track();
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

    /// Forget this page's traffic (and what was kept from before a reload).
    pub fn clear(&self) {
        self.live.set_value(Vec::new());
        self.dropped.set_value(0);
        self.bytes.set_value(0);
        self.imported.set(None);
        self.restored.update(|n| *n += 1);
        self.changed();
    }

    /// What the log shows, as a JSON file.
    pub fn export_json(&self, now: f64) -> String {
        export::to_json(now, self.read_shown(<[WireEntry]>::to_vec))
    }

    /// Show an exported log instead of this page's traffic; each exchange is decoded by the
    /// engine from its recorded bytes, as it was when it happened.
    pub async fn import_json(&self, text: String) -> Result<usize, String> {
        let entries = export::imported(text).await?;
        let count = entries.len();
        self.imported.try_set(Some(entries));
        Ok(count)
    }
}
