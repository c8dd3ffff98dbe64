//! The conveyor: one flight per exchange, and the dispatch of each event to the part of the
//! scene the exchange serves (a tray, a cartridge, or only the conveyor).

use holdbay_engine::era::SESSION_UNKNOWN_STATUS;
use holdbay_engine::{
    AnswerEvent, EndEvent, MethodId, NotificationEvent, NotificationKind, SentDetail, SentRequest,
};
use serde_json::Value;

use super::snapshot::{Snapshot, SnapshotSource};
use crate::failure::{broke_off, failure_of};
use crate::narration;
use crate::parts::{Flight, FlightRole, Lane, Part};
use crate::traffic::{MAX_FINISHED_FLIGHTS, MAX_NOTIFICATIONS_PER_FLIGHT, Traffic};

impl Traffic {
    pub(crate) fn on_sent(&mut self, exchange: u64, at: f64, sent: &SentRequest) {
        let name = sent.name.as_deref();
        if sent.method != Some(MethodId::Initialize) {
            self.count_in_session();
        }
        let role = match (&sent.detail, sent.method) {
            (
                SentDetail::Round {
                    workpiece,
                    request_state,
                    answers,
                    ..
                },
                Some(method),
            ) => self.open_or_retry(
                exchange,
                at,
                method,
                name,
                workpiece,
                request_state.as_deref(),
                answers.as_ref(),
                sent,
            ),
            (SentDetail::TaskGet { task_id }, _) => self.poll_sent(exchange, at, task_id),
            (SentDetail::TaskUpdate { task_id, keys }, _) => {
                self.update_sent(exchange, at, task_id, keys)
            }
            (SentDetail::TaskCancel { task_id }, _) => self.cancel_sent(exchange, at, task_id),
            (SentDetail::Listen { .. }, _) => {
                self.event(
                    at,
                    Lane::Client,
                    Lane::Server,
                    MethodId::Listen.name().to_owned(),
                    None,
                    Part::Flight(exchange),
                );
                FlightRole::Listen
            }
            (SentDetail::ServerAnswer { asked }, _) => {
                self.server_answer_sent(exchange, at, asked, &sent.request)
            }
            (SentDetail::SessionStream, _) => {
                self.session_stream_sent(exchange, at, sent.method_name.clone())
            }
            (_, Some(MethodId::Initialize)) => {
                self.initialize_sent(exchange, at, narration::initialize_label())
            }
            (detail, _) => {
                if *detail == SentDetail::SessionEnd {
                    self.end_session(at, narration::SESSION_DELETED);
                }
                self.event(
                    at,
                    Lane::Client,
                    Lane::Server,
                    narration::request_label(&sent.method_name, name),
                    None,
                    Part::Flight(exchange),
                );
                FlightRole::Other
            }
        };
        self.flights.insert(
            exchange,
            Flight {
                exchange,
                rpc_id: sent.id.clone(),
                method: sent.method,
                method_name: sent.method_name.clone(),
                name: sent.name.clone(),
                role,
                sent_at: at,
                responded_at: None,
                status: None,
                ended_at: None,
                end: None,
                request: sent.request.clone(),
                notifications: Vec::new(),
                answer: None,
            },
        );
    }

    pub(crate) fn on_responded(&mut self, exchange: u64, at: f64, status: u16) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        flight.responded_at = Some(at);
        flight.status = Some(status);
        // In a legacy session a 404 says one thing only: the server no longer knows it.
        if status == SESSION_UNKNOWN_STATUS && flight.role != FlightRole::Initialize {
            self.end_session(at, narration::SESSION_LOST);
        }
        true
    }

    /// A notification on the exchange's stream. A task's full state (`notifications/tasks`)
    /// updates its cartridge, whichever stream it came on.
    pub(crate) fn on_notification(
        &mut self,
        exchange: u64,
        at: f64,
        note: &NotificationEvent,
    ) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        keep_notification(flight, &note.json);
        if let (
            NotificationKind::Progress(progress),
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. },
        ) = (&note.kind, &flight.role)
        {
            let tray = *tray;
            self.tray_progress(tray, at, progress);
            return true;
        }
        let params = note.params().unwrap_or(&Value::Null);
        let pushed = match &note.kind {
            NotificationKind::Task(task) => Some(Snapshot::of_detailed(task, params)),
            NotificationKind::LegacyTaskStatus(task) => Some(Snapshot::of_task(task, params)),
            _ => None,
        };
        if let Some(snapshot) = pushed {
            let slot = self.cartridge_slot(&snapshot.task.task_id, at, true, None);
            let method = note.method();
            self.apply_snapshot(slot, &snapshot, at, SnapshotSource::Push { method });
        }
        true
    }

    pub(crate) fn on_answered(&mut self, exchange: u64, at: f64, answer: &AnswerEvent) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        flight.answer = Some(answer.clone());
        let role = flight.role.clone();
        let status = flight.status;
        let reply = Reply {
            exchange,
            at,
            answer,
            status,
        };
        match role {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => {
                self.tray_answered(tray, reply)
            }
            FlightRole::Poll { task } => self.poll_answered(reply, &task),
            FlightRole::Update { task } => self.update_answered(reply, &task),
            FlightRole::Cancel { task } => self.cancel_answered(reply, &task),
            FlightRole::Initialize => {
                let request = self.flights.get(&exchange).map(|f| f.request.clone());
                self.initialize_answered(reply, request.unwrap_or_default());
            }
            FlightRole::Listen
            | FlightRole::Other
            | FlightRole::SessionStream
            | FlightRole::AnswersServer { .. } => {
                let ok = if role == FlightRole::Listen {
                    narration::LISTEN_ENDED
                } else {
                    narration::RESULT
                };
                self.answer_step(reply, ok, |_| None);
            }
        }
        true
    }

    /// An answer's step on the flight's own part: its arrow (`ok` for a result), the
    /// sentence `narrate` makes of a failure, marked failed by the scene's one rule.
    pub(crate) fn answer_step(
        &mut self,
        reply: Reply<'_>,
        ok: &str,
        narrate: impl FnOnce(&str) -> Option<String>,
    ) {
        let failure = failure_of(&reply.answer.kind);
        let label = narration::reply_label(&reply.answer.kind, reply.status, ok);
        self.reply_event(
            reply,
            label,
            failure.and_then(narrate),
            Part::Flight(reply.exchange),
        );
    }

    /// The answer's arrow back to the client, marked failed by the scene's one rule.
    pub(crate) fn reply_event(
        &mut self,
        reply: Reply<'_>,
        label: String,
        narration: Option<String>,
        part: Part,
    ) {
        self.event(reply.at, Lane::Server, Lane::Client, label, narration, part);
        self.mark_failed(failure_of(&reply.answer.kind).is_some());
    }

    /// The exchange is over. One that ended without an answer (stopped, broken off) says
    /// why; a listen stream that simply closed says nothing.
    pub(crate) fn on_ended(&mut self, exchange: u64, at: f64, end: &EndEvent) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        flight.ended_at = Some(at);
        flight.end = Some(end.clone());
        if flight.role == FlightRole::SessionStream {
            self.session_stream_ended(exchange);
            return true;
        }
        if flight.answered() {
            return true;
        }
        let reason = match (&end.error, end.stopped) {
            (Some(error), _) => error.clone(),
            (None, true) => narration::STOPPED.to_owned(),
            (None, false) => return true,
        };
        match flight.role.clone() {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => {
                self.tray_cut_off(tray, at, reason, end)
            }
            FlightRole::Listen | FlightRole::SessionStream => {}
            _ => {
                self.event(
                    at,
                    Lane::Server,
                    Lane::Client,
                    reason,
                    None,
                    Part::Flight(exchange),
                );
                self.mark_failed(broke_off(end));
            }
        }
        true
    }

    /// Forget the oldest finished flights beyond the limit (in-flight ones always stay).
    pub(crate) fn prune_flights(&mut self) {
        let finished = self
            .flights
            .values()
            .filter(|f| f.ended_at.is_some())
            .count();
        if finished <= MAX_FINISHED_FLIGHTS {
            return;
        }
        let mut excess = finished - MAX_FINISHED_FLIGHTS;
        self.flights.retain(|_, flight| {
            if excess > 0 && flight.ended_at.is_some() {
                excess -= 1;
                false
            } else {
                true
            }
        });
    }
}

/// Keep a notification on its flight, within the flight's bound.
fn keep_notification(flight: &mut Flight, message: &Value) {
    if flight.notifications.len() >= MAX_NOTIFICATIONS_PER_FLIGHT {
        flight.notifications.remove(0);
    }
    flight.notifications.push(message.clone());
}

/// A server's answer as the fold meets it: which exchange, when, what, and the HTTP status.
#[derive(Clone, Copy)]
pub(crate) struct Reply<'a> {
    pub exchange: u64,
    pub at: f64,
    pub answer: &'a AnswerEvent,
    pub status: Option<u16>,
}
