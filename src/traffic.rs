//! The scene's model of the session, kept by the engine's [`Traffic`] fold and fed from the
//! wire log: live as exchanges happen, or replayed from recorded entries (an imported log,
//! or this page's own up to a point in time, for scrubbing).

use holdbay_engine::traffic::Part;
use holdbay_engine::{Bounds, Traffic};
use leptos::prelude::*;

use crate::wire::{Progress, WireEntry, WireLog};

/// How often the calm views redraw while traffic is busy, in ms.
pub const CALM_MS: u64 = 250;

/// The folds the scene can show.
struct Models {
    /// This page's traffic, folded as it happens.
    live: Traffic,
    /// The whole imported log, folded once when it is shown.
    imported: Option<Traffic>,
    /// The session replayed up to the scrub position.
    scrubbed: Option<Traffic>,
}

impl Models {
    fn whole(&self) -> &Traffic {
        self.imported.as_ref().unwrap_or(&self.live)
    }

    fn shown(&self) -> &Traffic {
        self.scrubbed.as_ref().unwrap_or_else(|| self.whole())
    }
}

/// Shared by the scene, the timeline and the lessons. `Copy`: a bundle of handles.
#[derive(Clone, Copy)]
pub struct TrafficView {
    wire: WireLog,
    models: StoredValue<Models, LocalStorage>,
    /// Where the scene is in time (caller's clock, ms); `None` follows the latest.
    position: RwSignal<Option<f64>>,
    /// Bumped at most once per animation frame when the shown model changes.
    revision: RwSignal<u64>,
    frame_pending: StoredValue<bool>,
    /// Bumped at most every [`CALM_MS`]: for the views that are costly to redraw (a
    /// thousand cartridges, a long timeline) and that a person reads rather than watches.
    calm_revision: RwSignal<u64>,
    calm_pending: StoredValue<bool>,
    /// The part being inspected, shared by the scene, the timeline and the lessons.
    pub selected: RwSignal<Option<Part>>,
}

impl std::fmt::Debug for TrafficView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrafficView").finish_non_exhaustive()
    }
}

impl TrafficView {
    /// Follow `wire`: this page's traffic live, and any log imported into it.
    pub fn new(wire: WireLog) -> Self {
        let view = Self {
            wire,
            models: StoredValue::new_local(Models {
                live: Traffic::new(max_rounds()),
                imported: None,
                scrubbed: None,
            }),
            position: RwSignal::new(None),
            revision: RwSignal::new(0),
            frame_pending: StoredValue::new(false),
            calm_revision: RwSignal::new(0),
            calm_pending: StoredValue::new(false),
            selected: RwSignal::new(None),
        };
        wire.listen(move |entry, before| {
            view.models
                .update_value(|models| feed(&mut models.live, entry, before));
            if !view.is_replay() {
                view.changed();
            }
        });
        let is_imported = wire.is_imported();
        Effect::new(move |_| {
            let imported = is_imported.get().then(|| {
                let entries = wire.entries().get_untracked();
                replay(&entries, f64::INFINITY)
            });
            view.models.update_value(|models| {
                models.imported = imported;
                models.scrubbed = None;
            });
            view.position.set(None);
            view.selected.set(None);
            view.changed();
            view.calm_revision.update(|r| *r += 1);
        });
        view
    }

    /// Read the model the scene shows now (untracked: pair with [`TrafficView::track`]).
    pub fn with<R>(&self, read: impl FnOnce(&Traffic) -> R) -> R {
        self.models.with_value(|models| read(models.shown()))
    }

    /// Read the whole session (the imported log, else this page's traffic), whatever the
    /// scrub position: the timeline draws all of it.
    pub fn with_whole<R>(&self, read: impl FnOnce(&Traffic) -> R) -> R {
        self.models.with_value(|models| read(models.whole()))
    }

    /// Subscribe the calling reactive scope to changes of the shown model; returns the
    /// revision.
    pub fn track(&self) -> u64 {
        self.revision.get()
    }

    /// Like [`TrafficView::track`], but at most every [`CALM_MS`] while traffic is busy
    /// (a scrub or an import still shows at once).
    pub fn track_calm(&self) -> u64 {
        self.calm_revision.get()
    }

    /// The scrub position: `None` while following the latest.
    pub fn position(&self) -> Signal<Option<f64>> {
        self.position.into()
    }

    /// Show the session as it was at `at` (`None`: follow the latest again).
    pub fn scrub_to(&self, at: Option<f64>) {
        let scrubbed = at.map(|at| {
            let entries = self.wire.entries().get_untracked();
            replay(&entries, at)
        });
        self.models
            .update_value(|models| models.scrubbed = scrubbed);
        self.position.set(at);
        self.changed();
    }

    /// Whether the scene shows a replay (an imported log, or a scrub position).
    pub fn is_replay(&self) -> bool {
        self.models
            .with_value(|models| models.scrubbed.is_some() || models.imported.is_some())
    }

    /// A task handle came back from durable storage after a reload.
    pub fn restored(&self, task_id: &str, status: &str, stored: serde_json::Value) {
        let now = js_sys::Date::now();
        self.models
            .update_value(|models| models.live.restored(task_id, now, status, stored));
        self.changed();
    }

    /// Redraw on the next animation frame (once, however many changes come before it), and
    /// the calm views within [`CALM_MS`].
    fn changed(&self) {
        if !self.frame_pending.get_value() {
            self.frame_pending.set_value(true);
            let (pending, revision) = (self.frame_pending, self.revision);
            request_animation_frame(move || {
                pending.try_set_value(false);
                revision.try_update(|r| *r += 1);
            });
        }
        if !self.calm_pending.get_value() {
            self.calm_pending.set_value(true);
            let (pending, revision) = (self.calm_pending, self.calm_revision);
            set_timeout(
                move || {
                    pending.try_set_value(false);
                    revision.try_update(|r| *r += 1);
                },
                std::time::Duration::from_millis(CALM_MS),
            );
        }
    }
}

/// The client's round bound, drawn as each tray's limit.
fn max_rounds() -> u32 {
    Bounds::default().max_rounds
}

/// Tell `traffic` what changed in `entry` since `before` (`None`: it was just sent).
pub fn feed(traffic: &mut Traffic, entry: &WireEntry, before: Option<Progress>) {
    let start = entry.started_at;
    let before = match before {
        None => {
            traffic.sent(
                entry.id,
                start,
                &entry.method,
                entry.name.as_deref(),
                &entry.request_body,
            );
            Progress::default()
        }
        Some(before) => before,
    };
    if let Some(status) = entry.status
        && !before.responded
    {
        let at = start + entry.responded_after.unwrap_or(0.0);
        traffic.responded(entry.id, at, status, content_type(entry));
    }
    for chunk in entry.body.iter().skip(before.chunks) {
        traffic.chunk(entry.id, start + chunk.after, &chunk.text);
    }
    if let Some(after) = entry.finished_after
        && !before.ended
    {
        traffic.ended(entry.id, start + after, entry.error.as_deref());
    }
}

/// Fold recorded `entries` as they happened, up to `until` (the caller's clock, ms).
pub fn replay(entries: &[WireEntry], until: f64) -> Traffic {
    #[derive(Clone, Copy)]
    enum Step {
        Sent,
        Responded,
        Chunk(usize),
        Ended,
    }
    let mut steps: Vec<(f64, usize, Step)> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let start = entry.started_at;
        steps.push((start, index, Step::Sent));
        if entry.status.is_some() {
            let at = entry
                .responded_after
                .or_else(|| entry.body.first().map(|c| c.after))
                .or(entry.finished_after)
                .unwrap_or(0.0);
            steps.push((start + at, index, Step::Responded));
        }
        for (n, chunk) in entry.body.iter().enumerate() {
            steps.push((start + chunk.after, index, Step::Chunk(n)));
        }
        if let Some(after) = entry.finished_after {
            steps.push((start + after, index, Step::Ended));
        }
    }
    // Stable: steps of one exchange keep their order when they share a millisecond.
    steps.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut traffic = Traffic::new(max_rounds());
    for (at, index, step) in steps.into_iter().take_while(|(at, ..)| *at <= until) {
        let entry = &entries[index];
        match step {
            Step::Sent => traffic.sent(
                entry.id,
                at,
                &entry.method,
                entry.name.as_deref(),
                &entry.request_body,
            ),
            Step::Responded => {
                traffic.responded(entry.id, at, entry.status.unwrap_or(0), content_type(entry))
            }
            Step::Chunk(n) => traffic.chunk(entry.id, at, &entry.body[n].text),
            Step::Ended => traffic.ended(entry.id, at, entry.error.as_deref()),
        }
    }
    traffic
}

fn content_type(entry: &WireEntry) -> Option<&str> {
    entry
        .response_headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        .map(|(_, value)| value.as_str())
}
