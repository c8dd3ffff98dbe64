//! The authorization lane: a sign-in's exchanges drawn from the wire log, each a part at the
//! station that answered it (resource server, authorization server, browser), starting
//! with the challenge that asked for it; and the client's current access token as a part of
//! its own. Shown only when the log holds authorization exchanges.

mod exchange_json;
mod explain;
mod steps;
mod token;

use holdbay_engine::auth::AuthParty;
use leptos::prelude::*;
use serde_json::Value;

use super::{SceneContext, clock_time};
use explain::{TOKEN_EXPLANATION, station_name, station_title, step_explanation, step_role};
pub use steps::{AuthStep, StepOutcome, auth_steps};
pub use token::TokenView;

/// A part of the authorization lane the inspector can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AuthPart {
    /// The wire-log exchange with this id (a flow exchange, or the challenge).
    Exchange(u64),
    /// The client's current access token.
    Token,
}

/// The stations, in the order a first sign-in visits them.
const STATIONS: [AuthParty; 3] = [
    AuthParty::ResourceServer,
    AuthParty::AuthorizationServer,
    AuthParty::Browser,
];

/// What the inspector shows of an authorization part.
pub(super) struct AuthInspection {
    pub role: String,
    pub explanation: &'static str,
    pub facts: Option<String>,
    /// `None`: the part is not in the scene at this moment.
    pub json: Option<Value>,
}

impl SceneContext {
    /// The lane's parts at the scene's moment; `None` when the log has no authorization
    /// exchange (tracked).
    fn auth_steps(&self) -> Option<Vec<AuthStep>> {
        let until = self.traffic.position().get().unwrap_or(f64::INFINITY);
        self.wire.with_shown(|entries| auth_steps(entries, until))
    }

    /// The token as the lane shows it: the live token, not in a replay (tracked).
    fn token_view(&self) -> Option<TokenView> {
        let replay = self.wire.is_imported().get() || self.traffic.position().get().is_some();
        if replay {
            return None;
        }
        self.token.with(|tokens| tokens.as_ref().map(TokenView::of))
    }
}

/// The inspector's view of `part` (tracked).
pub(super) fn inspect(scene: &SceneContext, part: AuthPart) -> AuthInspection {
    match part {
        AuthPart::Exchange(id) => {
            let step = scene
                .auth_steps()
                .into_iter()
                .flatten()
                .find(|step| step.entry == id);
            let entry = scene.wire.shown_entry(id);
            let Some(step) = step else {
                return AuthInspection {
                    role: "Authorization exchange".to_owned(),
                    explanation: "",
                    facts: None,
                    json: None,
                };
            };
            let facts = match &step.outcome {
                StepOutcome::Status(status) => format!("HTTP {status}"),
                StepOutcome::Broken(error) => format!("no answer: {error}"),
                StepOutcome::Recorded => "recorded by the page (the browser made the trip)".into(),
                StepOutcome::Pending => "on its way".into(),
            };
            let facts = match &entry {
                Some(entry) => format!("{facts} · {}", entry.url),
                None => facts,
            };
            AuthInspection {
                role: format!("{}. {}", step.number, step_role(&step)),
                explanation: step_explanation(step.kind),
                facts: Some(facts),
                json: entry.as_ref().map(exchange_json::exchange_json),
            }
        }
        AuthPart::Token => {
            let token = scene.token_view();
            let now = scene.tick.get();
            AuthInspection {
                role: match &token {
                    Some(token) => format!("Access token from {}", token.issuer),
                    None => "Access token".to_owned(),
                },
                explanation: TOKEN_EXPLANATION,
                facts: token.as_ref().map(|token| token_facts(token, now)),
                json: token.as_ref().map(TokenView::json),
            }
        }
    }
}

/// `scope: mcp:tools · expires 14:03:22 (in 58 min) · a JWT`.
fn token_facts(token: &TokenView, now: f64) -> String {
    let scope = token.scope.as_deref().unwrap_or("none named");
    let form = if token.jwt.is_some() {
        "a JWT (header and claims below)"
    } else {
        "opaque (not a JWT)"
    };
    format!(
        "scope: {scope} · {} · {form}",
        token.expiry_text(now, clock_time)
    )
}

#[component]
pub(super) fn AuthLane() -> impl IntoView {
    let scene = SceneContext::current();
    let steps = Memo::new(move |_| scene.auth_steps());
    view! {
        <Show when=move || steps.with(Option::is_some)>
            <section
                class="auth-lane"
                id="auth-lane"
                aria-label="Authorization: each exchange of the sign-in at the station that answered it"
            >
                <h3 class="scene-part-title">"Authorization"</h3>
                <div class="auth-stations">
                    <TokenStation />
                    {STATIONS
                        .into_iter()
                        .map(|party| view! { <Station party=party steps=steps /> })
                        .collect_view()}
                </div>
            </section>
        </Show>
    }
}

#[component]
fn Station(party: AuthParty, steps: Memo<Option<Vec<AuthStep>>>) -> impl IntoView {
    let here = move || {
        steps.with(|steps| {
            steps
                .iter()
                .flatten()
                .filter(|step| step.station == party)
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="auth-station" data-party=station_name(party)>
            <h4 class="auth-station-name">{station_title(party)}</h4>
            <ol class="auth-parts">
                // A part arrives again when its answer does.
                <For each=here key=|step| (step.entry, step.outcome.clone()) let(step)>
                    <li>
                        <StepPart step=step />
                    </li>
                </For>
            </ol>
        </div>
    }
}

/// A part of the lane that can be picked for the inspector (a click or focus picks it).
#[component]
fn LanePart(part: AuthPart, class: &'static str, children: Children) -> impl IntoView {
    let scene = SceneContext::current();
    let selected = move || scene.is_auth_selected(part);
    view! {
        <button
            type="button"
            class=class
            class:selected=selected
            aria-pressed=move || selected().to_string()
            on:click=move |_| scene.select_auth(part)
            on:focus=move |_| scene.select_auth(part)
        >
            {children()}
        </button>
    }
}

#[component]
fn StepPart(step: AuthStep) -> impl IntoView {
    let status = step.outcome.text();
    let status_shown = status.clone();
    let label = step.label();
    view! {
        <LanePart
            part=AuthPart::Exchange(step.entry)
            class="auth-part"
            attr:data-entry=step.entry
            attr:data-purpose=step.purpose_name()
            attr:data-status=status
            attr:data-tone=step.outcome.tone(step.kind)
        >
            <span class="auth-step-number">{step.number}</span>
            <span class="auth-step-label">{label}</span>
            <span class="auth-step-status">{status_shown}</span>
        </LanePart>
    }
}

/// The client's end of the lane: the access token it holds now, if any.
#[component]
fn TokenStation() -> impl IntoView {
    let scene = SceneContext::current();
    let token = Memo::new(move |_| scene.token_view());
    let part = move || {
        let Some(token) = token.get() else {
            return view! { <p class="quiet auth-no-token">"no access token"</p> }.into_any();
        };
        let is_jwt = token.jwt.is_some();
        let expires = token.clone();
        view! {
            <LanePart
                part=AuthPart::Token
                class="auth-part auth-token"
                attr:data-part="token"
                attr:data-jwt=is_jwt.to_string()
            >
                <span class="auth-step-label">
                    {if is_jwt { "access token (JWT)" } else { "access token" }}
                </span>
                <span class="auth-token-expiry">
                    {move || expires.expiry_short(scene.tick.get())}
                </span>
            </LanePart>
        }
        .into_any()
    };
    view! {
        <div class="auth-station auth-client" data-party="client">
            <h4 class="auth-station-name">"Client"</h4>
            {part}
        </div>
    }
}
