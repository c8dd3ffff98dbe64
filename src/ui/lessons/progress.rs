//! Which lesson is open and which are done, kept in localStorage (no secrets: lesson numbers
//! and the scene parts their reveals showed) so a reload (lesson 7 asks for one) comes back
//! to the same lesson, and the recap's links to the same parts.

use std::collections::BTreeMap;

use holdbay_scene::Part;
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
    /// The part each lesson's reveal showed, for the recap's links (a later lesson may draw
    /// a part that answers an earlier question too: the link goes to the lesson's own).
    #[serde(default)]
    pub revealed: BTreeMap<u8, Part>,
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
