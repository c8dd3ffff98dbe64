//! Saving the board to `localStorage`: at once when the book says a change must be durable
//! (a new, answered, cancelled or ended task), coalesced for routine changes.

use std::time::Duration;

use holdbay_engine::TaskBook;
use leptos::prelude::*;

use super::TaskBoard;
use crate::storage;

/// Routine changes (a poll's snapshot) are saved at most this often; a new, answered,
/// cancelled or ended task is saved at once.
const SAVE_EVERY_MS: u64 = 1_000;
/// A save writes the whole board: 1,000 tasks are about 600 KB of JSON, 10–25 ms of main
/// thread, a missed frame every time. What a routine save keeps (when the last snapshot came,
/// when the next poll is due) only times a reload's first polls better, so a big board saves
/// it less often: this much later per task, up to `SAVE_AT_MOST_EVERY_MS`.
const SAVE_DELAY_PER_TASK_MS: u64 = 10;
const SAVE_AT_MOST_EVERY_MS: u64 = 10_000;

/// How long routine changes to a board of `tasks` tasks wait to be saved.
pub fn routine_save_delay_ms(tasks: usize) -> u64 {
    let per_task = SAVE_DELAY_PER_TASK_MS.saturating_mul(tasks as u64);
    per_task.clamp(SAVE_EVERY_MS, SAVE_AT_MOST_EVERY_MS)
}

impl TaskBoard {
    /// Save within [`routine_save_delay_ms`], together with whatever else changes meanwhile.
    pub(super) fn save_soon(&self) {
        if self.save_pending.try_get_value() != Some(false) {
            return;
        }
        self.save_pending.set_value(true);
        let board = *self;
        let count = self.read(|book| book.tasks().len()).unwrap_or_default();
        set_timeout(
            move || board.flush(),
            Duration::from_millis(routine_save_delay_ms(count)),
        );
    }

    /// Save now if a routine save is waiting.
    pub(crate) fn flush(&self) {
        if self.save_pending.try_get_value() == Some(true) {
            self.save_now();
        }
    }

    pub(crate) fn save_now(&self) {
        self.save_pending.try_set_value(false);
        let Some(server) = self.server.try_get_untracked().flatten() else {
            return;
        };
        let key = storage::key("tasks", &server);
        let saved = self.read(|book: &TaskBook| {
            let tasks = book.tasks();
            if tasks.is_empty() {
                storage::remove(&key);
                Ok(())
            } else {
                storage::save(&key, &tasks)
            }
        });
        if let Some(outcome) = saved {
            let problem = outcome.err();
            if self.storage_problem.try_get_untracked().flatten() != problem {
                self.storage_problem.try_set(problem);
            }
        }
    }
}
