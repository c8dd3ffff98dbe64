//! One call of a tool, driven through the engine's logical request: rounds, answers,
//! retries, the `-32020` resend, progress, Stop and Cancel. Only IO and state here; every
//! decision comes from `LogicalRequest`.

use holdbay_engine::model::{CallToolResult, JsonObject, ProgressNotificationParam, ProgressToken};
use holdbay_engine::{
    Bounds, CallTool, ErrorStep, LogicalRequest, Outcome, OutgoingRequest, Reply, RequestOptions,
    Step, ToolPages, progress_updates,
};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;
use web_sys::AbortController;

use super::tamper::{LatchTamper, flip_one_character};
use crate::transport::{ExchangeError, exchange, exchange_outcome};
use crate::ui::session::{Session, Step as Loaded, Toolbox};

/// Where the call stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// A request of the call is on the wire.
    Sending,
    /// The server asked for input; answer every pending request to go on.
    Paused,
    Complete(Box<CallToolResult>),
    /// The server made the call a task; the tasks panel follows it.
    Task {
        id: String,
    },
    /// A protocol or transport error. `protocol`: the server answered with an error;
    /// `cors`: no answer, the way a CORS refusal fails.
    Failed {
        message: String,
        protocol: bool,
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

impl Phase {
    /// A call is live until it ends one way or another.
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

impl From<ProgressNotificationParam> for Progress {
    fn from(update: ProgressNotificationParam) -> Self {
        Self {
            progress: update.progress,
            total: update.total,
            message: update.message,
        }
    }
}

/// The state of one tool's calls in the panel. `Copy`: signal handles only.
#[derive(Clone, Copy)]
pub struct CallRun {
    pub session: Session,
    pub tool: StoredValue<String>,
    pub phase: RwSignal<Option<Phase>>,
    pub logical: RwSignal<Option<LogicalRequest<CallTool>>>,
    pub progress: RwSignal<Option<Progress>>,
    /// The latch the learner changed for the next retry (lesson 8), if any.
    pub tamper: RwSignal<Option<LatchTamper>>,
    /// The request last put on the wire, kept to send it again through the relay.
    last_request: StoredValue<Option<OutgoingRequest<CallTool>>>,
    token: StoredValue<Option<ProgressToken>>,
    abort: StoredValue<Option<AbortController>, LocalStorage>,
}

impl CallRun {
    pub fn new(session: Session, tool: String) -> Self {
        Self {
            session,
            tool: StoredValue::new(tool),
            phase: RwSignal::new(None),
            logical: RwSignal::new(None),
            progress: RwSignal::new(None),
            tamper: RwSignal::new(None),
            last_request: StoredValue::new(None),
            token: StoredValue::new(None),
            abort: StoredValue::new_local(None),
        }
    }

    /// Start a new logical request with these arguments.
    pub fn start(self, arguments: JsonObject, accept_task: bool, report_progress: bool) {
        let Some(tool) = self.tool.try_get_value() else {
            return;
        };
        let built = self.session.build(|client| {
            let progress_token = report_progress.then(|| client.progress_token());
            let options = RequestOptions {
                progress_token: progress_token.clone(),
                accept_task,
            };
            client
                .call_tool(&tool, Some(arguments), &options)
                .map(|request| (request, progress_token))
        });
        let (request, token) = match built {
            Some(Ok(built)) => built,
            Some(Err(error)) => {
                self.set_phase(Phase::Ended {
                    message: error.to_string(),
                });
                return;
            }
            None => return,
        };
        let logical = LogicalRequest::start(&request, Bounds::default(), now_ms());
        self.logical.try_set(Some(logical));
        self.token.try_set_value(token);
        self.progress.try_set(None);
        self.tamper.try_set(None);
        spawn_local(self.drive(request));
    }

    /// Make the next retry carry `latch` of round `round` with one character changed: a
    /// deliberate teaching action (the server must refuse it).
    pub fn tamper_latch(self, round: u32, latch: &str) {
        let Some((after, position)) = flip_one_character(latch) else {
            return;
        };
        let taken = self
            .logical
            .try_update(|l| l.as_mut().map(|l| l.tamper_request_state(after.clone())));
        if let Some(Some(Ok(()))) = taken {
            self.tamper.try_set(Some(LatchTamper {
                round,
                before: latch.to_owned(),
                after,
                position,
            }));
        }
    }

    /// Undo [`CallRun::tamper_latch`]: the next retry carries the server's latch again.
    pub fn untamper(self) {
        let Some(Some(change)) = self.tamper.try_get_untracked() else {
            return;
        };
        let restored = self
            .logical
            .try_update(|l| l.as_mut().map(|l| l.tamper_request_state(change.before)));
        if let Some(Some(Ok(()))) = restored {
            self.tamper.try_set(None);
        }
    }

    /// Put `request` on the wire and act on the answer, until the call completes, pauses
    /// for input or fails.
    async fn drive(self, first: OutgoingRequest<CallTool>) {
        let mut request = first;
        loop {
            self.set_phase(Phase::Sending);
            self.last_request.try_set_value(Some(request.clone()));
            let next = match self.send(&request).await {
                Ok(reply) => {
                    self.session.note_findings(reply.findings.clone());
                    let step = self
                        .logical
                        .try_update(|logical| logical.as_mut().map(|l| l.handle(reply)));
                    match step.flatten() {
                        Some(Step::Complete(result)) => {
                            return self.set_phase(Phase::Complete(Box::new(result)));
                        }
                        Some(Step::NeedsInput) => return self.set_phase(Phase::Paused),
                        Some(Step::RetryWithoutInput) => self.retry(),
                        Some(Step::Task(created)) => {
                            if let Some(tool) = self.tool.try_get_value() {
                                self.session.tasks.adopt(&created, &tool);
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

    /// The request's exchange, with progress from its stream and an abort signal for Stop.
    async fn send(
        self,
        request: &OutgoingRequest<CallTool>,
    ) -> Result<Reply<Outcome<CallToolResult>>, ExchangeError> {
        let controller = AbortController::new().ok();
        let signal = controller.as_ref().map(AbortController::signal);
        self.abort.try_set_value(controller);
        let token = self.token.try_get_value().flatten();
        let progress = self.progress;
        let on_stream = move |messages: &[String]| {
            let Some(token) = &token else { return };
            let values: Vec<Value> = messages
                .iter()
                .filter_map(|text| serde_json::from_str(text).ok())
                .collect();
            if let Some(latest) = progress_updates(&values, token).pop() {
                progress.try_set(Some(latest.into()));
            }
        };
        let connection = self.session.connection_now();
        let mut how = self.session.exchange_with(&connection);
        how.abort = signal.as_ref();
        how.on_stream = Some(&on_stream);
        let outcome = exchange_outcome(&how, request).await;
        self.abort.try_set_value(None);
        outcome
    }

    /// Decide with the engine what an error means; `Some(request)` to send next.
    async fn after_error(self, error: ExchangeError) -> Option<OutgoingRequest<CallTool>> {
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
                    protocol: false,
                    message: other.to_string(),
                },
            };
            self.set_phase(phase);
            return None;
        };
        self.session.note_findings(response_error.finding());
        let step = self
            .logical
            .try_update(|l| l.as_mut().map(|l| l.handle_error(response_error)))
            .flatten();
        if step == Some(ErrorStep::RelistToolsAndResend) {
            if let Err(message) = self.relist_tools().await {
                self.set_phase(Phase::Failed {
                    message: format!("{error}; listing the tools again failed: {message}"),
                    protocol: true,
                    cors: false,
                });
                return None;
            }
            let resent = self
                .session
                .build(|client| {
                    self.logical
                        .try_update(|l| l.as_mut().map(|l| l.resend(client)))
                })
                .flatten()
                .flatten();
            match resent {
                Some(Ok(request)) => return Some(request),
                Some(Err(mrtr)) => {
                    self.set_phase(Phase::Ended {
                        message: mrtr.to_string(),
                    });
                    return None;
                }
                None => return None,
            }
        }
        self.set_phase(Phase::Failed {
            message: error.to_string(),
            protocol: true,
            cors: false,
        });
        None
    }

    /// `tools/list` again after `-32020`, so the engine rebuilds the mirrored headers.
    async fn relist_tools(self) -> Result<(), String> {
        let discovered = match self.session.discovery.try_get_untracked() {
            Some(Loaded::Done(discovered)) => discovered,
            _ => return Err("the server was not discovered".to_owned()),
        };
        let mut pages = ToolPages::for_server(&discovered)
            .ok_or_else(|| "the server does not advertise tools".to_owned())?;
        let connection = self.session.connection_now();
        let how = self.session.exchange_with(&connection);
        while let Some(request) = self
            .session
            .build(|client| pages.next_request(client))
            .flatten()
        {
            let reply = exchange(&how, &request).await.map_err(|e| e.to_string())?;
            pages.accept(reply).map_err(|e| e.to_string())?;
        }
        let (kept, findings) = self
            .session
            .build(|client| client.learn_tools(pages.into_tools()))
            .ok_or_else(|| "the page is closing".to_owned())?;
        let hidden = findings.iter().map(|f| f.explanation.clone()).collect();
        self.session.note_findings(findings);
        self.session.tools.try_set(Loaded::Done(Some(Toolbox {
            tools: kept,
            hidden,
        })));
        Ok(())
    }

    /// Answer one input request of the paused round; once every key has an answer, the
    /// next round goes out by itself.
    pub fn answer(self, key: &str, response: Value) {
        let answered = self
            .logical
            .try_update(|l| l.as_mut().map(|l| l.answer(key, response)));
        if let Some(Some(Err(error))) = answered {
            return self.set_phase(Phase::Ended {
                message: error.to_string(),
            });
        }
        let all_answered = self
            .logical
            .try_with_untracked(|l| l.as_ref().is_some_and(|l| l.pending_inputs().is_empty()))
            .unwrap_or(false);
        if all_answered && let Some(request) = self.retry() {
            spawn_local(self.drive(request));
        }
    }

    /// The next round from the engine, or the reason it refuses (a bound was hit).
    fn retry(self) -> Option<OutgoingRequest<CallTool>> {
        let now = now_ms();
        let retried = self
            .session
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

    /// Stop: abort the request on the wire (the server sees its stream close).
    pub fn stop(self) {
        if let Some(Some(controller)) = self.abort.try_get_value() {
            controller.abort();
        }
    }

    /// Abandon the logical request; a reply that still arrives is ignored.
    pub fn cancel(self) {
        self.logical.try_update(|l| l.as_mut().map(|l| l.cancel()));
        self.stop();
        self.set_phase(Phase::Cancelled);
    }

    /// Send the failed request again through the relay (CORS is the likely cause).
    pub fn retry_via_relay(self) {
        self.session
            .connection
            .try_update(|connection| connection.via_relay = true);
        if let Some(Some(request)) = self.last_request.try_get_value() {
            spawn_local(self.drive(request));
        }
    }

    fn set_phase(self, phase: Phase) {
        self.phase.try_set(Some(phase));
    }
}

fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}
