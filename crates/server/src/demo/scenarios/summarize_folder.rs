//! `summarize_folder`: the three client features SEP-2577 deprecates, used the old way. Like
//! a server written before 2026-07-28 it asks for the client's roots and a sampled summary
//! without checking what the client declared, and logs only when the request asks for a
//! level. Its result says what came back and what replaces each feature.

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, InputRequests};
use serde_json::{Value, json};

use crate::fixture_kit::rounds::{Rounds, roots, sampling};
use crate::fixture_kit::{Call, Handler, Tool, one_text_argument};

pub const TOOL: Tool = Tool {
    name: "summarize_folder",
    title: "Summarise a folder (retired features)",
    description: "Uses the client features deprecated in 2026-07-28 (SEP-2577) the way an older \
                  server would: it asks the client for its roots (roots/list) and for a \
                  summary from the client's model (sampling/createMessage) although the client \
                  declared neither, and sends log lines (notifications/message) only when the \
                  request set a logLevel. The result says what the client answered and what \
                  replaces each feature.",
    input_schema: || {
        one_text_argument(
            "folder",
            "The folder to summarise. A tool argument is what replaces roots.",
            "file:///home/learner/notes",
        )
    },
    output_schema: None,
    handler: Handler::Later(|call| Box::pin(run(call))),
};

const ROOTS: &str = "workspace";
const SAMPLING: &str = "summary";

async fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let rounds = Rounds::open(call)?;
    let folder = call.string_argument("folder", "file:///home/learner/notes");
    let logged = log(call, rounds.round()).await;
    if rounds.round() == 1 {
        let requests = InputRequests::from([
            (ROOTS.to_owned(), roots()),
            (
                SAMPLING.to_owned(),
                sampling(&format!("Summarise the files in {folder} in one sentence.")),
            ),
        ]);
        return rounds.ask(requests, json!({}));
    }
    let roots = roots_outcome(rounds.response(ROOTS), folder);
    let sampling = sampling_outcome(rounds.response(SAMPLING));
    let logging = match &logged {
        Some(level) => format!(
            "Logging: this request's _meta set logLevel {level}, so log lines came as \
             notifications/message on its stream. Instead, log to stderr (stdio) or use \
             OpenTelemetry."
        ),
        None => "Logging: this request set no io.modelcontextprotocol/logLevel, so the server \
                 sent no notifications/message. Instead, log to stderr (stdio) or use \
                 OpenTelemetry."
            .to_owned(),
    };
    let text = format!(
        "{}\n{}\n{logging}\nAll three are deprecated (SEP-2577): they still work, and may be \
         removed in the first revision on or after 2027-07-28.",
        roots.text, sampling.text
    );
    Ok(super::structured(
        text,
        json!({
            "folder": folder,
            "roots": roots.summary,
            "sampling": sampling.summary,
            "logLevel": logged,
        }),
    )
    .into())
}

struct Outcome {
    text: String,
    summary: Value,
}

fn roots_outcome(response: Option<&Value>, folder: &str) -> Outcome {
    let shared = response
        .and_then(|r| r.get("roots"))
        .and_then(Value::as_array);
    let text = match shared {
        Some(list) if list.is_empty() => format!(
            "Roots: roots/list came back empty, so the client shares no folder; the server \
             used the folder argument ({folder}). Instead of roots, pass folders as tool \
             arguments, resource URIs or server configuration."
        ),
        Some(list) => format!(
            "Roots: the client shared {} folder(s); the server still used the folder argument \
             ({folder}). Instead of roots, pass folders as tool arguments, resource URIs or \
             server configuration.",
            list.len()
        ),
        None => format!(
            "Roots: no roots/list result came back; the server used the folder argument \
             ({folder}). Instead of roots, pass folders as tool arguments, resource URIs or \
             server configuration."
        ),
    };
    Outcome {
        text,
        summary: match shared {
            Some(list) => json!({ "shared": list.len() }),
            None => json!("no result"),
        },
    }
}

fn sampling_outcome(response: Option<&Value>) -> Outcome {
    let error = response.and_then(|r| Some((r.get("code")?.as_i64()?, r.get("message"))));
    let model = response
        .and_then(|r| r.get("model"))
        .and_then(Value::as_str);
    let (text, summary) = match (error, model) {
        (Some((code, message)), _) => (
            format!(
                "Sampling: the client refused sampling/createMessage (error {code}: {}), so no \
                 model was lent and the server wrote no summary. Instead of sampling, a server \
                 calls an LLM provider's API itself.",
                message.and_then(Value::as_str).unwrap_or("no message")
            ),
            json!({ "refused": code }),
        ),
        (None, Some(model)) => (
            format!(
                "Sampling: the client's model {model} answered. Instead of sampling, a server \
                 calls an LLM provider's API itself."
            ),
            json!({ "answeredBy": model }),
        ),
        (None, None) => (
            "Sampling: no sampling result came back, so the server wrote no summary. Instead \
             of sampling, a server calls an LLM provider's API itself."
                .to_owned(),
            json!("no result"),
        ),
    };
    Outcome { text, summary }
}

/// Sends a log line when, and only when, the request's `_meta` asks for a level; the level
/// asked, if any.
#[expect(
    deprecated,
    reason = "logging is deprecated (SEP-2577); the lesson shows it staying quiet"
)]
async fn log(call: &Call<'_>, round: u32) -> Option<String> {
    let level = call.context.meta.log_level()?;
    let message = rmcp::model::LoggingMessageNotificationParam::new(
        level,
        json!(format!("summarize_folder: round {round}")),
    )
    .with_logger("holdbay-demo");
    // A closed stream only means nobody is listening; the result still stands.
    let _ = call.context.peer.notify_logging_message(message).await;
    serde_json::to_value(level)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
}
