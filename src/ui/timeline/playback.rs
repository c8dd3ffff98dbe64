//! Moving through the session in time: scrubbing to an event, following live, and playing
//! the events back in their real rhythm.

use std::time::Duration;

use leptos::prelude::*;

use crate::traffic::TrafficView;

/// Playback never waits longer than this between two events (a task can idle for minutes).
const MAX_STEP_MS: f64 = 1_500.0;
/// Events in the same instant still get a beat each, so the eye can follow them.
const MIN_STEP_MS: f64 = 120.0;

/// The timeline's handle on the scene's time position. `Copy`.
#[derive(Clone, Copy)]
pub struct Playback {
    pub traffic: TrafficView,
    /// The event last scrubbed to (several events can share its moment).
    pub picked: RwSignal<Option<u64>>,
    pub playing: RwSignal<bool>,
    /// The window of rows ends at this event (`None`: the newest).
    pub anchor: RwSignal<Option<u64>>,
    /// Bumped to cancel a pending playback step.
    generation: StoredValue<u64>,
}

impl Playback {
    pub fn new(traffic: TrafficView) -> Self {
        Self {
            traffic,
            picked: RwSignal::new(None),
            playing: RwSignal::new(false),
            anchor: RwSignal::new(None),
            generation: StoredValue::new(0),
        }
    }

    /// Show the session as it was at the event at `index` of the whole session.
    pub fn scrub_to_index(&self, index: usize) {
        let target = self
            .traffic
            .with_whole(|t| t.events().get(index).map(|event| (event.seq, event.at)));
        if let Some((seq, at)) = target {
            self.picked.set(Some(seq));
            self.traffic.scrub_to(Some(at));
        }
    }

    /// The scrubber moved by hand: it wins over playback.
    pub fn scrub_by_hand(&self, index: usize) {
        self.stop();
        self.scrub_to_index(index);
    }

    pub fn follow_live(&self) {
        self.stop();
        self.picked.set(None);
        self.anchor.set(None);
        self.traffic.scrub_to(None);
    }

    pub fn stop(&self) {
        self.generation.update_value(|g| *g += 1);
        self.playing.set(false);
    }

    /// Step through the events from `current` (or from the first one when following live
    /// or at the end), waiting their real gaps, capped.
    pub fn play(&self, current: Option<usize>) {
        let total = self.traffic.with_whole(|t| t.events().len());
        if total == 0 {
            return;
        }
        self.stop();
        self.playing.set(true);
        let start = match current {
            Some(index) if index + 1 < total => index,
            _ => {
                self.scrub_to_index(0);
                0
            }
        };
        let generation = self.generation.get_value();
        let seq = self
            .traffic
            .with_whole(|t| t.events().get(start).map(|e| e.seq));
        match seq {
            Some(seq) => self.step_after(seq, generation),
            None => self.stop(),
        }
    }

    /// Wait the real gap after event `seq`, then show the next one.
    fn step_after(self, seq: u64, generation: u64) {
        let next = self.traffic.with_whole(|t| {
            let events = t.events();
            let index = events.iter().position(|e| e.seq == seq)?;
            let (now, next) = (events.get(index)?, events.get(index + 1)?);
            Some((index + 1, next.seq, next.at - now.at))
        });
        let Some((index, next_seq, gap)) = next else {
            self.playing.set(false);
            return;
        };
        let wait = gap.clamp(MIN_STEP_MS, MAX_STEP_MS);
        set_timeout(
            move || {
                let still_playing = self.generation.try_get_value() == Some(generation)
                    && self.playing.try_get_untracked() == Some(true);
                if still_playing {
                    self.scrub_to_index(index);
                    self.step_after(next_seq, generation);
                }
            },
            Duration::from_millis(wait as u64),
        );
    }
}
