//! Which part of the scene shows a lesson's answer, found in the traffic model as it is now.

use holdbay_engine::model::TaskStatus;
use holdbay_engine::traffic::{FlightRole, Part, Tray, TrayState};
use holdbay_engine::{InputRequestKind, MethodId, Traffic};

use super::catalog::Reveal;

/// The part that shows `reveal` happening, if the session has it yet (latest first).
pub fn part_for(traffic: &Traffic, reveal: Reveal) -> Option<Part> {
    match reveal {
        Reveal::Latch { tool } => latest_trays(traffic, tool).find_map(|tray| {
            let round = tray.rounds.iter().find(|r| r.received_state.is_some())?;
            Some(Part::Latch {
                tray: tray.id,
                round: round.number,
            })
        }),
        Reveal::BoundReached { tool } => latest_trays(traffic, tool)
            .find(|tray| tray.state == TrayState::BoundReached)
            .map(|tray| Part::Tray(tray.id)),
        Reveal::UrlTag { tool } => latest_trays(traffic, tool).find_map(|tray| {
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
        Reveal::DirectAnswer { tool } => latest_trays(traffic, tool)
            .find(|tray| matches!(tray.state, TrayState::Completed { .. }))
            .map(|tray| Part::Tray(tray.id)),
        Reveal::TaskAnswer { tool } => {
            let tasks: Vec<&str> = traffic
                .scene_cartridges()
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
            traffic
                .scene_cartridges()
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
            let asked: Vec<_> = traffic
                .scene_cartridges()
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
            let restored: Vec<_> = traffic
                .scene_cartridges()
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
        Reveal::Stopped { tool } => latest_trays(traffic, tool)
            .find(|tray| tray.state == TrayState::Stopped)
            .map(|tray| Part::Tray(tray.id)),
        Reveal::Declined { tool } => latest_trays(traffic, tool).find_map(|tray| {
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
        Reveal::ChangedLatch => traffic.scene_trays().rev().find_map(|tray| {
            let changed = tray.rounds.iter().find(|r| r.latch_changed)?;
            Some(Part::Latch {
                tray: tray.id,
                // The latch drawn changed is the one received the round before.
                round: changed.number.saturating_sub(1).max(1),
            })
        }),
    }
}

/// The trays of `tool`'s calls, newest first.
fn latest_trays<'a>(traffic: &'a Traffic, tool: &'a str) -> impl Iterator<Item = &'a Tray> {
    traffic
        .scene_trays()
        .rev()
        .filter(move |tray| tray.method == MethodId::CallTool && tray.name.as_deref() == Some(tool))
}
