//! The call panel: the selected tool, its arguments, the call through every MRTR round,
//! and what came back.

mod outcome;
mod paused;
mod preset;
mod progress;
mod result;
mod run;
mod tamper;

use std::sync::Arc;

use holdbay_engine::model::{JsonObject, Tool};
use holdbay_engine::tool_display_name;
use leptos::prelude::*;
use serde_json::Value;

use super::forms::ArgumentsEditor;
use super::session::{Session, Step};
use outcome::CallOutcome;
pub use paused::shorten;
pub use preset::CallPreset;
pub use result::{ToolResult, base64_decoded_len, data_url};
use run::CallRun;
pub use run::{Phase, Progress};
pub use tamper::{LatchTamper, flip_one_character};

#[component]
pub fn CallPanel() -> impl IntoView {
    let session = Session::current();
    move || {
        let Some(name) = session.selected_tool.get() else {
            return view! {
                <section class="panel" id="call-panel">
                    <h2>"Call"</h2>
                    <p class="quiet">"Choose a tool to call it."</p>
                </section>
            }
            .into_any();
        };
        let tool = match session.tools.get_untracked() {
            Step::Done(Some(toolbox)) => toolbox.tools.into_iter().find(|tool| tool.name == name),
            _ => None,
        };
        view! { <ToolCall session=session name=name tool=tool /> }.into_any()
    }
}

/// One tool's call form and its latest call.
#[component]
fn ToolCall(session: Session, name: String, tool: Option<Tool>) -> impl IntoView {
    let schema = tool
        .as_ref()
        .map(|tool| tool.input_schema.clone())
        .unwrap_or_else(|| Arc::new(JsonObject::new()));
    let arguments = RwSignal::new(Ok::<Value, String>(Value::Object(JsonObject::new())));
    let accept_task = RwSignal::new(true);
    let report_progress = RwSignal::new(true);
    let run = CallRun::new(session, name.clone());
    // Leaving this tool (or the page) closes a request still on the wire.
    on_cleanup(move || run.stop());
    // What the form shows: a lesson's preset arguments replace the schema's defaults.
    let seed = RwSignal::new(None::<Value>);
    let preset_note = take_presets(
        session,
        name.clone(),
        run,
        seed,
        accept_task,
        report_progress,
    );

    let live = move || run.phase.with(|p| p.as_ref().is_some_and(Phase::is_live));
    let blocked = move || match arguments.get() {
        Err(why) => Some(format!("Fix the arguments first: {why}")),
        Ok(_) if live() => Some("A call is under way.".to_owned()),
        Ok(_) => None,
    };
    let call = move |_| {
        let Ok(Value::Object(args)) = arguments.get_untracked() else {
            return;
        };
        run.start(
            args,
            accept_task.get_untracked(),
            report_progress.get_untracked(),
        );
    };
    view! {
        <section class="panel" id="call-panel">
            <h2>"Call"</h2>
            <ToolHeader name=name tool=tool />
            <ArgumentsEditor schema=schema value=arguments seed=seed />
            <div class="call-options">
                <label>
                    <input
                        type="checkbox"
                        class="accept-task"
                        prop:checked=move || accept_task.get()
                        on:change=move |e| accept_task.set(event_target_checked(&e))
                    />
                    " Accept a task"
                </label>
                <label>
                    <input
                        type="checkbox"
                        class="report-progress"
                        prop:checked=move || report_progress.get()
                        on:change=move |e| report_progress.set(event_target_checked(&e))
                    />
                    " Report progress"
                </label>
            </div>
            <div class="call-actions">
                <button class="call" disabled=move || blocked().is_some() on:click=call>
                    "Call"
                </button>
                {move || {
                    let invalid = arguments.with(Result::is_err);
                    blocked()
                        .map(|why| {
                            view! { <span class="call-blocked" class:invalid=invalid>{why}</span> }
                        })
                }}
            </div>
            {move || {
                preset_note
                    .get()
                    .map(|note| view! { <p class="call-preset-note" role="status">{note}</p> })
            }}
            <CallOutcome run=run />
        </section>
    }
}

/// Take the presets meant for this tool (a lesson's Start): set "Accept a task" and start
/// the call with the preset's arguments. Returns the note that says what was started.
fn take_presets(
    session: Session,
    name: String,
    run: CallRun,
    seed: RwSignal<Option<Value>>,
    accept_task: RwSignal<bool>,
    report_progress: RwSignal<bool>,
) -> RwSignal<Option<String>> {
    let note = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let mine = session
            .call_preset
            .with(|preset| preset.as_ref().is_some_and(|p| p.tool == name));
        if !mine {
            return;
        }
        let Some(Some(preset)) = session.call_preset.try_update(Option::take) else {
            return;
        };
        accept_task.set(preset.accept_task);
        seed.set(Some(Value::Object(preset.arguments.clone())));
        let arguments = preset.arguments_text();
        if !preset.start {
            note.set(Some(format!("Set up by a lesson: arguments {arguments}")));
            return;
        }
        match run.phase.get_untracked() {
            // A round on the wire cannot be taken back cleanly: let it land first.
            Some(Phase::Sending) => {
                note.set(Some(
                    "A request of the last call is still on the wire: wait for it, then start again."
                        .to_owned(),
                ));
                return;
            }
            // A paused call has nothing on the wire: abandon it for the new one.
            Some(Phase::Paused) => run.cancel(),
            _ => {}
        }
        let task = if preset.accept_task {
            "accepting a task"
        } else {
            "not accepting a task"
        };
        note.set(Some(format!(
            "Started by a lesson, {task}, with arguments {arguments}"
        )));
        run.start(
            preset.arguments,
            preset.accept_task,
            report_progress.get_untracked(),
        );
    });
    note
}

/// The tool's display name, its name and description.
#[component]
fn ToolHeader(name: String, tool: Option<Tool>) -> impl IntoView {
    let display = tool
        .as_ref()
        .map(|tool| tool_display_name(tool).to_owned())
        .filter(|display| *display != name);
    let description = tool.and_then(|tool| tool.description.map(|d| d.to_string()));
    view! {
        <header class="call-header">
            {display.map(|d| view! { <p class="call-title">{d}</p> })}
            <code class="call-tool">{name}</code>
            {description.map(|d| view! { <p class="call-description">{d}</p> })}
        </header>
    }
}
