//! The arrows and sentences of a legacy session (2025-11-25): the session the server holds,
//! the requests it sends the client on an open stream, and the client's answers.

use holdbay_engine::MethodId;

use super::words::named;

pub(crate) fn initialize() -> String {
    format!(
        "{} goes out: the 2025-11-25 handshake. The client asks for a session; nothing else \
         may be sent before it is answered.",
        MethodId::Initialize
    )
}

pub(crate) const SESSION_OPENED_LABEL: &str = "session opened";

pub(crate) const SESSION_OPENED: &str = "The server opened a session and holds it: every later \
    request carries its Mcp-Session-Id, and the server keeps what the session needs in its \
    memory until it ends.";

pub(crate) const SESSION_ENDED_LABEL: &str = "session ended";

pub(crate) fn session_replaced() -> String {
    format!("a new {} opened another", MethodId::Initialize)
}

pub(crate) const SESSION_DELETED: &str = "the client ended it (DELETE)";

pub(crate) const SESSION_LOST: &str =
    "the server no longer knows it (404): the client opens a new one";

pub(crate) fn session_ended(why: &str) -> String {
    format!("The session ended: {why}. What the server kept for it is gone.")
}

/// `elicitation/create ← server`
pub(crate) fn server_asks_label(method: &str) -> String {
    format!("{method} ← server")
}

pub(crate) fn server_asks(
    method: &str,
    carrier: &str,
    carrier_name: Option<&str>,
    on_a_call: bool,
) -> String {
    if on_a_call {
        format!(
            "The server sent a request of its own, {method}, on the open stream of \
             {carrier}{}. It keeps the call waiting, with its state and the connection, until \
             the client answers.",
            named(carrier_name)
        )
    } else {
        format!(
            "The server sent a request of its own, {method}, on the session's stream \
             ({carrier}). The client answers it with a POST."
        )
    }
}

/// `answer to elicitation/create`
pub(crate) fn server_answer_label(method: &str) -> String {
    format!("answer to {method}")
}

pub(crate) fn server_answer(method: &str, on_a_call: bool) -> String {
    if on_a_call {
        format!(
            "The client's answer to {method} goes as a POST of its own. The call it was asked in \
             never left the server: it goes on, on the stream it kept open, to its result."
        )
    } else {
        format!("The client's answer to {method} goes as a POST of its own.")
    }
}

pub(crate) const ANSWER_TO_UNKNOWN_LABEL: &str = "answer to a request not seen";

/// The arrow of `initialize`.
pub(crate) fn initialize_label() -> String {
    MethodId::Initialize.name().to_owned()
}
