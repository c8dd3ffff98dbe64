//! The call panel: the selected tool's arguments, the call, and what came back.

use std::sync::Arc;

use holdbay_engine::model::JsonObject;
use holdbay_engine::{Outcome, RequestOptions};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;

use super::forms::ArgumentsEditor;
use super::session::{Session, Step};
use crate::transport::exchange_outcome;

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
        let schema = match session.tools.get_untracked() {
            Step::Done(Some(toolbox)) => toolbox
                .tools
                .iter()
                .find(|tool| tool.name == name)
                .map(|tool| tool.input_schema.clone()),
            _ => None,
        }
        .unwrap_or_else(|| Arc::new(JsonObject::new()));
        let arguments = RwSignal::new(Ok::<Value, String>(Value::Object(JsonObject::new())));
        let outcome = RwSignal::new(None::<String>);
        let tool = name.clone();
        let call = move |_| {
            let Ok(Value::Object(args)) = arguments.get_untracked() else {
                return;
            };
            let tool = tool.clone();
            spawn_local(async move {
                let options = RequestOptions {
                    accept_task: true,
                    ..RequestOptions::default()
                };
                let Some(request) =
                    session.build(|client| client.call_tool(&tool, Some(args), &options))
                else {
                    return;
                };
                let request = match request {
                    Ok(request) => request,
                    Err(error) => return outcome.set(Some(error.to_string())),
                };
                let connection = session.connection_now();
                let how = session.exchange_with(&connection);
                let shown = match exchange_outcome(&how, &request).await {
                    Ok(reply) => {
                        if let Outcome::Task(created) = &reply.result {
                            session.tasks.adopt(created, &tool);
                        }
                        session.note_findings(reply.findings);
                        serde_json::to_string_pretty(&reply.raw_result).unwrap_or_default()
                    }
                    Err(error) => error.to_string(),
                };
                outcome.set(Some(shown));
            });
        };
        view! {
            <section class="panel" id="call-panel">
                <h2>"Call " <code class="call-tool">{name}</code></h2>
                <ArgumentsEditor schema=schema value=arguments />
                <button class="call" on:click=call>"Call"</button>
                {move || outcome.get().map(|text| view! { <pre class="json call-outcome">{text}</pre> })}
            </section>
        }
        .into_any()
    }
}
