//! One logical request's runs — a tool's calls, a prompt's gets, a resource's reads — driven
//! through the engine's logical request: rounds, answers, retries, the `-32020` resend, the
//! resend through the relay, progress, Stop and Cancel. Only IO and state here; every
//! decision comes from `LogicalRequest`. One driver serves every method that may pause
//! ([`RunMethod`]).
//!
//! A run belongs to the session, not to a view: switching views (or tools) and coming back
//! finds it where it was, paused ones included.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use holdbay_engine::model::{CallToolResult, JsonObject, ProgressNotificationParam, ProgressToken};
use holdbay_engine::{
    Bounds, CallTool, Client, ErrorStep, ExchangeEvent, Finding, GetPrompt, InputAnswer,
    LogicalRequest, McpMethod, Outcome, OutgoingRequest, ReadResource, Reply, RequestOptions,
    ServerRequestEvent, Step,
};
use leptos::prelude::*;
use web_sys::AbortController;

use super::tamper::{LatchTamper, flip_one_character};
use crate::catalog::Catalog;
use crate::clock::now_ms;
use crate::link::{ExchangeError, Link};
use crate::split::{ChunkMissing, chunk, engine_work};
use crate::tasks::TaskBoard;

/// A method whose logical request the session runs: one that may pause for input (MRTR),
/// with results the views can keep in signals.
pub trait RunMethod:
    McpMethod<Output: Clone + PartialEq + Send + Sync + 'static, Params: Send + Sync + 'static>
    + Clone
    + Send
    + Sync
    + 'static
{
    /// Drive a run's rounds from `first` (see [`RunState::drive`]). In the release build the
    /// driver, and the decoders of input requests and results it needs, are in the
    /// engine-work chunk (`crate::split`), fetched at the first call.
    fn drive(state: RunState<Self>, first: OutgoingRequest<Self>) -> Rounds;
}

/// A run's rounds, driven to where they stop.
pub type Rounds = Pin<Box<dyn Future<Output = ()>>>;

/// [`RunMethod`] for each method the session runs, each with its own split function.
macro_rules! driven_from_the_chunk {
    ($($method:ty => $split:ident),* $(,)?) => {$(
        impl RunMethod for $method {
            fn drive(state: RunState<Self>, first: OutgoingRequest<Self>) -> Rounds {
                Box::pin(async move {
                    match chunk!($split(state, first)) {
                        Ok(rounds) => rounds.await,
                        // Nothing went out: the client cannot go on with the call.
                        Err(missing) => state.set_phase(Phase::Ended {
                            message: missing.to_string(),
                        }),
                    }
                })
            }
        }

        engine_work! {
            fn $split(
                state: RunState<$method>,
                first: OutgoingRequest<$method>,
            ) -> Result<Rounds, ChunkMissing> {
                Ok(Box::pin(state.drive(first)))
            }
        }
    )*};
}

driven_from_the_chunk!(
    CallTool => drive_tool_call,
    GetPrompt => drive_prompt_get,
    ReadResource => drive_resource_read,
);

/// Where the run stands; `O` is the method's result (a tool call's by default).
#[derive(Debug, Clone, PartialEq)]
pub enum Phase<O = CallToolResult> {
    /// A request of the run is on the wire.
    Sending,
    /// The server asked for input; answer every pending request to go on.
    Paused,
    Complete(Box<O>),
    /// The server made the call a task; the task board follows it.
    Task {
        id: String,
    },
    /// A protocol or transport error. `headline`: the engine's heading when an answer came
    /// and was refused (by the server or by the client); `cors`: no answer, the way a CORS
    /// refusal fails.
    Failed {
        message: String,
        headline: Option<&'static str>,
        cors: bool,
    },
    /// The logical request cannot go on (a bound was hit, an answer was refused).
    Ended {
        message: String,
    },
    /// The Stop button aborted the request.
    Stopped,
    Cancelled,
}

impl<O> Phase<O> {
    /// A run is live until it ends one way or another.
    pub fn is_live(&self) -> bool {
        matches!(self, Self::Sending | Self::Paused)
    }
}

/// The latest progress the server reported for this call.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

impl From<&ProgressNotificationParam> for Progress {
    fn from(update: &ProgressNotificationParam) -> Self {
        Self {
            progress: update.progress,
            total: update.total,
            message: update.message.clone(),
        }
    }
}

/// The state of one tool's calls. `Copy`: handles only.
pub type CallRun = Run<CallTool>;
/// One prompt's `prompts/get` runs.
pub type PromptRun = Run<GetPrompt>;
/// One URI's `resources/read` runs.
pub type ReadRun = Run<ReadResource>;

/// The runs of one tool, prompt or resource. `Copy`: handles only.
pub struct Run<M: RunMethod> {
    state: RunState<M>,
    /// Drives rounds until the run completes, pauses for input or fails; its `pending`
    /// says a request is on the wire.
    rounds: Action<OutgoingRequest<M>, ()>,
}

impl<M: RunMethod> Clone for Run<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: RunMethod> Copy for Run<M> {}

/// Everything but the round driver (which captures it).
pub struct RunState<M: RunMethod> {
    link: Link,
    tasks: TaskBoard,
    catalog: Signal<Catalog>,
    /// The tool's or prompt's name, or the resource's URI.
    key: StoredValue<String>,
    phase: RwSignal<Option<Phase<M::Output>>>,
    logical: RwSignal<Option<LogicalRequest<M>>>,
    progress: RwSignal<Option<Progress>>,
    /// What the engine found about the completed result (e.g. it breaks the outputSchema).
    result_findings: RwSignal<Vec<Finding>>,
    tamper: RwSignal<Option<LatchTamper>>,
    /// A legacy server's own requests on the open stream, not answered yet.
    asked: RwSignal<Vec<ServerRequestEvent>>,
    token: StoredValue<Option<ProgressToken>>,
    abort: StoredValue<Option<AbortController>, LocalStorage>,
}

impl<M: RunMethod> Clone for RunState<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: RunMethod> Copy for RunState<M> {}

impl<M: RunMethod> Run<M> {
    /// Runs of `key` (a tool, a prompt, a URI), over `link`; a task goes to `tasks`;
    /// `catalog`'s tools are listed again on `-32020`.
    pub fn new(link: Link, tasks: TaskBoard, catalog: Signal<Catalog>, key: String) -> Self {
        let state = RunState {
            link,
            tasks,
            catalog,
            key: StoredValue::new(key),
            phase: RwSignal::new(None),
            logical: RwSignal::new(None),
            progress: RwSignal::new(None),
            result_findings: RwSignal::new(Vec::new()),
            tamper: RwSignal::new(None),
            asked: RwSignal::new(Vec::new()),
            token: StoredValue::new(None),
            abort: StoredValue::new_local(None),
        };
        let rounds =
            Action::new_local(move |first: &OutgoingRequest<M>| M::drive(state, first.clone()));
        Self { state, rounds }
    }

    /// The tool's or prompt's name, or the resource's URI.
    pub fn key(&self) -> String {
        self.state.key.get_value()
    }

    /// Where the run stands (`None` before the first request).
    pub fn phase(&self) -> Signal<Option<Phase<M::Output>>> {
        self.state.phase.into()
    }

    pub fn progress(&self) -> Signal<Option<Progress>> {
        self.state.progress.into()
    }

    /// The engine's findings about the completed result (shown with it; the link's
    /// findings list has them too).
    pub fn result_findings(&self) -> Signal<Vec<Finding>> {
        self.state.result_findings.into()
    }

    /// What a legacy server asked on the open stream of the request on the wire, not
    /// answered yet (the stream waits for the answers).
    pub fn server_asks(&self) -> Signal<Vec<ServerRequestEvent>> {
        self.state.asked.into()
    }

    /// Answer the server's request `asked` (a legacy session): the engine writes the
    /// response, which goes in a POST of its own while the request's stream stays open.
    pub fn answer_server(self, asked: &ServerRequestEvent, answer: &InputAnswer) {
        self.state
            .link
            .answer_server(self.state.asked, asked, answer);
    }

    /// The latch the learner changed for the next retry (lesson 8), if any.
    pub fn tamper(&self) -> Signal<Option<LatchTamper>> {
        self.state.tamper.into()
    }

    /// Read the logical request (tracked).
    pub fn with_logical<R>(&self, read: impl FnOnce(Option<&LogicalRequest<M>>) -> R) -> R {
        self.state.logical.with(|logical| read(logical.as_ref()))
    }

    /// A call is live (on the wire or paused for input).
    pub fn is_live(&self) -> bool {
        self.state
            .phase
            .with_untracked(|phase| phase.as_ref().is_some_and(Phase::is_live))
    }

    /// Start a new logical request with what `build` makes (the request and its progress
    /// token, or why it cannot be made). A paused run is given up for it (the server keeps
    /// nothing for a paused request); one on the wire must land first.
    pub fn start_with(
        self,
        build: impl FnOnce(&mut Client) -> Result<(OutgoingRequest<M>, Option<ProgressToken>), String>,
    ) -> Result<(), String> {
        match self.state.phase.get_untracked() {
            Some(Phase::Sending) => {
                return Err(
                    "A request of the last call is still on the wire: wait for it, or Stop it."
                        .to_owned(),
                );
            }
            Some(Phase::Paused) => self.cancel(),
            _ => {}
        }
        let (request, token) = match self.state.link.build(build) {
            Some(Ok(built)) => built,
            Some(Err(message)) => {
                self.state.set_phase(Phase::Ended { message });
                return Ok(());
            }
            None => return Ok(()),
        };
        let logical = LogicalRequest::start(&request, Bounds::default(), now_ms());
        self.state.logical.try_set(Some(logical));
        self.state.token.try_set_value(token);
        self.state.progress.try_set(None);
        self.state.result_findings.try_set(Vec::new());
        self.state.tamper.try_set(None);
        self.state.set_phase(Phase::Sending);
        self.rounds.dispatch_local(request);
        Ok(())
    }

    /// Answer one input request of the paused round; once every key has an answer, the
    /// next round goes out by itself.
    pub fn answer(self, key: &str, answer: InputAnswer) {
        let answered = self
            .state
            .logical
            .try_update(|l| l.as_mut().map(|l| l.answer(key, answer)));
        if let Some(Some(Err(error))) = answered {
            return self.state.set_phase(Phase::Ended {
                message: error.to_string(),
            });
        }
        let all_answered = self
            .state
            .logical
            .try_with_untracked(|l| l.as_ref().is_some_and(|l| l.pending_inputs().is_empty()))
            .unwrap_or(false);
        if all_answered && let Some(request) = self.state.retry() {
            self.state.set_phase(Phase::Sending);
            self.rounds.dispatch_local(request);
        }
    }

    /// Make the next retry carry `latch` of round `round` with one character changed: a
    /// deliberate teaching action (the server must refuse it).
    pub fn tamper_latch(self, round: u32, latch: &str) {
        let Some((after, position)) = flip_one_character(latch) else {
            return;
        };
        let taken = self
            .state
            .logical
            .try_update(|l| l.as_mut().map(|l| l.tamper_request_state(after.clone())));
        if let Some(Some(Ok(()))) = taken {
            self.state.tamper.try_set(Some(LatchTamper {
                round,
                before: latch.to_owned(),
                after,
                position,
            }));
        }
    }

    /// Undo [`CallRun::tamper_latch`]: the next retry carries the server's latch again.
    pub fn untamper(self) {
        let Some(Some(change)) = self.state.tamper.try_get_untracked() else {
            return;
        };
        let restored = self
            .state
            .logical
            .try_update(|l| l.as_mut().map(|l| l.tamper_request_state(change.before)));
        if let Some(Some(Ok(()))) = restored {
            self.state.tamper.try_set(None);
        }
    }

    /// Stop: abort the request on the wire (the server sees its stream close).
    pub fn stop(self) {
        if let Some(Some(controller)) = self.state.abort.try_get_value() {
            controller.abort();
        }
    }

    /// Abandon the logical request; a reply that still arrives is ignored.
    pub fn cancel(self) {
        self.state
            .logical
            .try_update(|l| l.as_mut().map(|l| l.cancel()));
        self.stop();
        self.state.set_phase(Phase::Cancelled);
    }

    /// The latest round got no answer directly (CORS is the likely cause): route the
    /// connection through the relay and send the round again, as the engine builds it.
    pub fn resend_via_relay(self) {
        let mut connection = self.state.link.connection_now();
        connection.via_relay = true;
        self.state.link.set_connection(connection);
        let resent = self
            .state
            .link
            .build(|client| {
                self.state
                    .logical
                    .try_update(|l| l.as_mut().map(|l| l.resend_unanswered(client)))
            })
            .flatten()
            .flatten();
        match resent {
            Some(Ok(request)) => {
                self.state.set_phase(Phase::Sending);
                self.rounds.dispatch_local(request);
            }
            Some(Err(error)) => self.state.set_phase(Phase::Ended {
                message: error.to_string(),
            }),
            None => {}
        }
    }
}

impl CallRun {
    /// The tool this run calls.
    pub fn tool(&self) -> String {
        self.key()
    }

    /// Start a new call with these arguments (see [`Run::start_with`]).
    pub fn start(
        self,
        arguments: JsonObject,
        accept_task: bool,
        report_progress: bool,
    ) -> Result<(), String> {
        let tool = self.tool();
        self.start_with(|client| {
            let progress_token = report_progress.then(|| client.progress_token());
            let options = RequestOptions {
                progress_token: progress_token.clone(),
                accept_task,
            };
            client
                .call_tool(&tool, Some(arguments), &options)
                .map(|request| (request, progress_token))
                .map_err(|error| error.to_string())
        })
    }
}

impl PromptRun {
    /// Get the prompt with these arguments (sent exactly as given).
    pub fn get(self, arguments: BTreeMap<String, String>) -> Result<(), String> {
        let name = self.key();
        self.start_with(|client| Ok((client.get_prompt(&name, &arguments), None)))
    }
}

impl ReadRun {
    /// Read the resource.
    pub fn read(self) -> Result<(), String> {
        let uri = self.key();
        self.start_with(|client| Ok((client.read_resource(&uri), None)))
    }
}

impl<M: RunMethod> RunState<M> {
    /// Put `request` on the wire and act on the answer, until the run completes, pauses
    /// for input or fails.
    async fn drive(self, first: OutgoingRequest<M>) {
        let mut request = first;
        loop {
            self.set_phase(Phase::Sending);
            let next = match self.send(&request).await {
                Ok(reply) => {
                    let findings = reply.findings.clone();
                    let step = self
                        .logical
                        .try_update(|logical| logical.as_mut().map(|l| l.handle(reply)));
                    match step.flatten() {
                        Some(Step::Complete(result)) => {
                            self.result_findings.try_set(findings);
                            return self.set_phase(Phase::Complete(Box::new(result)));
                        }
                        Some(Step::NeedsInput) => return self.set_phase(Phase::Paused),
                        Some(Step::RetryWithoutInput) => self.retry(),
                        Some(Step::Task(created)) => {
                            if let Some(key) = self.key.try_get_value() {
                                self.tasks.adopt_in(&created, &key, request.era());
                            }
                            let id = created.task.task_id.clone();
                            return self.set_phase(Phase::Task { id });
                        }
                        Some(Step::Cancelled) | None => return,
                    }
                }
                Err(error) => self.after_error(error).await,
            };
            match next {
                Some(again) => request = again,
                None => return,
            }
        }
    }

    /// The request's exchange, with progress from its events and an abort signal for Stop.
    async fn send(
        self,
        request: &OutgoingRequest<M>,
    ) -> Result<Reply<Outcome<M::Output>>, ExchangeError> {
        let controller = AbortController::new().ok();
        let signal = controller.as_ref().map(AbortController::signal);
        self.abort.try_set_value(controller);
        let token = self.token.try_get_value().flatten();
        let progress = self.progress;
        let (link, asked) = (self.link, self.asked);
        let on_event = move |event: &ExchangeEvent| {
            if let Some(update) = token.as_ref().and_then(|token| event.progress_for(token)) {
                progress.try_set(Some(update.into()));
            }
            if let ExchangeEvent::ServerRequest(request) = event {
                if request.is_ping() {
                    link.answer_ping(request);
                } else {
                    asked.try_update(|asked| asked.push((**request).clone()));
                }
            }
        };
        // A legacy server may send the call's progress on the session's own stream.
        let watching = self.token.try_get_value().flatten().map(|token| {
            self.link
                .watch_stream(std::rc::Rc::new(move |event: &ExchangeEvent| {
                    if let Some(update) = event.progress_for(&token) {
                        progress.try_set(Some(update.into()));
                    }
                }))
        });
        let outcome = self
            .link
            .exchange_outcome(request, signal.as_ref(), Some(&on_event))
            .await;
        if let Some(watching) = watching {
            self.link.unwatch_stream(watching);
        }
        self.abort.try_set_value(None);
        if matches!(outcome, Err(ExchangeError::Aborted { .. })) {
            self.link.cancel_on_server(request.id());
        }
        // The stream is over: what it asked can no longer be answered.
        self.asked.try_set(Vec::new());
        outcome
    }

    /// Decide with the engine what an error means; `Some(request)` to send next.
    async fn after_error(self, error: ExchangeError) -> Option<OutgoingRequest<M>> {
        let cancelled = self
            .logical
            .try_with_untracked(|l| l.as_ref().is_some_and(LogicalRequest::is_cancelled))
            .unwrap_or(true);
        if cancelled {
            return None;
        }
        let ExchangeError::Response(response_error) = &error else {
            let phase = match error {
                ExchangeError::Aborted { .. } => Phase::Stopped,
                other => Phase::Failed {
                    cors: other.could_be_cors(),
                    headline: None,
                    message: other.to_string(),
                },
            };
            self.set_phase(phase);
            return None;
        };
        let step = self
            .logical
            .try_update(|l| l.as_mut().map(|l| l.handle_error(response_error)))
            .flatten();
        if step == Some(ErrorStep::CancelRefusedTask) {
            let cancelled = self.cancel_refused_task(response_error).await;
            self.set_phase(Phase::Failed {
                message: format!("{error}. {cancelled}"),
                headline: Some(response_error.headline()),
                cors: false,
            });
            return None;
        }
        if step == Some(ErrorStep::RelistToolsAndResend) {
            let catalog = self.catalog.get_untracked();
            if let Err(message) = catalog.relist_tools(self.link).await {
                self.set_phase(Phase::Failed {
                    message: format!("{error}; listing the tools again failed: {message}"),
                    headline: Some(response_error.headline()),
                    cors: false,
                });
                return None;
            }
            let resent = self
                .link
                .build(|client| {
                    self.logical
                        .try_update(|l| l.as_mut().map(|l| l.resend(client)))
                })
                .flatten()
                .flatten();
            return match resent {
                Some(Ok(request)) => Some(request),
                Some(Err(mrtr)) => {
                    self.set_phase(Phase::Ended {
                        message: mrtr.to_string(),
                    });
                    None
                }
                None => None,
            };
        }
        self.set_phase(Phase::Failed {
            message: error.to_string(),
            headline: Some(response_error.headline()),
            cors: false,
        });
        None
    }

    /// The server created a task the engine refused: ask the server to cancel it, so it does
    /// not run on unseen, and say how that went.
    async fn cancel_refused_task(self, refused: &holdbay_engine::ResponseError) -> String {
        let cancel = holdbay_engine::MethodId::CancelTask;
        let request = self
            .link
            .build(|client| {
                self.logical
                    .try_with_untracked(|l| l.as_ref()?.cancel_refused_task(client, refused))
                    .flatten()
            })
            .flatten();
        let Some(request) = request else {
            return "It names no task to cancel.".to_owned();
        };
        match self.link.exchange(&request).await {
            Ok(_) => format!(
                "Holdbay asked the server to cancel it ({cancel}), and the server acknowledged."
            ),
            Err(error) => format!("It could not be cancelled: {cancel} {error}."),
        }
    }

    /// The next round from the engine, or the reason it refuses (a bound was hit).
    fn retry(self) -> Option<OutgoingRequest<M>> {
        let now = now_ms();
        let retried = self
            .link
            .build(|client| {
                self.logical
                    .try_update(|l| l.as_mut().map(|l| l.retry(client, now)))
            })
            .flatten()
            .flatten()?;
        match retried {
            Ok(request) => Some(request),
            Err(error) => {
                self.set_phase(Phase::Ended {
                    message: error.to_string(),
                });
                None
            }
        }
    }

    fn set_phase(self, phase: Phase<M::Output>) {
        self.phase.try_set(Some(phase));
    }
}
