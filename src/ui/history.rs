//! The call history panel: each tool call made to the current server (tool, exact
//! arguments, when, outcome), newest first, with Re-run: the arguments go back into the
//! tool's form (its draft) and the call starts again with them.

use holdbay_engine::Shown;
use leptos::prelude::*;
use serde_json::Value;

use super::state::UiState;
use crate::history::{CallRecord, HISTORY_LIMIT};
use crate::session::Session;

#[component]
pub fn HistoryPanel() -> impl IntoView {
    let session = Session::current();
    let history = session.history();
    let calls = history.calls();
    let problem = RwSignal::new(None::<String>);
    view! {
        <section class="panel call-history" id="call-history" aria-label="Call history">
            <div class="wire-toolbar">
                <p class="quiet history-note">
                    {format!(
                        "The last {HISTORY_LIMIT} tool calls to this server, kept in this browser with their arguments (which may hold your data; never headers or tokens)."
                    )}
                </p>
                <span class="toolbar-gap"></span>
                <button
                    type="button"
                    class="history-clear"
                    disabled=move || calls.with(Vec::is_empty)
                    on:click=move |_| history.clear()
                >
                    "Clear history"
                </button>
            </div>
            {move || problem.get().map(|p| view! { <p class="error-message" role="alert">{p}</p> })}
            {move || calls.with(Vec::is_empty).then(|| view! { <p class="quiet">"No tool calls yet."</p> })}
            <ol class="history-list">
                <For each=move || calls.get() key=|call| (call.exchange, call.outcome.clone(), call.round) let:call>
                    <HistoryRow call=call problem=problem />
                </For>
            </ol>
        </section>
    }
}

#[component]
fn HistoryRow(call: CallRecord, problem: RwSignal<Option<String>>) -> impl IntoView {
    let (session, ui) = (Session::current(), UiState::current());
    let when = clock_time(call.at);
    let arguments = serde_json::to_string(&call.arguments).unwrap_or_default();
    let outcome = match (&call.outcome, call.round) {
        (Some(outcome), Some(round)) if round > 1 => format!("{outcome} (round {round})"),
        (Some(outcome), _) => outcome.clone(),
        (None, _) => "on the wire…".to_owned(),
    };
    let stored = StoredValue::new(call.clone());
    let rerun = move |_| {
        if let Err(why) = stored.with_value(|call| rerun(session, ui, call)) {
            problem.set(Some(why));
        } else {
            problem.set(None);
        }
    };
    view! {
        <li class="history-row" data-tool=call.tool.clone()>
            <time class="history-when" title=when.clone()>{when.clone()}</time>
            <code class="history-tool shown-name">{Shown::of(&call.tool).text()}</code>
            <code class="history-arguments" title=arguments.clone()>{arguments.clone()}</code>
            <span class="history-outcome" class:bad=call.failed>{outcome}</span>
            <button type="button" class="history-rerun" on:click=rerun>"Re-run"</button>
        </li>
    }
}

/// Put `call`'s arguments back into its tool's form and start it again with them.
fn rerun(session: Session, ui: UiState, call: &CallRecord) -> Result<(), String> {
    let arguments = match &call.arguments {
        Value::Object(map) => map.clone(),
        Value::Null => serde_json::Map::new(),
        other => return Err(format!("these arguments are not an object: {other}")),
    };
    let draft = ui.draft(&call.tool);
    draft.replace_arguments(Value::Object(arguments.clone()));
    draft.accept_task.set(call.accept_task);
    draft
        .note
        .set(Some("Re-run from the call history.".to_owned()));
    ui.selected_tool().set(Some(call.tool.clone()));
    session.call(&call.tool).start(
        arguments,
        call.accept_task,
        draft.report_progress.get_untracked(),
    )
}

/// `HH:MM:SS` in the browser's time zone, and the date when not today.
fn clock_time(at: f64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at));
    let today = js_sys::Date::new_0();
    let time = format!(
        "{:02}:{:02}:{:02}",
        date.get_hours(),
        date.get_minutes(),
        date.get_seconds()
    );
    let day = String::from(date.to_date_string());
    if today.to_date_string() == day {
        time
    } else {
        format!("{day} {time}")
    }
}
