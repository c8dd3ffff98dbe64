//! An exchange cut short, and the progress a server reports on a request's own stream.

use holdbay_engine::MethodId;

use super::words::{named, number};
use crate::parts::TrayProgress;

pub(crate) const STOPPED: &str = "stopped";

pub(crate) const STOPPED_TRAY: &str = "The client stopped waiting and closed the response \
    stream. Over HTTP, closing the stream is the cancellation (no cancel notification is \
    sent): the server should stop the work and send nothing more. The tray is empty now, with \
    no result.";

/// `progress 3/6`, or `progress 40` without a total.
pub(crate) fn progress_label(progress: &TrayProgress) -> String {
    match progress.total {
        Some(total) => format!("progress {}/{}", number(progress.progress), number(total)),
        None => format!("progress {}", number(progress.progress)),
    }
}

pub(crate) fn progress(method: MethodId, name: Option<&str>, progress: &TrayProgress) -> String {
    let how_far = progress.how_far();
    let message = progress
        .message
        .as_deref()
        .map(|m| format!(" ({m})"))
        .unwrap_or_default();
    format!(
        "The server reports progress on {method}{}: {how_far}{message}. It comes on the \
         request's own stream, before the result, because the request carried a \
         progressToken; the tray stays in flight.",
        named(name)
    )
}

impl TrayProgress {
    /// `2 of 6`, or `40` without a total: the figures as the narration writes them.
    pub fn how_far(&self) -> String {
        match self.total {
            Some(total) => format!("{} of {}", number(self.progress), number(total)),
            None => number(self.progress),
        }
    }
}
