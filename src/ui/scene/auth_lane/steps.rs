//! The authorization lane's model: which wire-log exchanges belong to a sign-in, where each
//! one travelled, and how it ended. Read from the log's entries; the engine decides what an
//! exchange is for ([`Purpose`], [`Purpose::party`]) and what counts as a challenge
//! ([`sign_in_needed`]).

use holdbay_engine::auth::{AuthParty, Purpose, sign_in_needed};

use crate::wire::WireEntry;

/// What an exchange on the lane was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// The MCP request the resource server refused with a `Bearer` challenge.
    Challenge { step_up: bool },
    /// An exchange of the authorization flow itself.
    Exchange(Purpose),
}

/// How an exchange ended, as the log has it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StepOutcome {
    /// The HTTP status that came back.
    Status(u16),
    /// No answer: the log says why.
    Broken(String),
    /// Recorded without an HTTP answer (the browser's trip to the authorization endpoint).
    Recorded,
    /// Still on its way.
    Pending,
}

impl StepOutcome {
    /// How `entry` stood at `until` (the caller's clock, ms).
    fn at(entry: &WireEntry, until: f64) -> Self {
        let by_then = |after: Option<f64>| after.is_some_and(|ms| entry.started_at + ms <= until);
        if !by_then(entry.responded_after.or(entry.finished_after)) {
            return Self::Pending;
        }
        match (&entry.status, &entry.error) {
            (Some(status), _) => Self::Status(*status),
            (None, Some(error)) => Self::Broken(error.clone()),
            (None, None) if entry.is_finished() => Self::Recorded,
            (None, None) => Self::Pending,
        }
    }

    /// The short text on the part: `200`, `error` (no answer), `sent`, `…`.
    pub fn text(&self) -> String {
        match self {
            Self::Status(status) => status.to_string(),
            Self::Broken(_) => "error".to_owned(),
            Self::Recorded => "sent".to_owned(),
            Self::Pending => "…".to_owned(),
        }
    }

    /// `ok`, `refused` or `broken`, for the part's colour (a challenge's 401 is `asked`).
    pub fn tone(&self, kind: StepKind) -> &'static str {
        match (self, kind) {
            (_, StepKind::Challenge { .. }) => "asked",
            (Self::Status(status), _) if *status < 400 => "ok",
            (Self::Status(_), _) => "refused",
            (Self::Broken(_), _) => "broken",
            (Self::Recorded | Self::Pending, _) => "ok",
        }
    }
}

/// One part on the lane: an exchange at its station.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthStep {
    /// The wire-log entry's id.
    pub entry: u64,
    /// 1 for the first part on the lane.
    pub number: usize,
    pub kind: StepKind,
    pub station: AuthParty,
    pub outcome: StepOutcome,
}

impl AuthStep {
    /// `challenge`, or the purpose's label without its `oauth: ` prefix (`token`).
    pub fn label(&self) -> &'static str {
        match self.kind {
            StepKind::Challenge { .. } => "challenge",
            StepKind::Exchange(purpose) => {
                let label = purpose.label();
                label.strip_prefix("oauth: ").unwrap_or(label)
            }
        }
    }

    /// A name for the attribute `data-purpose`: `challenge`, `resource-metadata`, ….
    pub fn purpose_name(&self) -> String {
        self.label().replace(' ', "-")
    }
}

/// The lane's parts from `entries` (in log order) as they stood at `until` (the caller's
/// clock, ms; `f64::INFINITY` for all), the challenges among the MCP exchanges included.
/// `None` when the log holds no authorization exchange at all: then there is no lane.
pub fn auth_steps(entries: &[WireEntry], until: f64) -> Option<Vec<AuthStep>> {
    if !entries.iter().any(|entry| entry.auth.is_some()) {
        return None;
    }
    let steps = entries
        .iter()
        .filter(|entry| entry.started_at <= until)
        .filter_map(|entry| {
            let kind = match entry.auth {
                Some(purpose) => StepKind::Exchange(purpose),
                None => {
                    let asked = sign_in_needed(entry.status?, &entry.response_headers)?;
                    StepKind::Challenge {
                        step_up: asked.step_up,
                    }
                }
            };
            let station = match kind {
                StepKind::Exchange(purpose) => purpose.party(),
                // The MCP server is the resource server.
                StepKind::Challenge { .. } => AuthParty::ResourceServer,
            };
            Some((entry, kind, station))
        })
        .enumerate()
        .map(|(index, (entry, kind, station))| AuthStep {
            entry: entry.id,
            number: index + 1,
            kind,
            station,
            outcome: StepOutcome::at(entry, until),
        })
        .collect();
    Some(steps)
}
