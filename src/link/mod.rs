//! The client's line to one MCP server: how it is reached (the connection), the engine's
//! client that builds every request, the wire log every exchange goes into, and the findings
//! the engine reports about the server. Everything that talks to a server goes through it.

pub mod relay_token;
mod session_stream;
pub mod sign_ins;
pub mod transport;

use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;

use holdbay_engine::auth::MAX_STEP_UPS;
use holdbay_engine::model::{DiscoverResult, RequestId};
use holdbay_engine::{
    Binding, Client, Discover, EraDecision, ExchangeEvent, Finding, InputAnswer, Listen,
    ListenEvent, McpMethod, Negotiation, Outcome, OutgoingMessage, OutgoingRequest, Reply,
    ResponseError, Rule, ServerRequestEvent, legacy_server,
};
use leptos::prelude::*;
use web_sys::AbortSignal;

use crate::connection::Connection;
use crate::wire::WireLog;
pub use sign_ins::{Later, Refusal, SignIns};
pub use transport::{Carry, ExchangeError};

/// What the first contact with a server found.
#[derive(Debug, Clone)]
pub struct Contact {
    /// What `server/discover` said, or what a legacy session's `initialize` did.
    pub discovered: DiscoverResult,
    /// Set when the server speaks an older revision: why Holdbay opened a legacy session.
    pub fell_back: Option<String>,
}

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
    /// A legacy session's own GET stream: which one runs, and how to stop its fetch.
    stream: StoredValue<StreamHandle, LocalStorage>,
    /// What the server asked on that stream, not answered yet.
    session_asks: RwSignal<Vec<ServerRequestEvent>>,
    /// Who else sees that stream's events (a call waiting for its progress, which a legacy
    /// server may send there rather than on the call's stream), by a number to end it with.
    stream_watchers: StoredValue<Vec<(u64, StreamWatcher)>, LocalStorage>,
}

/// Sees each event of the session's own stream.
pub type StreamWatcher = Rc<dyn Fn(&ExchangeEvent)>;

/// The session stream that runs now, if any.
#[derive(Default)]
struct StreamHandle {
    /// Counts the streams started; a loop runs while its number is the current one.
    generation: u64,
    running: bool,
    abort: Option<web_sys::AbortController>,
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
            stream: StoredValue::new_local(StreamHandle::default()),
            session_asks: RwSignal::new(Vec::new()),
            stream_watchers: StoredValue::new_local(Vec::new()),
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
        self.stop_session_stream();
        self.end_legacy_session();
        self.connection.try_set(connection);
        self.build(Client::reset_version);
    }

    /// The link leaves a legacy session: the server is told with a DELETE (2025-11-25,
    /// "Session Management": a client that no longer needs it SHOULD), so it can let go of
    /// what it kept for it.
    fn end_legacy_session(&self) {
        let Some(request) = self.build(Client::end_session).flatten() else {
            return;
        };
        let link = *self;
        let leaving = self.connection_now();
        leptos::task::spawn_local(async move {
            let how = link.carry(&leaving).await;
            let _ = transport::send_bodiless(&how, &request).await;
        });
    }

    /// What the server asked on the legacy session's own stream, not answered yet (the
    /// server waits for each answer).
    pub fn session_asks(&self) -> Signal<Vec<ServerRequestEvent>> {
        self.session_asks.into()
    }

    /// Answer `asked`, from the session's stream (see [`Link::answer_server`]).
    pub fn answer_session_ask(&self, asked: &ServerRequestEvent, answer: &InputAnswer) {
        self.answer_server(self.session_asks, asked, answer);
    }

    /// Answer the server's request `asked` (a legacy session), waiting in `pending`: the
    /// engine writes the response, which goes in a POST of its own while the stream it
    /// came on stays open; how the server took it is in the wire log.
    pub fn answer_server(
        &self,
        pending: RwSignal<Vec<ServerRequestEvent>>,
        asked: &ServerRequestEvent,
        answer: &InputAnswer,
    ) {
        let Some(message) = self
            .build(|client| client.answer_server_request(asked, answer))
            .and_then(Result::ok)
        else {
            return;
        };
        let id = asked.id.clone();
        pending.try_update(|asks| asks.retain(|waiting| waiting.id != id));
        let link = *self;
        leptos::task::spawn_local(async move {
            let _ = link.post_message(&message).await;
        });
    }

    /// A request from the server on the session's stream: a `ping` is answered at once,
    /// the rest wait for the user.
    fn server_asked(&self, asked: &ServerRequestEvent) {
        if asked.is_ping() {
            self.answer_ping(asked);
        } else {
            self.session_asks
                .try_update(|asks| asks.push(asked.clone()));
        }
    }

    /// Let `watcher` see the session stream's events until [`Link::unwatch_stream`] with
    /// the number returned.
    pub fn watch_stream(&self, watcher: StreamWatcher) -> u64 {
        self.stream_watchers
            .try_update_value(|watchers| {
                let number = watchers.last().map_or(0, |(last, _)| last + 1);
                watchers.push((number, watcher));
                number
            })
            .unwrap_or_default()
    }

    pub fn unwatch_stream(&self, number: u64) {
        self.stream_watchers
            .try_update_value(|watchers| watchers.retain(|(kept, _)| *kept != number));
    }

    /// An event of the session's stream, for its watchers.
    fn stream_event(&self, event: &ExchangeEvent) {
        let watchers: Vec<StreamWatcher> = self
            .stream_watchers
            .try_with_value(|watchers| watchers.iter().map(|(_, w)| w.clone()).collect())
            .unwrap_or_default();
        for watcher in watchers {
            watcher(event);
        }
    }

    /// Start reading the legacy session's own stream (after `initialize`).
    fn start_session_stream(&self) {
        let started = self.stream.try_update_value(|stream| {
            stream.generation += 1;
            stream.running = true;
            (stream.generation, stream.abort.take())
        });
        let Some((generation, previous)) = started else {
            return;
        };
        // A session opened anew: the old session's stream ends.
        if let Some(previous) = previous {
            previous.abort();
        }
        session_stream::run(*self, generation);
    }

    /// The number of the session stream that should run now, if one should.
    fn stream_generation(&self) -> Option<u64> {
        self.stream
            .try_with_value(|stream| stream.running.then_some(stream.generation))
            .flatten()
    }

    fn keep_stream_abort(&self, abort: Option<web_sys::AbortController>) {
        self.stream.try_update_value(|stream| stream.abort = abort);
    }

    /// The connection moves on: the stream's loop ends, its fetch is aborted, and what it
    /// asked can no longer be answered.
    fn stop_session_stream(&self) {
        if let Some(Some(abort)) = self.stream.try_update_value(|stream| {
            stream.running = false;
            stream.abort.take()
        }) {
            abort.abort();
        }
        self.session_asks.try_set(Vec::new());
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
        let mut again = None;
        loop {
            let sending = again.as_ref().unwrap_or(request);
            let answer = self
                .signing_in_as_needed(|| self.exchange_once(sending))
                .await;
            if let Some(done) = self.unless_renewed(request, answer, &mut again).await {
                return done;
            }
        }
    }

    /// `answer` to `request`, unless it says the legacy session ended on the server's side
    /// (a 404 to its session, said by the engine) and it was the first try: then a new
    /// session is opened and `again` is the request to send in it (`None` comes back).
    async fn unless_renewed<M: McpMethod, T>(
        &self,
        request: &OutgoingRequest<M>,
        answer: Result<T, ExchangeError>,
        again: &mut Option<OutgoingRequest<M>>,
    ) -> Option<Result<T, ExchangeError>> {
        if again.is_some() {
            return Some(answer);
        }
        let Err(ExchangeError::Response(error)) = &answer else {
            return Some(answer);
        };
        let Some(finding) = self.build(|client| client.session_lost(error)).flatten() else {
            return Some(answer);
        };
        self.note_findings([finding]);
        if let Err(error) = self.open_legacy_session().await {
            return Some(Err(error));
        }
        *again = self.build(|client| client.in_current_session(request));
        again.is_none().then_some(answer)
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

    /// The first request to a server (`server/discover`): [`Link::exchange`]; a server of
    /// an older revision is followed into a legacy session when the connection's era allows
    /// (versioning.mdx), and otherwise said so rather than in the server's own words.
    pub async fn first_contact(
        &self,
        request: &OutgoingRequest<Discover>,
    ) -> Result<Contact, ExchangeError> {
        let era = self.connection_now().era;
        if let Some(EraDecision::FallBack { why }) =
            self.build(|client| client.choose_era(era)).flatten()
        {
            return Ok(Contact {
                discovered: self.open_legacy_session().await?,
                fell_back: Some(why),
            });
        }
        let response = match self.exchange(request).await {
            Ok(reply) => {
                return Ok(Contact {
                    discovered: reply.result,
                    fell_back: None,
                });
            }
            Err(ExchangeError::Response(response)) => response,
            Err(other) => return Err(other),
        };
        let connection = self.connection_now();
        let binding = Binding::of_url(&connection.server);
        let decision = self
            .build(|client| client.detect_era(connection.era, binding, &response))
            .flatten();
        match decision {
            Some(EraDecision::FallBack { why }) => Ok(Contact {
                discovered: self.open_legacy_session().await?,
                fell_back: Some(why),
            }),
            Some(EraDecision::Stop(mismatch)) => Err(mismatch.into()),
            None => Err(match legacy_server(&response) {
                Some(legacy) => ExchangeError::Version(legacy),
                None => ExchangeError::Response(response),
            }),
        }
    }

    /// A legacy session: `initialize`, its answer checked by the engine (which keeps the
    /// session and the version agreed), then `notifications/initialized`. The session reads
    /// as a discovery, so the rest of the app sees one kind of server.
    async fn open_legacy_session(&self) -> Result<DiscoverResult, ExchangeError> {
        let connection = self.connection_now();
        let gone = || ExchangeError::Aborted {
            url: connection.server.clone(),
        };
        let initialize = self.build(Client::initialize).ok_or_else(gone)?;
        // A server behind authorization refuses initialize until the user signs in.
        let (reply, session) = self
            .signing_in_as_needed(|| self.initialize_once(&initialize))
            .await?;
        let opened = self
            .build(|client| client.open_session(reply, session.as_deref()))
            .ok_or_else(gone)??;
        self.note_findings(opened.findings.iter().cloned());
        let initialized = self.build(|client| client.initialized()).ok_or_else(gone)?;
        self.post_message(&initialized).await?;
        // What the server sends outside any request comes on the session's own stream.
        self.start_session_stream();
        Ok(opened.as_discovery())
    }

    /// `initialize` once, carrying the credentials of the moment: the answer and the session
    /// it assigned.
    async fn initialize_once(
        &self,
        initialize: &OutgoingRequest<holdbay_engine::Initialize>,
    ) -> Result<
        (
            Reply<holdbay_engine::model::InitializeResult>,
            Option<String>,
        ),
        ExchangeError,
    > {
        let connection = self.connection_now();
        let how = self.carry(&connection).await;
        transport::exchange_in_session(&how, initialize).await
    }

    /// POST a legacy session's message (a notification, an answer to the server's request)
    /// over the current connection; the server's status comes back.
    pub async fn post_message(&self, message: &OutgoingMessage) -> Result<u16, ExchangeError> {
        let connection = self.connection_now();
        let how = self.carry(&connection).await;
        transport::post_message(&how, message).await
    }

    /// The user stopped `request_id`: a legacy server is told with `notifications/cancelled`
    /// (it takes a closed stream for a lost connection); a 2026-07-28 one needs nothing more.
    pub fn cancel_on_server(&self, request_id: &RequestId) {
        let message = self
            .build(|client| client.cancelled(request_id, "the user pressed Stop"))
            .flatten();
        let Some(message) = message else {
            return;
        };
        let link = *self;
        leptos::task::spawn_local(async move {
            let _ = link.post_message(&message).await;
        });
    }

    /// A legacy server's `ping` on a stream: answered at once, with nothing to ask anyone.
    pub fn answer_ping(&self, asked: &ServerRequestEvent) {
        let Some(message) = self.build(|client| client.answer_ping(asked)) else {
            return;
        };
        let link = *self;
        leptos::task::spawn_local(async move {
            let _ = link.post_message(&message).await;
        });
    }

    /// Send `request`, which may pause for input or become a task; `abort` stops it and
    /// `on_event` sees each decoded event (progress) as it arrives.
    pub async fn exchange_outcome<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
        abort: Option<&AbortSignal>,
        on_event: Option<&dyn Fn(&ExchangeEvent)>,
    ) -> Result<Reply<Outcome<M::Output>>, ExchangeError> {
        let mut again = None;
        loop {
            let sending = again.as_ref().unwrap_or(request);
            let answer = self
                .signing_in_as_needed(|| self.exchange_outcome_once(sending, abort, on_event))
                .await;
            if let Some(done) = self.unless_renewed(request, answer, &mut again).await {
                return done;
            }
        }
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
