//! What the inspector says of a part beyond its drawing: how the client learned of a task,
//! what a tray offered and how its rounds stand.

use holdbay_engine::MethodId;
use holdbay_engine::model::TASKS_EXTENSION_ID;

use crate::parts::{Cartridge, Delivery, ServerAsk, Tray, TrayState};

impl Cartridge {
    /// How the client has learned of this task, for the inspector: counts by way, the
    /// newest snapshot's way, and the server's own polling interval (which a pushed task
    /// does not need): `3 polled, 5 pushed; newest pushed; the server's pollIntervalMs 1000`.
    pub fn delivery_summary(&self) -> String {
        delivery_summary(self)
    }
}

fn delivery_summary(cartridge: &Cartridge) -> String {
    let newest = match cartridge.last_delivery {
        Delivery::Created => format!("the {} answer that created it", MethodId::CallTool),
        Delivery::Polled => format!("a poll ({})", MethodId::GetTask),
        Delivery::Pushed => "a push on the listen stream".to_owned(),
        Delivery::Restored => "durable storage, after a reload".to_owned(),
    };
    let interval = match cartridge.poll_interval_ms {
        Some(ms) => format!("the server's pollIntervalMs is {ms}"),
        None => "the server gave no pollIntervalMs".to_owned(),
    };
    format!(
        "Snapshots so far: {} polled, {} pushed; the newest came from {newest}; {interval}.",
        cartridge.polls, cartridge.pushes
    )
}

impl Tray {
    /// What the wire told of this request beyond its drawing: whether it offered a task
    /// and what the server made of the offer, and how its rounds stand against the bound.
    pub fn facts(&self) -> String {
        tray_facts(self)
    }
}

/// The inspector's facts about a tray: the task offer and what came of it, then the rounds.
fn tray_facts(tray: &Tray) -> String {
    let mut facts = Vec::new();
    if tray.method.rules().may_create_task {
        let decided = match &tray.state {
            TrayState::Detached { .. } => "the server took it and answered with a task",
            TrayState::InFlight | TrayState::Paused => "the server has not decided yet",
            TrayState::Stopped | TrayState::Abandoned => {
                "the request ended before the server decided"
            }
            _ => "the server answered directly anyway",
        };
        facts.push(if tray.offers_task {
            format!(
                "This request declared the tasks extension ({TASKS_EXTENSION_ID} in _meta's \
                 clientCapabilities.extensions): it offered a task, and {decided}."
            )
        } else {
            "This request did not declare the tasks extension, so the server may not answer \
             it with a task."
                .to_owned()
        });
    }
    if tray.in_session {
        facts.push(
            "Sent in a legacy session: the server kept this call, and its stream, until the \
             result; any input it needed it asked for on that stream."
                .to_owned(),
        );
        return facts.join(" ");
    }
    let rounds = tray.rounds.len();
    facts.push(if tray.state == TrayState::BoundReached {
        format!(
            "Rounds: {rounds} of at most {}; the server asked again after the last one, so the \
             client stopped.",
            tray.max_rounds
        )
    } else {
        format!("Rounds: {rounds} of at most {}.", tray.max_rounds)
    });
    facts.join(" ")
}

impl ServerAsk {
    /// Where the server asked and what became of it, for the inspector.
    pub fn facts(&self) -> String {
        let carried = match self.tray {
            Some(_) => {
                "It came on the open stream of the call it was asked in, which waited on \
                        the server meanwhile."
            }
            None => "It came on the session's own stream.",
        };
        let answered = match &self.answer {
            Some(answer) => format!(
                "The client answered it with a POST of its own, {} ms later.",
                (answer.at - self.asked_at).max(0.0).round()
            ),
            None => "The client has not answered it yet.".to_owned(),
        };
        format!("JSON-RPC id {}. {carried} {answered}", self.id)
    }
}
