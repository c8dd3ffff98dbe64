//! The app shell: connects to the endpoint, then shows what the server said.

use holdbay_engine::model::{DiscoverResult, Tool};
use holdbay_engine::{Client, ToolPages};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::{DiscoverPanel, ErrorNotice, ToolsPanel};
use crate::transport::exchange;

/// The tools the app offers, and why any others were hidden.
#[derive(Debug, Clone)]
struct Toolbox {
    tools: Vec<Tool>,
    hidden: Vec<String>,
}

/// Where one step of the connection stands.
#[derive(Debug, Clone)]
enum Step<T> {
    Waiting,
    Done(T),
    Failed(String),
}

#[component]
pub fn App(endpoint: Result<String, String>) -> impl IntoView {
    let discovery = RwSignal::new(Step::<DiscoverResult>::Waiting);
    // `None`: the server does not advertise tools.
    let tools = RwSignal::new(Step::<Option<Toolbox>>::Waiting);
    let connecting = endpoint.is_ok();
    if let Ok(url) = &endpoint {
        spawn_local(connect(url.clone(), discovery, tools));
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
            <main class="panels" class:hidden=!connecting>
                {move || match discovery.get() {
                    Step::Waiting => view! { <p class="pending">"Discovering the server…"</p> }.into_any(),
                    Step::Done(result) => view! { <DiscoverPanel result=result /> }.into_any(),
                    Step::Failed(message) => {
                        view! { <ErrorNotice title="server/discover failed" message=message /> }.into_any()
                    }
                }}
                {move || match tools.get() {
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
            </main>
        </div>
    }
}

/// Discover the server, then list all its tools.
async fn connect(
    url: String,
    discovery: RwSignal<Step<DiscoverResult>>,
    tools: RwSignal<Step<Option<Toolbox>>>,
) {
    let mut client = Client::default();
    let discovered = match exchange(&url, &client.discover()).await {
        Ok(reply) => reply.result,
        Err(error) => {
            discovery.set(Step::Failed(error.to_string()));
            return;
        }
    };
    let pages = ToolPages::for_server(&discovered);
    discovery.set(Step::Done(discovered));
    let Some(mut pages) = pages else {
        tools.set(Step::Done(None));
        return;
    };
    while let Some(request) = pages.next_request(&mut client) {
        let outcome = match exchange(&url, &request).await {
            Ok(reply) => pages.accept(reply).map_err(|e| e.to_string()),
            Err(error) => Err(error.to_string()),
        };
        if let Err(message) = outcome {
            tools.set(Step::Failed(message));
            return;
        }
    }
    // Tools with invalid x-mcp-header annotations must not be offered; say which were hidden.
    let (kept, findings) = client.learn_tools(pages.into_tools());
    let hidden = findings.into_iter().map(|f| f.explanation).collect();
    tools.set(Step::Done(Some(Toolbox {
        tools: kept,
        hidden,
    })));
}
