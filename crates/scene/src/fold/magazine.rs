//! The job magazine: a cartridge per task, its status lamp fed by the task's creation,
//! polls and pushed snapshots, and sealed once the task ends.

use holdbay_engine::model::TaskStatus;
use holdbay_engine::{AnswerKind, MethodId};
use serde_json::Value;

use super::conveyor::Reply;
use super::snapshot::{Snapshot, SnapshotSource};
use crate::narration;
use crate::parts::{CancelAsk, Cartridge, Delivery, FlightRole, Lane, Part};
use crate::traffic::Traffic;

impl Traffic {
    /// The slot of a task, making a cartridge for it if it is new.
    pub(crate) fn cartridge_slot(
        &mut self,
        task_id: &str,
        at: f64,
        restored: bool,
        origin: Option<(u64, Option<String>)>,
    ) -> usize {
        if let Some(&slot) = self.slot_of.get(task_id) {
            return slot;
        }
        let slot = self.cartridges.len();
        let (from_tray, tool) = origin.map_or((None, None), |(tray, tool)| (Some(tray), tool));
        self.cartridges.push(Cartridge {
            task_id: task_id.to_owned(),
            slot,
            from_tray,
            tool,
            status: TaskStatus::Working,
            status_message: None,
            poll_interval_ms: None,
            snapshot: Value::Null,
            tags: Vec::new(),
            asked: Vec::new(),
            answered_keys: Vec::new(),
            polls: 0,
            pushes: 0,
            last_delivery: if restored {
                Delivery::Restored
            } else {
                Delivery::Created
            },
            updates: 0,
            cancel: None,
            restored,
            sealed_at: None,
            broken_seal: 0,
            entered_at: at,
            version: 0,
        });
        self.slot_of.insert(task_id.to_owned(), slot);
        slot
    }

    /// Bumped on every change a view would draw.
    pub(crate) fn touch(&mut self, slot: usize) {
        self.cartridges[slot].version += 1;
    }

    /// A task handle read back from durable storage.
    pub(crate) fn restore(&mut self, task_id: &str, at: f64, status: TaskStatus, stored: Value) {
        let known = self.slot_of.contains_key(task_id);
        let slot = self.cartridge_slot(task_id, at, true, None);
        let cartridge = &mut self.cartridges[slot];
        cartridge.restored = true;
        if !known {
            cartridge.status = status;
            cartridge.snapshot = stored;
            if status.is_terminal() {
                cartridge.sealed_at = Some(at);
            }
        }
        self.touch(slot);
        self.event(
            at,
            Lane::Client,
            Lane::Client,
            narration::restored_label(task_id),
            Some(narration::restored(task_id, status)),
            Part::Cartridge(task_id.to_owned()),
        );
    }

    /// Apply a task snapshot; returns whether the status changed. A sealed cartridge never
    /// changes: a later contradicting snapshot is only counted.
    pub(crate) fn apply_snapshot(
        &mut self,
        slot: usize,
        snapshot: &Snapshot<'_>,
        at: f64,
        source: SnapshotSource<'_>,
    ) -> bool {
        let cartridge = &mut self.cartridges[slot];
        let task = cartridge.task_id.clone();
        let status = snapshot.task.status;
        cartridge.last_delivery = match source {
            SnapshotSource::Created => Delivery::Created,
            SnapshotSource::Poll => Delivery::Polled,
            SnapshotSource::Push { .. } => {
                cartridge.pushes += 1;
                Delivery::Pushed
            }
        };
        if cartridge.is_sealed() {
            if status != cartridge.status {
                cartridge.broken_seal += 1;
                let sealed = cartridge.status;
                self.touch(slot);
                self.event(
                    at,
                    Lane::Server,
                    Lane::Client,
                    narration::seal_broken_label(status, sealed),
                    Some(narration::seal_broken(&task, status, sealed)),
                    Part::Cartridge(task),
                );
            }
            return false;
        }
        let changed = status != cartridge.status || cartridge.snapshot.is_null();
        let message_changed =
            snapshot.task.status_message.as_deref() != cartridge.status_message.as_deref();
        cartridge.status = status;
        cartridge.status_message = snapshot.task.status_message.clone();
        if let Some(interval) = snapshot.task.poll_interval_ms {
            cartridge.poll_interval_ms = Some(interval);
        }
        cartridge.snapshot = snapshot.json.clone();
        cartridge.tags = snapshot
            .asks
            .iter()
            .filter(|tag| !cartridge.answered_keys.contains(&tag.key))
            .cloned()
            .collect();
        for tag in &cartridge.tags {
            if !cartridge.asked.iter().any(|asked| asked.key == tag.key) {
                cartridge.asked.push(tag.clone());
            }
        }
        if status.is_terminal() {
            cartridge.sealed_at = Some(at);
            if let Some(cancel) = cartridge.cancel.as_mut() {
                cancel.outcome = Some(status);
            }
        }
        let cancel_asked = cartridge.cancel.is_some();
        let new_tags: Vec<String> = cartridge.tags.iter().map(|t| t.key.clone()).collect();
        if changed || message_changed {
            self.touch(slot);
        }
        if !changed {
            return false;
        }
        let (via, label) = match source {
            SnapshotSource::Created => return true,
            SnapshotSource::Poll => (narration::polled(), narration::status_label(status)),
            SnapshotSource::Push { method } => (
                narration::PUSHED.to_owned(),
                narration::pushed_label(method, status),
            ),
        };
        self.event(
            at,
            Lane::Server,
            Lane::Client,
            label,
            Some(narration::task_status(
                &task,
                status,
                &new_tags,
                cancel_asked,
                &via,
            )),
            Part::Cartridge(task.clone()),
        );
        if status == TaskStatus::InputRequired {
            for key in new_tags {
                self.event(
                    at,
                    Lane::Client,
                    Lane::User,
                    narration::input_label(&key),
                    None,
                    Part::CartridgeTag {
                        task: task.clone(),
                        key,
                    },
                );
            }
        }
        true
    }

    /// `tasks/get`: a poll pulse. A poll for a task whose creation is not in this log means
    /// its handle was restored from durable storage.
    pub(crate) fn poll_sent(&mut self, exchange: u64, at: f64, task: &str) -> FlightRole {
        if !self.slot_of.contains_key(task) {
            let slot = self.cartridge_slot(task, at, true, None);
            self.event(
                at,
                Lane::Client,
                Lane::Client,
                narration::restored_label(task),
                Some(narration::restored_by_poll(task)),
                Part::Cartridge(task.to_owned()),
            );
            self.touch(slot);
        }
        self.event(
            at,
            Lane::Client,
            Lane::Server,
            MethodId::GetTask.name().to_owned(),
            None,
            Part::Flight(exchange),
        );
        self.mark_poll(task);
        FlightRole::Poll {
            task: task.to_owned(),
        }
    }

    /// `tasks/update`: answers for these keys; their tags come down at once.
    pub(crate) fn update_sent(
        &mut self,
        exchange: u64,
        at: f64,
        task: &str,
        keys: &[String],
    ) -> FlightRole {
        let slot = self.cartridge_slot(task, at, true, None);
        let cartridge = &mut self.cartridges[slot];
        cartridge.updates += 1;
        cartridge.tags.retain(|tag| !keys.contains(&tag.key));
        cartridge.answered_keys.extend(keys.iter().cloned());
        self.touch(slot);
        let key_names: Vec<&str> = keys.iter().map(String::as_str).collect();
        self.user_acts(
            exchange,
            at,
            task,
            narration::answered_label(&key_names),
            narration::update_label(keys.len()),
            narration::update(task),
        );
        FlightRole::Update {
            task: task.to_owned(),
        }
    }

    /// `tasks/cancel`: a request, not a cancellation.
    pub(crate) fn cancel_sent(&mut self, exchange: u64, at: f64, task: &str) -> FlightRole {
        let slot = self.cartridge_slot(task, at, true, None);
        self.cartridges[slot].cancel = Some(CancelAsk {
            exchange,
            asked_at_ms: at.max(0.0) as u64,
            acknowledged: None,
            outcome: None,
        });
        self.touch(slot);
        self.user_acts(
            exchange,
            at,
            task,
            narration::CANCEL_ASKED.to_owned(),
            MethodId::CancelTask.name().to_owned(),
            narration::cancel(task),
        );
        FlightRole::Cancel {
            task: task.to_owned(),
        }
    }

    /// The user acted on a task's cartridge (`act`), and the request that says so goes out
    /// on `exchange` (its arrow `request`, its sentence `narrated`).
    fn user_acts(
        &mut self,
        exchange: u64,
        at: f64,
        task: &str,
        act: String,
        request: String,
        narrated: String,
    ) {
        self.event(
            at,
            Lane::User,
            Lane::Client,
            act,
            None,
            Part::Cartridge(task.to_owned()),
        );
        self.event(
            at,
            Lane::Client,
            Lane::Server,
            request,
            Some(narrated),
            Part::Flight(exchange),
        );
    }

    pub(crate) fn poll_answered(&mut self, reply: Reply<'_>, task: &str) {
        let Reply { at, answer, .. } = reply;
        let slot = self.cartridge_slot(task, at, true, None);
        // Counted, not drawn: an unchanged poll must not redraw its cartridge.
        self.cartridges[slot].polls += 1;
        let json = answer.outcome_json().unwrap_or(&Value::Null);
        let snapshot = match &answer.kind {
            AnswerKind::TaskSnapshot(snapshot) => Some(Snapshot::of_detailed(snapshot, json)),
            // 2025-11-25: the state alone; its outcome comes by tasks/result.
            AnswerKind::TaskStatus(task) => Some(Snapshot::of_task(task, json)),
            _ => None,
        };
        if let Some(snapshot) = snapshot {
            let changed = self.apply_snapshot(slot, &snapshot, at, SnapshotSource::Poll);
            if !changed {
                let status = self.cartridges[slot].status;
                self.event(
                    at,
                    Lane::Server,
                    Lane::Client,
                    narration::status_label(status),
                    None,
                    Part::Cartridge(task.to_owned()),
                );
            }
            return;
        }
        self.answer_step(reply, narration::RESULT, |failure| {
            Some(narration::poll_failed(task, failure))
        });
    }

    pub(crate) fn update_answered(&mut self, reply: Reply<'_>, task: &str) {
        self.answer_step(reply, narration::ACKNOWLEDGED, |failure| {
            Some(narration::update_refused(task, failure))
        });
    }

    /// The server's answer to a cancel request: acknowledged or refused. Only the lamp
    /// says what the task really did.
    pub(crate) fn cancel_answered(&mut self, reply: Reply<'_>, task: &str) {
        let label =
            narration::reply_label(&reply.answer.kind, reply.status, narration::ACKNOWLEDGED);
        let (acknowledged, narration, part) = match &reply.answer.kind {
            AnswerKind::Error { message, .. } => (
                Some(false),
                narration::cancel_refused(task, message),
                Part::Cartridge(task.to_owned()),
            ),
            // Unreadable: nothing is known of the server's answer.
            AnswerKind::Invalid { reason } => (
                None,
                narration::cancel_refused(task, reason),
                Part::Flight(reply.exchange),
            ),
            _ => (
                Some(true),
                narration::cancel_acknowledged(task),
                Part::Cartridge(task.to_owned()),
            ),
        };
        let slot = self.cartridge_slot(task, reply.at, true, None);
        if let Some(cancel) = self.cartridges[slot].cancel.as_mut()
            && acknowledged.is_some()
        {
            cancel.acknowledged = acknowledged;
        }
        self.touch(slot);
        self.reply_event(reply, label, Some(narration), part);
    }
}
