//! Everything `holdbay serve` can be told, with the defaults a newcomer gets.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

pub use crate::http::relay_token::RelayToken;

/// What `holdbay serve` was asked to do.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The address to bind; 127.0.0.1 unless told otherwise.
    pub bind: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// Trunk's output folder.
    pub dist: PathBuf,
    /// Serve the app built into this binary instead of `dist` (see `embedded_app`).
    pub embedded_app: bool,
    /// Open the app's page in the default browser once serving.
    pub open: bool,
    /// Where the task database and the state key live.
    pub data_dir: PathBuf,
    /// The `requestState` signing key; `None` reads (or creates) `state.key` in the data dir.
    pub state_key: Option<String>,
    /// `NAME:SECRET` pairs; when any is set, every MCP request needs a bearer token.
    pub tokens: Vec<Token>,
    /// Browser origins allowed besides the app's own (the page this server serves).
    pub extra_origins: Vec<String>,
    /// The relay token to use instead of a random one per launch: for tests and scripts
    /// that call the relay without the app's page.
    pub relay_token: Option<RelayToken>,
    /// Non-loopback servers allowed explicitly (`host` or `host:port`): relay targets, and
    /// sources in the app page's `connect-src` (`crate::http::allowed_servers`).
    pub relay_allow: Vec<String>,
    /// `--auth oauth`: `/mcp` needs access tokens of the demo authorization server.
    pub auth: crate::oauth::AuthMode,
    /// The demo authorization server's lifetimes.
    pub oauth: crate::oauth::OAuthOptions,
    /// Extra fixture sets to expose next to the teaching scenarios.
    pub fixtures: Vec<FixtureChoice>,
    /// The stdio servers reachable at `/stdio/NAME`: the only programs `holdbay` runs.
    pub stdio: Vec<crate::stdio::StdioCommand>,
    pub limits: Limits,
}

/// One bearer token and the user it authenticates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub user: String,
    pub secret: String,
}

impl std::str::FromStr for Token {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (user, secret) = text
            .split_once(':')
            .ok_or_else(|| "expected NAME:SECRET".to_owned())?;
        if user.is_empty() || secret.is_empty() {
            return Err("both NAME and SECRET must be non-empty in NAME:SECRET".to_owned());
        }
        if secret.len() < 8 {
            return Err("the SECRET of a token must be at least 8 characters".to_owned());
        }
        Ok(Self {
            user: user.to_owned(),
            secret: secret.to_owned(),
        })
    }
}

/// What `--fixtures` can name: fixture sets to add, or ways to refuse versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FixtureChoice {
    /// The tools, prompts and resources `@modelcontextprotocol/conformance` expects.
    Conformance,
    /// Refuse the first request this server gets with `-32022` (as the conformance suite's
    /// `request-metadata` mock does), so a client's one version retry can be seen.
    RejectFirstVersion,
    /// Refuse every request with `-32022`, supporting only 2025-06-18 and 2025-11-25: a
    /// server with no protocol version in common with a 2026-07-28 client.
    NoCommonVersion,
    /// List 10,000 tools, 500 a page (`many_tools`): the scale of a large real server.
    ManyTools,
    /// Break four rules on purpose (`http::misbehave`): routing headers that disagree with
    /// the body go unnoticed, the preflight forgets Mcp-Name, WWW-Authenticate is not
    /// exposed. For `holdbay check` and the app's card to have a server to fail.
    Misbehave,
}

/// Bounds that protect the server; each one, when hit, gives the client a clear error.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest accepted request body.
    pub max_body_bytes: usize,
    /// MRTR rounds one logical request may take.
    pub max_rounds: u32,
    /// Non-terminal tasks one user may have at once.
    pub max_live_tasks_per_user: usize,
    /// How long a sealed `requestState` stays valid.
    pub state_ttl: Duration,
    /// How long a task is kept after it is created.
    pub task_ttl: Duration,
    /// The shortest `pollIntervalMs` a demo task announces: a tool's own interval (1 s for
    /// `run_pipeline`) is raised to it, so clients polling many tasks poll less often.
    pub min_task_poll_interval_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 1024 * 1024,
            max_rounds: 16,
            max_live_tasks_per_user: 64,
            state_ttl: Duration::from_secs(10 * 60),
            task_ttl: Duration::from_secs(60 * 60),
            min_task_poll_interval_ms: 0,
        }
    }
}

impl ServeOptions {
    /// Loopback, port 8080, `dist/`, the user's data dir, no tokens, no fixtures.
    pub fn new(port: u16, dist: PathBuf, data_dir: PathBuf) -> Self {
        Self {
            bind: IpAddr::from([127, 0, 0, 1]),
            port,
            dist,
            embedded_app: false,
            open: false,
            data_dir,
            state_key: None,
            tokens: Vec::new(),
            extra_origins: Vec::new(),
            relay_token: None,
            relay_allow: Vec::new(),
            auth: crate::oauth::AuthMode::None,
            oauth: crate::oauth::OAuthOptions::default(),
            fixtures: Vec::new(),
            stdio: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// `$XDG_DATA_HOME/holdbay` (or the platform's equivalent), else `./.holdbay`.
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .map(|dir| dir.join("holdbay"))
        .unwrap_or_else(|| PathBuf::from(".holdbay"))
}
