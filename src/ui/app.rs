//! The app shell: connects to the endpoint, then lays out the panels around one session.

use holdbay_engine::ToolPages;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::session::{Session, Step, Toolbox};
use super::{CallPanel, DiscoverPanel, ErrorNotice, TasksPanel, ToolsPanel, WireLogPanel};
use crate::connection::Connection;
use crate::transport::exchange;

#[component]
pub fn App(endpoint: Result<String, String>) -> impl IntoView {
    let connecting = endpoint.is_ok();
    let session = Session::new(Connection::direct(endpoint.clone().unwrap_or_default()));
    provide_context(session);
    if connecting {
        spawn_local(connect(session));
    }

    let endpoint_line = match endpoint {
        Ok(url) => view! { <p class="endpoint">"Server " <code id="endpoint-url">{url}</code></p> }
            .into_any(),
        Err(problem) => view! { <ErrorNotice title="Cannot connect" message=problem /> }.into_any(),
    };

    view! {
        <div class="holdbay">
            <header class="masthead">
                <h1>"Holdbay"</h1>
                <p class="tagline">"MCP 2026-07-28 multi-step flows, seen from the wire"</p>
            </header>
            {endpoint_line}
            <main class="workbench" class:hidden=!connecting>
                <div class="column server-column">
                    {move || match session.discovery.get() {
                        Step::Waiting => view! { <p class="pending">"Discovering the server…"</p> }.into_any(),
                        Step::Done(result) => view! { <DiscoverPanel result=result /> }.into_any(),
                        Step::Failed(message) => {
                            view! { <ErrorNotice title="server/discover failed" message=message /> }.into_any()
                        }
                    }}
                    {move || match session.tools.get() {
                        Step::Waiting => ().into_any(),
                        Step::Done(Some(Toolbox { tools, hidden })) => {
                            view! { <ToolsPanel tools=tools hidden=hidden /> }.into_any()
                        }
                        Step::Done(None) => {
                            view! { <p class="quiet" id="no-tools">"This server does not advertise tools."</p> }
                                .into_any()
                        }
                        Step::Failed(message) => {
                            view! { <ErrorNotice title="tools/list failed" message=message /> }.into_any()
                        }
                    }}
                </div>
                <div class="column call-column">
                    <CallPanel />
                </div>
                <div class="column tasks-column">
                    <TasksPanel />
                </div>
            </main>
            <WireLogPanel />
        </div>
    }
}

/// Discover the server, then list all its tools.
async fn connect(session: Session) {
    let connection = session.connection_now();
    let how = session.exchange_with(&connection);
    let Some(request) = session.build(|client| client.discover()) else {
        return;
    };
    let discovered = match exchange(&how, &request).await {
        Ok(reply) => {
            session.note_findings(reply.findings);
            reply.result
        }
        Err(error) => {
            session.discovery.set(Step::Failed(error.to_string()));
            return;
        }
    };
    let pages = ToolPages::for_server(&discovered);
    session.discovery.set(Step::Done(discovered));
    let Some(mut pages) = pages else {
        session.tools.set(Step::Done(None));
        return;
    };
    while let Some(request) = session.build(|client| pages.next_request(client)).flatten() {
        let outcome = match exchange(&how, &request).await {
            Ok(reply) => pages.accept(reply).map_err(|e| e.to_string()),
            Err(error) => Err(error.to_string()),
        };
        if let Err(message) = outcome {
            session.tools.set(Step::Failed(message));
            return;
        }
    }
    // Tools with invalid x-mcp-header annotations must not be offered; say which were hidden.
    let Some((kept, findings)) = session.build(|client| client.learn_tools(pages.into_tools()))
    else {
        return;
    };
    let hidden = findings.iter().map(|f| f.explanation.clone()).collect();
    session.note_findings(findings);
    session.tools.set(Step::Done(Some(Toolbox {
        tools: kept,
        hidden,
    })));
}
