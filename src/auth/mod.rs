//! Sign-in for servers that ask for it (MCP authorization, 2026-07-28). Every rule is the
//! engine's (`holdbay_engine::auth`): this module keeps the page's part.
//! - [`Auth`]: the tokens and client credentials the page holds (in memory; in
//!   localStorage only when the user ticks "Remember", [`remember`]), the bearer each MCP
//!   request carries, the sign-in the page asks for, and the requests waiting for it
//!   ([`Auth::wait_for_sign_in`]): a refused request is sent again once signed in, so a
//!   call keeps its place and its arguments.
//! - [`flow`] (in the engine-work chunk, fetched when a server first challenges): drives the
//!   engine's `AuthFlow`: its fetches (directly, or through the relay), the trip to the
//!   authorization server in a popup (or the whole page when popups are blocked).
//! - [`callback`]: the page at the redirect URI, `/oauth/callback`.

pub mod callback;
pub mod dpop;
mod fetch;
pub mod flow;
pub mod refusal;
pub mod remember;
pub mod settings;
mod sign_ins;
mod split_off;

use futures_channel::oneshot;
use holdbay_engine::SignInNeeded;
use holdbay_engine::auth::{ClientCredentials, MAX_STEP_UPS, TokenSet, TokenType};
use leptos::prelude::*;

use crate::link::Link;
use crate::split::chunk;
use dpop::resource_headers_with;
use refusal::answer_with;
use remember::load_kept;
pub use settings::SignInSettings;
use split_off::sign_out_with;

/// What the page asks of the user: a sign-in for `server`, as the refusal described.
#[derive(Debug, Clone, PartialEq)]
pub struct SignInAsk {
    pub server: String,
    pub needed: SignInNeeded,
    /// How many step-ups in a row this one is (0 for a first sign-in).
    pub step_ups: u8,
}

/// What the sign-in under way is doing.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Progress {
    #[default]
    Idle,
    /// What it is doing now, in words.
    Running(String),
    /// Why it ended without tokens, naming the party at fault.
    Failed(String),
}

/// `Copy`: a bundle of handles, kept by the session; the link consults it (as its
/// [`crate::link::SignIns`]).
#[derive(Clone, Copy)]
pub struct Auth {
    /// Tokens per MCP server URL.
    tokens: RwSignal<Vec<(String, TokenSet)>>,
    /// Client identities from dynamic registrations, each bound to its issuer.
    registered: RwSignal<Vec<ClientCredentials>>,
    ask: RwSignal<Option<SignInAsk>>,
    progress: RwSignal<Progress>,
    /// Requests waiting for the sign-in to end: told `true` when they may go again.
    waiters: StoredValue<Vec<oneshot::Sender<bool>>, LocalStorage>,
    /// Step-ups in a row since a request was last accepted (bounded by [`MAX_STEP_UPS`]).
    step_ups: StoredValue<u8>,
    settings: RwSignal<SignInSettings>,
    /// The flow waiting in the sign-in window: told the callback address, or `None` when
    /// the user cancels.
    callback: StoredValue<Option<oneshot::Sender<Option<String>>>, LocalStorage>,
    /// The page's DPoP key, made at the first sign-in that asks for a bound token.
    dpop_key: StoredValue<Option<dpop::DpopKey>, LocalStorage>,
    /// The nonce each MCP server last demanded in DPoP proofs (RFC 9449 §9).
    resource_nonces: StoredValue<Vec<(String, String)>>,
    /// This browser remembers a sign-in not read yet: it is read in the engine-work chunk
    /// ([`Auth::ready`]) before the first request, so the first screen carries no reader.
    unread: StoredValue<bool>,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Auth").finish_non_exhaustive()
    }
}

impl Default for Auth {
    fn default() -> Self {
        Self::new()
    }
}

impl Auth {
    /// Holding nothing yet; what this browser was asked to remember is read before the
    /// first request ([`Auth::ready`]).
    pub fn new() -> Self {
        let remembered = remember::is_kept();
        Self {
            tokens: RwSignal::new(Vec::new()),
            registered: RwSignal::new(Vec::new()),
            ask: RwSignal::new(None),
            progress: RwSignal::new(Progress::Idle),
            waiters: StoredValue::new_local(Vec::new()),
            step_ups: StoredValue::new(0),
            settings: RwSignal::new(SignInSettings::restore(remembered)),
            callback: StoredValue::new_local(None),
            dpop_key: StoredValue::new_local(None),
            resource_nonces: StoredValue::new(Vec::new()),
            unread: StoredValue::new(remembered),
        }
    }

    /// Holding what this browser remembers, once read (a chunk that cannot be fetched is
    /// tried again at the next request).
    pub async fn ready(&self) {
        if !self.unread.try_get_value().unwrap_or(false) {
            return;
        }
        let Ok(kept) = chunk!(load_kept()) else {
            return;
        };
        // Another request may have read it meanwhile.
        if self.unread.try_get_value() == Some(true) {
            self.unread.set_value(false);
            self.tokens.try_set(kept.tokens);
            self.registered.try_set(kept.registered);
        }
    }

    /// The headers each request to `server` carries when signed in to it: `Authorization`,
    /// and for a DPoP-bound token a fresh proof. A proof that cannot be signed is logged,
    /// and the request goes without it (the server's refusal then says so).
    pub async fn credentials_for(&self, server: &str) -> Vec<(String, String)> {
        self.ready().await;
        let Some(tokens) = self.tokens_now(server) else {
            return Vec::new();
        };
        let authorization = vec![("Authorization".to_owned(), tokens.authorization_header())];
        if tokens.token_type != TokenType::Dpop {
            return authorization;
        }
        let signed = match chunk!(resource_headers_with(*self, server.to_owned(), tokens)) {
            Ok(signing) => signing.await,
            Err(missing) => Err(missing.to_string()),
        };
        signed.unwrap_or_else(|problem| {
            leptos::logging::warn!("no DPoP proof for {server}: {problem}");
            authorization
        })
    }

    pub(crate) fn dpop_key(&self) -> Option<dpop::DpopKey> {
        self.dpop_key.try_get_value().flatten()
    }

    pub(crate) fn keep_dpop_key(&self, key: dpop::DpopKey) {
        self.dpop_key.set_value(Some(key));
    }

    /// The nonce `server` last demanded in DPoP proofs.
    pub fn resource_nonce(&self, server: &str) -> Option<String> {
        self.resource_nonces.with_value(|nonces| {
            nonces
                .iter()
                .find(|(held, _)| held == server)
                .map(|(_, nonce)| nonce.clone())
        })
    }

    /// `server` demanded `nonce` in DPoP proofs: the next proofs carry it.
    pub fn note_resource_nonce(&self, server: &str, nonce: String) {
        self.resource_nonces.update_value(|nonces| {
            nonces.retain(|(held, _)| held != server);
            nonces.push((server.to_owned(), nonce));
        });
    }

    /// The tokens held for `server` (tracked).
    pub fn tokens_for(&self, server: &str) -> Option<TokenSet> {
        self.tokens.with(|tokens| {
            tokens
                .iter()
                .find(|(held, _)| held == server)
                .map(|(_, set)| set.clone())
        })
    }

    pub(crate) fn tokens_now(&self, server: &str) -> Option<TokenSet> {
        self.tokens
            .try_with_untracked(|tokens| {
                tokens
                    .iter()
                    .find(|(held, _)| held == server)
                    .map(|(_, set)| set.clone())
            })
            .flatten()
    }

    /// The sign-in the page asks for, if any (tracked).
    pub fn ask(&self) -> Signal<Option<SignInAsk>> {
        self.ask.into()
    }

    pub fn progress(&self) -> Signal<Progress> {
        self.progress.into()
    }

    pub fn settings(&self) -> RwSignal<SignInSettings> {
        self.settings
    }

    pub(crate) fn registered_now(&self) -> Vec<ClientCredentials> {
        self.registered.get_untracked()
    }

    pub(crate) fn set_progress(&self, progress: Progress) {
        self.progress.try_set(progress);
    }

    /// A request to `server` was refused for want of authorization: wait until a sign-in
    /// ends. `true`: signed in, send it again; `false`: it stays refused (the user said not
    /// now, the flow failed, or the server asked for more scope too often).
    pub async fn wait_for_sign_in(&self, link: Link, server: &str, needed: SignInNeeded) -> bool {
        let (tell, told) = oneshot::channel();
        self.waiters.update_value(|waiters| waiters.push(tell));
        // Requests refused together (discovery and the tool list go out side by side) wait
        // for one sign-in, and count as one step-up.
        let progress = self.progress.get_untracked();
        let joining = matches!(progress, Progress::Running(_))
            || !matches!(progress, Progress::Failed(_))
                && self.ask.with_untracked(|ask| {
                    ask.as_ref().is_some_and(|ask| {
                        ask.server == server && ask.needed.step_up == needed.step_up
                    })
                });
        if !joining {
            let step_ups = if needed.step_up {
                let next = self.step_ups.get_value().saturating_add(1);
                self.step_ups.set_value(next);
                next
            } else {
                0
            };
            if step_ups > MAX_STEP_UPS {
                // The card stays, saying why this request gave up.
                self.ask.try_set(Some(SignInAsk {
                    server: server.to_owned(),
                    needed,
                    step_ups,
                }));
                self.set_progress(Progress::Failed(format!(
                    "the server asked for more scope {step_ups} times in a row: Holdbay stops \
                     after {MAX_STEP_UPS} step-ups, so one request cannot open a sign-in page \
                     again and again"
                )));
                self.release(false);
                return false;
            }
            let held = self.tokens_now(server);
            let ask = SignInAsk {
                server: server.to_owned(),
                needed,
                step_ups,
            };
            // Held tokens with a refresh token are renewed without asking (a 401, not a
            // step-up): the user is asked only if that fails.
            if held.is_some_and(|tokens| tokens.refresh_token.is_some()) && !ask.needed.step_up {
                flow::renew(*self, link, ask);
            } else {
                self.set_progress(Progress::Idle);
                self.ask.try_set(Some(ask));
            }
        }
        told.await.unwrap_or(false)
    }

    /// A request to `server` was refused with a challenge (see [`refusal`]): `true` when
    /// it may go again. `nonce_sent`: the DPoP nonce its proof carried.
    pub async fn answer_refusal(
        &self,
        link: Link,
        refusal: crate::link::Refusal,
        nonce_sent: Option<String>,
    ) -> bool {
        match chunk!(answer_with(*self, link, refusal, nonce_sent)) {
            Ok(answering) => answering.await,
            Err(_) => false,
        }
    }

    /// A request with the current token was accepted: step-ups count from zero again.
    pub fn note_accepted(&self) {
        self.step_ups.set_value(0);
    }

    /// The user asks for the sign-in later: the waiting requests fail with their refusal.
    pub fn dismiss(&self) {
        self.ask.try_set(None);
        self.set_progress(Progress::Idle);
        self.release(false);
    }

    /// The sign-in ended with `tokens` for `server` (and maybe a new registration).
    pub(crate) fn signed_in(
        &self,
        server: &str,
        tokens: TokenSet,
        registration: Option<ClientCredentials>,
    ) {
        self.tokens.try_update(|held| {
            held.retain(|(known, _)| known != server);
            held.push((server.to_owned(), tokens));
        });
        if let Some(registration) = registration {
            self.registered.try_update(|known| {
                known.retain(|c| c.issuer != registration.issuer);
                known.push(registration);
            });
        }
        self.ask.try_set(None);
        self.set_progress(Progress::Idle);
        self.keep();
        self.release(true);
    }

    /// The sign-in failed (`reason` empty: it needs the user): the card says why and
    /// stays, to try again.
    pub(crate) fn failed(&self, ask: SignInAsk, reason: String) {
        self.ask.try_set(Some(ask));
        self.set_progress(if reason.is_empty() {
            Progress::Idle
        } else {
            Progress::Failed(reason)
        });
    }

    /// The flow in the sign-in window waits for its callback on `tell`.
    pub(crate) fn await_callback(&self, tell: oneshot::Sender<Option<String>>) {
        self.callback.set_value(Some(tell));
    }

    /// The callback page handed back `address` (`None`: the user cancelled).
    pub(crate) fn callback_arrived(&self, address: Option<String>) {
        if let Some(tell) = self.callback.try_update_value(Option::take).flatten() {
            let _ = tell.send(address);
        }
    }

    /// Stop waiting for the sign-in window (the card's Cancel).
    pub fn cancel(&self) {
        self.callback_arrived(None);
    }

    /// Start the sign-in asked for, in `window` (opened in the user's click; `None` when
    /// the browser blocked it: the page goes instead).
    pub fn sign_in(&self, link: Link, window: Option<web_sys::Window>) {
        let Some(ask) = self.ask.get_untracked() else {
            return;
        };
        flow::sign_in(*self, link, ask, window);
    }

    /// Forget the tokens for `server` (here and in this browser); the next request is
    /// challenged again.
    pub fn sign_out(&self, server: &str) {
        let (auth, server) = (*self, server.to_owned());
        leptos::task::spawn_local(async move {
            // In the engine-work chunk (fetched by the sign-in that made the tokens).
            if let Ok(signing_out) = chunk!(sign_out_with(auth, server)) {
                signing_out.await;
            }
        });
    }

    /// [`Auth::sign_out`]'s work: what this browser remembers is read first, or it would
    /// come back after this.
    async fn forget(self, server: String) {
        self.ready().await;
        self.tokens
            .try_update(|held| held.retain(|(known, _)| known != &server));
        self.step_ups.set_value(0);
        self.keep_now();
    }

    /// Keep what is held in localStorage when the user asked for it, and nothing otherwise
    /// (once what this browser remembers is read, so that is not lost).
    pub(crate) fn keep(&self) {
        let auth = *self;
        leptos::task::spawn_local(async move {
            auth.ready().await;
            auth.keep_now();
        });
    }

    /// [`Auth::keep`], now. Never a DPoP-bound token: its key cannot leave the page, so
    /// after a reload it would be refused.
    fn keep_now(&self) {
        let remembered = self.settings.with_untracked(|s| s.remember);
        let mut tokens = self.tokens.get_untracked();
        tokens.retain(|(_, set)| set.token_type != TokenType::Dpop);
        let registered = self.registered.get_untracked();
        if let Err(problem) = remember::save(remembered, &tokens, &registered) {
            leptos::logging::warn!("{problem}");
        }
    }

    fn release(&self, again: bool) {
        let waiters = self
            .waiters
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        for waiter in waiters {
            let _ = waiter.send(again);
        }
    }
}

/// `N` bytes from the browser's CSPRNG: the PKCE verifier and `state` (48), a DPoP proof's
/// `jti` (16).
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], String> {
    let mut random = [0u8; N];
    web_sys::window()
        .ok_or("no browser window")?
        .crypto()
        .map_err(|_| "this browser offers no crypto.getRandomValues".to_owned())?
        .get_random_values_with_u8_array(&mut random)
        .map_err(|_| "crypto.getRandomValues failed".to_owned())?;
    Ok(random)
}
