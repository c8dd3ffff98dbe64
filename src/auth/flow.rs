//! One sign-in, driven step by step as the engine's [`AuthFlow`] decides: in the engine-work
//! chunk (`crate::split`), fetched when a server first challenges if no call fetched it
//! before (the first screen never needs it). Its own chunk would be smaller to fetch, but
//! each chunk more pads the data segment the splitter lays out; past its length the
//! splitter leaves every chunk's data in the first-screen module (+130 KB there).
//!
//! The trip to the authorization server goes in the window the user's click opened
//! ([`open_sign_in_window`]): the page stays as it was, and the waiting requests go again
//! once signed in. When the browser blocked that window, the whole page goes instead; the
//! flow waits in this tab's sessionStorage ([`super::callback`]) and the page comes back to
//! the same address.

use std::future::Future;
use std::pin::Pin;

use futures_channel::oneshot;
use holdbay_engine::auth::{AuthFlow, FlowStart, Purpose, Step, redacted_url};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

use super::callback::{CHANNEL, PENDING_KEY};
use super::{Auth, Progress, SignInAsk, dpop, fetch};
use crate::clock::now_ms;
use crate::connection::Connection;
use crate::link::Link;
use crate::split::{ChunkMissing, chunk, engine_work};
use crate::wire::{WireEntry, WireLog};

/// A sign-in under way.
pub type Running = Pin<Box<dyn Future<Output = ()>>>;

/// A flow that left the page for the authorization server (popups blocked): what it needs
/// when the page comes back.
#[derive(Debug, Serialize, Deserialize)]
pub struct Pending {
    pub flow: AuthFlow,
    pub server: String,
    pub needed: holdbay_engine::SignInNeeded,
    pub step_ups: u8,
    /// The page address to come back to.
    pub return_to: String,
}

/// The window the authorization server's page opens in: opened now, in the click (a
/// browser allows a window only there), blank until the flow knows where to send it.
pub fn open_sign_in_window() -> Option<web_sys::Window> {
    web_sys::window()?
        .open_with_url_and_target_and_features("", "holdbay-sign-in", "popup,width=560,height=720")
        .ok()
        .flatten()
}

engine_work! {
    /// The sign-in the user asked for, in `window` (`None`: blocked, the page goes).
    pub fn sign_in_with(
        auth: Auth,
        link: Link,
        ask: SignInAsk,
        window: Option<web_sys::Window>,
    ) -> Result<Running, ChunkMissing> {
        Ok(Box::pin(start_flow(auth, link, ask, Trip::Window(window))))
    }
}

engine_work! {
    /// Renew the held tokens without asking (their refresh token); the user is asked only
    /// if the authorization server wants a new sign-in.
    pub fn renew_with(auth: Auth, link: Link, ask: SignInAsk) -> Result<Running, ChunkMissing> {
        Ok(Box::pin(start_flow(auth, link, ask, Trip::NotAsked)))
    }
}

engine_work! {
    /// Go on with the flow that left the page, now that the authorization server sent the
    /// page back to `callback_url`.
    /// `pending` is the [`Pending`] as this tab kept it (JSON): read here, in the chunk.
    pub fn resume_with(
        auth: Auth,
        link: Link,
        pending: String,
        callback_url: String,
    ) -> Result<Running, ChunkMissing> {
        Ok(Box::pin(resume_flow(auth, link, pending, callback_url)))
    }
}

/// Start the sign-in the user asked for (see [`sign_in_with`]).
pub fn sign_in(auth: Auth, link: Link, ask: SignInAsk, window: Option<web_sys::Window>) {
    auth.set_progress(Progress::Running("Fetching the sign-in code…".to_owned()));
    leptos::task::spawn_local(async move {
        match chunk!(sign_in_with(auth, link, ask.clone(), window.clone())) {
            Ok(running) => running.await,
            Err(missing) => {
                close(window.as_ref());
                auth.failed(ask, missing.to_string());
            }
        }
    });
}

/// Renew without asking (see [`renew_with`]).
pub fn renew(auth: Auth, link: Link, ask: SignInAsk) {
    auth.set_progress(Progress::Running("Renewing the access token…".to_owned()));
    leptos::task::spawn_local(async move {
        match chunk!(renew_with(auth, link, ask.clone())) {
            Ok(running) => running.await,
            Err(missing) => auth.failed(ask, missing.to_string()),
        }
    });
}

/// Go on with a flow that left the page (see [`resume_with`]); `pending` as kept (JSON).
pub fn resume(auth: Auth, link: Link, pending: String, callback_url: String) {
    auth.set_progress(Progress::Running(
        "Back from the authorization server: exchanging the code…".to_owned(),
    ));
    leptos::task::spawn_local(async move {
        match chunk!(resume_with(auth, link, pending, callback_url)) {
            Ok(running) => running.await,
            Err(missing) => auth.set_progress(Progress::Failed(missing.to_string())),
        }
    });
}

/// How the flow reaches the authorization server's page, if it needs to.
enum Trip {
    /// In this window (the user's click opened it); `None`: blocked, the page goes.
    Window(Option<web_sys::Window>),
    /// The user did not ask: stop there and show the sign-in card.
    NotAsked,
}

async fn start_flow(auth: Auth, link: Link, ask: SignInAsk, trip: Trip) {
    let random = match super::random_bytes::<48>() {
        Ok(random) => random,
        Err(problem) => {
            if let Trip::Window(window) = &trip {
                close(window.as_ref());
            }
            return auth.failed(ask, problem);
        }
    };
    let flow = AuthFlow::start(
        FlowStart {
            server_url: ask.server.clone(),
            challenge: Some(ask.needed.challenge.clone()),
            config: auth
                .settings()
                .get_untracked()
                .config(auth.registered_now()),
            tokens: auth.tokens_now(&ask.server),
            step_ups: ask.step_ups,
        },
        &random,
    );
    run(auth, link, ask, flow, trip).await;
}

async fn resume_flow(auth: Auth, link: Link, pending: String, callback_url: String) {
    let Ok(pending) = serde_json::from_str::<Pending>(&pending) else {
        auth.set_progress(Progress::Failed(
            "the sign-in this tab kept while the page was away does not read back (the app \
             was updated meanwhile?): sign in again"
                .to_owned(),
        ));
        return;
    };
    let ask = SignInAsk {
        server: pending.server.clone(),
        needed: pending.needed,
        step_ups: pending.step_ups,
    };
    let mut flow = pending.flow;
    record_browser_leg(
        link.wire(),
        &link.connection_now(),
        Purpose::Callback,
        &callback_url,
    );
    flow.on_callback(&callback_url);
    run(auth, link, ask, flow, Trip::Window(None)).await;
}

async fn run(auth: Auth, link: Link, ask: SignInAsk, mut flow: AuthFlow, trip: Trip) {
    let connection = link.connection_now();
    let window = match &trip {
        Trip::Window(window) => window.clone(),
        Trip::NotAsked => None,
    };
    let outcome = loop {
        match flow.step() {
            Step::Fetch(request) => {
                auth.set_progress(Progress::Running(doing(request.purpose, &request.url)));
                let key = match &request.dpop {
                    Some(_) => match dpop::key(auth).await {
                        Ok(key) => Some(key),
                        Err(reason) => {
                            flow.fetch_failed(&reason);
                            continue;
                        }
                    },
                    None => None,
                };
                match fetch::perform(link.wire(), &connection, &request, key.as_ref()).await {
                    Ok(response) => flow.on_response(&response, now_ms()),
                    Err(reason) => flow.fetch_failed(&reason),
                }
            }
            Step::Authorize { url } => {
                let window = match &trip {
                    Trip::NotAsked => {
                        // The refresh did not do: ask the user, saying why.
                        link.note_findings(flow.findings().iter().cloned());
                        let reason = flow
                            .refresh_refusal()
                            .map(ToString::to_string)
                            .unwrap_or_default();
                        auth.failed(ask, reason);
                        return;
                    }
                    Trip::Window(window) => window,
                };
                record_browser_leg(link.wire(), &connection, Purpose::Authorization, &url);
                let Some(window) = window else {
                    leave_page(auth, ask, flow, &url);
                    return;
                };
                auth.set_progress(Progress::Running(format!(
                    "Waiting for you in the sign-in window ({})…",
                    host_of(&url)
                )));
                let Some(callback) = wait_for_callback(auth, window, &url).await else {
                    close(Some(window));
                    break Err(
                        "the sign-in was cancelled before the authorization server sent \
                               the browser back"
                            .to_owned(),
                    );
                };
                close(Some(window));
                record_browser_leg(link.wire(), &connection, Purpose::Callback, &callback);
                flow.on_callback(&callback);
                auth.set_progress(Progress::Running("Exchanging the code…".to_owned()));
            }
            Step::Done(tokens) => break Ok(tokens),
            Step::Failed(error) => break Err(error.to_string()),
        }
    };
    close(window.as_ref());
    link.note_findings(flow.findings().iter().cloned());
    match outcome {
        Ok(tokens) => auth.signed_in(&ask.server, tokens, flow.new_registration().cloned()),
        Err(reason) => auth.failed(ask, reason),
    }
}

/// Send `window` to the authorization server and wait for the callback page to hand the
/// address it was sent back to (`None`: cancelled).
async fn wait_for_callback(auth: Auth, window: &web_sys::Window, url: &str) -> Option<String> {
    let Ok(channel) = web_sys::BroadcastChannel::new(CHANNEL) else {
        return None;
    };
    let (tell, told) = oneshot::channel::<Option<String>>();
    auth.await_callback(tell);
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            if let Some(address) = event.data().as_string() {
                auth.callback_arrived(Some(address));
            }
        });
    channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    if window.location().set_href(url).is_err() {
        auth.callback_arrived(None);
    }
    let callback = told.await.ok().flatten();
    channel.set_onmessage(None);
    channel.close();
    drop(on_message);
    callback
}

/// Popups blocked: keep the flow for this tab and let the whole page go.
fn leave_page(auth: Auth, ask: SignInAsk, flow: AuthFlow, url: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let pending = Pending {
        flow,
        server: ask.server.clone(),
        needed: ask.needed.clone(),
        step_ups: ask.step_ups,
        return_to: window.location().href().unwrap_or_default(),
    };
    if let Err(problem) = crate::storage::save_for_tab(PENDING_KEY, &pending) {
        return auth.failed(
            ask,
            format!("the browser blocked the sign-in window, and {problem}"),
        );
    }
    auth.set_progress(Progress::Running(format!(
        "The browser blocked the sign-in window: going to {} in this page…",
        host_of(url)
    )));
    if window.location().assign(url).is_err() {
        crate::storage::remove_for_tab(PENDING_KEY);
        auth.failed(ask, format!("the browser would not open {}", host_of(url)));
    }
}

/// The browser's legs of the flow in the wire log: no fetch, but part of the flow.
fn record_browser_leg(log: WireLog, connection: &Connection, purpose: Purpose, url: &str) {
    let now = now_ms() as f64;
    let shown = redacted_url(url);
    log.begin(WireEntry {
        method: purpose.label().to_owned(),
        auth: Some(purpose),
        name: Some(format!("GET {shown}")),
        server: connection.server.clone(),
        url: shown,
        started_at: now,
        finished_after: Some(0.0),
        ..WireEntry::default()
    });
}

/// What the flow is doing, for the card.
fn doing(purpose: Purpose, url: &str) -> String {
    let host = host_of(url);
    match purpose {
        Purpose::ProtectedResourceMetadata => {
            format!("Reading the server's resource metadata ({host})…")
        }
        Purpose::AuthorizationServerMetadata => {
            format!("Reading the authorization server's metadata ({host})…")
        }
        Purpose::Registration => format!("Registering Holdbay as a client at {host}…"),
        Purpose::Token => format!("Exchanging the code for a token at {host}…"),
        Purpose::Refresh => format!("Renewing the access token at {host}…"),
        Purpose::Authorization | Purpose::Callback => format!("Signing in at {host}…"),
    }
}

fn host_of(url: &str) -> String {
    web_sys::Url::new(url)
        .map(|url| url.host())
        .unwrap_or_else(|_| url.to_owned())
}

fn close(window: Option<&web_sys::Window>) {
    if let Some(window) = window {
        let _ = window.close();
    }
}
