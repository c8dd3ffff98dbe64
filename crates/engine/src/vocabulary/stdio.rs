//! The stdio servers of `holdbay serve --stdio`, named once for the server that runs them and
//! the app that lists them: where they are reached, and how each stands.

use serde::{Deserialize, Serialize};

/// Where the configured stdio servers are listed (`GET`), each reached at `STDIO_PATH/NAME`.
pub const STDIO_PATH: &str = "/stdio";

/// The `name` of the `<meta>` element whose `content` is how many stdio servers the page's
/// server runs; a page without it has none (and the app asks nothing).
pub const STDIO_SERVERS_META: &str = "holdbay-stdio-servers";

/// `GET STDIO_PATH`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StdioListing {
    pub servers: Vec<StdioServerStatus>,
}

/// How one configured stdio server stands.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StdioServerStatus {
    /// Its name in `STDIO_PATH/NAME`.
    pub name: String,
    /// The command it runs, as a person reads it.
    pub command: String,
    pub state: StdioState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    /// How its last process ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// The newest lines it wrote to stderr (across restarts).
    #[serde(default)]
    pub stderr: Vec<String>,
}

/// Whether its process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StdioState {
    /// Started at its first request.
    NotStarted,
    Running,
    /// Gone until restarted.
    Ended,
}

impl StdioState {
    /// How a person reads it.
    pub fn label(self) -> &'static str {
        match self {
            Self::NotStarted => "not started",
            Self::Running => "running",
            Self::Ended => "ended",
        }
    }
}
