//! [`AuthFlow`]: one sign-in, from the MCP server's 401/403 to a [`TokenSet`], as a machine
//! the app drives (it performs each [`AuthRequest`], opens the authorization URL, and hands
//! back responses and the callback URL). Serializable, so it survives the full-page
//! redirect in sessionStorage.

use serde::{Deserialize, Serialize};

use super::AuthError;
use super::challenge::BearerChallenge;
use super::dpop::{MAX_NONCE_RETRIES, as_accepts_es256, token_nonce_demand, token_proof};
use super::metadata::{
    AuthServerMetadata, ProtectedResourceMetadata, read_auth_server_metadata,
    read_protected_resource_metadata,
};
use super::oauth::{
    ApplicationType, ClientCredentials, PreRegisteredClient, RegistrationKind, TokenContext,
    TokenSet, TokenType, authorization_url, choose_auth_method, code_token_request, pkce_pair,
    read_callback, read_registration_response, read_token_response, refresh_request,
    registration_request, select_scope,
};
use super::request::{AuthRequest, AuthResponse, HttpMethod, Purpose};
use super::uri::{Issuer, prm_urls, server_resource};
use crate::vocabulary::findings::Finding;

/// Step-ups allowed for one request: 3 authorizations in all (conformance
/// `auth/scope-retry-limit` allows at most 3).
pub const MAX_STEP_UPS: u8 = 2;

/// The client's side of the flow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthClientConfig {
    pub redirect_uri: String,
    pub client_name: String,
    /// The HTTPS URL of the client's metadata document (CIMD), when it has one.
    pub client_metadata_url: Option<String>,
    pub pre_registered: Option<PreRegisteredClient>,
    /// Credentials from earlier dynamic registrations, each bound to its issuer.
    pub registered: Vec<ClientCredentials>,
    pub application_type: ApplicationType,
    /// Ask for `offline_access` when the AS lists it.
    pub want_refresh: bool,
    /// The app can sign DPoP proofs (RFC 9449): ask for a DPoP-bound token where the AS
    /// accepts ES256 proofs.
    #[serde(default)]
    pub dpop: bool,
}

/// What starts a flow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlowStart {
    pub server_url: String,
    /// The `Bearer` challenge of the 401/403 (see [`super::bearer_challenge`]).
    pub challenge: Option<BearerChallenge>,
    pub config: AuthClientConfig,
    /// Tokens held for this server, if any: refreshed when their issuer still applies.
    pub tokens: Option<TokenSet>,
    /// Which step-up this is for the request: 0 for a 401, 1 for the first 403
    /// `insufficient_scope`, 2 for the next; past [`MAX_STEP_UPS`] the flow fails at once.
    pub step_ups: u8,
}

/// What the app does next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Step {
    Fetch(AuthRequest),
    Authorize { url: String },
    Done(TokenSet),
    Failed(AuthError),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Phase {
    Prm(Candidates),
    AsMetadata(Candidates),
    Refresh,
    Register,
    Authorize { url: String },
    Token,
    Done(TokenSet),
    Failed(AuthError),
}

/// One sign-in. See the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthFlow {
    start: FlowStart,
    resource: String,
    state: String,
    verifier: String,
    challenge_s256: String,
    prm: Option<ProtectedResourceMetadata>,
    issuer: Option<String>,
    metadata: Option<AuthServerMetadata>,
    client: Option<ClientCredentials>,
    scope: Option<String>,
    /// The code between the callback and the token answer.
    pending_code: Option<String>,
    phase: Phase,
    findings: Vec<Finding>,
    /// Why the held refresh token was refused, when it was (the flow then signs in anew).
    #[serde(default)]
    refresh_refusal: Option<AuthError>,
    /// The nonce the authorization server last demanded for DPoP proofs (RFC 9449 §8).
    #[serde(default)]
    dpop_nonce: Option<String>,
    /// Token requests sent again with a new nonce (bounded by [`MAX_NONCE_RETRIES`]).
    #[serde(default)]
    nonce_retries: u8,
}

impl AuthFlow {
    /// Starts a flow. `random` is 48 bytes from the caller's CSPRNG: 32 for the PKCE
    /// verifier, 16 for `state`.
    pub fn start(start: FlowStart, random: &[u8; 48]) -> AuthFlow {
        let mut verifier_bytes = [0u8; 32];
        verifier_bytes.copy_from_slice(&random[..32]);
        let (verifier, challenge_s256) = pkce_pair(&verifier_bytes);
        use base64::Engine;
        let state = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&random[32..]);
        let mut flow = AuthFlow {
            resource: String::new(),
            state,
            verifier,
            challenge_s256,
            prm: None,
            issuer: None,
            metadata: None,
            client: None,
            scope: None,
            pending_code: None,
            phase: Phase::Failed(AuthError::Config {
                reason: "not started".into(),
            }),
            findings: Vec::new(),
            refresh_refusal: None,
            dpop_nonce: None,
            nonce_retries: 0,
            start,
        };
        flow.phase = flow.first_phase();
        flow
    }

    fn first_phase(&mut self) -> Phase {
        if self.start.step_ups > MAX_STEP_UPS {
            return Phase::Failed(AuthError::StepUpLimit {
                attempts: self.start.step_ups,
            });
        }
        if let Err(error) = super::uri::parse_http_url(&self.start.config.redirect_uri) {
            return Phase::Failed(AuthError::Config {
                reason: format!("the redirect URI is not an http(s) URL: {error}"),
            });
        }
        let hint = self
            .start
            .challenge
            .as_ref()
            .and_then(|c| c.resource_metadata.as_deref());
        match (
            server_resource(&self.start.server_url),
            prm_urls(&self.start.server_url, hint),
        ) {
            (Ok(resource), Ok(urls)) => {
                self.resource = resource;
                Phase::Prm(Candidates::new(urls))
            }
            (Err(error), _) | (_, Err(error)) => Phase::Failed(error),
        }
    }

    /// What the app does now.
    pub fn step(&self) -> Step {
        let get = |url: &str, purpose| {
            Step::Fetch(AuthRequest {
                purpose,
                method: HttpMethod::Get,
                url: url.to_owned(),
                headers: vec![("Accept".into(), "application/json".into())],
                body: None,
                dpop: None,
            })
        };
        match &self.phase {
            // `.get`: a flow restored from storage may have been edited.
            Phase::Prm(candidates) => match candidates.current() {
                Some(url) => get(url, Purpose::ProtectedResourceMetadata),
                None => Step::Failed(self.out_of_order("step")),
            },
            Phase::AsMetadata(candidates) => match candidates.current() {
                Some(url) => get(url, Purpose::AuthorizationServerMetadata),
                None => Step::Failed(self.out_of_order("step")),
            },
            Phase::Refresh => match self.start.tokens.as_ref().and_then(|tokens| {
                let bound = tokens.token_type == TokenType::Dpop;
                refresh_request(tokens).map(|request| self.with_proof(request, bound))
            }) {
                Some(request) => Step::Fetch(request),
                None => Step::Failed(self.out_of_order("step")),
            },
            Phase::Register => match (
                &self.metadata,
                &self
                    .metadata
                    .as_ref()
                    .and_then(|m| m.registration_endpoint.clone()),
            ) {
                (Some(metadata), Some(endpoint)) => Step::Fetch(registration_request(
                    metadata,
                    endpoint,
                    &self.start.config.client_name,
                    &self.start.config.redirect_uri,
                    self.start.config.application_type,
                )),
                _ => Step::Failed(self.out_of_order("step")),
            },
            Phase::Authorize { url } => Step::Authorize { url: url.clone() },
            Phase::Token => match self
                .pending_code
                .as_deref()
                .and_then(|c| self.token_request(c))
            {
                Some(request) => Step::Fetch(request),
                None => Step::Failed(self.out_of_order("step")),
            },
            Phase::Done(tokens) => Step::Done(tokens.clone()),
            Phase::Failed(error) => Step::Failed(error.clone()),
        }
    }

    /// Why the authorization server refused to renew the held tokens, when it did: the
    /// flow then goes on to a new sign-in, which needs the user.
    pub fn refresh_refusal(&self) -> Option<&AuthError> {
        self.refresh_refusal.as_ref()
    }

    /// What the flow observed of the server and its AS breaking rules.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Credentials this flow obtained by dynamic registration, for the app to keep (keyed
    /// by their `issuer`).
    pub fn new_registration(&self) -> Option<&ClientCredentials> {
        self.client
            .as_ref()
            .filter(|c| c.kind == RegistrationKind::Dynamic)
    }

    fn token_request(&self, code: &str) -> Option<AuthRequest> {
        let (metadata, client) = (self.metadata.as_ref()?, self.client.as_ref()?);
        let request = code_token_request(
            &metadata.token_endpoint,
            client,
            code,
            &self.verifier,
            &self.start.config.redirect_uri,
            &self.resource,
        );
        Some(self.with_proof(request, self.asks_dpop()))
    }

    /// Whether the code exchange asks for a DPoP-bound token: the app can sign, and the
    /// authorization server accepts ES256 proofs.
    fn asks_dpop(&self) -> bool {
        self.start.config.dpop
            && self.metadata.as_ref().is_some_and(|metadata| {
                as_accepts_es256(metadata.dpop_signing_alg_values_supported.as_deref())
            })
    }

    fn with_proof(&self, mut request: AuthRequest, bound: bool) -> AuthRequest {
        if bound {
            request.dpop = Some(token_proof(&request.url, self.dpop_nonce.clone()));
        }
        request
    }

    /// The authorization server demanded a DPoP nonce for the request just sent: keep it,
    /// and send the request again (at most [`MAX_NONCE_RETRIES`] times).
    fn nonce_demanded(&mut self, response: &AuthResponse, proof_sent: bool) -> bool {
        let Some(nonce) = token_nonce_demand(response).filter(|_| proof_sent) else {
            return false;
        };
        if self.nonce_retries >= MAX_NONCE_RETRIES {
            return false;
        }
        self.nonce_retries += 1;
        self.dpop_nonce = Some(nonce);
        true
    }

    fn out_of_order(&self, call: &str) -> AuthError {
        AuthError::OutOfOrder {
            call: call.to_owned(),
            state: match &self.phase {
                Phase::Prm(_) => "discovering the protected resource metadata",
                Phase::AsMetadata(_) => "discovering the authorization server metadata",
                Phase::Refresh => "refreshing",
                Phase::Register => "registering",
                Phase::Authorize { .. } => "waiting for the authorization callback",
                Phase::Token => "exchanging the code",
                Phase::Done(_) => "done",
                Phase::Failed(_) => "failed",
            }
            .to_owned(),
        }
    }

    /// The app could not perform the fetch (network, CORS): the next candidate URL, or the end.
    pub fn fetch_failed(&mut self, reason: &str) {
        let response = AuthResponse {
            status: 0,
            headers: Vec::new(),
            body: reason.as_bytes().to_vec(),
        };
        match &self.phase {
            Phase::Prm(_) | Phase::AsMetadata(_) => self.on_response(&response, 0),
            _ => {
                let url = match self.step() {
                    Step::Fetch(request) => request.url,
                    _ => String::new(),
                };
                self.phase = Phase::Failed(AuthError::FetchFailed {
                    url,
                    reason: reason.to_owned(),
                });
            }
        }
    }

    /// Hands the response to the last [`Step::Fetch`] back.
    pub fn on_response(&mut self, response: &AuthResponse, now_ms: u64) {
        let phase = std::mem::replace(&mut self.phase, Phase::Token);
        self.phase = match phase {
            Phase::Prm(candidates) => self.after_prm(candidates, response),
            Phase::AsMetadata(candidates) => self.after_as(candidates, response),
            Phase::Refresh => self.after_refresh(response, now_ms),
            Phase::Register => self.after_register(response),
            Phase::Token => self.after_token(response, now_ms),
            other => {
                self.phase = other;
                Phase::Failed(self.out_of_order("on_response"))
            }
        };
    }

    fn describe(response: &AuthResponse) -> String {
        if response.status == 0 {
            format!("fetch failed: {}", String::from_utf8_lossy(&response.body))
        } else {
            format!("HTTP {}", response.status)
        }
    }

    fn after_prm(&mut self, candidates: Candidates, response: &AuthResponse) -> Phase {
        let Some(url) = candidates.current() else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        let server_url = &self.start.server_url;
        let outcome = fetched(url, response, |body| {
            read_protected_resource_metadata(url, body, server_url, &mut self.findings)
        });
        match outcome {
            Ok(prm) => {
                // The reader refuses an empty list.
                let first = prm
                    .authorization_servers
                    .first()
                    .cloned()
                    .unwrap_or_default();
                self.prm = Some(prm);
                match Issuer::parse(&first) {
                    Ok(issuer) => {
                        self.issuer = Some(first);
                        Phase::AsMetadata(Candidates::new(issuer.metadata_urls()))
                    }
                    Err(error) => Phase::Failed(error),
                }
            }
            // A resource mismatch ends the flow: that server is not the one asked.
            Err(error @ AuthError::PrmResourceMismatch { .. }) => Phase::Failed(error),
            Err(error) => match candidates.after(&error) {
                Ok(next) => Phase::Prm(next),
                Err((tried, last)) => {
                    Phase::Failed(AuthError::NoProtectedResourceMetadata { tried, last })
                }
            },
        }
    }

    fn after_as(&mut self, candidates: Candidates, response: &AuthResponse) -> Phase {
        let Some(url) = candidates.current() else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        let issuer_text = self.issuer.clone().unwrap_or_default();
        let Ok(issuer) = Issuer::parse(&issuer_text) else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        let outcome = fetched(url, response, |body| {
            read_auth_server_metadata(url, body, &issuer, &mut self.findings)
        });
        match outcome {
            Ok(metadata) => {
                self.metadata = Some(metadata);
                self.after_discovery()
            }
            // Metadata that is found but wrong is not used, and not looked past.
            Err(
                error @ (AuthError::PkceUnsupported { .. }
                | AuthError::EndpointNotHttps { .. }
                // An issuer mismatch may be an attacker's document: nothing else is tried.
                | AuthError::AsIssuerMismatch { .. }),
            ) => Phase::Failed(error),
            Err(error) => match candidates.after(&error) {
                Ok(next) => Phase::AsMetadata(next),
                Err((tried, last)) => Phase::Failed(AuthError::NoAuthServerMetadata {
                    issuer: issuer_text,
                    tried,
                    last,
                }),
            },
        }
    }

    /// Discovery done: refresh if the held tokens are this AS's, else register.
    fn after_discovery(&mut self) -> Phase {
        let Some(metadata) = self.metadata.clone() else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        let tokens_apply = self.start.tokens.as_ref().is_some_and(|tokens| {
            tokens.issuer == metadata.issuer && tokens.refresh_token.is_some()
        });
        // A 403 asks for more scope: a refresh cannot widen it.
        let step_up = self
            .start
            .challenge
            .as_ref()
            .is_some_and(BearerChallenge::is_insufficient_scope);
        if tokens_apply && !step_up {
            return Phase::Refresh;
        }
        self.choose_client(&metadata)
    }

    fn choose_client(&mut self, metadata: &AuthServerMetadata) -> Phase {
        // Not a trip to /authorize that can only end in `unsupported_grant_type`.
        if !metadata.offers_authorization_code() {
            return Phase::Failed(AuthError::GrantUnsupported {
                issuer: metadata.issuer.clone(),
                grants: metadata
                    .grant_types_supported
                    .clone()
                    .unwrap_or_default()
                    .join(", "),
            });
        }
        let config = &self.start.config;
        // client-registration.mdx order: pre-registered, CIMD, then DCR.
        let pre = config.pre_registered.as_ref().filter(|pre| {
            pre.issuer
                .as_deref()
                .is_none_or(|issuer| issuer == metadata.issuer)
        });
        let held =
            config
                .registered
                .iter()
                .find(|c| c.issuer == metadata.issuer)
                .or_else(|| {
                    self.start.tokens.as_ref().map(|t| &t.client).filter(|c| {
                        c.issuer == metadata.issuer && c.kind == RegistrationKind::Dynamic
                    })
                });
        let cimd = config.client_metadata_url.as_ref().filter(|url| {
            metadata.client_id_metadata_document_supported
                && url::Url::parse(url).is_ok_and(|u| u.scheme() == "https" && u.path().len() > 1)
        });
        let client = if let Some(pre) = pre {
            ClientCredentials {
                issuer: metadata.issuer.clone(),
                client_id: pre.client_id.clone(),
                client_secret: pre.client_secret.clone(),
                auth_method: choose_auth_method(pre.client_secret.is_some(), None, metadata),
                kind: RegistrationKind::PreRegistered,
            }
        } else if let Some(cimd) = cimd {
            ClientCredentials {
                issuer: metadata.issuer.clone(),
                client_id: cimd.clone(),
                client_secret: None,
                auth_method: super::oauth::ClientAuthMethod::None,
                kind: RegistrationKind::MetadataDocument,
            }
        } else if let Some(held) = held {
            held.clone()
        } else if metadata.registration_endpoint.is_some() {
            return Phase::Register;
        } else {
            return Phase::Failed(AuthError::NoRegistration {
                issuer: metadata.issuer.clone(),
            });
        };
        self.client = Some(client);
        self.authorize_phase()
    }

    fn authorize_phase(&mut self) -> Phase {
        let (Some(metadata), Some(client)) = (self.metadata.clone(), self.client.clone()) else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        let challenge_scope = self
            .start
            .challenge
            .as_ref()
            .and_then(|c| c.scope.as_deref());
        let previous = if self.start.step_ups > 0 || challenge_scope.is_some() {
            self.start.tokens.as_ref().and_then(|t| t.scope.as_deref())
        } else {
            None
        };
        // A token's scope from another AS says nothing here.
        let previous = previous.filter(|_| {
            self.start
                .tokens
                .as_ref()
                .is_some_and(|t| t.issuer == metadata.issuer)
        });
        self.scope = select_scope(
            challenge_scope,
            self.prm
                .as_ref()
                .and_then(|p| p.scopes_supported.as_deref()),
            previous,
            &metadata,
            self.start.config.want_refresh,
        );
        let resource = self
            .prm
            .as_ref()
            .map(|p| p.resource.clone())
            .unwrap_or_default();
        let resource = super::uri::canonical_resource(&resource).unwrap_or(self.resource.clone());
        self.resource = resource;
        match authorization_url(
            &metadata,
            &client,
            &self.start.config.redirect_uri,
            &self.state,
            &self.challenge_s256,
            &self.resource,
            self.scope.as_deref(),
        ) {
            Ok(url) => Phase::Authorize { url },
            Err(error) => Phase::Failed(error),
        }
    }

    fn after_refresh(&mut self, response: &AuthResponse, now_ms: u64) -> Phase {
        let Some(tokens) = self.start.tokens.clone() else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        if self.nonce_demanded(response, tokens.token_type == TokenType::Dpop) {
            return Phase::Refresh;
        }
        match super::oauth::read_refresh_response(response, &tokens, now_ms, &mut self.findings) {
            Ok(tokens) => Phase::Done(tokens),
            // The refresh token is spent: sign in again, in this same flow.
            Err(refusal @ AuthError::RefreshRejected { .. }) => {
                self.refresh_refusal = Some(refusal);
                self.start.tokens = self.start.tokens.take().map(|mut t| {
                    t.refresh_token = None;
                    t
                });
                match self.metadata.clone() {
                    Some(metadata) => self.choose_client(&metadata),
                    None => Phase::Failed(self.out_of_order("on_response")),
                }
            }
            Err(error) => Phase::Failed(error),
        }
    }

    fn after_register(&mut self, response: &AuthResponse) -> Phase {
        let Some(metadata) = self.metadata.clone() else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        let url = metadata.registration_endpoint.clone().unwrap_or_default();
        match read_registration_response(response, &url, &metadata) {
            Ok(client) => {
                self.client = Some(client);
                self.authorize_phase()
            }
            Err(error) => Phase::Failed(error),
        }
    }

    /// Hands the browser's return to the redirect URI back; the next step is the token
    /// request (or a failure: the code is never sent when `state` or `iss` is wrong).
    pub fn on_callback(&mut self, callback_url: &str) {
        if !matches!(self.phase, Phase::Authorize { .. }) {
            self.phase = Phase::Failed(self.out_of_order("on_callback"));
            return;
        }
        let Some(metadata) = self.metadata.clone() else {
            self.phase = Phase::Failed(self.out_of_order("on_callback"));
            return;
        };
        self.phase = match read_callback(callback_url, &self.state, &metadata, &mut self.findings) {
            Ok(code) => {
                self.pending_code = Some(code);
                Phase::Token
            }
            Err(error) => Phase::Failed(error),
        };
    }

    fn after_token(&mut self, response: &AuthResponse, now_ms: u64) -> Phase {
        let (Some(metadata), Some(client)) = (self.metadata.clone(), self.client.clone()) else {
            return Phase::Failed(self.out_of_order("on_response"));
        };
        let dpop = self.asks_dpop();
        // The code is not spent by a nonce demand: it goes again, with the nonce.
        if self.nonce_demanded(response, dpop) {
            return Phase::Token;
        }
        self.pending_code = None;
        let context = TokenContext {
            issuer: &metadata.issuer,
            resource: &self.resource,
            token_endpoint: &metadata.token_endpoint,
            client: &client,
            requested_scope: self.scope.as_deref(),
            previous_refresh: None,
            dpop,
        };
        match read_token_response(response, &context, now_ms, &mut self.findings) {
            Ok(tokens) => Phase::Done(tokens),
            Err(error) => Phase::Failed(error),
        }
    }
}

/// Discovery's candidate URLs, tried in order, and why the last one tried failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Candidates {
    urls: Vec<String>,
    at: usize,
    last: String,
}

impl Candidates {
    fn new(urls: Vec<String>) -> Self {
        Self {
            urls,
            at: 0,
            last: String::new(),
        }
    }

    /// The URL to fetch now (`None` only in a flow restored from an edited copy).
    fn current(&self) -> Option<&str> {
        self.urls.get(self.at).map(String::as_str)
    }

    /// After `error`: the next candidate, or every URL tried and why the last failed. A
    /// fetch failure does not hide an earlier, more telling error.
    fn after(self, error: &AuthError) -> Result<Self, (Vec<String>, String)> {
        let keep_last = !self.last.is_empty() && matches!(error, AuthError::FetchFailed { .. });
        let last = if keep_last {
            self.last
        } else {
            error.to_string()
        };
        if self.at + 1 < self.urls.len() {
            Ok(Self {
                at: self.at + 1,
                urls: self.urls,
                last,
            })
        } else {
            Err((self.urls, last))
        }
    }
}

/// A discovery document read by `read`, or why its fetch failed.
fn fetched<T>(
    url: &str,
    response: &AuthResponse,
    read: impl FnOnce(&[u8]) -> Result<T, AuthError>,
) -> Result<T, AuthError> {
    if (200..300).contains(&response.status) {
        read(&response.body)
    } else {
        Err(AuthError::FetchFailed {
            url: url.to_owned(),
            reason: AuthFlow::describe(response),
        })
    }
}
