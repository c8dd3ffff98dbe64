//! The teaching scene: the conveyor between client and server, the request holding bay
//! (MRTR) beside the job magazine (tasks), an inspector and a narrated text alternative.
//! Everything drawn comes from the session's [`TrafficView`](crate::traffic::TrafficView).

mod auth_lane;
mod bay;
mod belt;
mod conveyor;
mod earlier;
mod inspect;
mod legacy_parts;
mod magazine;
mod narration;
mod parts;
mod pickable;

use std::time::Duration;

use holdbay_engine::auth::TokenSet;
use holdbay_scene::Part;
use leptos::prelude::*;

use super::UiState;
use crate::session::Session;
use crate::traffic::TrafficView;
use crate::wire::WireLog;
use auth_lane::AuthPart;

pub use parts::{describe, fingerprint};

/// How long a flight travels one way, in ms (kept in step with `style/scene.css`).
pub(crate) const TRAVEL_MS: f64 = 600.0;
/// How long a finished flight stays on the conveyor after its trip, in ms.
pub(crate) const LINGER_MS: f64 = 1_500.0;

/// Shared by the scene's parts: the model, and a clock that ticks while the scene is shown
/// (it drops finished flights and counts down the token's expiry).
#[derive(Clone, Copy)]
struct SceneContext {
    traffic: TrafficView,
    /// The log the authorization lane is drawn from (the traffic fold holds only MCP).
    wire: WireLog,
    tick: RwSignal<f64>,
    /// The inspected part (the page's, shared with the timeline and the lessons).
    selected: RwSignal<Option<Part>>,
    /// The inspected part of the authorization lane; never set together with `selected`.
    auth_selected: RwSignal<Option<AuthPart>>,
    /// The client's current access token, if signed in.
    token: Signal<Option<TokenSet>>,
}

impl SceneContext {
    fn current() -> Self {
        use_context::<Self>().unwrap_or_else(|| Self {
            traffic: Session::current().traffic(),
            wire: Session::current().wire(),
            tick: RwSignal::new(crate::clock::now_ms() as f64),
            selected: UiState::current().inspected(),
            auth_selected: RwSignal::new(None),
            token: Signal::stored(None),
        })
    }

    /// The scene's "now": the wall clock live; the replayed moment in a replay.
    fn now(&self) -> f64 {
        if !self.traffic.is_replay() {
            return crate::clock::now_ms() as f64;
        }
        self.traffic.position().get_untracked().unwrap_or_else(|| {
            self.traffic
                .with(|t| t.events().last().map(|e| e.at).unwrap_or(0.0))
        })
    }

    /// Make `part` the inspected one.
    fn select(&self, part: Part) {
        if self.selected.with_untracked(|s| s.as_ref() != Some(&part)) {
            self.selected.set(Some(part));
        }
    }

    /// Whether `part` is the inspected one (tracked).
    fn is_selected(&self, part: &Part) -> bool {
        self.selected.with(|s| s.as_ref() == Some(part))
    }

    /// Make the authorization lane's `part` the inspected one.
    fn select_auth(&self, part: AuthPart) {
        if self.selected.with_untracked(Option::is_some) {
            self.selected.set(None);
        }
        if self.auth_selected.get_untracked() != Some(part) {
            self.auth_selected.set(Some(part));
        }
    }

    /// Whether the lane's `part` is the inspected one (tracked).
    fn is_auth_selected(&self, part: AuthPart) -> bool {
        self.auth_selected.get() == Some(part)
    }
}

/// Enter or Space on a focused part selects it (focus already does; this re-selects after
/// Escape cleared it).
fn is_activation(event: &leptos::ev::KeyboardEvent) -> bool {
    matches!(event.key().as_str(), "Enter" | " ")
}

/// The Scene. `token`: the access token to draw as the authorization lane's token part;
/// by default the one the session holds for the connected server.
#[component]
pub fn Scene(#[prop(optional, into)] token: Option<Signal<Option<TokenSet>>>) -> impl IntoView {
    let session = Session::current();
    let traffic = session.traffic();
    let selected = UiState::current().inspected();
    let auth_selected = RwSignal::new(None);
    let tick = RwSignal::new(crate::clock::now_ms() as f64);
    if let Ok(handle) = set_interval_with_handle(
        move || tick.set(crate::clock::now_ms() as f64),
        Duration::from_millis(500),
    ) {
        on_cleanup(move || handle.clear());
    }
    let context = SceneContext {
        traffic,
        wire: session.wire(),
        tick,
        selected,
        auth_selected,
        token: token.unwrap_or_else(|| held_token(session)),
    };
    provide_context(context);
    // A part chosen elsewhere (the timeline, a lesson, the scene's own) takes the inspector
    // from the authorization lane's.
    Effect::new(move |_| {
        if selected.with(Option::is_some) {
            auth_selected.set(None);
        }
    });

    // A new start (a lesson, or Reset scene) shows the scene from its top: whatever the
    // column was scrolled to before (the timeline, an earlier inspector) is of another scene.
    let section = NodeRef::<leptos::html::Section>::new();
    let started = traffic.scene_started();
    // The effect's first run only subscribes: the scene drawn first is not a new start.
    Effect::new(move |subscribed: Option<()>| {
        started.track();
        if subscribed.is_some()
            && let Some(section) = section.get_untracked()
        {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Start);
            section.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });

    let replay = move || {
        traffic.track();
        traffic.is_replay()
    };
    let banner = move || {
        replay().then(|| {
            let moment = traffic
                .position()
                .get()
                .map(clock_time)
                .unwrap_or_else(|| "the whole imported log".into());
            view! { <p class="scene-replay" role="status">"Replay — " {moment}</p> }
        })
    };
    let on_keydown = move |event: leptos::ev::KeyboardEvent| {
        if event.key() == "Escape" {
            selected.set(None);
            auth_selected.set(None);
        }
    };

    view! {
        <section
            class="panel scene"
            id="scene"
            node_ref=section
            tabindex="-1"
            aria-label="Scene: the holding bay and the job magazine"
            data-replay=move || replay().to_string()
            on:keydown=on_keydown
        >
            <header class="scene-head">
                <h2>"Scene"</h2>
                {banner}
                <p class="scene-legend">
                    "Trays are records, workpieces are data, latches are checks; sizes carry no quantity."
                </p>
                <button
                    type="button"
                    class="scene-reset"
                    title="Start the scene from now: what is drawn moves to the Earlier strip, still inspectable"
                    on:click=move |_| {
                        selected.set(None);
                        auth_selected.set(None);
                        traffic.start_scene();
                    }
                >
                    "Reset scene"
                </button>
            </header>
            <conveyor::Conveyor />
            <auth_lane::AuthLane />
            <div class="scene-floor">
                <bay::Bay />
                <magazine::Magazine />
            </div>
            <earlier::EarlierStrip />
            <div class="scene-foot">
                <inspect::Inspector />
                <narration::Narration />
            </div>
        </section>
    }
}

/// The tokens the session holds for the server it is connected to (tracked).
fn held_token(session: Session) -> Signal<Option<TokenSet>> {
    let auth = session.auth();
    Signal::derive(move || {
        let server = session.connection().with(|c| c.server.clone());
        auth.tokens_for(&server)
    })
}

/// `14:03:22` for a wall-clock time in ms.
fn clock_time(at: f64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at));
    String::from(date.to_locale_time_string("en-GB"))
}
