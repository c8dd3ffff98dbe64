//! How a task row says the client keeps up with the task: pushed or polled, at which
//! interval, and against what the server asked (the engine's [`Following`]).

use holdbay_engine::Following;

use crate::tasks::SnapshotSeen;
use crate::ui::format::{duration, exact_duration};

/// `polled every 2 s, as the server asks`, `pushed on the listen stream (…)`, `polling over`.
pub fn following_text(following: Following) -> String {
    match following {
        Following::Over => "polling over".to_owned(),
        Following::Polled { every_ms, asked_ms } => match (following.adjustment(), asked_ms) {
            (None, _) => format!(
                "polled every {}, as the server asks",
                exact_duration(every_ms)
            ),
            (Some(why), Some(asked)) => format!(
                "polled every {} (the server asked {}: {why})",
                exact_duration(every_ms),
                exact_duration(asked)
            ),
            (Some(why), None) => format!("polled every {} ({why})", exact_duration(every_ms)),
        },
        Following::Pushed {
            safety_poll_ms,
            asked_ms,
        } => {
            let asked = asked_ms.map_or_else(
                || "the server gave no pollIntervalMs".to_owned(),
                |ms| format!("the server's pollIntervalMs is {}", exact_duration(ms)),
            );
            format!(
                "pushed on the listen stream ({asked}; one safety poll every {})",
                exact_duration(safety_poll_ms)
            )
        }
    }
}

/// `last snapshot pushed 2.0 s ago`, `last snapshot polled 3.1 s ago`, or none since creation.
pub fn last_snapshot_text(seen: Option<SnapshotSeen>, now: u64) -> String {
    match seen {
        None => "no snapshot since it was created".to_owned(),
        Some(seen) => format!(
            "last snapshot {} {} ago",
            if seen.pushed { "pushed" } else { "polled" },
            duration(now.saturating_sub(seen.at_ms) as f64)
        ),
    }
}
