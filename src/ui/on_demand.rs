//! Views the first screen does not need, loaded as wasm chunks in the release build (cfg
//! `holdbay_split`, cut out by `wasm-split-cli` in `scripts/build-app.sh`; elsewhere, in tests
//! and debug builds, the same functions are linked in):
//! - the after-first-screen chunk (`crate::split::after_first_screen!`): the dock, the
//!   workbench's tasks panel and the Scene view, fetched together once the tool list is drawn;
//!   the shell's frames stand in for the dock and the tasks panel meanwhile;
//! - a chunk each, when first shown (Leptos `#[lazy]`): the prompts and resources tabs, the
//!   dock's findings and history; beside their views also a selected tool's call, a task's
//!   forms and outcome, and an opened wire-log entry.

use leptos::prelude::*;

use super::chunks::{chunk, styled, when_loaded, when_loaded_or};
use super::first_screen::{DockFrame, TasksFrame};
use super::history::HistoryPanel;
use super::prompts::PromptsTab;
use super::resources::ResourcesTab;
use super::{
    CallPanel, Dock, ErrorNotice, FindingsPanel, LessonsPanel, Scene, TasksAsking, TasksPanel,
    Timeline,
};
use crate::session::Session;
use crate::split::{ChunkMissing, after_first_screen};

after_first_screen! {
    /// Lessons, call and tasks on the left (the learner acts there); the scene and its
    /// timeline on the right. In the after-first-screen chunk: fetched with the dock once the
    /// tool list is drawn, so switching to the Scene waits for nothing.
    fn scene_columns() -> Result<AnyView, ChunkMissing> {
        Ok(view! {
            <div class="column scene-side" aria-label="Lessons, call and tasks">
                <LessonsPanel />
                // It scrolls when the lesson and a sign-in card leave it little room, and
                // may hold no control then (no tool chosen yet): focusable, so the keyboard
                // can scroll it too.
                <div class="scene-work" tabindex="0" role="region" aria-label="Call and tasks">
                    <TasksAsking />
                    <CallPanel />
                    <TasksPanel />
                </div>
            </div>
            <div class="column scene-main" aria-label="Scene and timeline">
                <Scene />
                <Timeline />
            </div>
        }
        .into_any())
    }
}

after_first_screen! {
    /// The dock (wire log, findings, history): built after the tool list (`first_screen`).
    fn dock() -> Result<AnyView, ChunkMissing> {
        Ok(view! { <Dock /> }.into_any())
    }
}

after_first_screen! {
    /// The workbench's tasks panel: built after the tool list (`first_screen`).
    fn tasks_panel() -> Result<AnyView, ChunkMissing> {
        Ok(view! { <TasksPanel /> }.into_any())
    }
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn prompts_tab() -> AnyView {
    view! { <PromptsTab /> }.into_any()
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn resources_tab() -> AnyView {
    view! { <ResourcesTab /> }.into_any()
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn findings_panel() -> AnyView {
    let session = Session::current();
    view! { <FindingsPanel findings=session.findings() counts=session.finding_counts() /> }
        .into_any()
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn history_panel() -> AnyView {
    view! { <HistoryPanel /> }.into_any()
}

#[component]
pub fn SceneColumns() -> impl IntoView {
    // Shown once its style sheets are here too: no unstyled frame.
    when_loaded(styled(async {
        chunk!(scene_columns()).unwrap_or_else(|missing| {
            view! { <ErrorNotice title="No Scene" message=missing.to_string() /> }.into_any()
        })
    }))
}

/// The shell's dock frame stands in while the chunk and the later style sheets come: nothing
/// moves. They are fetched now, after the tool list, so the Scene waits for nothing later.
#[component]
pub fn DockOnDemand() -> impl IntoView {
    when_loaded_or(
        || view! { <DockFrame /> }.into_any(),
        styled(async {
            chunk!(dock())
                .unwrap_or_else(|missing| view! { <DockFrame problem=missing /> }.into_any())
        }),
    )
}

/// The shell's tasks frame stands in while the chunk comes.
#[component]
pub fn TasksPanelOnDemand() -> impl IntoView {
    when_loaded_or(
        || view! { <TasksFrame /> }.into_any(),
        styled(async {
            chunk!(tasks_panel())
                .unwrap_or_else(|missing| view! { <TasksFrame problem=missing /> }.into_any())
        }),
    )
}

#[component]
pub fn PromptsTabOnDemand() -> impl IntoView {
    when_loaded(styled(async { chunk!(prompts_tab()) }))
}

#[component]
pub fn ResourcesTabOnDemand() -> impl IntoView {
    when_loaded(styled(async { chunk!(resources_tab()) }))
}

#[component]
pub fn FindingsOnDemand() -> impl IntoView {
    when_loaded(async { chunk!(findings_panel()) })
}

#[component]
pub fn HistoryOnDemand() -> impl IntoView {
    when_loaded(async { chunk!(history_panel()) })
}
