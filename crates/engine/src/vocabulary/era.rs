//! The two eras of MCP a dual-era client speaks (versioning.mdx, "Terminology"): **modern**
//! revisions carry version, identity and capabilities on every request (2026-07-28);
//! **legacy** ones open a session with `initialize` (2025-11-25 and earlier).

use std::fmt;

use crate::vocabulary::protocol::{LATEST_LEGACY_VERSION, PROTOCOL_VERSION};

/// Legacy request header naming the session the server assigned in its `initialize` answer.
pub const HEADER_SESSION_ID: &str = "Mcp-Session-Id";
/// The HTTP status a legacy server answers a request of a session it no longer knows with
/// (2025-11-25, "Session Management"): the client must start a new one.
pub const SESSION_UNKNOWN_STATUS: u16 = 404;
/// Request header of a legacy GET stream resumed after the last event it received.
pub const HEADER_LAST_EVENT_ID: &str = "Last-Event-ID";

/// What the wire log calls the GET of a legacy session's own stream.
pub const SESSION_STREAM_LABEL: &str = "GET session stream";
/// What the wire log calls the GET that resumes a request's broken stream.
pub const RESUMED_STREAM_LABEL: &str = "GET resumed stream";
/// What the wire log calls the DELETE that ends a legacy session.
pub const SESSION_END_LABEL: &str = "DELETE session";

/// The legacy revisions this client speaks, newest first. 2025-06-18 differs from
/// 2025-11-25 only in what this client does not use (no URL elicitation, no tasks).
pub const LEGACY_VERSIONS: &[&str] = &[LATEST_LEGACY_VERSION, "2025-06-18"];

/// Which era a server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Era {
    /// 2026-07-28: stateless, `_meta` on every request, MRTR instead of server requests.
    #[default]
    Modern,
    /// 2025-11-25 and earlier: `initialize`, `Mcp-Session-Id`, requests from the server.
    Legacy,
}

impl Era {
    /// The revision this client speaks first in this era.
    pub fn newest_version(self) -> &'static str {
        match self {
            Era::Modern => PROTOCOL_VERSION,
            Era::Legacy => LATEST_LEGACY_VERSION,
        }
    }

    /// The era of a revision: legacy ones are those with `initialize` (2025-11-25 and
    /// before; the dates compare as text).
    pub fn of_version(version: &str) -> Era {
        if version <= LATEST_LEGACY_VERSION {
            Era::Legacy
        } else {
            Era::Modern
        }
    }
}

impl fmt::Display for Era {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.newest_version())
    }
}

/// How the server is reached, which decides how its era is told (versioning.mdx).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Binding {
    /// Streamable HTTP: a `4xx` without a recognised modern error body means legacy.
    #[default]
    Http,
    /// A stdio process (through `holdbay`'s bridge): any error that is not a recognised
    /// modern one, or no answer in time, means legacy.
    Stdio,
}

impl Binding {
    /// How `server` (an absolute URL) is reached: a `holdbay` stdio bridge
    /// (`…/stdio/NAME`) is a stdio process; anything else is Streamable HTTP.
    pub fn of_url(server: &str) -> Binding {
        let path = server.split_once("://").map_or(server, |(_, rest)| {
            rest.split_once('/').map_or("", |(_, path)| path)
        });
        let prefix = crate::vocabulary::stdio::STDIO_PATH.trim_start_matches('/');
        let path = path.split(['?', '#']).next().unwrap_or_default();
        match path.strip_prefix(prefix) {
            Some(name) if name.starts_with('/') && name.len() > 1 => Binding::Stdio,
            _ => Binding::Http,
        }
    }
}

/// The user's choice of era for a server: detected (versioning.mdx), or forced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EraChoice {
    /// Try a modern request first, and fall back to `initialize` on a legacy answer.
    #[default]
    Auto,
    /// Always this era, whatever the server answers.
    Only(Era),
}

impl EraChoice {
    pub const ALL: [EraChoice; 3] = [
        EraChoice::Auto,
        EraChoice::Only(Era::Modern),
        EraChoice::Only(Era::Legacy),
    ];

    /// As written in a URL (`?era=`) and a setting: `auto`, `2026-07-28`, `2025-11-25`.
    pub fn as_str(self) -> &'static str {
        match self {
            EraChoice::Auto => "auto",
            EraChoice::Only(era) => era.newest_version(),
        }
    }

    /// Reads [`EraChoice::as_str`]'s spellings (and `modern`/`legacy`); `None` for anything
    /// else, so a typo in a URL is said rather than guessed.
    pub fn parse(text: &str) -> Option<EraChoice> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" | "" => Some(EraChoice::Auto),
            "modern" => Some(EraChoice::Only(Era::Modern)),
            "legacy" => Some(EraChoice::Only(Era::Legacy)),
            version if LEGACY_VERSIONS.contains(&version) => Some(EraChoice::Only(Era::Legacy)),
            version if version == PROTOCOL_VERSION => Some(EraChoice::Only(Era::Modern)),
            _ => None,
        }
    }

    /// The era the first request is sent in.
    pub fn first_era(self) -> Era {
        match self {
            EraChoice::Auto => Era::Modern,
            EraChoice::Only(era) => era,
        }
    }

    /// Whether a legacy answer to a modern request may switch the client to the legacy era.
    pub fn may_fall_back(self) -> bool {
        self == EraChoice::Auto
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_choice_reads_back_from_its_spelling() {
        for choice in EraChoice::ALL {
            assert_eq!(EraChoice::parse(choice.as_str()), Some(choice));
        }
        assert_eq!(
            EraChoice::parse(" Legacy "),
            Some(EraChoice::Only(Era::Legacy))
        );
        assert_eq!(
            EraChoice::parse("2025-06-18"),
            Some(EraChoice::Only(Era::Legacy))
        );
        assert_eq!(EraChoice::parse("2024-01-01x"), None);
    }

    #[test]
    fn a_stdio_bridge_url_is_a_stdio_binding() {
        assert_eq!(
            Binding::of_url("http://127.0.0.1:8080/stdio/everything"),
            Binding::Stdio
        );
        assert_eq!(
            Binding::of_url("http://127.0.0.1:8080/stdio"),
            Binding::Http
        );
        assert_eq!(Binding::of_url("http://127.0.0.1:8080/mcp"), Binding::Http);
        assert_eq!(
            Binding::of_url("https://example.com/api/stdio/x"),
            Binding::Http
        );
    }

    #[test]
    fn versions_fall_in_their_era() {
        assert_eq!(Era::of_version("2025-11-25"), Era::Legacy);
        assert_eq!(Era::of_version("2024-11-05"), Era::Legacy);
        assert_eq!(Era::of_version("2026-07-28"), Era::Modern);
        assert!(EraChoice::Auto.may_fall_back());
        assert!(!EraChoice::Only(Era::Modern).may_fall_back());
    }
}
