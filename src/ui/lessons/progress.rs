//! Which lesson is open and which are done, kept in localStorage (no secrets: lesson numbers
//! only) so a reload (lesson 7 asks for one) comes back to the same lesson.

use serde::{Deserialize, Serialize};

use crate::storage;

const KEY: &str = "holdbay/lessons";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// The lesson shown, if any.
    pub active: Option<u8>,
    /// Lessons whose question was answered right, or answered and then revealed.
    pub done: Vec<u8>,
    /// The recap is shown (instead of a lesson).
    #[serde(default)]
    pub recap: bool,
}

impl LessonProgress {
    pub fn load() -> Self {
        storage::load(KEY).unwrap_or_default()
    }

    /// Best effort: without storage the lessons still work, only not across a reload.
    pub fn save(&self) {
        let _ = storage::save(KEY, self);
    }

    pub fn is_done(&self, lesson: u8) -> bool {
        self.done.contains(&lesson)
    }

    pub fn mark_done(&mut self, lesson: u8) {
        if !self.is_done(lesson) {
            self.done.push(lesson);
            self.done.sort_unstable();
        }
    }
}
