//! The scene's model of the session, kept by the scene crate's [`Traffic`] fold of the typed
//! events the wire log holds: live as exchanges happen, or replayed from recorded entries
//! (an imported log, this page's own up to a point in time for scrubbing, or the log kept
//! from before a reload).

use holdbay_engine::model::TaskStatus;
use holdbay_engine::{Bounds, TimedEvent};
use holdbay_scene::Traffic;
use leptos::prelude::*;

use crate::wire::{WireEntry, WireLog};

/// Where this tab's scene last started anew: kept for the tab, so a reload (lesson 7 asks
/// for one) keeps the earlier lessons folded away.
const SCENE_START_KEY: &str = "holdbay/scene-start";

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
    /// Notified at most once per animation frame when the shown model changes.
    redraw: Trigger,
    frame_pending: StoredValue<bool>,
    /// Notified at most every [`CALM_MS`]: for the views that are costly to redraw (a
    /// thousand cartridges, a long timeline) and that a person reads rather than watches.
    calm_redraw: Trigger,
    calm_pending: StoredValue<bool>,
    /// Task handles that came back from durable storage, told again after a rebuild.
    restored: StoredValue<Vec<Restored>>,
    /// Where the scene starts anew (a lesson began, or Reset scene), caller's clock, ms.
    scene_start: StoredValue<Option<f64>>,
    /// Notified by every new start: the scene view goes back to its top with it.
    scene_started: Trigger,
    /// The fold runs ([`TrafficView::activate`]).
    active: StoredValue<bool>,
    /// The owner the view was made under, which [`TrafficView::activate`] sets up under.
    owner: StoredValue<Option<Owner>, LocalStorage>,
}

/// A task handle that came back from durable storage.
#[derive(Clone)]
struct Restored {
    task_id: String,
    at: f64,
    status: TaskStatus,
    stored: serde_json::Value,
}

impl std::fmt::Debug for TrafficView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrafficView").finish_non_exhaustive()
    }
}

impl TrafficView {
    /// A view of `wire`'s traffic. It folds nothing until [`TrafficView::activate`]: only
    /// the Scene view, its timeline and the lessons read it, and the fold (the engine's
    /// [`Traffic`], every snapshot and input request it draws) then comes in their chunk.
    pub fn new(wire: WireLog) -> Self {
        Self {
            wire,
            models: StoredValue::new_local(Models {
                live: Traffic::new(max_rounds()),
                imported: None,
                scrubbed: None,
            }),
            position: RwSignal::new(None),
            redraw: Trigger::new(),
            frame_pending: StoredValue::new(false),
            calm_redraw: Trigger::new(),
            calm_pending: StoredValue::new(false),
            restored: StoredValue::new(Vec::new()),
            scene_start: StoredValue::new(kept_scene_start()),
            scene_started: Trigger::new(),
            active: StoredValue::new(false),
            owner: StoredValue::new_local(Owner::current()),
        }
    }

    /// Fold this page's traffic so far, then live as it happens, and any log imported into
    /// the page. Once: later calls do nothing. What it sets up lives as long as the view
    /// itself, not as long as the view that first asked.
    pub fn activate(&self) {
        if self.active.try_get_value() != Some(false) {
            return;
        }
        self.active.set_value(true);
        let view = *self;
        let wire = self.wire;
        let set_up = move || {
            wire.listen(move |entry, added| {
                view.models
                    .update_value(|models| feed(&mut models.live, entry, added));
                if !view.is_replay() {
                    view.changed();
                }
            });
            // Exchanges kept from before a reload joined the log (or it was cleared): fold
            // the whole story again, the reload marked between the two pages.
            // Compared with the count folded below rather than skipped on the effect's first
            // run: that run comes a tick later, and a restore in between would be lost.
            let restored = wire.restored();
            let folded = StoredValue::new(restored.get_untracked());
            Effect::new(move |_| {
                let now = restored.get();
                if folded.get_value() != now {
                    folded.set_value(now);
                    view.rebuild_live();
                }
            });
            let is_imported = wire.is_imported();
            Effect::new(move |_| {
                let imported = is_imported
                    .get()
                    .then(|| wire.with_shown_untracked(|entries| replay(entries, f64::INFINITY)));
                view.models.update_value(|models| {
                    models.imported = imported;
                    models.scrubbed = None;
                });
                view.position.set(None);
                view.changed();
                view.calm_redraw.notify();
            });
            view.rebuild_live();
        };
        match self.owner.try_get_value().flatten() {
            Some(owner) => owner.with(set_up),
            None => set_up(),
        }
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

    /// Subscribe the calling reactive scope to changes of the shown model.
    pub fn track(&self) {
        self.redraw.track();
    }

    /// Like [`TrafficView::track`], but at most every [`CALM_MS`] while traffic is busy
    /// (a scrub or an import still shows at once).
    pub fn track_calm(&self) {
        self.calm_redraw.track();
    }

    /// The scrub position: `None` while following the latest.
    pub fn position(&self) -> Signal<Option<f64>> {
        self.position.into()
    }

    /// Show the session as it was at `at` (`None`: follow the latest again).
    pub fn scrub_to(&self, at: Option<f64>) {
        let imported = self.wire.is_imported().get_untracked();
        let scrubbed = at.map(|at| {
            if imported {
                self.wire
                    .with_shown_untracked(|entries| replay(entries, at))
            } else {
                self.fold_page(at)
            }
        });
        self.models
            .update_value(|models| models.scrubbed = scrubbed);
        self.position.set(at);
        self.changed();
        // The calm views too, at once: a scrub (or a lesson's start back to live) must not
        // leave the magazine showing another moment for a quarter second.
        self.calm_redraw.notify();
    }

    /// Start the scene from now, live: what came before is drawn as "earlier" (the
    /// engine's [`Traffic::start_scene_at`]). An imported log is shown whole.
    pub fn start_scene(&self) {
        let at = js_sys::Date::now();
        self.scene_start.set_value(Some(at));
        keep_scene_start(at);
        self.models
            .update_value(|models| models.live.start_scene_at(at));
        self.scrub_to(None);
        self.scene_started.notify();
    }

    /// Notified each time the scene starts anew on this page: a view that scrolled away (to
    /// the timeline, say) returns to the scene's top with each new start.
    pub fn scene_started(&self) -> Trigger {
        self.scene_started
    }

    /// Whether the scene shows a replay (an imported log, or a scrub position).
    pub fn is_replay(&self) -> bool {
        self.models
            .with_value(|models| models.scrubbed.is_some() || models.imported.is_some())
    }

    /// A task handle came back from durable storage after a reload.
    pub fn restored(&self, task_id: &str, status: TaskStatus, stored: serde_json::Value) {
        let told = Restored {
            task_id: task_id.to_owned(),
            at: js_sys::Date::now(),
            status,
            stored,
        };
        if self.active.try_get_value() == Some(true) {
            self.models.update_value(|models| {
                models
                    .live
                    .restored(&told.task_id, told.at, told.status, told.stored.clone())
            });
            self.changed();
        }
        self.restored.update_value(|all| all.push(told));
    }

    /// Fold this page's whole log again (after exchanges from before a reload joined it).
    fn rebuild_live(&self) {
        let live = self.fold_page(f64::INFINITY);
        self.models.update_value(|models| {
            models.live = live;
            models.scrubbed = None;
        });
        self.position.set(None);
        self.changed();
        self.calm_redraw.notify();
    }

    /// This page's log folded up to `until`: the exchanges kept from before a reload, the
    /// reload itself, this page's exchanges, and the task handles restored from storage.
    fn fold_page(&self, until: f64) -> Traffic {
        let loaded_at = self.wire.loaded_at();
        let mut traffic = self.wire.with_live(|entries| {
            let (before, after): (Vec<&WireEntry>, Vec<&WireEntry>) = entries
                .iter()
                .partition(|entry| entry.started_at < loaded_at);
            let mut traffic = Traffic::new(max_rounds());
            replay_into(&mut traffic, before.iter().copied(), until);
            if !before.is_empty() && loaded_at <= until {
                traffic.reloaded(loaded_at);
            }
            replay_into(&mut traffic, after.iter().copied(), until);
            traffic
        });
        self.restored.with_value(|all| {
            for told in all.iter().filter(|told| told.at <= until) {
                traffic.restored(&told.task_id, told.at, told.status, told.stored.clone());
            }
        });
        // A moment before the scene started anew shows that earlier scene whole.
        if let Some(start) = self.scene_start.get_value().filter(|start| *start <= until) {
            traffic.start_scene_at(start);
        }
        traffic
    }

    /// Redraw on the next animation frame (once, however many changes come before it), and
    /// the calm views within [`CALM_MS`].
    fn changed(&self) {
        if !self.frame_pending.get_value() {
            self.frame_pending.set_value(true);
            let (pending, redraw) = (self.frame_pending, self.redraw);
            request_animation_frame(move || {
                pending.try_set_value(false);
                redraw.notify(); // a no-op once the view is disposed
            });
        }
        if !self.calm_pending.get_value() {
            self.calm_pending.set_value(true);
            let (pending, redraw) = (self.calm_pending, self.calm_redraw);
            set_timeout(
                move || {
                    pending.try_set_value(false);
                    redraw.notify(); // a no-op once the view is disposed
                },
                std::time::Duration::from_millis(CALM_MS),
            );
        }
    }
}

/// The scene start this tab kept, kept again for the next reload.
fn kept_scene_start() -> Option<f64> {
    let start = crate::storage::take_for_tab::<f64>(SCENE_START_KEY)?;
    keep_scene_start(start);
    Some(start)
}

fn keep_scene_start(at: f64) {
    if let Err(problem) = crate::storage::save_for_tab(SCENE_START_KEY, &at) {
        leptos::logging::warn!("{problem}");
    }
}

/// The client's round bound, drawn as each tray's limit.
fn max_rounds() -> u32 {
    Bounds::default().max_rounds
}

/// Tell `traffic` the events `added` to `entry`.
pub fn feed(traffic: &mut Traffic, entry: &WireEntry, added: &[TimedEvent]) {
    for timed in added {
        traffic.apply(entry.id, entry.started_at + timed.after_ms, &timed.event);
    }
}

/// Fold recorded `entries` as they happened, up to `until` (the caller's clock, ms).
pub fn replay(entries: &[WireEntry], until: f64) -> Traffic {
    let mut traffic = Traffic::new(max_rounds());
    replay_into(&mut traffic, entries.iter(), until);
    traffic
}

/// Fold the events of `entries` into `traffic` in the order they happened, up to `until`.
fn replay_into<'a>(
    traffic: &mut Traffic,
    entries: impl Iterator<Item = &'a WireEntry>,
    until: f64,
) {
    let mut steps: Vec<(f64, &WireEntry, &TimedEvent)> = entries
        .flat_map(|entry| {
            entry
                .events
                .iter()
                .map(move |timed| (entry.started_at + timed.after_ms, entry, timed))
        })
        .collect();
    // Stable: events of one exchange keep their order when they share a millisecond.
    steps.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (at, entry, timed) in steps.into_iter().take_while(|(at, ..)| *at <= until) {
        traffic.apply(entry.id, at, &timed.event);
    }
}
