//! The call history: each tool call this browser made to a server (the tool, its exact
//! arguments as sent, when, and how it ended), read from the wire log's typed events as the
//! calls happen. Kept in `localStorage` per server, the newest [`HISTORY_LIMIT`] only;
//! arguments can hold user data, so the user can clear it. Headers are never kept.

use holdbay_engine::{ExchangeEvent, MethodId, SentDetail};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::connection::Connection;
use crate::owner::KeepingOwner;
use crate::wire::{WireEntry, WireLog};

/// Calls kept per server.
pub const HISTORY_LIMIT: usize = 30;

/// One tool call, as it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallRecord {
    /// The wire-log id of its first round.
    pub exchange: u64,
    pub tool: String,
    /// The `arguments` exactly as the first round sent them.
    pub arguments: Value,
    /// The request declared the tasks extension.
    pub accept_task: bool,
    /// Wall clock, ms since the epoch.
    pub at: f64,
    /// How it stands: the latest answer's `resultType` or error code (the engine's label),
    /// or why no answer came; `None` while the first round is on the wire.
    #[serde(default)]
    pub outcome: Option<String>,
    /// The round the outcome came from.
    #[serde(default)]
    pub round: Option<u32>,
    #[serde(default)]
    pub failed: bool,
}

/// The history of the server the session talks to. `Copy`: a bundle of signals.
///
/// It starts keeping calls at its first read ([`Self::calls`]: the dock, built after the
/// first screen), taking in this page's calls made before then, so that its code (storage,
/// the wire log's events) is fetched with the dock's chunk, not the first screen.
#[derive(Debug, Clone, Copy)]
pub struct CallHistory {
    wire: WireLog,
    connection: Signal<Connection>,
    /// The server whose calls `calls` holds.
    server: RwSignal<String>,
    /// Newest first.
    calls: RwSignal<Vec<CallRecord>>,
    following: StoredValue<bool>,
    /// The session's owner: following outlives the view that first read the history.
    owner: KeepingOwner,
}

impl CallHistory {
    /// The calls on `wire` to the server `connection` names (nothing is read yet).
    pub fn new(wire: WireLog, connection: Signal<Connection>) -> Self {
        Self {
            wire,
            connection,
            server: RwSignal::new(String::new()),
            calls: RwSignal::new(Vec::new()),
            following: StoredValue::new(false),
            owner: KeepingOwner::here(),
        }
    }

    /// The calls kept for the current server, newest first (tracked).
    pub fn calls(&self) -> Signal<Vec<CallRecord>> {
        self.follow();
        self.calls.into()
    }

    /// Once: load the current server's calls, follow server switches (each server's list is
    /// loaded when the session turns to it) and the wire log, and take in the calls this page
    /// made before now.
    fn follow(&self) {
        if self
            .following
            .try_update_value(|following| std::mem::replace(following, true))
            != Some(false)
        {
            return;
        }
        let history = *self;
        let server = self.connection.with_untracked(|c| c.server.clone());
        self.calls.set(load(&server));
        self.server.set(server);
        self.owner.make(|| {
            Effect::new(move |_| {
                let server = history.connection.with(|c| c.server.clone());
                if history.server.get_untracked() != server {
                    history.calls.set(load(&server));
                    history.server.set(server);
                }
            });
        });
        let wire = self.wire;
        wire.with_live(|entries| {
            entries
                .iter()
                .filter(|entry| wire.recorded_here(entry))
                .for_each(|entry| history.on_exchange(entry, &entry.events));
        });
        self.wire
            .listen(move |entry, added| history.on_exchange(entry, added));
    }

    /// Forget every call kept for the current server.
    pub fn clear(&self) {
        self.calls.set(Vec::new());
        crate::storage::remove(&key(&self.server.get_untracked()));
    }

    fn on_exchange(&self, entry: &WireEntry, added: &[holdbay_engine::TimedEvent]) {
        if self.server.try_with_untracked(|s| *s != entry.server) != Some(false) {
            return;
        }
        let mut changed = false;
        for timed in added {
            changed |= match &timed.event {
                ExchangeEvent::Sent(sent) if sent.method == Some(MethodId::CallTool) => {
                    match (&sent.detail, sent.round(), &sent.name) {
                        (SentDetail::Round { workpiece, .. }, Some(1), Some(tool)) => {
                            self.began(CallRecord {
                                exchange: entry.id,
                                tool: tool.clone(),
                                arguments: workpiece.clone(),
                                accept_task: sent.declares_tasks,
                                at: entry.started_at,
                                outcome: None,
                                round: Some(1),
                                failed: false,
                            });
                            true
                        }
                        _ => false,
                    }
                }
                ExchangeEvent::Answered(answer) => self.settled(entry, |call| {
                    call.outcome = Some(answer.kind.label());
                    call.failed = answer.kind.is_failure();
                }),
                ExchangeEvent::Ended(end) if entry.answer().is_none() => {
                    self.settled(entry, |call| {
                        call.outcome = Some(if end.stopped {
                            "stopped".to_owned()
                        } else {
                            "no answer".to_owned()
                        });
                        call.failed = !end.stopped;
                    })
                }
                _ => false,
            };
        }
        if changed {
            self.save();
        }
    }

    fn began(&self, call: CallRecord) {
        self.calls.update(|calls| {
            calls.insert(0, call);
            calls.truncate(HISTORY_LIMIT);
        });
    }

    /// An exchange of a tool call got its outcome: it belongs to the newest call of that
    /// tool (a tool has one logical request at a time; a new one gives up a paused one).
    fn settled(&self, entry: &WireEntry, change: impl FnOnce(&mut CallRecord)) -> bool {
        let Some(sent) = entry.sent() else {
            return false;
        };
        if sent.method != Some(MethodId::CallTool) {
            return false;
        }
        let Some(tool) = sent.name.as_deref() else {
            return false;
        };
        let round = sent.round();
        self.calls
            .try_update(|calls| {
                let call = calls
                    .iter_mut()
                    .find(|call| call.tool == tool && call.exchange <= entry.id)?;
                change(call);
                call.round = round.or(call.round);
                Some(())
            })
            .flatten()
            .is_some()
    }

    fn save(&self) {
        let server = self.server.get_untracked();
        if server.is_empty() {
            return;
        }
        let saved = self
            .calls
            .with_untracked(|calls| crate::storage::save(&key(&server), calls));
        if let Err(problem) = saved {
            leptos::logging::warn!("{problem}");
        }
    }
}

fn key(server: &str) -> String {
    crate::storage::key("history", server)
}

fn load(server: &str) -> Vec<CallRecord> {
    if server.is_empty() {
        return Vec::new();
    }
    let mut calls: Vec<CallRecord> = crate::storage::load(&key(server)).unwrap_or_default();
    calls.truncate(HISTORY_LIMIT);
    calls
}
