//! Views the first screen does not need (the Scene view, the prompts and resources tabs, the
//! dock's findings and history; also a selected tool's call, a task's forms and outcome and
//! an opened wire-log entry, whose chunk functions sit beside their views), loaded when first
//! shown. In the release build (cfg `holdbay_split`) each is its own wasm chunk: Leptos
//! `#[lazy]`, cut out by `wasm-split-cli` in `scripts/build-app.sh`. Elsewhere (tests, debug
//! builds) the same functions are linked in.

use leptos::prelude::*;

use super::chunks::{chunk, when_loaded};
use super::history::HistoryPanel;
use super::prompts::PromptsTab;
use super::resources::ResourcesTab;
use super::{CallPanel, FindingsPanel, LessonsPanel, Scene, TasksPanel, Timeline};
use crate::session::Session;

/// Lessons, call and tasks on the left (the learner acts there); the scene and its timeline
/// on the right.
#[cfg_attr(holdbay_split, leptos::lazy)]
fn scene_columns() -> AnyView {
    view! {
        <div class="column scene-side" aria-label="Lessons, call and tasks">
            <LessonsPanel />
            <div class="scene-work">
                <CallPanel />
                <TasksPanel />
            </div>
        </div>
        <div class="column scene-main" aria-label="Scene and timeline">
            <Scene />
            <Timeline />
        </div>
    }
    .into_any()
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
    let link = Session::current().link();
    view! { <FindingsPanel findings=link.findings() counts=link.finding_counts() /> }.into_any()
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn history_panel() -> AnyView {
    view! { <HistoryPanel /> }.into_any()
}

#[component]
pub fn SceneColumns() -> impl IntoView {
    when_loaded(async { chunk!(scene_columns()) })
}

#[component]
pub fn PromptsTabOnDemand() -> impl IntoView {
    when_loaded(async { chunk!(prompts_tab()) })
}

#[component]
pub fn ResourcesTabOnDemand() -> impl IntoView {
    when_loaded(async { chunk!(resources_tab()) })
}

#[component]
pub fn FindingsOnDemand() -> impl IntoView {
    when_loaded(async { chunk!(findings_panel()) })
}

#[component]
pub fn HistoryOnDemand() -> impl IntoView {
    when_loaded(async { chunk!(history_panel()) })
}
