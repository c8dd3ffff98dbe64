//! The conveyor: one flight per exchange, and the dispatch of each event to the part of the
//! scene the exchange serves (a tray, a cartridge, or only the conveyor).

use serde_json::Value;

use super::cartridges::{Snapshot, SnapshotSource};
use super::{
    Flight, FlightRole, Lane, MAX_FINISHED_FLIGHTS, MAX_MESSAGES_PER_FLIGHT, Part, Traffic,
    narration,
};
use crate::vocabulary::events::{
    AnswerEvent, AnswerKind, EndEvent, NotificationEvent, NotificationKind, SentDetail, SentRequest,
};
use crate::vocabulary::method::MethodId;

impl Traffic {
    pub(super) fn on_sent(&mut self, exchange: u64, at: f64, sent: &SentRequest) {
        let name = sent.name.as_deref();
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
            _ => {
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
                error: None,
                request: sent.request.clone(),
                messages: Vec::new(),
                answered: false,
            },
        );
    }

    pub(super) fn on_responded(&mut self, exchange: u64, at: f64, status: u16) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        flight.responded_at = Some(at);
        flight.status = Some(status);
        true
    }

    /// A notification on the exchange's stream. A task's full state (`notifications/tasks`)
    /// updates its cartridge, whichever stream it came on.
    pub(super) fn on_notification(
        &mut self,
        exchange: u64,
        at: f64,
        note: &NotificationEvent,
    ) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        keep_message(flight, &note.json);
        if let (
            NotificationKind::Progress(progress),
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. },
        ) = (&note.kind, &flight.role)
        {
            let tray = *tray;
            self.tray_progress(tray, at, progress);
            return true;
        }
        if let NotificationKind::Task(task) = &note.kind {
            let params = note.json.get("params").unwrap_or(&Value::Null);
            let slot = self.cartridge_slot(&task.task.task_id, at, true, None);
            self.apply_snapshot(
                slot,
                &Snapshot::of_detailed(task, params),
                at,
                SnapshotSource::Push {
                    method: note.method(),
                },
            );
        }
        true
    }

    pub(super) fn on_answered(&mut self, exchange: u64, at: f64, answer: &AnswerEvent) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        if !answer.json.is_null() {
            keep_message(flight, &answer.json);
        }
        flight.answered = true;
        let role = flight.role.clone();
        let status = flight.status;
        match role {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => {
                self.tray_answered(tray, exchange, at, answer, status)
            }
            FlightRole::Poll { task } => self.poll_answered(exchange, at, &task, answer, status),
            FlightRole::Update { task } => {
                self.update_answered(exchange, at, &task, answer, status)
            }
            FlightRole::Cancel { task } => {
                self.cancel_answered(exchange, at, &task, answer, status)
            }
            FlightRole::Listen | FlightRole::Other => {
                let ok = if role == FlightRole::Listen {
                    narration::LISTEN_ENDED
                } else {
                    narration::RESULT
                };
                self.event(
                    at,
                    Lane::Server,
                    Lane::Client,
                    reply_label(&answer.kind, status, ok),
                    None,
                    Part::Flight(exchange),
                );
                self.mark_failed(failure_of(&answer.kind).is_some());
            }
        }
        true
    }

    /// The exchange is over. One that ended without an answer (stopped, broken off) says
    /// why; a listen stream that simply closed says nothing.
    pub(super) fn on_ended(&mut self, exchange: u64, at: f64, end: &EndEvent) -> bool {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return false;
        };
        flight.ended_at = Some(at);
        flight.error = end.error.clone();
        if flight.answered {
            return true;
        }
        let reason = match (&end.error, end.stopped) {
            (Some(error), _) => error.clone(),
            (None, true) => narration::STOPPED.to_owned(),
            (None, false) => return true,
        };
        match flight.role.clone() {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => {
                self.tray_cut_off(tray, at, reason, end.stopped)
            }
            FlightRole::Listen => {}
            _ => {
                self.event(
                    at,
                    Lane::Server,
                    Lane::Client,
                    reason,
                    None,
                    Part::Flight(exchange),
                );
                self.mark_failed(true);
            }
        }
        true
    }

    /// Forget the oldest finished flights beyond the limit (in-flight ones always stay).
    pub(super) fn prune_flights(&mut self) {
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

/// Keep a received message on its flight, within the flight's bound.
fn keep_message(flight: &mut Flight, message: &Value) {
    if flight.messages.len() >= MAX_MESSAGES_PER_FLIGHT {
        flight.messages.remove(0);
    }
    flight.messages.push(message.clone());
}

/// An answer's arrow label: `ok` for a result, else the error's code or why it failed.
pub(super) fn reply_label(kind: &AnswerKind, status: Option<u16>, ok: &str) -> String {
    match kind {
        AnswerKind::Error { code, .. } => narration::error_label(*code),
        AnswerKind::Invalid { .. } => narration::invalid_label(status),
        _ => ok.to_owned(),
    }
}

/// What went wrong with an answer that is not a result, if it is not.
pub(super) fn failure_of(kind: &AnswerKind) -> Option<&str> {
    match kind {
        AnswerKind::Error { message, .. } => Some(message),
        AnswerKind::Invalid { reason } => Some(reason),
        _ => None,
    }
}
