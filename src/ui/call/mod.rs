//! The call panel: the selected tool, its arguments, and its call (the session's: it goes on
//! through every MRTR round whichever view shows it), and what came back.

pub mod outcome;
mod paused;
mod progress;
mod result;
mod result_findings;
mod schemas;
mod server_asks;
mod tamper;

use std::sync::Arc;

use holdbay_engine::model::{JsonObject, Tool};
use holdbay_engine::{ListMethod, ListTools, NameMarks, tool_title};
use leptos::prelude::*;
use serde_json::Value;

use super::checkbox::Checkbox;
use super::chunks::{chunk, styled, when_loaded};
use super::forms::ArgumentsEditor;
use super::names::{ShownText, flags_of, warnings_of};
use super::state::{CallDraft, UiState};
use crate::calls::{CallRun, Phase};
use crate::session::Session;
pub use outcome::CallOutcome;
pub use paused::shorten;
pub use result::{ToolResult, base64_decoded_len, data_url};
use schemas::ToolSchemas;
pub use server_asks::SessionAsks;
pub use tamper::{TamperLatch, TamperVerdict};

#[component]
pub fn CallPanel() -> impl IntoView {
    let session = Session::current();
    let ui = UiState::current();
    move || {
        let Some(name) = ui.selected_tool().get() else {
            return view! {
                <section class="panel" id="call-panel">
                    <h2>"Call"</h2>
                    <p class="quiet">"Choose a tool to call it."</p>
                </section>
            }
            .into_any();
        };
        let catalog = session.catalog();
        let tool = catalog.tool(&name);
        let title = tool
            .as_ref()
            .and_then(tool_title)
            .filter(|title| *title != name);
        let marks = catalog.tool_names().marks(&name, title);
        when_loaded(styled(async move {
            chunk!(tool_call(session, ui, name, tool, marks))
        }))
        .into_any()
    }
}

/// The call form and its call: a chunk of its own (the first screen only lists the tools),
/// which also makes the tool's run and draft when they are new.
#[cfg_attr(holdbay_split, leptos::lazy)]
fn tool_call(
    session: Session,
    ui: UiState,
    name: String,
    tool: Option<Tool>,
    marks: NameMarks,
) -> AnyView {
    let run = session.call(&name);
    let draft = ui.draft(&name);
    view! { <ToolCall name=name tool=tool marks=marks run=run draft=draft /> }.into_any()
}

/// One tool's call form (as the user left it) and its call.
#[component]
fn ToolCall(
    name: String,
    tool: Option<Tool>,
    marks: NameMarks,
    run: CallRun,
    draft: CallDraft,
) -> impl IntoView {
    let schema = tool
        .as_ref()
        .map(|tool| tool.input_schema.clone())
        .unwrap_or_else(|| Arc::new(JsonObject::new()));
    let arguments = RwSignal::new(Ok::<Value, String>(Value::Object(JsonObject::new())));
    // The form shows what was typed before (or a lesson's preset), else the defaults.
    let seed = RwSignal::new(draft.arguments.get_untracked());
    Effect::new(move |first: Option<()>| {
        draft.replaced.track();
        if first.is_some() {
            seed.set(draft.arguments.get_untracked());
        }
    });
    let phase = run.phase();
    let live = move || phase.with(|p| p.as_ref().is_some_and(Phase::is_live));
    // `try_`: a server switch cancels the call while this view is being let go, and its
    // last redraw may then find the view's own signals gone.
    let blocked = move || match arguments.try_get()? {
        Err(why) => Some(format!("Fix the arguments first: {why}")),
        Ok(_) if live() => Some("A call is under way.".to_owned()),
        Ok(_) => None,
    };
    let call = move |_| {
        let Ok(Value::Object(args)) = arguments.get_untracked() else {
            return;
        };
        draft.note.set(None);
        if let Err(why) = run.start(
            args,
            draft.accept_task.get_untracked(),
            draft.report_progress.get_untracked(),
        ) {
            draft.note.set(Some(why));
        }
    };
    view! {
        <section class="panel" id="call-panel">
            <h2>"Call"</h2>
            <ToolHeader name=name tool=tool.clone() marks=marks />
            <ToolSchemas tool=tool />
            <ArgumentsEditor
                schema=schema
                value=arguments
                seed=seed
                draft=draft.arguments
                raw_draft=draft.raw_arguments
            />
            <div class="call-options">
                <Checkbox
                    input_class="accept-task"
                    checked=draft.accept_task
                    label=" Accept a task"
                />
                <Checkbox
                    input_class="report-progress"
                    checked=draft.report_progress
                    label=" Report progress"
                />
            </div>
            <div class="call-actions">
                <button class="call" disabled=move || blocked().is_some() on:click=call>
                    "Call"
                </button>
                {move || {
                    let invalid = arguments.try_with(Result::is_err).unwrap_or(false);
                    blocked()
                        .map(|why| {
                            view! { <span class="call-blocked" class:invalid=invalid>{why}</span> }
                        })
                }}
            </div>
            {move || {
                draft
                    .note
                    .get()
                    .map(|note| view! { <p class="call-preset-note" role="status">{note}</p> })
            }}
            <CallOutcome run=run />
        </section>
    }
}

/// The tool's display name, its name (both as shown, with their flags) and description.
/// The call itself sends the name as the server wrote it.
#[component]
fn ToolHeader(name: String, tool: Option<Tool>, marks: NameMarks) -> impl IntoView {
    let description = tool.and_then(|tool| tool.description.map(|d| d.to_string()));
    let flags = flags_of(&marks, ListTools::ITEM, &name);
    let warnings = warnings_of(&marks, ListTools::ITEM, &name);
    let NameMarks {
        name: shown, title, ..
    } = marks;
    view! {
        <header class="call-header">
            {title.map(|t| view! { <p class="call-title shown-name"><ShownText shown=t /></p> })}
            <code class="call-tool shown-name"><ShownText shown=shown /></code>
            {flags}
            {warnings}
            {description.map(|d| view! { <p class="call-description">{d}</p> })}
        </header>
    }
}
