//! Sign-in, as the page shows it: the card a challenging server brings up (what the server
//! asked, what Holdbay will do, Sign in / Not now, the flow's progress or why it failed),
//! the signed-in line of the connection bar with Sign out, and the client settings under
//! "Headers and limits". The flow itself is `crate::auth`'s.
//!
//! The card and the settings come with the flow, in the engine-work chunk: fetched when a server
//! first asks for a sign-in (or "Headers and limits" is opened), never for the first screen.

use holdbay_engine::auth::{RegistrationKind, TokenSet, TokenType};
use leptos::prelude::*;

use super::ErrorNotice;
use super::chunks::when_loaded;
use crate::auth::flow::open_sign_in_window;
use crate::auth::{Auth, Progress, SignInAsk};
use crate::session::Session;
use crate::split::{ChunkMissing, chunk, engine_work};

engine_work! {
    fn sign_in_card() -> Result<AnyView, ChunkMissing> {
        Ok(view! { <Card /> }.into_any())
    }
}

engine_work! {
    fn sign_in_settings() -> Result<AnyView, ChunkMissing> {
        Ok(view! { <Settings /> }.into_any())
    }
}

/// Shown while a server asks for a sign-in. Its code comes with the first ask; from then on
/// the card stays mounted and hides itself, so a view that is still loading is never
/// dropped under it (a chunk's future that resolves after its owner is gone panics).
#[component]
pub fn SignInCard() -> impl IntoView {
    let ask = Session::current().auth().ask();
    let asked_once = RwSignal::new(false);
    Effect::new(move || {
        if ask.with(Option::is_some) {
            asked_once.set(true);
        }
    });
    view! {
        <Show when=move || asked_once.get()>
            {when_loaded(async {
                chunk!(sign_in_card()).unwrap_or_else(|missing| {
                    view! { <ErrorNotice title="Sign-in" message=missing.to_string() /> }
                        .into_any()
                })
            })}
        </Show>
    }
}

/// The client settings under "Headers and limits" (mounted once the editor was opened, and
/// kept: see [`SignInCard`]).
#[component]
pub fn SignInSettingsFields() -> impl IntoView {
    when_loaded(async {
        chunk!(sign_in_settings()).unwrap_or_else(|missing| {
            view! { <ErrorNotice title="Sign-in settings" message=missing.to_string() /> }
                .into_any()
        })
    })
}

#[component]
fn Card() -> impl IntoView {
    let session = Session::current();
    let auth = session.auth();
    let ask = auth.ask();
    move || {
        ask.get().map(|ask| {
            let step_up = ask.needed.step_up;
            let sign_in = move |_| {
                // The window must open in the click itself: browsers block it later.
                let window = open_sign_in_window();
                session.sign_in(window);
            };
            let running = move || matches!(auth.progress().get(), Progress::Running(_));
            view! {
                <section
                    id="sign-in"
                    class="sign-in-card"
                    aria-labelledby="sign-in-title"
                    data-step-up=step_up.to_string()
                >
                    <h2 id="sign-in-title">
                        {if step_up { "More access needed" } else { "Sign-in needed" }}
                    </h2>
                    <p class="sign-in-why">{why(&ask)}</p>
                    <p class="sign-in-plan hint">{plan(&ask, &auth.settings().get_untracked())}</p>
                    {move || match auth.progress().get() {
                        Progress::Idle => None,
                        Progress::Running(doing) => Some(
                            view! { <p class="sign-in-progress" role="status">{doing}</p> }
                                .into_any(),
                        ),
                        Progress::Failed(reason) => Some(
                            view! {
                                <p class="sign-in-error" role="alert">
                                    <strong>"The sign-in failed: "</strong>
                                    {reason}
                                </p>
                            }
                            .into_any(),
                        ),
                    }}
                    <div class="sign-in-actions">
                        <button
                            type="button"
                            class="sign-in primary"
                            disabled=running
                            on:click=sign_in
                        >
                            {if step_up { "Sign in again" } else { "Sign in" }}
                        </button>
                        <Show when=running>
                            {auth_button(auth, "sign-in-cancel", "Cancel", Auth::cancel)}
                        </Show>
                        {auth_button(auth, "sign-in-dismiss", "Not now", Auth::dismiss)}
                    </div>
                </section>
            }
        })
    }
}

/// What the server said, in words.
fn why(ask: &SignInAsk) -> String {
    let challenge = &ask.needed.challenge;
    let mut text = if ask.needed.step_up {
        format!(
            "{} answered {}: the token is valid but lacks the scope this request needs",
            ask.server, ask.needed.status
        )
    } else {
        format!(
            "{} answered {}: it wants an access token",
            ask.server, ask.needed.status
        )
    };
    if let Some(scope) = &challenge.scope {
        text.push_str(&format!(" (scope asked: {scope})"));
    }
    if let Some(description) = &challenge.error_description {
        text.push_str(&format!(". It says: “{description}”"));
    }
    text.push('.');
    text
}

/// What Holdbay will do, before it does it.
fn plan(ask: &SignInAsk, settings: &crate::auth::SignInSettings) -> String {
    let metadata = match &ask.needed.challenge.resource_metadata {
        Some(url) => format!("read the server's resource metadata at {url}"),
        None => "look for the server's resource metadata at its well-known addresses".to_owned(),
    };
    let client = if !settings.client_id.trim().is_empty() {
        format!("as the client id you typed ({})", settings.client_id.trim())
    } else if let Some(url) = settings.client_metadata_url_or_default() {
        format!(
            "by its client metadata document ({url}) where the authorization server accepts \
             one, else by registering itself"
        )
    } else {
        "by registering itself with the authorization server (dynamic registration)".to_owned()
    };
    let kept = if settings.remember {
        "Tokens are remembered in this browser's storage (untick “Remember sign-in” under \
         Headers and limits to keep them in this page only), except a DPoP-bound one: its \
         key cannot leave this page."
    } else {
        "Tokens stay in this page's memory: a reload asks again unless you tick “Remember \
         sign-in” under Headers and limits."
    };
    format!(
        "Holdbay will {metadata}, then its authorization server's metadata, identify itself \
         {client}, and open the authorization server's page in a window, where you sign in \
         and consent; then it sends the request again. {kept}"
    )
}

/// The connection bar's signed-in line: where, which scopes, how the client is known.
#[component]
pub fn AuthStatus() -> impl IntoView {
    let session = Session::current();
    let auth = session.auth();
    move || {
        let server = session.connection().with(|c| c.server.clone());
        auth.tokens_for(&server).map(|tokens| {
            let sign_out = move |_| auth.sign_out(&server);
            view! {
                <span class="auth-status chip" data-state="signed-in">
                    {signed_in_text(&tokens)}
                </span>
                <button type="button" class="sign-out" on:click=sign_out>
                    "Sign out"
                </button>
            }
        })
    }
}

fn signed_in_text(tokens: &TokenSet) -> String {
    let registration = match tokens.client.kind {
        RegistrationKind::PreRegistered => "pre-registered client",
        RegistrationKind::MetadataDocument => "client metadata document",
        RegistrationKind::Dynamic => "registered dynamically",
    };
    let scope = tokens.scope.as_deref().unwrap_or("no scope named");
    // A DPoP-bound token is proved on every request by a key only this page holds.
    let binding = match tokens.token_type {
        TokenType::Bearer => "",
        TokenType::Dpop => " · DPoP-bound to this page's key",
    };
    format!(
        "Signed in at {} · {scope} · {registration}{binding}",
        tokens.issuer
    )
}

#[component]
fn Settings() -> impl IntoView {
    let auth = Session::current().auth();
    let settings = auth.settings();
    let field = move |id: &'static str,
                      label: &'static str,
                      kind: &'static str,
                      read: fn(&crate::auth::SignInSettings) -> String,
                      write: fn(&mut crate::auth::SignInSettings, String)| {
        view! {
            <label for=id>{label}</label>
            <input
                id=id
                type=kind
                spellcheck="false"
                autocomplete="off"
                prop:value=move || settings.with(read)
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    settings.update(|s| write(s, value));
                }
            />
        }
    };
    view! {
        <fieldset class="sign-in-settings">
            <legend>"Sign-in"</legend>
            <div class="sign-in-grid">
                {field("auth-client-id", "Client id", "text", |s| s.client_id.clone(), |s, v| s.client_id = v)}
                {field("auth-client-secret", "Client secret", "password", |s| s.client_secret.clone(), |s, v| s.client_secret = v)}
                {field("auth-client-metadata-url", "Client metadata URL", "url", |s| s.client_metadata_url.clone(), |s, v| s.client_metadata_url = v)}
                {field("auth-redirect-uri", "Redirect URI", "url", |s| s.redirect_uri.clone(), |s, v| s.redirect_uri = v)}
            </div>
            <label class="remember">
                <input
                    type="checkbox"
                    id="auth-remember"
                    prop:checked=move || settings.with(|s| s.remember)
                    on:change=move |ev| {
                        let remember = event_target_checked(&ev);
                        settings.update(|s| s.remember = remember);
                        auth.keep();
                    }
                />
                "Remember sign-in on this browser"
            </label>
            <p class="hint">
                "A client id (and secret) registered by hand at the authorization server is used first; else the client metadata document, where the server accepts one; else Holdbay registers itself. Empty redirect URI: this page's own /oauth/callback. Tokens stay in this page's memory; ticked, they and the client credentials are kept in this browser's storage (anyone using this browser profile can read them) until you sign out or untick it. A DPoP-bound token (where the authorization server offers DPoP) is never kept: the key it is bound to lives only in this page and cannot be exported."
            </p>
        </fieldset>
    }
}

/// A card button that only tells the sign-in service `act`.
fn auth_button(
    auth: Auth,
    class: &'static str,
    label: &'static str,
    act: fn(&Auth),
) -> impl IntoView {
    view! {
        <button type="button" class=class on:click=move |_| act(&auth)>
            {label}
        </button>
    }
}
