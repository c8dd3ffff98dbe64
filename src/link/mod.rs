//! The client's line to one MCP server: how it is reached (the connection), the engine's
//! client that builds every request, the wire log every exchange goes into, and the findings
//! the engine reports about the server. Everything that talks to a server goes through it.

pub mod relay_token;
pub mod sign_ins;
pub mod transport;

use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;

use holdbay_engine::auth::MAX_STEP_UPS;
use holdbay_engine::{
    Client, ExchangeEvent, Finding, Listen, ListenEvent, McpMethod, Negotiation, Outcome,
    OutgoingRequest, Reply, ResponseError, Rule, legacy_server,
};
use leptos::prelude::*;
use web_sys::AbortSignal;

use crate::connection::Connection;
use crate::wire::WireLog;
pub use sign_ins::{Later, Refusal, SignIns};
pub use transport::{Carry, ExchangeError};

/// `Copy`: a bundle of handles, shared by the session's services.
#[derive(Clone, Copy)]
pub struct Link {
    connection: RwSignal<Connection>,
    /// The engine's client: request ids, and the tools' mirrored-header rules.
    client: StoredValue<Client>,
    wire: WireLog,
    findings: RwSignal<Vec<Finding>>,
    /// How often each finding in `findings` was seen (the same rule broken the same way is
    /// listed once and counted), and how many distinct ones found no room.
    repeats: RwSignal<FindingCounts>,
    /// Sign-ins: the bearer every request carries, and the waits for a sign-in; `None`:
    /// requests go without credentials and a refusal stays one.
    sign_ins: StoredValue<Option<Rc<dyn SignIns>>, LocalStorage>,
}

/// How often each distinct finding was seen, by rule and explanation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FindingCounts {
    pub seen: HashMap<(Rule, String), u64>,
    /// Distinct findings past [`MAX_FINDINGS`], counted but not listed.
    pub unlisted: u64,
}

impl FindingCounts {
    /// How often `finding` was seen (1 for one listed once).
    pub fn of(&self, finding: &Finding) -> u64 {
        self.seen
            .get(&(finding.rule, finding.explanation.clone()))
            .copied()
            .unwrap_or(1)
    }
}

/// Distinct findings listed; more are counted, not kept (a server can break a rule in a new
/// way on every poll).
pub const MAX_FINDINGS: usize = 200;

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link").finish_non_exhaustive()
    }
}

impl Link {
    /// A line to `connection`'s server, recording into `wire`, signing in to none (see
    /// [`Link::with_sign_ins`]). The findings the engine decodes from any exchange join the
    /// link's findings as they arrive.
    pub fn new(connection: Connection, wire: WireLog) -> Self {
        let link = Self {
            connection: RwSignal::new(connection),
            client: StoredValue::new(Client::default()),
            wire,
            findings: RwSignal::new(Vec::new()),
            repeats: RwSignal::new(FindingCounts::default()),
            sign_ins: StoredValue::new_local(None),
        };
        wire.listen(move |_, added| {
            link.note_findings(added.iter().filter_map(|timed| match &timed.event {
                ExchangeEvent::Finding(finding) => Some(finding.clone()),
                _ => None,
            }));
        });
        link
    }

    /// The link, its requests carrying `sign_ins`' credentials and its refusals answered
    /// by them.
    pub fn with_sign_ins(self, sign_ins: impl SignIns + 'static) -> Self {
        self.sign_ins.set_value(Some(Rc::new(sign_ins)));
        self
    }

    fn sign_ins(&self) -> Option<Rc<dyn SignIns>> {
        self.sign_ins.try_get_value().flatten()
    }

    /// The current connection (tracked).
    pub fn connection(&self) -> Signal<Connection> {
        self.connection.into()
    }

    /// The current connection, for one exchange.
    pub fn connection_now(&self) -> Connection {
        self.connection.try_get_untracked().unwrap_or_default()
    }

    /// Point the link at another server (or route): the session's connect does this. The
    /// protocol revision is negotiated again, from the newest.
    pub(crate) fn set_connection(&self, connection: Connection) {
        self.connection.try_set(connection);
        self.build(Client::reset_version);
    }

    pub fn wire(&self) -> WireLog {
        self.wire
    }

    /// A refusal that asks for a sign-in (401 with a Bearer challenge, 403
    /// `insufficient_scope`) waits for one: `true` when the request may go again, now
    /// carrying the token. A demand for a DPoP nonce goes again at once with it. Any other
    /// answer lets step-ups count from zero again.
    /// `nonce_sent`: the DPoP nonce the refused request's proof carried.
    async fn signed_in_after(
        &self,
        failure: Option<&ExchangeError>,
        nonce_sent: Option<String>,
    ) -> bool {
        let Some(sign_ins) = self.sign_ins() else {
            return false;
        };
        match failure {
            Some(ExchangeError::Response(ResponseError::Unauthorized {
                status,
                challenge,
                dpop_nonce,
            })) => {
                let refusal = (*status, challenge.clone(), dpop_nonce.clone());
                sign_ins.answer_refusal(*self, refusal, nonce_sent).await
            }
            None => {
                sign_ins.note_accepted();
                false
            }
            Some(_) => false,
        }
    }

    /// What the engine found about the server so far.
    pub fn findings(&self) -> Signal<Vec<Finding>> {
        self.findings.into()
    }

    /// How often each finding was seen (tracked).
    pub fn finding_counts(&self) -> Signal<FindingCounts> {
        self.repeats.into()
    }

    /// Keep findings that did not come from an exchange's decode (hidden tools, a task
    /// tracker's checks); each distinct one listed once and counted, at most
    /// [`MAX_FINDINGS`] of them.
    pub fn note_findings(&self, findings: impl IntoIterator<Item = Finding>) {
        let mut findings = findings.into_iter().peekable();
        if findings.peek().is_none() {
            return;
        }
        let listed = self.findings.try_with_untracked(Vec::len).unwrap_or(0);
        let mut fresh = Vec::new();
        self.repeats.try_update(|counts| {
            for finding in findings {
                let key = (finding.rule, finding.explanation.clone());
                if let Some(count) = counts.seen.get_mut(&key) {
                    *count += 1;
                } else if listed + fresh.len() < MAX_FINDINGS {
                    counts.seen.insert(key, 1);
                    fresh.push(finding);
                } else {
                    counts.unlisted += 1;
                }
            }
        });
        if !fresh.is_empty() {
            self.findings.try_update(|all| all.extend(fresh));
        }
    }

    /// Build the next request with the engine's client; `None` once the page's owner is
    /// gone (the app was unmounted), when nothing should be sent any more.
    pub fn build<T>(&self, make: impl FnOnce(&mut Client) -> T) -> Option<T> {
        self.client.try_update_value(make)
    }

    /// Whether the app that owns this link is still mounted.
    pub fn is_alive(&self) -> bool {
        self.build(|_| ()).is_some()
    }

    /// Send `request` over the current connection; its answer must be `complete`. After a
    /// `-32022` the engine decides: one retry (its own exchange in the wire log, with the
    /// version later requests keep), or why the versions do not meet.
    /// A refusal that asks for a sign-in waits for one and goes again (at most a first
    /// sign-in and [`MAX_STEP_UPS`] step-ups).
    pub async fn exchange<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
    ) -> Result<Reply<M::Output>, ExchangeError> {
        // One call site, so the exchange's code is not repeated per method in the wasm.
        self.signing_in_as_needed(|| self.exchange_once(request))
            .await
    }

    /// Run `attempt`; while its refusal asks for a sign-in that then succeeds, run it again
    /// (at most a first sign-in and [`MAX_STEP_UPS`] step-ups).
    async fn signing_in_as_needed<T, Attempt>(
        &self,
        attempt: impl Fn() -> Attempt,
    ) -> Result<T, ExchangeError>
    where
        Attempt: Future<Output = Result<T, ExchangeError>>,
    {
        let mut signed_in = 0;
        loop {
            let nonce_sent = self.resource_nonce();
            let answer = attempt().await;
            if signed_in > MAX_STEP_UPS
                || !self
                    .signed_in_after(answer.as_ref().err(), nonce_sent)
                    .await
            {
                return answer;
            }
            signed_in += 1;
        }
    }

    async fn exchange_once<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
    ) -> Result<Reply<M::Output>, ExchangeError> {
        let connection = self.connection_now();
        let answer = transport::exchange(&self.carry(&connection).await, request).await;
        let Err(ExchangeError::Response(error)) = &answer else {
            return answer;
        };
        let Some(negotiated) = self
            .build(|client| client.negotiate(request, error))
            .flatten()
        else {
            return answer;
        };
        self.note_findings(negotiated.findings);
        let retry = match negotiated.next {
            Negotiation::Retry(retry) => retry,
            Negotiation::Stop(mismatch) => return Err(mismatch.into()),
        };
        let answer = transport::exchange(&self.carry(&connection).await, retry.as_ref()).await;
        let Err(ExchangeError::Response(error)) = &answer else {
            return answer;
        };
        // The retry was the one retry: the engine ends any further -32022 here.
        match self
            .build(|client| client.negotiate(retry.as_ref(), error))
            .flatten()
        {
            Some(negotiated) => {
                self.note_findings(negotiated.findings);
                match negotiated.next {
                    Negotiation::Stop(mismatch) => Err(mismatch.into()),
                    Negotiation::Retry(_) => answer,
                }
            }
            None => answer,
        }
    }

    /// The first request to a server (`server/discover`): [`Link::exchange`], and a failure
    /// that means the server speaks an older revision (wire reference §10.6) said so,
    /// rather than as the server's own words.
    pub async fn first_contact<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
    ) -> Result<Reply<M::Output>, ExchangeError> {
        self.exchange(request).await.map_err(|error| match error {
            ExchangeError::Response(response) => match legacy_server(&response) {
                Some(legacy) => ExchangeError::Version(legacy),
                None => ExchangeError::Response(response),
            },
            other => other,
        })
    }

    /// Send `request`, which may pause for input or become a task; `abort` stops it and
    /// `on_event` sees each decoded event (progress) as it arrives.
    pub async fn exchange_outcome<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
        abort: Option<&AbortSignal>,
        on_event: Option<&dyn Fn(&ExchangeEvent)>,
    ) -> Result<Reply<Outcome<M::Output>>, ExchangeError> {
        self.signing_in_as_needed(|| self.exchange_outcome_once(request, abort, on_event))
            .await
    }

    async fn exchange_outcome_once<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
        abort: Option<&AbortSignal>,
        on_event: Option<&dyn Fn(&ExchangeEvent)>,
    ) -> Result<Reply<Outcome<M::Output>>, ExchangeError> {
        let connection = self.connection_now();
        let mut how = self.carry(&connection).await;
        how.abort = abort;
        how.on_event = on_event;
        transport::exchange_outcome(&how, request).await
    }

    /// Open a listen stream; `on_event` returns false to stop reading.
    pub async fn listen(
        &self,
        request: &OutgoingRequest<Listen>,
        abort: Option<&AbortSignal>,
        on_event: &mut dyn FnMut(ListenEvent) -> bool,
    ) -> Result<(), ExchangeError> {
        let connection = self.connection_now();
        let mut how = self.carry(&connection).await;
        how.abort = abort;
        transport::listen(&how, request, on_event).await
    }

    /// The DPoP nonce the current server last demanded.
    fn resource_nonce(&self) -> Option<String> {
        let sign_ins = self.sign_ins()?;
        sign_ins.resource_nonce(&self.connection_now().server)
    }

    async fn carry<'a>(&self, connection: &'a Connection) -> Carry<'a> {
        let credentials = match self.sign_ins() {
            Some(sign_ins) => sign_ins.credentials_for(connection.server.clone()).await,
            None => Vec::new(),
        };
        Carry {
            connection,
            log: self.wire,
            abort: None,
            on_event: None,
            credentials,
        }
    }
}
