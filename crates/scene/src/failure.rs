//! The scene's one rule for a failed exchange, shared by the conveyor's pieces and the
//! timeline's steps.

use holdbay_engine::{AnswerKind, EndEvent};

/// What went wrong with an answer that is not a result, if it is not: a JSON-RPC error, or
/// an answer the engine could not read as a result of its method (an HTTP error status, or a
/// 200 with an unreadable body).
pub fn failure_of(kind: &AnswerKind) -> Option<&str> {
    match kind {
        AnswerKind::Error { message, .. } => Some(message),
        AnswerKind::Invalid { reason } => Some(reason),
        _ => None,
    }
}

/// An exchange cut short failed when it broke off; one the client stopped (the Stop button,
/// a stream closed on purpose) did not fail: that was the client's choice.
pub fn broke_off(end: &EndEvent) -> bool {
    end.error.is_some() && !end.stopped
}
