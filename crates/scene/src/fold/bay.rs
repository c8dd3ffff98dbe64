//! The holding bay: a tray per logical request (`tools/call`, `prompts/get`,
//! `resources/read`), its rounds joined by their latch, and how it empties.

use holdbay_engine::model::{InputResponses, ProgressNotificationParam};
use holdbay_engine::{AnswerKind, EndEvent, MethodId, SentRequest};
use serde_json::Value;

use super::conveyor::Reply;
use super::snapshot::{Snapshot, SnapshotSource};
use crate::failure::broke_off;
use crate::narration;
use crate::parts::{FlightRole, Lane, Part, Tag, Tray, TrayProgress, TrayRound, TrayState};
use crate::traffic::{MAX_FINISHED_TRAYS, Traffic};

/// Progress notifications of one tray listed one by one on the timeline; later ones replace
/// the last.
pub const PROGRESS_STEPS_LISTED: u32 = 20;

impl Traffic {
    /// A logical request's first round opens a tray; a retry (it carries `requestState` or
    /// `inputResponses`) goes back into the paused tray it answers.
    #[allow(clippy::too_many_arguments)] // the round's parts, as the request carried them
    pub(crate) fn open_or_retry(
        &mut self,
        exchange: u64,
        at: f64,
        method: MethodId,
        name: Option<&str>,
        workpiece: &Value,
        sent_state: Option<&str>,
        answers: Option<&InputResponses>,
        sent: &SentRequest,
    ) -> FlightRole {
        if (sent_state.is_some() || answers.is_some())
            && let Some(index) = self.paused_tray_for(method, name, sent_state)
        {
            return self.retry(exchange, at, index, name, sent_state, answers);
        }
        self.abandon_paused(at, method, name);
        let in_session = self.open_session().is_some();
        self.trays.push(Tray {
            id: exchange,
            method,
            name: name.map(str::to_owned),
            workpiece: workpiece.clone(),
            rounds: vec![round(1, exchange, at, None, false, None)],
            state: TrayState::InFlight,
            opened_at: at,
            closed_at: None,
            max_rounds: self.max_rounds,
            progress: None,
            request: sent.request.clone(),
            offers_task: sent.declares_tasks,
            in_session,
        });
        self.event(
            at,
            Lane::Client,
            Lane::Server,
            narration::request_label(method.name(), name),
            Some(narration::opens(method, name)),
            Part::Tray(exchange),
        );
        FlightRole::Opens { tray: exchange }
    }

    fn retry(
        &mut self,
        exchange: u64,
        at: f64,
        index: usize,
        name: Option<&str>,
        sent_state: Option<&str>,
        answers: Option<&InputResponses>,
    ) -> FlightRole {
        let tray = &mut self.trays[index];
        let latch_changed = sent_state != tray.latch();
        let number = tray.rounds.len() as u32 + 1;
        let (tray_id, method) = (tray.id, tray.method);
        tray.rounds.push(round(
            number,
            exchange,
            at,
            sent_state,
            latch_changed,
            answers.cloned(),
        ));
        tray.state = TrayState::InFlight;
        // Progress belongs to one round's stream; a retry starts without any.
        tray.progress = None;
        if let Some(answers) = answers {
            let keys: Vec<&str> = answers.keys().map(String::as_str).collect();
            self.event(
                at,
                Lane::User,
                Lane::Client,
                narration::answered_label(&keys),
                None,
                Part::Tray(tray_id),
            );
        }
        self.event(
            at,
            Lane::Client,
            Lane::Server,
            narration::retry_label(method, name, number),
            Some(narration::retry(name, number, latch_changed)),
            Part::Latch {
                tray: tray_id,
                round: number - 1,
            },
        );
        FlightRole::Retry {
            tray: tray_id,
            round: number,
        }
    }

    /// A fresh request for the same method and name: the client gave up any paused one.
    fn abandon_paused(&mut self, at: f64, method: MethodId, name: Option<&str>) {
        let abandoned: Vec<u64> = self
            .trays
            .iter_mut()
            .filter(|tray| waiting(tray, method, name))
            .map(|tray| {
                tray.state = TrayState::Abandoned;
                tray.closed_at = Some(at);
                tray.id
            })
            .collect();
        for tray in abandoned {
            self.event(
                at,
                Lane::Client,
                Lane::Client,
                narration::ABANDONED.to_owned(),
                Some(narration::abandoned(name)),
                Part::Tray(tray),
            );
        }
    }

    /// The page reloaded: every paused request went with the page's memory (its latch
    /// included), so its tray is given up; the server never knew it was waiting.
    pub(crate) fn abandon_all_paused(&mut self, at: f64) {
        let abandoned: Vec<(u64, Option<String>)> = self
            .trays
            .iter_mut()
            .filter(|tray| matches!(tray.state, TrayState::Paused | TrayState::BoundReached))
            .map(|tray| {
                tray.state = TrayState::Abandoned;
                tray.closed_at = Some(at);
                (tray.id, tray.name.clone())
            })
            .collect();
        for (tray, name) in abandoned {
            self.event(
                at,
                Lane::Client,
                Lane::Client,
                narration::ABANDONED.to_owned(),
                Some(narration::abandoned_by_reload(name.as_deref())),
                Part::Tray(tray),
            );
        }
    }

    /// The paused tray a retry belongs to: the one whose latch it carries, else the latest
    /// paused request of the same method and name (the latch was changed).
    fn paused_tray_for(
        &self,
        method: MethodId,
        name: Option<&str>,
        state: Option<&str>,
    ) -> Option<usize> {
        let latest = |matches: &dyn Fn(&Tray) -> bool| {
            self.trays
                .iter()
                .rposition(|tray| waiting(tray, method, name) && matches(tray))
        };
        latest(&|tray| state.is_some() && tray.latch() == state).or_else(|| latest(&|_| true))
    }

    /// The answer to one of a tray's rounds.
    pub(crate) fn tray_answered(&mut self, tray_id: u64, reply: Reply<'_>) {
        let Some(index) = self.trays.iter().position(|t| t.id == tray_id) else {
            return;
        };
        let max_rounds = self.max_rounds;
        let tray = &mut self.trays[index];
        let (method, name) = (tray.method, tray.name.clone());
        let name = name.as_deref();
        let Some(round) = tray
            .rounds
            .iter_mut()
            .rev()
            .find(|r| r.exchange == reply.exchange)
        else {
            return;
        };
        round.outcome = reply.answer.outcome_json().cloned();
        let number = round.number;
        let (label, narration, part) = match &reply.answer.kind {
            AnswerKind::InputRequired {
                asks,
                request_state,
            } => {
                round.tags = asks.clone();
                round.received_state = request_state.clone();
                let keys: Vec<&str> = asks.iter().map(|ask| ask.key.as_str()).collect();
                if number >= max_rounds {
                    tray.state = TrayState::BoundReached;
                    (
                        narration::bound_label(max_rounds),
                        narration::bound(number),
                        Part::Tray(tray_id),
                    )
                } else {
                    tray.state = TrayState::Paused;
                    (
                        narration::paused_label(&keys),
                        narration::paused(method, name, number, &keys, request_state.is_some()),
                        Part::Tray(tray_id),
                    )
                }
            }
            AnswerKind::Task(task) => {
                let task_id = task.task_id.clone();
                tray.state = TrayState::Detached {
                    task: task_id.clone(),
                };
                tray.closed_at = Some(reply.at);
                let origin = (tray_id, tray.name.clone());
                let slot = self.cartridge_slot(&task_id, reply.at, false, Some(origin));
                let json = reply.answer.outcome_json().unwrap_or(&Value::Null);
                self.apply_snapshot(
                    slot,
                    &Snapshot::of_task(task, json),
                    reply.at,
                    SnapshotSource::Created,
                );
                (
                    narration::detached_label(&task_id),
                    narration::detached(name),
                    Part::Cartridge(task_id),
                )
            }
            AnswerKind::Error { code, message } => {
                tray.state = TrayState::Failed {
                    message: message.clone(),
                };
                tray.closed_at = Some(reply.at);
                (
                    narration::error_label(*code),
                    narration::refused(name, number, message),
                    Part::Tray(tray_id),
                )
            }
            AnswerKind::Invalid { reason } => {
                tray.state = TrayState::Failed {
                    message: reason.clone(),
                };
                tray.closed_at = Some(reply.at);
                (
                    narration::invalid_label(reply.status),
                    narration::exchange_failed(reason),
                    Part::Tray(tray_id),
                )
            }
            // A final result (no round is answered with a task snapshot, but it would be one).
            complete => {
                let tool_error = matches!(complete, AnswerKind::Complete { tool_error: true });
                tray.state = TrayState::Completed { tool_error };
                tray.closed_at = Some(reply.at);
                (
                    narration::completed_label(tool_error),
                    narration::completed(method, name, number, tool_error),
                    Part::Tray(tray_id),
                )
            }
        };
        self.reply_event(reply, label, Some(narration), part);
        self.hang_tags(index, reply.at);
    }

    /// The tags of a paused tray go to the user.
    fn hang_tags(&mut self, index: usize, at: f64) {
        let Some(tray) = self.trays.get(index) else {
            return;
        };
        let tray_id = tray.id;
        let tags: Vec<Tag> = tray.open_tags().to_vec();
        for tag in tags {
            self.event(
                at,
                Lane::Client,
                Lane::User,
                narration::tag_label(&tag),
                None,
                Part::TrayTag {
                    tray: tray_id,
                    key: tag.key,
                },
            );
        }
    }

    /// `notifications/progress` on a round's own stream: the tray, still in flight, shows
    /// how far the server says it is.
    pub(crate) fn tray_progress(
        &mut self,
        tray_id: u64,
        at: f64,
        progress: &ProgressNotificationParam,
    ) {
        let Some(tray) = self.in_flight_tray(tray_id) else {
            return;
        };
        let notes = tray.progress.as_ref().map_or(0, |p| p.notes) + 1;
        let shown = TrayProgress {
            progress: progress.progress,
            total: progress.total,
            message: progress.message.clone(),
            notes,
        };
        let (label, narrated) = (
            narration::progress_label(&shown),
            narration::progress(tray.method, tray.name.as_deref(), &shown),
        );
        tray.progress = Some(shown);
        // Past the first steps, a tray's progress is one moving line on the timeline, not
        // one per notification: a flood would push the rest of the session out of it.
        let part = Part::Tray(tray_id);
        if notes > PROGRESS_STEPS_LISTED + 1
            && self
                .events
                .last()
                .is_some_and(|last| last.part == part && last.label.starts_with("progress"))
        {
            self.events.pop();
        }
        self.event(at, Lane::Server, Lane::Client, label, Some(narrated), part);
    }

    /// The tray `tray_id` while a round of it is on the wire.
    fn in_flight_tray(&mut self, tray_id: u64) -> Option<&mut Tray> {
        self.trays
            .iter_mut()
            .find(|t| t.id == tray_id && t.state == TrayState::InFlight)
    }

    /// A round's exchange ended without an answer: the client stopped it, or it broke off.
    pub(crate) fn tray_cut_off(&mut self, tray_id: u64, at: f64, reason: String, end: &EndEvent) {
        let Some(tray) = self.in_flight_tray(tray_id) else {
            return;
        };
        let narration = if end.stopped {
            tray.state = TrayState::Stopped;
            narration::STOPPED_TRAY.to_owned()
        } else {
            tray.state = TrayState::Failed {
                message: reason.clone(),
            };
            narration::exchange_failed(&reason)
        };
        tray.closed_at = Some(at);
        self.event(
            at,
            Lane::Server,
            Lane::Client,
            reason,
            Some(narration),
            Part::Tray(tray_id),
        );
        self.mark_failed(broke_off(end));
    }

    /// Forget the oldest finished trays beyond [`MAX_FINISHED_TRAYS`] (a tray still on the
    /// wire or paused always stays).
    pub(crate) fn prune_trays(&mut self) {
        let finished = self.trays.iter().filter(|t| is_finished(&t.state)).count();
        let mut excess = finished.saturating_sub(MAX_FINISHED_TRAYS);
        if excess == 0 {
            return;
        }
        self.trays.retain(|tray| {
            if excess > 0 && is_finished(&tray.state) {
                excess -= 1;
                false
            } else {
                true
            }
        });
    }
}

/// Paused (or stopped at the bound) for this method and name: a retry may join it.
/// A tray nothing will change any more.
fn is_finished(state: &TrayState) -> bool {
    !matches!(state, TrayState::InFlight | TrayState::Paused)
}

fn waiting(tray: &Tray, method: MethodId, name: Option<&str>) -> bool {
    matches!(tray.state, TrayState::Paused | TrayState::BoundReached)
        && tray.method == method
        && tray.name.as_deref() == name
}

fn round(
    number: u32,
    exchange: u64,
    at: f64,
    sent_state: Option<&str>,
    latch_changed: bool,
    answers: Option<InputResponses>,
) -> TrayRound {
    TrayRound {
        number,
        exchange,
        sent_at: at,
        sent_state: sent_state.map(str::to_owned),
        latch_changed,
        answers,
        tags: Vec::new(),
        received_state: None,
        outcome: None,
    }
}
