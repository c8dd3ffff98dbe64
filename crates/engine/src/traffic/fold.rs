//! How each wire event changes the scene's model.

use serde_json::{Map, Value};

use crate::method::{CallTool, GetPrompt, McpMethod, ReadResource};

use super::{
    CancelAsk, Flight, FlightRole, Lane, MAX_EVENTS, MAX_FINISHED_FLIGHTS, MAX_MESSAGES_PER_FLIGHT,
    Part, SnapshotSource, Tag, Traffic, TrafficEvent, Tray, TrayRound, TrayState,
};

/// Whether `method` may pause for input (MRTR): the method types' own rule.
fn may_pause(method: &str) -> bool {
    fn pauses<M: McpMethod>(method: &str) -> bool {
        M::MRTR && M::name() == method
    }
    pauses::<CallTool>(method) || pauses::<GetPrompt>(method) || pauses::<ReadResource>(method)
}

impl Traffic {
    pub(super) fn on_sent(
        &mut self,
        exchange: u64,
        at: f64,
        method: &str,
        name: Option<&str>,
        request: Value,
    ) {
        let params = request.get("params").cloned().unwrap_or(Value::Null);
        let task_param = || {
            params
                .get("taskId")
                .and_then(Value::as_str)
                .or(name)
                .unwrap_or_default()
                .to_owned()
        };
        let label_name = name.map(|n| format!(" {n}")).unwrap_or_default();
        let role = match method {
            m if may_pause(m) => self.open_or_retry(exchange, at, method, name, &params),
            "tasks/get" => {
                let task = task_param();
                if !self.slot_of.contains_key(&task) {
                    // A poll for a task whose creation is not in this log: it was restored.
                    let slot = self.cartridge_slot(&task, at, true, None);
                    self.event(
                        at,
                        Lane::Client,
                        Lane::Client,
                        format!("restored {task}"),
                        Some(format!(
                            "Task {task} re-enters the magazine from durable storage: its \
                             handle outlived the page that created it."
                        )),
                        Part::Cartridge(task.clone()),
                    );
                    self.touch(slot);
                }
                self.event(
                    at,
                    Lane::Client,
                    Lane::Server,
                    "tasks/get".into(),
                    None,
                    Part::Flight(exchange),
                );
                FlightRole::Poll { task }
            }
            "tasks/update" => {
                let task = task_param();
                let keys: Vec<String> = params
                    .get("inputResponses")
                    .and_then(Value::as_object)
                    .map(|answers| answers.keys().cloned().collect())
                    .unwrap_or_default();
                let slot = self.cartridge_slot(&task, at, true, None);
                let cartridge = &mut self.cartridges[slot];
                cartridge.updates += 1;
                cartridge.tags.retain(|tag| !keys.contains(&tag.key));
                cartridge.answered_keys.extend(keys.iter().cloned());
                self.touch(slot);
                self.event(
                    at,
                    Lane::User,
                    Lane::Client,
                    format!("answered {}", keys.join(", ")),
                    None,
                    Part::Cartridge(task.clone()),
                );
                self.event(
                    at,
                    Lane::Client,
                    Lane::Server,
                    format!("tasks/update ({} answers)", keys.len()),
                    Some(format!(
                        "The answers for task {task} go out with tasks/update, not as a retry: \
                         the task keeps running on the server."
                    )),
                    Part::Flight(exchange),
                );
                FlightRole::Update { task }
            }
            "tasks/cancel" => {
                let task = task_param();
                let slot = self.cartridge_slot(&task, at, true, None);
                self.cartridges[slot].cancel = Some(CancelAsk {
                    exchange,
                    asked_at_ms: at.max(0.0) as u64,
                    acknowledged: None,
                    outcome: None,
                });
                self.touch(slot);
                self.event(
                    at,
                    Lane::User,
                    Lane::Client,
                    "asked to cancel".into(),
                    None,
                    Part::Cartridge(task.clone()),
                );
                self.event(
                    at,
                    Lane::Client,
                    Lane::Server,
                    "tasks/cancel".into(),
                    Some(format!(
                        "A cancel request for task {task} goes out. It is a request: the \
                         server decides what happens to the task."
                    )),
                    Part::Flight(exchange),
                );
                FlightRole::Cancel { task }
            }
            "subscriptions/listen" => {
                self.event(
                    at,
                    Lane::Client,
                    Lane::Server,
                    "subscriptions/listen".into(),
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
                    format!("{method}{label_name}"),
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
                method: method.to_owned(),
                name: name.map(str::to_owned),
                role,
                sent_at: at,
                responded_at: None,
                status: None,
                ended_at: None,
                error: None,
                request,
                messages: Vec::new(),
            },
        );
    }

    /// A logical request's first round opens a tray; a retry (it carries `requestState` or
    /// `inputResponses`) goes back into the paused tray it answers.
    fn open_or_retry(
        &mut self,
        exchange: u64,
        at: f64,
        method: &str,
        name: Option<&str>,
        params: &Value,
    ) -> FlightRole {
        let sent_state = params
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let answers = params.get("inputResponses").cloned();
        let label_name = name.map(|n| format!(" {n}")).unwrap_or_default();
        if (sent_state.is_some() || answers.is_some())
            && let Some(index) = self.paused_tray_for(method, name, sent_state.as_deref())
        {
            let tray = &mut self.trays[index];
            let previous = tray.rounds.last().and_then(|r| r.received_state.clone());
            let latch_changed = sent_state != previous;
            let number = tray.rounds.len() as u32 + 1;
            let tray_id = tray.id;
            tray.rounds.push(TrayRound {
                number,
                exchange,
                sent_at: at,
                sent_state,
                latch_changed,
                answers: answers.clone(),
                tags: Vec::new(),
                received_state: None,
                outcome: None,
            });
            tray.state = TrayState::InFlight;
            if let Some(answers) = answers.as_ref().and_then(Value::as_object) {
                let keys: Vec<&str> = answers.keys().map(String::as_str).collect();
                self.event(
                    at,
                    Lane::User,
                    Lane::Client,
                    format!("answered {}", keys.join(", ")),
                    None,
                    Part::Tray(tray_id),
                );
            }
            let narration = if latch_changed {
                format!(
                    "Round {number} of{label_name} goes back with a CHANGED latch: the \
                     requestState is not the one the server sent. A careful server refuses it."
                )
            } else {
                format!(
                    "Round {number} of{label_name}: the workpiece goes back with the answers and \
                     the latch exactly as the server sent it."
                )
            };
            self.event(
                at,
                Lane::Client,
                Lane::Server,
                format!("{method}{label_name} (round {number})"),
                Some(narration),
                Part::Latch {
                    tray: tray_id,
                    round: number - 1,
                },
            );
            return FlightRole::Retry {
                tray: tray_id,
                round: number,
            };
        }
        self.abandon_paused(at, method, name);
        let workpiece = match method {
            "tools/call" => params.get("arguments").cloned().unwrap_or(Value::Null),
            _ => without_meta(params),
        };
        self.trays.push(Tray {
            id: exchange,
            method: method.to_owned(),
            name: name.map(str::to_owned),
            workpiece,
            rounds: vec![TrayRound {
                number: 1,
                exchange,
                sent_at: at,
                sent_state: None,
                latch_changed: false,
                answers: None,
                tags: Vec::new(),
                received_state: None,
                outcome: None,
            }],
            state: TrayState::InFlight,
            opened_at: at,
            closed_at: None,
            max_rounds: self.max_rounds,
        });
        self.event(
            at,
            Lane::Client,
            Lane::Server,
            format!("{method}{label_name}"),
            Some(format!("{method}{label_name} goes out with its arguments.")),
            Part::Tray(exchange),
        );
        FlightRole::Opens { tray: exchange }
    }

    /// A fresh request for the same method and name: the client gave up any paused one.
    fn abandon_paused(&mut self, at: f64, method: &str, name: Option<&str>) {
        let label_name = name.map(|n| format!(" {n}")).unwrap_or_default();
        let abandoned: Vec<u64> = self
            .trays
            .iter_mut()
            .filter(|tray| {
                matches!(tray.state, TrayState::Paused | TrayState::BoundReached)
                    && tray.method == method
                    && tray.name.as_deref() == name
            })
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
                "abandoned".into(),
                Some(format!(
                    "The client gave up the paused{label_name} request and starts afresh. It \
                     tells the server nothing: a paused request lives only in the client, with \
                     its latch."
                )),
                Part::Tray(tray),
            );
        }
    }

    /// The paused tray a retry belongs to: the one whose latch it carries, else the latest
    /// paused request of the same method and name (the latch was changed).
    fn paused_tray_for(
        &self,
        method: &str,
        name: Option<&str>,
        state: Option<&str>,
    ) -> Option<usize> {
        let waiting = |tray: &&Tray| {
            matches!(tray.state, TrayState::Paused | TrayState::BoundReached)
                && tray.method == method
                && tray.name.as_deref() == name
        };
        let by_latch = self
            .trays
            .iter()
            .enumerate()
            .rev()
            .find(|(_, tray)| waiting(tray) && state.is_some() && tray.latch() == state);
        by_latch
            .or_else(|| {
                self.trays
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(_, tray)| waiting(tray))
            })
            .map(|(index, _)| index)
    }

    pub(super) fn on_message_text(&mut self, exchange: u64, at: f64, text: &str) {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return;
        };
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return;
        };
        if flight.messages.len() >= MAX_MESSAGES_PER_FLIGHT {
            flight.messages.remove(0);
        }
        flight.messages.push(message.clone());
        let role = flight.role.clone();
        match message.get("method").and_then(Value::as_str) {
            Some("notifications/tasks") => {
                let params = message.get("params").cloned().unwrap_or(Value::Null);
                if let Some(task) = params.get("taskId").and_then(Value::as_str) {
                    let slot = self.cartridge_slot(task, at, true, None);
                    self.apply_snapshot(slot, &params, at, SnapshotSource::Push);
                }
            }
            Some(_) => {}
            None => self.on_response(exchange, at, &role, &message),
        }
    }

    fn on_response(&mut self, exchange: u64, at: f64, role: &FlightRole, message: &Value) {
        let result = message.get("result");
        let error = message.get("error");
        match role {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => {
                self.tray_response(*tray, exchange, at, result, error)
            }
            FlightRole::Poll { task } => {
                let slot = self.cartridge_slot(task, at, true, None);
                // Counted, not drawn: an unchanged poll must not redraw its cartridge.
                self.cartridges[slot].polls += 1;
                match result {
                    Some(snapshot) => {
                        let changed = self.apply_snapshot(slot, snapshot, at, SnapshotSource::Poll);
                        if !changed {
                            let status = self.cartridges[slot].status.clone();
                            self.event(
                                at,
                                Lane::Server,
                                Lane::Client,
                                status,
                                None,
                                Part::Cartridge(task.clone()),
                            );
                        }
                    }
                    None => self.event(
                        at,
                        Lane::Server,
                        Lane::Client,
                        format!("error {}", error_code(error)),
                        Some(format!(
                            "tasks/get for {task} failed: {}",
                            error_message(error)
                        )),
                        Part::Flight(exchange),
                    ),
                }
            }
            FlightRole::Update { task } => self.event(
                at,
                Lane::Server,
                Lane::Client,
                reply_label(result, error, "acknowledged"),
                error.map(|_| {
                    format!(
                        "tasks/update for {task} was refused: {}",
                        error_message(error)
                    )
                }),
                Part::Flight(exchange),
            ),
            FlightRole::Cancel { task } => {
                let slot = self.cartridge_slot(task, at, true, None);
                if let Some(cancel) = self.cartridges[slot].cancel.as_mut() {
                    cancel.acknowledged = Some(result.is_some());
                }
                self.touch(slot);
                let narration = if result.is_some() {
                    format!(
                        "The server acknowledged the cancel request for {task}. That guarantees \
                         nothing about the outcome: watch the lamp for the status it really reaches."
                    )
                } else {
                    format!(
                        "The cancel request for {task} was refused: {}",
                        error_message(error)
                    )
                };
                self.event(
                    at,
                    Lane::Server,
                    Lane::Client,
                    reply_label(result, error, "acknowledged"),
                    Some(narration),
                    Part::Cartridge(task.clone()),
                );
            }
            FlightRole::Listen => self.event(
                at,
                Lane::Server,
                Lane::Client,
                reply_label(result, error, "listen ended"),
                None,
                Part::Flight(exchange),
            ),
            FlightRole::Other => self.event(
                at,
                Lane::Server,
                Lane::Client,
                reply_label(result, error, "result"),
                None,
                Part::Flight(exchange),
            ),
        }
    }

    fn tray_response(
        &mut self,
        tray_id: u64,
        exchange: u64,
        at: f64,
        result: Option<&Value>,
        error: Option<&Value>,
    ) {
        let Some(index) = self.trays.iter().position(|t| t.id == tray_id) else {
            return;
        };
        let max_rounds = self.max_rounds;
        let tray = &mut self.trays[index];
        let name = tray
            .name
            .clone()
            .map(|n| format!(" {n}"))
            .unwrap_or_default();
        let method = tray.method.clone();
        let Some(round) = tray
            .rounds
            .iter_mut()
            .rev()
            .find(|r| r.exchange == exchange)
        else {
            return;
        };
        round.outcome = result.or(error).cloned();
        let number = round.number;
        let (label, narration, part) = match (result, error) {
            (Some(result), _) => match result.get("resultType").and_then(Value::as_str) {
                Some("input_required") => {
                    round.tags = tags_of(result.get("inputRequests"));
                    round.received_state = result
                        .get("requestState")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    let keys: Vec<&str> = round.tags.iter().map(|t| t.key.as_str()).collect();
                    let keys = keys.join(", ");
                    let latch = if round.received_state.is_some() {
                        " and a sealed latch (requestState)"
                    } else {
                        ""
                    };
                    if number >= max_rounds {
                        tray.state = TrayState::BoundReached;
                        (
                            format!("input_required — bound of {max_rounds} rounds reached"),
                            format!(
                                "The server asked for input again after round {number}, the last \
                                 one this client allows. The request stops here, so a server that \
                                 keeps asking cannot hold the client forever."
                            ),
                            Part::Tray(tray_id),
                        )
                    } else {
                        tray.state = TrayState::Paused;
                        (
                            format!("input_required: {keys}"),
                            format!(
                                "{method}{name} pauses in the holding bay after round {number}: \
                                 the server needs {keys}{latch}."
                            ),
                            Part::Tray(tray_id),
                        )
                    }
                }
                Some("task") => {
                    let task = result
                        .get("taskId")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned();
                    tray.state = TrayState::Detached { task: task.clone() };
                    tray.closed_at = Some(at);
                    let tool = tray.name.clone();
                    let slot = self.cartridge_slot(&task, at, false, Some((tray_id, tool)));
                    self.apply_snapshot(slot, result, at, SnapshotSource::Created);
                    (
                        format!("task {task}"),
                        format!(
                            "The server chose to answer{name} with a task: the work leaves the \
                             holding bay and runs on its own in the magazine. The request asked \
                             for the tasks extension; the server decided."
                        ),
                        Part::Cartridge(task),
                    )
                }
                _ => {
                    let tool_error = result.get("isError").and_then(Value::as_bool) == Some(true);
                    tray.state = TrayState::Completed { tool_error };
                    tray.closed_at = Some(at);
                    let what = if tool_error {
                        "a tool error (isError)"
                    } else {
                        "its result"
                    };
                    (
                        if tool_error {
                            "result (isError)".into()
                        } else {
                            "result".into()
                        },
                        format!(
                            "{method}{name} completed with {what} after {number} round(s); the tray empties."
                        ),
                        Part::Tray(tray_id),
                    )
                }
            },
            (None, error) => {
                let message = error_message(error);
                tray.state = TrayState::Failed {
                    message: message.clone(),
                };
                tray.closed_at = Some(at);
                (
                    format!("error {}", error_code(error)),
                    format!("The server refused{name} in round {number}: {message}"),
                    Part::Tray(tray_id),
                )
            }
        };
        self.event(at, Lane::Server, Lane::Client, label, Some(narration), part);
        if let Some(tray) = self.trays.get(index)
            && matches!(tray.state, TrayState::Paused | TrayState::BoundReached)
        {
            let tags: Vec<Tag> = tray.open_tags().to_vec();
            for tag in tags {
                self.event(
                    at,
                    Lane::Client,
                    Lane::User,
                    format!("{} {}", tag.method, tag.key),
                    None,
                    Part::TrayTag {
                        tray: tray_id,
                        key: tag.key,
                    },
                );
            }
        }
    }

    pub(super) fn on_ended(&mut self, exchange: u64, at: f64, error: Option<&str>) {
        let Some(flight) = self.flights.get_mut(&exchange) else {
            return;
        };
        flight.ended_at = Some(at);
        flight.error = error.map(str::to_owned);
        let answered = flight.response().is_some();
        let status = flight.status;
        let role = flight.role.clone();
        if answered {
            return;
        }
        let reason = match (error, status) {
            (Some(error), _) => error.to_owned(),
            (None, Some(status)) if status >= 400 => format!("HTTP {status}"),
            (None, Some(status)) if !matches!(role, FlightRole::Listen) => {
                format!("HTTP {status} with no JSON-RPC response")
            }
            _ => return,
        };
        let stopped = error.is_some_and(|e| e.contains("abort") || e.contains("Abort"));
        match role {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => {
                if let Some(t) = self.trays.iter_mut().find(|t| t.id == tray)
                    && t.state == TrayState::InFlight
                {
                    t.state = if stopped {
                        TrayState::Stopped
                    } else {
                        TrayState::Failed {
                            message: reason.clone(),
                        }
                    };
                    t.closed_at = Some(at);
                    let narration = if stopped {
                        "The client stopped waiting; the tray empties without a result.".to_owned()
                    } else {
                        format!("The exchange failed: {reason}")
                    };
                    self.event(
                        at,
                        Lane::Server,
                        Lane::Client,
                        reason,
                        Some(narration),
                        Part::Tray(tray),
                    );
                }
            }
            FlightRole::Listen => {}
            _ => self.event(
                at,
                Lane::Server,
                Lane::Client,
                reason,
                None,
                Part::Flight(exchange),
            ),
        }
    }

    /// The slot of a task, making a cartridge for it if it is new.
    pub(super) fn cartridge_slot(
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
        self.cartridges.push(super::Cartridge {
            task_id: task_id.to_owned(),
            slot,
            from_tray,
            tool,
            status: "working".to_owned(),
            status_message: None,
            poll_interval_ms: None,
            snapshot: Value::Null,
            tags: Vec::new(),
            asked: Vec::new(),
            answered_keys: Vec::new(),
            polls: 0,
            pushes: 0,
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

    /// Apply a task snapshot; returns whether the status changed. A sealed cartridge never
    /// changes: a later contradicting snapshot is only counted.
    pub(super) fn apply_snapshot(
        &mut self,
        slot: usize,
        snapshot: &Value,
        at: f64,
        source: SnapshotSource,
    ) -> bool {
        let cartridge = &mut self.cartridges[slot];
        let task = cartridge.task_id.clone();
        let status = snapshot
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("working")
            .to_owned();
        if source == SnapshotSource::Push {
            cartridge.pushes += 1;
        }
        if cartridge.is_sealed() {
            if status != cartridge.status {
                cartridge.broken_seal += 1;
                let sealed = cartridge.status.clone();
                self.touch(slot);
                self.event(
                    at,
                    Lane::Server,
                    Lane::Client,
                    format!("{status} after {sealed}"),
                    Some(format!(
                        "The server reported task {task} as {status} after it had ended {sealed}. \
                         Terminal states never change: the cartridge stays sealed."
                    )),
                    Part::Cartridge(task),
                );
            }
            return false;
        }
        let changed = status != cartridge.status || cartridge.snapshot.is_null();
        let message_changed = snapshot.get("statusMessage").and_then(Value::as_str)
            != cartridge.status_message.as_deref();
        cartridge.status = status.clone();
        cartridge.status_message = snapshot
            .get("statusMessage")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let Some(interval) = snapshot.get("pollIntervalMs").and_then(Value::as_u64) {
            cartridge.poll_interval_ms = Some(interval);
        }
        cartridge.snapshot = snapshot.clone();
        let answered = cartridge.answered_keys.clone();
        cartridge.tags = if status == "input_required" {
            tags_of(snapshot.get("inputRequests"))
                .into_iter()
                .filter(|tag| !answered.contains(&tag.key))
                .collect()
        } else {
            Vec::new()
        };
        for tag in &cartridge.tags {
            if !cartridge.asked.iter().any(|asked| asked.key == tag.key) {
                cartridge.asked.push(tag.clone());
            }
        }
        let terminal = is_terminal(&status);
        if terminal {
            cartridge.sealed_at = Some(at);
            if let Some(cancel) = cartridge.cancel.as_mut() {
                cancel.outcome = Some(status.clone());
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
        let via = match source {
            SnapshotSource::Push => " (pushed on the listen stream, no poll)",
            SnapshotSource::Poll => "",
            SnapshotSource::Created => return true,
        };
        let narration = match status.as_str() {
            "input_required" => format!(
                "Task {task} needs input ({}): the client answers with tasks/update{via}.",
                new_tags.join(", ")
            ),
            "cancelled" => {
                format!("Task {task} ended cancelled: the server honoured the request{via}.")
            }
            "completed" if cancel_asked => format!(
                "Task {task} completed even though cancel was requested: the work won the race{via}."
            ),
            s if terminal => {
                format!("Task {task} ended {s}: its cartridge is sealed and never changes{via}.")
            }
            s => format!("Task {task} is {s}{via}."),
        };
        let (from, label) = match source {
            SnapshotSource::Push => (Lane::Server, format!("notifications/tasks: {status}")),
            _ => (Lane::Server, status.clone()),
        };
        self.event(
            at,
            from,
            Lane::Client,
            label,
            Some(narration),
            Part::Cartridge(task.clone()),
        );
        if status == "input_required" {
            for key in new_tags {
                self.event(
                    at,
                    Lane::Client,
                    Lane::User,
                    format!("input {key}"),
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

    pub(super) fn touch(&mut self, slot: usize) {
        self.cartridges[slot].version += 1;
    }

    pub(super) fn event(
        &mut self,
        at: f64,
        from: Lane,
        to: Lane,
        label: String,
        narration: Option<String>,
        part: Part,
    ) {
        if self.events.len() >= MAX_EVENTS {
            let drop = MAX_EVENTS / 10;
            self.events.drain(..drop);
            self.dropped_events += drop as u64;
        }
        self.events.push(TrafficEvent {
            seq: self.next_seq,
            at,
            from,
            to,
            label,
            narration,
            part,
        });
        self.next_seq += 1;
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

/// The tags of an `inputRequests` object, in the server's order.
fn tags_of(requests: Option<&Value>) -> Vec<Tag> {
    let Some(requests) = requests.and_then(Value::as_object) else {
        return Vec::new();
    };
    requests
        .iter()
        .map(|(key, request)| {
            let params = request.get("params");
            Tag {
                key: key.clone(),
                method: request
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown")
                    .to_owned(),
                mode: params
                    .and_then(|p| p.get("mode"))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .or_else(|| {
                        params
                            .and_then(|p| p.get("requestedSchema"))
                            .map(|_| "form".to_owned())
                    }),
                message: params
                    .and_then(|p| p.get("message"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                json: request.clone(),
            }
        })
        .collect()
}

fn without_meta(params: &Value) -> Value {
    match params.as_object() {
        Some(object) => Value::Object(
            object
                .iter()
                .filter(|(key, _)| key.as_str() != "_meta")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<Map<String, Value>>(),
        ),
        None => params.clone(),
    }
}

/// An answer's arrow label: `ok` for a result, else the error's code.
fn reply_label(result: Option<&Value>, error: Option<&Value>, ok: &str) -> String {
    match result {
        Some(_) => ok.to_owned(),
        None => format!("error {}", error_code(error)),
    }
}

fn error_code(error: Option<&Value>) -> String {
    error
        .and_then(|e| e.get("code"))
        .map(|code| code.to_string())
        .unwrap_or_else(|| "?".into())
}

fn error_message(error: Option<&Value>) -> String {
    error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .unwrap_or("no message")
        .to_owned()
}

/// Whether a task status (as the wire spells it) is terminal: rmcp's rule.
pub(super) fn is_terminal(status: &str) -> bool {
    serde_json::from_value::<rmcp::model::TaskStatus>(Value::String(status.to_owned()))
        .is_ok_and(|status| status.is_terminal())
}
