//! What only the page's views care about, kept outside any one view: which view and tool are
//! shown, what the user typed into each tool's form so far, and which part of the scene is
//! inspected. Provided as a context next to the [`Session`](crate::session::Session).

use std::collections::HashMap;

use holdbay_scene::Part;
use leptos::prelude::*;
use serde_json::Value;

use crate::owner::KeepingOwner;
use crate::ui::dock_fold::DockFold;
use crate::ui::library_drafts::LibraryDrafts;

/// The two ways to look at a session. Only one is mounted at a time: both hold the call and
/// tasks panels, whose ids are unique on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Workbench,
    Scene,
}

/// One tool's form as the user left it.
#[derive(Debug, Clone, Copy)]
pub struct CallDraft {
    /// The arguments as entered so far (even when not valid yet); `None`: the schema's
    /// defaults. A key left out is a field left out; `null` and `""` are sent as such.
    pub arguments: RwSignal<Option<Value>>,
    /// The raw JSON editor's text, while the user edits the arguments there (it is then
    /// what is sent, even JSON the form cannot show).
    pub raw_arguments: RwSignal<Option<String>>,
    pub accept_task: RwSignal<bool>,
    pub report_progress: RwSignal<bool>,
    /// Who set the call up, when a lesson did ("Started by a lesson, …").
    pub note: RwSignal<Option<String>>,
    /// Notified when `arguments` were replaced from outside the form (a lesson's preset):
    /// the form is rebuilt to show them.
    pub replaced: Trigger,
}

impl CallDraft {
    /// Show `arguments` in the form (rebuilding it), as a lesson sets a call up.
    pub fn replace_arguments(&self, arguments: Value) {
        self.raw_arguments.set(None);
        self.arguments.set(Some(arguments));
        self.replaced.notify();
    }
}

/// `Copy`: a bundle of handles.
#[derive(Debug, Clone, Copy)]
pub struct UiState {
    view: RwSignal<View>,
    selected_tool: RwSignal<Option<String>>,
    drafts: StoredValue<HashMap<String, CallDraft>>,
    /// The part being inspected, shared by the scene, the timeline and the lessons.
    inspected: RwSignal<Option<Part>>,
    /// The dock (wire log, findings, history) folded to its tab bar, or not.
    dock: DockFold,
    /// The server card is opened past its one line.
    server_card_open: RwSignal<bool>,
    /// The prompt and template picked, and their forms as the user left them.
    library: LibraryDrafts,
    /// Drafts live as long as the page, whichever view first asked for them.
    owner: KeepingOwner,
}

impl UiState {
    pub fn new(view: View) -> Self {
        Self {
            view: RwSignal::new(view),
            selected_tool: RwSignal::new(None),
            drafts: StoredValue::new(HashMap::new()),
            inspected: RwSignal::new(None),
            dock: DockFold::load(),
            server_card_open: RwSignal::new(false),
            library: LibraryDrafts::new(),
            owner: KeepingOwner::here(),
        }
    }

    /// The page's UI state, or a fresh one outside an app (a component mounted alone).
    pub fn current() -> Self {
        use_context::<Self>().unwrap_or_else(|| {
            let state = Self::new(View::Workbench);
            provide_context(state);
            state
        })
    }

    pub fn view(&self) -> RwSignal<View> {
        self.view
    }

    /// The tool the call panel shows.
    pub fn selected_tool(&self) -> RwSignal<Option<String>> {
        self.selected_tool
    }

    /// The Prompts and Resources tabs' picks and forms.
    pub fn library(&self) -> LibraryDrafts {
        self.library
    }

    pub fn inspected(&self) -> RwSignal<Option<Part>> {
        self.inspected
    }

    pub fn dock(&self) -> DockFold {
        self.dock
    }

    pub fn server_card_open(&self) -> RwSignal<bool> {
        self.server_card_open
    }

    /// Another server was chosen: what the views kept for the last one (the tool shown,
    /// the forms as typed, the part inspected, the prompt and template picked) is not this
    /// one's, so it goes.
    pub fn forget_server(&self) {
        self.selected_tool.set(None);
        self.drafts.try_update_value(HashMap::clear);
        self.inspected.set(None);
        self.library.forget();
    }

    /// Make `part` the inspected one (unchanged if it already is).
    pub fn inspect(&self, part: Part) {
        if self.inspected.with_untracked(|s| s.as_ref() != Some(&part)) {
            self.inspected.set(Some(part));
        }
    }

    /// The form state of `tool` (made on first use).
    pub fn draft(&self, tool: &str) -> CallDraft {
        if let Some(draft) = self
            .drafts
            .try_with_value(|drafts| drafts.get(tool).copied())
            .flatten()
        {
            return draft;
        }
        let draft = self.owner.make(|| CallDraft {
            arguments: RwSignal::new(None),
            raw_arguments: RwSignal::new(None),
            accept_task: RwSignal::new(true),
            report_progress: RwSignal::new(true),
            note: RwSignal::new(None),
            replaced: Trigger::new(),
        });
        self.drafts
            .try_update_value(|drafts| drafts.insert(tool.to_owned(), draft));
        draft
    }
}
