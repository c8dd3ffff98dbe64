//! What each part of the scene stands for in the protocol: the inspector's role name and a
//! short explanation (MRTR per the 2026-07-28 revision, tasks per its extension).

use holdbay_scene::{Part, Traffic, TrayState};

/// The inspector's heading and explanation for `part`, as the model shows it now.
pub fn describe(traffic: &Traffic, part: &Part) -> (String, &'static str) {
    match part {
        Part::Flight(exchange) => {
            let flight = traffic.flight(*exchange);
            let what = flight
                .map(|f| match &f.name {
                    Some(name) => format!("{} {name}", f.method_name),
                    None => f.method_name.clone(),
                })
                .unwrap_or_default();
            // Numbered as the wire log numbers it: by its JSON-RPC id.
            let number = flight
                .and_then(|f| f.rpc_id.as_ref())
                .map(|id| format!(" #{id}"))
                .unwrap_or_default();
            (
                format!("Exchange{number}: {what}"),
                "One HTTP exchange on the conveyor: the JSON-RPC request the client sent and \
                 everything the server answered on it (a JSON body, or SSE messages ending with \
                 the response). The label is its real duration.",
            )
        }
        Part::Tray(id) => {
            let tray = traffic.tray(*id);
            let name = tray
                .and_then(|t| t.name.clone())
                .unwrap_or_else(|| "request".into());
            let explanation = match tray.map(|t| (&t.state, t.in_session)) {
                Some((_, true)) => {
                    "A tray in the holding bay, for a call made in a legacy session \
                     (2025-11-25): it goes out once and never comes back to the client until \
                     its result. When the server needs input it keeps the call open and sends \
                     a request of its own on the call's stream (a tag hangs here until the \
                     client answers): the server holds the call's state, the stream and the \
                     session all the while. Inspecting it shows the request as sent."
                }
                Some((TrayState::Detached { .. }, _)) => {
                    "A tray in the holding bay: one logical request. The server answered it \
                     with a task, so the work left the bay for the job magazine; the client \
                     follows the task by its taskId from now on."
                }
                _ => {
                    "A tray in the holding bay: one logical request (tools/call, prompts/get or \
                     resources/read). While the server asks for input (resultType \
                     input_required) it waits here; each retry is a new JSON-RPC request with \
                     the same method and arguments plus the answers. Inspecting it shows the \
                     request as first sent: the arguments (the workpiece) and, in _meta, the \
                     capabilities it declared."
                }
            };
            (format!("Tray (logical request): {name}"), explanation)
        }
        Part::Latch { round, .. } => (
            format!("Latch (requestState of round {round})"),
            "The sealed latch: the opaque requestState the server returned with its input \
             requests. The client must echo it exactly on the retry and must not inspect or \
             change it; the server treats it as untrusted and checks its integrity, so a \
             changed latch is refused.",
        ),
        Part::TrayTag { key, .. } => (
            format!("Tag (input request \"{key}\")"),
            "A tag hanging on the workpiece: one of the server's inputRequests (an \
             elicitation, a sampling or a roots request), under its key. The retry answers it \
             in inputResponses under the same key.",
        ),
        Part::Cartridge(task) => (
            format!("Cartridge (task {task})"),
            "A cartridge in the job magazine: a task the server chose to create for a \
             tools/call that declared the tasks extension. Its lamp is the status (working, \
             input_required, completed, failed, cancelled); completed, failed and cancelled \
             are terminal, so the cartridge is sealed. The client learns of changes from \
             notifications/tasks on a listen stream when the server offers one (pushed), else \
             by polling tasks/get at the server's pollIntervalMs; the line below says which \
             it was for this task.",
        ),
        Part::Session => (
            "The session (a reload)".to_owned(),
            "The page reloaded: everything it held in memory was gone. The task handles came \
             back from durable storage and the wire log from this browser's storage, so the \
             story goes on where it was.",
        ),
        Part::HeldSession(_) => (
            "The session (2025-11-25), held by the server".to_owned(),
            "A legacy session: initialize opened it and the server named it with \
             Mcp-Session-Id, which every later request carries. The server keeps what the \
             session needs in its memory, and may send the client requests of its own on an \
             open stream; a 404 says it forgot the session, and the client must initialize \
             again. 2026-07-28 has no sessions: each request carries what the server needs.",
        ),
        Part::ServerAsk(number) => (
            format!("Request {number} from the server"),
            "A JSON-RPC request the server sent the client on an open stream (2025-11-25): \
             the call it was asked in stays open on the server, which keeps its state and the \
             connection until the client answers with a POST of its own. MRTR asks the same \
             question differently: the server answers input_required with a latch and forgets \
             the call; the client retries it with the answer.",
        ),
        Part::CartridgeTag { key, .. } => (
            format!("Tag (task input request \"{key}\")"),
            "An input request of a task in input_required: the client answers it with \
             tasks/update (inputResponses under the same key), not by retrying the call; the \
             task keeps running on the server. A key is answered once.",
        ),
    }
}

/// What the wire told of this particular part, beside its general role: for a cartridge,
/// how its snapshots came (polled or pushed) and the server's own `pollIntervalMs`; for a
/// tray, whether its request offered a task and how its rounds stand.
pub fn facts(traffic: &Traffic, part: &Part) -> Option<String> {
    match part {
        Part::Cartridge(task) => traffic.cartridge(task).map(|c| c.delivery_summary()),
        Part::Tray(id) => traffic.tray(*id).map(|tray| tray.facts()),
        Part::ServerAsk(number) => traffic.server_ask(*number).map(|ask| ask.facts()),
        _ => None,
    }
}

/// A short, stable fingerprint of a latch value, so a change is visible at a glance
/// (FNV-1a; it identifies, it does not protect).
pub fn fingerprint(value: &str) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in value.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("{:06x}", hash & 0x00ff_ffff)
}

/// At most `max` characters of `text`, with an ellipsis when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A one-line summary of a workpiece (the arguments): `party: 4, time: "19:00"`.
pub fn summarize(workpiece: &serde_json::Value) -> String {
    match workpiece {
        serde_json::Value::Object(map) if map.is_empty() => "no arguments".into(),
        serde_json::Value::Object(map) => map
            .iter()
            .map(|(key, value)| format!("{key}: {value}"))
            .collect::<Vec<_>>()
            .join(", "),
        serde_json::Value::Null => "no arguments".into(),
        other => other.to_string(),
    }
}

/// What a tag (an input request) shows, on a tray or a cartridge.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct TagView {
    pub key: String,
    /// The input request's method (`elicitation/create`, …).
    pub kind: String,
    /// `form`, `url`, or empty.
    pub mode: String,
}

impl TagView {
    pub fn of(tag: &holdbay_scene::Tag) -> Self {
        Self {
            key: tag.key.clone(),
            kind: tag.kind.method_name().to_owned(),
            mode: tag.kind.mode_name().unwrap_or_default().to_owned(),
        }
    }
}
