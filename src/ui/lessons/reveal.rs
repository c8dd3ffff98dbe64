//! Which part of the scene shows a lesson's answer, found in the traffic model as it is now.

use holdbay_engine::model::TaskStatus;
use holdbay_engine::{InputRequestKind, MethodId};
use holdbay_scene::{Cartridge, FlightRole, Part, Traffic, Tray, TrayState};

use super::catalog::Reveal;

/// Where to look for the part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Within {
    /// The scene as it stands since the lesson started: its own requests and tasks.
    Scene,
    /// Everything the session drew, the earlier lessons' parts too (the recap's links).
    Whole,
}

/// The part that shows `reveal` happening, if the session has it yet (latest first).
pub fn part_for(traffic: &Traffic, reveal: Reveal, within: Within) -> Option<Part> {
    let (trays, cartridges): (Vec<&Tray>, &[Cartridge]) = match within {
        Within::Scene => (traffic.scene_trays().collect(), traffic.scene_cartridges()),
        Within::Whole => (traffic.trays().iter().collect(), traffic.cartridges()),
    };
    let latest_trays = |tool: &'static str| {
        trays.iter().rev().copied().filter(move |tray| {
            tray.method == MethodId::CallTool && tray.name.as_deref() == Some(tool)
        })
    };
    match reveal {
        Reveal::Latch { tool } => {
            // A latch received and carried back unchanged says it best (not one a later
            // lesson tampered with); before the retry, any latch received.
            let latch_of = |tray: &Tray, carried_back: bool| {
                let round = tray.rounds.iter().find(|round| {
                    round.received_state.is_some()
                        && (!carried_back
                            || tray
                                .rounds
                                .iter()
                                .any(|next| next.number == round.number + 1 && !next.latch_changed))
                })?;
                Some(Part::Latch {
                    tray: tray.id,
                    round: round.number,
                })
            };
            latest_trays(tool)
                .find_map(|tray| latch_of(tray, true))
                .or_else(|| latest_trays(tool).find_map(|tray| latch_of(tray, false)))
        }
        Reveal::BoundReached { tool } => latest_trays(tool)
            .find(|tray| tray.state == TrayState::BoundReached)
            .map(|tray| Part::Tray(tray.id)),
        Reveal::UrlTag { tool } => latest_trays(tool).find_map(|tray| {
            let tag = tray
                .rounds
                .iter()
                .rev()
                .flat_map(|r| &r.tags)
                .find(|tag| matches!(tag.kind, InputRequestKind::Url { .. }))?;
            Some(Part::TrayTag {
                tray: tray.id,
                key: tag.key.clone(),
            })
        }),
        Reveal::DirectAnswer { tool } => latest_trays(tool)
            .find(|tray| matches!(tray.state, TrayState::Completed { .. }))
            .map(|tray| Part::Tray(tray.id)),
        Reveal::TaskAnswer { tool } => {
            let tasks: Vec<&str> = cartridges
                .iter()
                .rev()
                .filter(|c| c.tool.as_deref() == Some(tool))
                .map(|c| c.task_id.as_str())
                .collect();
            let update = traffic.flights().rev().find(|flight| {
                matches!(&flight.role, FlightRole::Update { task } if tasks.contains(&task.as_str()))
            });
            if let Some(update) = update {
                return Some(Part::Flight(update.exchange));
            }
            cartridges
                .iter()
                .rev()
                .filter(|c| c.tool.as_deref() == Some(tool))
                .find_map(|c| {
                    let tag = c.tags.first()?;
                    Some(Part::CartridgeTag {
                        task: c.task_id.clone(),
                        key: tag.key.clone(),
                    })
                })
        }
        Reveal::CancelOutcome { tool } => {
            let asked: Vec<_> = cartridges
                .iter()
                .rev()
                .filter(|c| c.tool.as_deref() == Some(tool) && c.cancel.is_some())
                .collect();
            // The lost race says it best; then any ask with an outcome; then any ask.
            let lost_race = asked.iter().find(|c| {
                c.cancel
                    .as_ref()
                    .is_some_and(|ask| ask.outcome == Some(TaskStatus::Completed))
            });
            let settled = asked
                .iter()
                .find(|c| c.cancel.as_ref().is_some_and(|ask| ask.outcome.is_some()));
            lost_race
                .or(settled)
                .or(asked.first())
                .map(|c| Part::Cartridge(c.task_id.clone()))
        }
        Reveal::Restored { tool } => {
            let restored: Vec<_> = cartridges
                .iter()
                .rev()
                .filter(|c| c.restored && c.tool.as_deref().is_none_or(|t| t == tool))
                .collect();
            restored
                .iter()
                .find(|c| c.is_sealed())
                .or(restored.first())
                .map(|c| Part::Cartridge(c.task_id.clone()))
        }
        Reveal::Stopped { tool } => latest_trays(tool)
            .find(|tray| tray.state == TrayState::Stopped)
            .map(|tray| Part::Tray(tray.id)),
        Reveal::Declined { tool } => latest_trays(tool).find_map(|tray| {
            traffic
                .flights()
                .rev()
                .find_map(|flight| match flight.role {
                    FlightRole::Retry { tray: id, .. } if id == tray.id => {
                        Some(Part::Flight(flight.exchange))
                    }
                    _ => None,
                })
        }),
        Reveal::Refused { tool, status } => traffic
            .flights()
            .rev()
            .find(|flight| {
                flight.method == Some(MethodId::CallTool)
                    && flight.name.as_deref() == Some(tool)
                    && flight.status == Some(status)
            })
            .map(|flight| Part::Flight(flight.exchange)),
        Reveal::ServerAsk { tool } => traffic
            .server_asks()
            .iter()
            .rev()
            .find(|ask| {
                ask.tray
                    .is_some_and(|held| latest_trays(tool).any(|tray| tray.id == held))
            })
            .map(|ask| Part::ServerAsk(ask.number)),
        Reveal::ChangedLatch => trays.iter().rev().find_map(|tray| {
            let changed = tray.rounds.iter().find(|r| r.latch_changed)?;
            Some(Part::Latch {
                tray: tray.id,
                // The latch drawn changed is the one received the round before.
                round: changed.number.saturating_sub(1).max(1),
            })
        }),
    }
}
