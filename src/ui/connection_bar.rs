//! The bar at the top: which server (typed, or one of the recent servers), direct or through
//! the relay, and extra request headers.

use holdbay_engine::era::{Era, EraChoice};
use holdbay_engine::headers::is_reserved_header;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use super::checkbox::Checkbox;
use super::stdio_menu::StdioMenuOnDemand;
use super::text_field::TextField;
use super::{AuthStatus, SignInSettingsFields};
use crate::connection::{Connection, Deadlines, RecentServer, forget_recent, recent_servers};
use crate::session::Session;

/// One editable header row; its own signals keep focus while typing.
#[derive(Debug, Clone, Copy)]
struct HeaderRow {
    id: u64,
    name: RwSignal<String>,
    value: RwSignal<String>,
    /// Withheld from the wire log and its exports (the default for every extra header).
    secret: RwSignal<bool>,
}

/// Edits a copy of the session's connection; Connect hands the new connection to `on_connect`
/// (the app persists it and reconnects).
#[component]
pub fn ConnectionBar(on_connect: Callback<Connection>) -> impl IntoView {
    let session = Session::current();
    let url = RwSignal::new(String::new());
    let via_relay = RwSignal::new(false);
    let remember = RwSignal::new(false);
    let rows: RwSignal<Vec<HeaderRow>> = RwSignal::new(Vec::new());
    let next_row = StoredValue::new(0_u64);
    let show_headers = RwSignal::new(false);
    let opened_headers = RwSignal::new(false);
    Effect::new(move || {
        if show_headers.get() {
            opened_headers.set(true);
        }
    });
    let problem = RwSignal::new(None::<String>);
    let recent = RwSignal::new(recent_servers());
    let show_recent = RwSignal::new(false);
    let stdio = session.stdio();
    let stdio_count = stdio.count();
    let show_stdio = RwSignal::new(false);

    let request_secs = RwSignal::new(Deadlines::DEFAULT_REQUEST_SECS.to_string());
    let stream_secs = RwSignal::new(Deadlines::DEFAULT_STREAM_SECS.to_string());
    let era = RwSignal::new(EraChoice::Auto);

    let add_row = move |name: String, value: String, secret: bool| {
        let id = next_row.get_value();
        next_row.set_value(id + 1);
        rows.update(|rows| {
            rows.push(HeaderRow {
                id,
                name: RwSignal::new(name),
                value: RwSignal::new(value),
                secret: RwSignal::new(secret),
            })
        });
    };
    // Show the current connection whenever it changes (a connect, "Use the relay").
    Effect::new(move |_| {
        let connection = session.connection().get();
        url.set(connection.server.clone());
        via_relay.set(connection.via_relay);
        remember.set(connection.remember_headers);
        request_secs.set(connection.deadlines.request_secs.to_string());
        stream_secs.set(connection.deadlines.stream_secs.to_string());
        era.set(connection.era);
        rows.set(Vec::new());
        for (name, value) in &connection.headers {
            let secret = connection.is_secret_header(name.trim()) || value.trim().is_empty();
            add_row(name.clone(), value.clone(), secret);
        }
        // A connect put its server first in the list.
        recent.set(recent_servers());
    });
    let connect_recent = move |known: RecentServer| {
        show_recent.set(false);
        let mut connection = Connection::restore(known.server);
        connection.via_relay = known.via_relay;
        on_connect.run(connection);
    };
    let use_stdio = Callback::new(move |server: String| {
        show_stdio.set(false);
        on_connect.run(Connection::restore(server));
    });
    let forget = move |server: String| {
        if let Err(why) = forget_recent(&server) {
            problem.set(Some(why));
        }
        recent.set(recent_servers());
    };

    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        let page = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let deadlines = Deadlines::parse_secs(&request_secs.get_untracked()).and_then(|request| {
            Deadlines::parse_secs(&stream_secs.get_untracked()).map(|stream| Deadlines {
                request_secs: request,
                stream_secs: stream,
            })
        });
        let deadlines = match deadlines {
            Ok(deadlines) => deadlines,
            Err(reason) => {
                show_headers.set(true);
                problem.set(Some(reason));
                return;
            }
        };
        match crate::endpoint::resolve(Some(&url.get_untracked()), &page) {
            Ok(server) => {
                problem.set(None);
                let rows: Vec<HeaderRow> = rows
                    .get_untracked()
                    .into_iter()
                    .filter(|row| !row.name.with_untracked(|name| name.trim().is_empty()))
                    .collect();
                let shareable_headers = rows
                    .iter()
                    .filter(|row| !row.secret.get_untracked())
                    .map(|row| row.name.get_untracked().trim().to_owned())
                    .collect();
                let headers = rows
                    .iter()
                    .map(|row| (row.name.get_untracked(), row.value.get_untracked()))
                    .collect();
                on_connect.run(Connection {
                    server,
                    via_relay: via_relay.get_untracked(),
                    headers,
                    remember_headers: remember.get_untracked(),
                    shareable_headers,
                    deadlines,
                    era: era.get_untracked(),
                });
            }
            Err(reason) => problem.set(Some(reason)),
        }
    };
    let header_count = move || {
        rows.with(|rows| {
            rows.iter()
                .filter(|row| !row.name.with(|n| n.trim().is_empty()))
                .count()
        })
    };

    view! {
        <form class="connection-bar" id="connection-bar" on:submit=submit>
            <div class="connection-line">
                <label for="server-url">"Server"</label>
                <TextField
                    value=url
                    id="server-url"
                    inputmode="url"
                    autocomplete="url"
                    list="recent-servers"
                />
                <datalist id="recent-servers">
                    {move || {
                        recent
                            .get()
                            .into_iter()
                            .map(|known| view! { <option value=known.server></option> })
                            .collect_view()
                    }}
                </datalist>
                <PanelToggle
                    class="toggle-recent"
                    controls="recent-menu"
                    label="Recent"
                    shown=show_recent
                    count=Signal::derive(move || recent.with(Vec::len))
                    disabled_when_empty=true
                />
                <PanelToggle
                    class="toggle-stdio"
                    controls="stdio-menu"
                    label="stdio"
                    shown=show_stdio
                    count=stdio_count
                    hidden_when_empty=true
                />
                <fieldset class="route">
                    <legend class="visually-hidden">"Route"</legend>
                    <label>
                        <input
                            type="radio"
                            name="route"
                            id="route-direct"
                            prop:checked=move || !via_relay.get()
                            on:change=move |_| via_relay.set(false)
                        />
                        "Direct"
                    </label>
                    <label>
                        <input
                            type="radio"
                            name="route"
                            id="route-relay"
                            prop:checked=move || via_relay.get()
                            on:change=move |_| via_relay.set(true)
                        />
                        "Through the relay"
                    </label>
                </fieldset>
                <PanelToggle
                    class="toggle-headers"
                    controls="header-editor"
                    label="Headers and limits"
                    shown=show_headers
                    count=Signal::derive(header_count)
                />
                <button type="submit" class="primary" id="connect">"Connect"</button>
            </div>
            {move || problem.get().map(|p| view! { <p class="error-message" role="alert">{p}</p> })}
            <div class="recent-menu" id="recent-menu" hidden=move || !show_recent.get()>
                <p class="hint">
                    "Servers this browser connected to, newest first: the URL and the route only. Headers are kept only for a server where you ticked “Remember on this device”; removing a server forgets them too."
                </p>
                <ul class="recent-servers">
                    <For each=move || recent.get() key=|known| known.clone() let:known>
                        {
                            let server = known.server.clone();
                            let chosen = known.clone();
                            view! {
                                <li class="recent-server" data-server=known.server.clone()>
                                    <button
                                        type="button"
                                        class="recent-connect"
                                        title="Connect to this server"
                                        on:click=move |_| connect_recent(chosen.clone())
                                    >
                                        <code>{known.server.clone()}</code>
                                    </button>
                                    {known.via_relay.then(|| view! { <span class="chip relayed">"relay"</span> })}
                                    {known.headers_remembered.then(|| view! { <span class="chip" title="Headers remembered on this device">"headers"</span> })}
                                    <button
                                        type="button"
                                        class="recent-forget"
                                        aria-label=format!("Remove {} from the recent servers", known.server)
                                        on:click=move |_| forget(server.clone())
                                    >
                                        "×"
                                    </button>
                                </li>
                            }
                        }
                    </For>
                </ul>
            </div>
            <div class="recent-menu stdio-menu" id="stdio-menu" hidden=move || !show_stdio.get()>
                {move || show_stdio.get().then(|| view! { <StdioMenuOnDemand on_use=use_stdio /> })}
            </div>
            <p class="connection-status">
                "Talking to "
                <code id="endpoint-url">{move || session.connection().with(|c| c.server.clone())}</code>
                {move || {
                    session
                        .connection()
                        .with(|c| c.via_relay)
                        .then(|| view! { <span class="chip relayed">"through the relay"</span> })
                }}
                {move || {
                    session
                        .is_connecting()
                        .get()
                        .then(|| view! { <span class="chip connecting" role="status">"connecting…"</span> })
                }}
                <AuthStatus />
            </p>
            {move || {
                via_relay
                    .get()
                    .then(|| {
                        view! {
                            <p class="hint" id="relay-hint">
                                "The relay is " <code>"/relay?target="</code>
                                " on this page's own origin, served by "
                                <code>"holdbay serve"</code>
                                ". If this page is served some other way the relay may not exist."
                            </p>
                        }
                    })
            }}
            <div class="header-editor" id="header-editor" hidden=move || !show_headers.get()>
                <ul class="header-rows">
                    <For each=move || rows.get() key=|row| row.id let:row>
                        <li class="header-row">
                            <TextField
                                value=row.name
                                class="header-name"
                                label="Header name"
                                placeholder="Authorization"
                            />
                            <TextField
                                value=row.value
                                class="header-value"
                                label="Header value"
                                placeholder="Bearer …"
                            />
                            <Checkbox
                                class="header-secret"
                                title="A secret header's value is withheld from the wire log and its exports"
                                checked=row.secret
                                label="Secret"
                            />
                            <button
                                type="button"
                                class="remove-header"
                                aria-label="Remove this header"
                                on:click=move |_| rows.update(|rows| rows.retain(|r| r.id != row.id))
                            >
                                "×"
                            </button>
                            {move || {
                                row.name
                                    .with(|name| is_reserved_header(name.trim()))
                                    .then(|| {
                                        view! {
                                            <p class="header-reserved" role="status">
                                                "Not sent: the protocol sets this header on every request."
                                            </p>
                                        }
                                    })
                            }}
                        </li>
                    </For>
                </ul>
                <button
                    type="button"
                    class="add-header"
                    on:click=move |_| add_row(String::new(), String::new(), true)
                >
                    "Add header"
                </button>
                <Checkbox
                    class="remember"
                    id="remember-headers"
                    checked=remember
                    label="Remember on this device"
                />
                <p class="hint">
                    "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* belong to the protocol and cannot be replaced here. "
                    "Headers are kept in memory for this tab only and are sent with every request. Tick
                    “Remember on this device” to save them in this browser's storage for this server
                    (anyone using this browser profile can read them). A header ticked “Secret” (every
                    one, unless you untick it) shows as ••• in the wire log and its exports."
                </p>
                <fieldset class="deadlines">
                    <legend>"Deadlines"</legend>
                    <DeadlineInput label="Request" id="request-deadline" secs=request_secs />
                    <DeadlineInput label="Stream" id="stream-deadline" secs=stream_secs />
                    <p class="hint">
                        "How long the client waits for a request's whole answer, and how long a listen stream stays open before it is closed and opened again. When a deadline passes, the call ends with a message that says so."
                    </p>
                </fieldset>
                <EraSelect era=era />
                // In the engine-work chunk: fetched when the editor is first opened, then
                // kept mounted (a loading view dropped under it would panic).
                <Show when=move || opened_headers.get()>
                    <SignInSettingsFields />
                </Show>
            </div>
        </form>
    }
}

/// Which protocol revision to speak to this server, applied on Connect (and kept in the
/// page URL as `era=`).
#[component]
fn EraSelect(era: RwSignal<EraChoice>) -> impl IntoView {
    let label = |choice: EraChoice| match choice {
        EraChoice::Auto => "Detect: 2026-07-28, or 2025-11-25 if the server speaks only that",
        EraChoice::Only(Era::Modern) => "2026-07-28 only",
        EraChoice::Only(Era::Legacy) => "2025-11-25: a legacy session from the start",
    };
    let options = EraChoice::ALL
        .into_iter()
        .map(|choice| {
            view! {
                <option value=choice.as_str() selected=move || era.get() == choice>
                    {label(choice)}
                </option>
            }
        })
        .collect_view();
    view! {
        <fieldset class="era-choice">
            <legend>"Protocol revision"</legend>
            <select
                id="era-choice"
                aria-label="Protocol revision"
                on:change=move |ev| {
                    if let Some(choice) = EraChoice::parse(&event_target_value(&ev)) {
                        era.set(choice);
                    }
                }
            >
                {options}
            </select>
            <p class="hint">
                "Applied on Connect and kept for this server; the page address carries it as era=."
            </p>
        </fieldset>
    }
}

/// One deadline, in whole seconds (checked by [`Deadlines::parse_secs`] on Connect).
/// A button that shows or hides the panel `controls`, with the count of what the panel
/// holds when there is any.
#[component]
fn PanelToggle(
    class: &'static str,
    controls: &'static str,
    label: &'static str,
    shown: RwSignal<bool>,
    count: Signal<usize>,
    /// Disabled while the panel holds nothing.
    #[prop(optional)]
    disabled_when_empty: bool,
    /// Not shown while the panel holds nothing.
    #[prop(optional)]
    hidden_when_empty: bool,
) -> impl IntoView {
    let badge = move || {
        let n = count.get();
        (n > 0).then(|| view! { <span class="count">{n}</span> })
    };
    view! {
        <button
            type="button"
            class=class
            aria-controls=controls
            aria-expanded=move || shown.get().to_string()
            disabled=move || disabled_when_empty && count.get() == 0
            hidden=move || hidden_when_empty && count.get() == 0
            on:click=move |_| shown.update(|shown| *shown = !*shown)
        >
            {label}
            {badge}
        </button>
    }
}

#[component]
fn DeadlineInput(label: &'static str, id: &'static str, secs: RwSignal<String>) -> impl IntoView {
    view! {
        <label>
            {label}
            <input
                type="number"
                id=id
                min="1"
                max=Deadlines::MAX_SECS
                step="1"
                inputmode="numeric"
                prop:value=secs
                on:input=move |ev| secs.set(event_target_value(&ev))
            />
            "s"
        </label>
    }
}
