//! Whether the dock (wire log, findings, history) is folded to its tab bar. The first screen
//! is for the tools: with nothing of the user's own in it yet, the dock starts folded and
//! unfolds at the first exchange the page makes after its connect. Once the user (or a
//! lesson) folds or unfolds it, that choice stands; the user's own choice is kept in this
//! browser (a preference, no secret).

use leptos::prelude::*;

const KEY: &str = "holdbay/dock";

/// `Copy`: handles only.
#[derive(Debug, Clone, Copy)]
pub struct DockFold {
    folded: RwSignal<bool>,
    /// Someone chose: the dock no longer unfolds by itself.
    chosen: RwSignal<bool>,
}

impl DockFold {
    /// As the user last left it in this browser, or folded until there is something to see.
    pub fn load() -> Self {
        let kept = crate::storage::load::<bool>(KEY);
        Self {
            folded: RwSignal::new(kept.unwrap_or(true)),
            chosen: RwSignal::new(kept.is_some()),
        }
    }

    pub fn folded(&self) -> Signal<bool> {
        self.folded.into()
    }

    /// The user folded (or unfolded) it: kept for the next visit too.
    pub fn choose(&self, folded: bool) {
        self.folded.set(folded);
        self.chosen.set(true);
        if let Err(problem) = crate::storage::save(KEY, &folded) {
            leptos::logging::warn!("{problem}");
        }
    }

    /// A lesson folds it for this page only (it needs the height), not for the next visit.
    pub fn fold_for_now(&self) {
        self.folded.set(true);
        self.chosen.set(true);
    }

    /// The page made an exchange of its own: show it, unless someone chose otherwise.
    pub fn unfold_for_activity(&self) {
        if !self.chosen.get_untracked() {
            self.folded.set(false);
            self.chosen.set(true);
        }
    }

    /// Whether it still waits to unfold by itself (tracked).
    pub fn waits_for_activity(&self) -> bool {
        !self.chosen.get()
    }
}
