//! What the Prompts and Resources tabs keep outside their views: the prompt and template
//! picked, the URI in the reader, and each form's values as the user left them.

use std::collections::{BTreeMap, HashMap};

use leptos::prelude::*;

use crate::owner::KeepingOwner;

/// Whose form a set of values belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FormOf {
    Prompt(String),
    Template(String),
}

/// `Copy`: handles only.
#[derive(Debug, Clone, Copy)]
pub struct LibraryDrafts {
    /// The prompt the Prompts tab shows.
    pub prompt: RwSignal<Option<String>>,
    /// The template (its `uriTemplate`) the Resources tab shows.
    pub template: RwSignal<Option<String>>,
    /// The URI whose reads the Resources tab's reader shows.
    pub reading: RwSignal<Option<String>>,
    values: StoredValue<HashMap<FormOf, RwSignal<BTreeMap<String, String>>>>,
    owner: KeepingOwner,
}

impl Default for LibraryDrafts {
    fn default() -> Self {
        Self::new()
    }
}

impl LibraryDrafts {
    pub fn new() -> Self {
        Self {
            prompt: RwSignal::new(None),
            template: RwSignal::new(None),
            reading: RwSignal::new(None),
            values: StoredValue::new(HashMap::new()),
            owner: KeepingOwner::here(),
        }
    }

    /// The values typed into `form` so far (made on first use).
    pub fn values(&self, form: &FormOf) -> RwSignal<BTreeMap<String, String>> {
        if let Some(values) = self
            .values
            .try_with_value(|all| all.get(form).copied())
            .flatten()
        {
            return values;
        }
        let values = self.owner.make(|| RwSignal::new(BTreeMap::new()));
        self.values
            .try_update_value(|all| all.insert(form.clone(), values));
        values
    }

    /// Forget every pick and form (another server was chosen).
    pub fn forget(&self) {
        self.prompt.set(None);
        self.template.set(None);
        self.reading.set(None);
        self.values.try_update_value(HashMap::clear);
    }
}
