//! The connection bar's menu of the stdio servers this `holdbay` runs: each one's state, pid,
//! command, how its last process ended and its newest stderr lines, with Use (connect to it)
//! and Restart. Its own chunk: fetched when the menu first opens.

use holdbay_engine::stdio::StdioServerStatus;
use leptos::prelude::*;

use super::chunks::when_loaded;
use crate::session::Session;
use crate::split::chunk;
use crate::stdio::StdioServers;

/// `on_use` is given the chosen server's URL.
#[component]
pub fn StdioMenuOnDemand(on_use: Callback<String>) -> impl IntoView {
    when_loaded(async move { chunk!(stdio_menu(on_use)) })
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn stdio_menu(on_use: Callback<String>) -> AnyView {
    view! { <StdioMenu on_use=on_use /> }.into_any()
}

const RESTART: &str = "End its process, if it runs, and run the command again";

#[component]
fn StdioMenu(on_use: Callback<String>) -> impl IntoView {
    let stdio = Session::current().stdio();
    // What the menu shows is as of its opening: states and stderr change while closed.
    stdio.refresh();
    view! {
        <p class="hint">
            "Servers this holdbay runs on stdio (" <code>"--stdio"</code> ", " <code>"--stdio-config"</code>
            "), each at " <code>"/stdio/NAME"</code>
            " on this page's origin. Only these commands ever run; a process starts at its first request."
        </p>
        {move || stdio.problem().get().map(|p| view! { <p class="error-message" role="alert">{p}</p> })}
        <ul class="recent-servers stdio-servers">
            <For each=move || stdio.listed().get() key=|server| server.clone() let:server>
                {server_row(server, stdio, on_use)}
            </For>
        </ul>
    }
}

fn server_row(
    server: StdioServerStatus,
    stdio: StdioServers,
    on_use: Callback<String>,
) -> impl IntoView {
    let state = server.state.label();
    let used = StdioServers::url_of(&server.name);
    let restarted = server.name.clone();
    let restart = move |_| stdio.restart(&restarted);
    let stderr = (!server.stderr.is_empty()).then(|| {
        let lines = server.stderr.len();
        view! {
            <details class="stdio-stderr">
                <summary>"stderr, the newest " {lines} " lines"</summary>
                <pre>{server.stderr.join("\n")}</pre>
            </details>
        }
    });
    view! {
        <li class="stdio-server" data-name=server.name.clone() data-state=state>
            <div class="recent-server">
                <button
                    type="button"
                    class="stdio-use"
                    title="Connect to this stdio server"
                    on:click=move |_| on_use.run(used.clone())
                >
                    <code>{server.name.clone()}</code>
                </button>
                <span class="chip stdio-state">{state}</span>
                {server.pid.map(|pid| view! { <span class="quiet">"pid " {pid}</span> })}
                <button type="button" class="stdio-restart" title=RESTART on:click=restart>
                    "Restart"
                </button>
            </div>
            <code class="stdio-command">{server.command}</code>
            {server.ended.map(|how| view! { <p class="stdio-ended">"Its process ended: " {how} "."</p> })}
            {stderr}
        </li>
    }
}
