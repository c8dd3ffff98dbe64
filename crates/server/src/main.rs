//! `holdbay`: serves the Holdbay app and the demo MCP server on loopback.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use std::io::Write;

use anyhow::Context;
use clap::{Parser, Subcommand};
use holdbay_engine::check::{CheckOptions, ChosenCall};
use holdbay_server::check::{CheckFormat, FailOn, render};
use holdbay_server::oauth::{AuthMode, OAuthOptions};
use holdbay_server::options::{
    FixtureChoice, Limits, RelayToken, ServeOptions, Token, default_data_dir,
};
use holdbay_server::serve;
use holdbay_server::stdio::{StdioCommand, stdio_servers};

#[derive(Parser)]
#[command(
    name = "holdbay",
    version,
    about = "Holdbay: see and debug MCP 2026-07-28 flows",
    // `holdbay` alone (or with serve's options) serves, as `holdbay serve` does.
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the built app at /, the demo MCP server at /mcp (and behind sign-in at
    /// /protected/mcp) and the relay at /relay.
    Serve(Box<ServeArgs>),
    /// Check a server against the protocol's rules (the engine's probes, natively, no
    /// browser): one verdict per rule, with the exchanges that show it. Exits 1 when a rule
    /// of --fail-on's level (or stricter) fails, 0 otherwise.
    Check(CheckArgs),
    /// Compress the built app's files once (gzip -9, brotli 11, zstd 19), beside each file:
    /// `serve` sends them as they are. Skips files whose compressed copies are up to date.
    Precompress(PrecompressArgs),
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The server's MCP endpoint (Streamable HTTP, 2026-07-28).
    url: String,
    /// How the card is written: text for a terminal, json, markdown for an issue tracker,
    /// junit for CI.
    #[arg(long, value_enum, default_value = "text")]
    format: CheckFormat,
    /// The least binding rule whose failure makes the exit status 1.
    #[arg(long, value_enum, default_value = "must")]
    fail_on: FailOn,
    /// The browser origin the CORS probes ask for (the page a browser client runs on, e.g.
    /// http://127.0.0.1:8080); without it they are not applicable.
    #[arg(long)]
    origin: Option<String>,
    /// The tool the MRTR probes call: it runs, up to four times (once as given, then three
    /// retries that decline what it asks). Name one whose calls may change nothing you
    /// keep; without it those rules are not applicable.
    #[arg(long, value_name = "TOOL")]
    call: Option<String>,
    /// The chosen tool's arguments, a JSON object.
    #[arg(long, value_name = "JSON", default_value = "{}", requires = "call")]
    arguments: String,
}

#[derive(clap::Args)]
struct PrecompressArgs {
    /// The folder Trunk built the app into.
    #[arg(long, default_value = "dist")]
    dist: PathBuf,
}

#[derive(clap::Args)]
#[command(after_help = "\
Who may use /mcp and /relay:
  - /mcp: clients that send no Origin (curl, native MCP clients), and browser pages of this
    server's own origin (the page it serves) or of an --allow-origin. Other pages get 403,
    pages on other loopback addresses or ports included.
  - /relay: the same callers, and only with this launch's relay token in X-Holdbay-Relay-Token.
    The token is random per launch and written into the page this server serves; tests and
    scripts can fix it with --relay-token.

/protected/mcp serves the same demo tools as an OAuth 2.1 protected resource of a demo
authorization server on this same origin, always (the authorization lesson needs no flag).
With --auth oauth, /mcp is protected by it too (tokens live in memory and end with the
process; each is bound to the one endpoint it was asked for):
  /.well-known/oauth-protected-resource/protected/mcp   RFC 9728 resource metadata
  /.well-known/oauth-protected-resource/mcp   the same for /mcp, with --auth oauth
  /.well-known/oauth-authorization-server     RFC 8414 metadata (also openid-configuration)
  /oauth/authorize   consent page (Allow / Deny), PKCE S256 and resource required
  /oauth/token       authorization_code and refresh_token (rotated)
  /oauth/register    dynamic client registration (loopback or own-origin redirect URIs)
  /oauth/client-metadata.json  the app's Client ID Metadata Document (always served)
Scopes: mcp:tools for every tool, mcp:admin also for deploy (403 insufficient_scope
otherwise), offline_access for a refresh token.")]
struct ServeArgs {
    /// TCP port; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the app in the default browser once it is served.
    #[arg(long)]
    open: bool,
    /// Address to bind. Anything but loopback exposes the server to the network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The folder Trunk built the app into [default: the app built into this binary, else ./dist].
    #[arg(long)]
    dist: Option<PathBuf>,
    /// Where tasks (SQLite) and the requestState key are kept [default: the user's data dir].
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Key that seals requestState (at least 32 bytes) [default: data-dir/state.key, created on first run].
    #[arg(long, env = "HOLDBAY_STATE_KEY", hide_env_values = true)]
    state_key: Option<String>,
    /// Require a bearer token; NAME is the user it authenticates. Repeatable.
    #[arg(long = "token", value_name = "NAME:SECRET")]
    tokens: Vec<Token>,
    /// Also let pages of this browser origin call /mcp and the relay (for example
    /// http://127.0.0.1:5173 for a dev server). By default only the page this server serves
    /// may, not even other pages on this machine. Repeatable.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origins: Vec<String>,
    /// For tests and scripts only: the relay token to expect instead of a random one made at
    /// each launch. The relay serves only requests carrying it in X-Holdbay-Relay-Token;
    /// the served page carries it, so the app needs no flag. At least 16 letters, digits,
    /// '-' or '_'.
    #[arg(long, value_name = "TOKEN", hide_default_value = true)]
    relay_token: Option<RelayToken>,
    /// Let the relay reach this non-loopback host (host or host:port), and the app's page call
    /// it directly (its Content-Security-Policy connect-src). Repeatable.
    #[arg(long = "relay-allow", value_name = "HOST[:PORT]")]
    relay_allow: Vec<String>,
    /// Protect /mcp with the demo OAuth 2.1 authorization server this binary runs beside it
    /// (oauth), or not at all (none; --token still applies). See "With --auth oauth" below.
    #[arg(long, value_enum, default_value_t = AuthMode::None)]
    auth: AuthMode,
    /// Run COMMAND (its words split as a shell splits them; no shell runs it) as a stdio MCP
    /// server, reached at /stdio/NAME. Repeatable. Only these commands, and those of
    /// --stdio-config, ever run.
    #[arg(long = "stdio", value_name = "NAME=COMMAND")]
    stdio: Vec<StdioCommand>,
    /// The stdio servers of an mcpServers file (`{"mcpServers": {NAME: {"command", "args",
    /// "env"}}}`, as other MCP clients write it); entries without a command are skipped.
    #[arg(long = "stdio-config", value_name = "FILE")]
    stdio_config: Option<PathBuf>,
    /// With --auth oauth: seconds an access token stays valid (short ones show refreshing).
    #[arg(long, value_name = "SECS", default_value_t = OAuthOptions::default().token_lifetime.as_secs())]
    auth_token_lifetime: u64,
    /// With --auth oauth: seconds an authorization code may wait to be exchanged.
    #[arg(long, value_name = "SECS", default_value_t = OAuthOptions::default().code_lifetime.as_secs())]
    auth_code_lifetime: u64,
    /// With --auth oauth: seconds a refresh token stays valid (each works once: rotation).
    #[arg(long, value_name = "SECS", default_value_t = OAuthOptions::default().refresh_lifetime.as_secs())]
    auth_refresh_lifetime: u64,
    /// Expose extra fixture tools next to the teaching scenarios, or make the server refuse
    /// protocol versions (to show a client's version negotiation). Repeatable.
    #[arg(long, value_enum)]
    fixtures: Vec<FixtureChoice>,
    /// Largest accepted request body, in bytes.
    #[arg(long, default_value_t = Limits::default().max_body_bytes)]
    max_body_bytes: usize,
    /// MRTR rounds one logical request may take.
    #[arg(long, default_value_t = Limits::default().max_rounds)]
    max_rounds: u32,
    /// Unfinished tasks one user may have at once.
    #[arg(long, default_value_t = Limits::default().max_live_tasks_per_user)]
    max_live_tasks: usize,
    /// Seconds a sealed requestState stays valid.
    #[arg(long, default_value_t = Limits::default().state_ttl.as_secs())]
    state_ttl_seconds: u64,
    /// Seconds a task is kept after it is created (its ttlMs).
    #[arg(long, default_value_t = Limits::default().task_ttl.as_secs())]
    task_ttl_seconds: u64,
    /// The shortest pollIntervalMs the demo's tasks announce, in ms (each tool's own interval
    /// is raised to it; 0 keeps them, e.g. 1000 for run_pipeline).
    #[arg(long, value_name = "MS", default_value_t = Limits::default().min_task_poll_interval_ms)]
    min_task_poll_interval_ms: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None => serve(cli.serve.into_options()?).await,
        Some(Command::Serve(args)) => serve(args.into_options()?).await,
        Some(Command::Precompress(args)) => precompress(&args.dist),
        Some(Command::Check(args)) => check(args).await,
    }
}

/// `holdbay check`: each probe named on stderr as it goes, the card on stdout.
async fn check(args: CheckArgs) -> anyhow::Result<()> {
    let call = match args.call {
        Some(tool) => {
            let arguments = serde_json::from_str(&args.arguments)
                .context("--arguments must be a JSON object")?;
            eprintln!("holdbay check calls {tool} (it runs, up to four times): you chose it");
            Some(ChosenCall { tool, arguments })
        }
        None => None,
    };
    let options = CheckOptions {
        origin: args.origin,
        call,
    };
    let mut progress = |label: &str| eprintln!("  {label}");
    let report = holdbay_server::check::check(&args.url, options, &mut progress).await?;
    let mut stdout = std::io::stdout();
    stdout.write_all(render(&report, args.format)?.as_bytes())?;
    stdout.flush()?;
    if report.fails_at(args.fail_on.level()) {
        std::process::exit(1);
    }
    Ok(())
}

/// `holdbay precompress`: one line per file written, then a total.
fn precompress(dist: &Path) -> anyhow::Result<()> {
    let summary = holdbay_server::precompress::precompress(dist)
        .with_context(|| format!("cannot precompress {}", dist.display()))?;
    for (path, source, compressed) in &summary.written {
        println!(
            "{:>9} -> {:>9} B  {}",
            source,
            compressed,
            path.strip_prefix(dist).unwrap_or(path).display()
        );
    }
    println!(
        "precompress: {} written, {} up to date, {} too small or not compressible",
        summary.written.len(),
        summary.up_to_date,
        summary.skipped
    );
    Ok(())
}

/// The `--stdio` commands and those of the `--stdio-config` file, each name once.
fn stdio_commands(
    mut commands: Vec<StdioCommand>,
    config: Option<&Path>,
) -> anyhow::Result<Vec<StdioCommand>> {
    if let Some(path) = config {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let (from_file, skipped) =
            stdio_servers(&text).map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
        for name in skipped {
            eprintln!(
                "note: {} entry {name} has no command: not a stdio server, skipped",
                path.display()
            );
        }
        commands.extend(from_file);
    }
    let mut names = std::collections::HashSet::new();
    for command in &commands {
        if !names.insert(command.name.as_str()) {
            anyhow::bail!("two stdio servers are named {}", command.name);
        }
    }
    Ok(commands)
}

impl ServeArgs {
    fn into_options(self) -> anyhow::Result<ServeOptions> {
        if self.auth == AuthMode::Oauth && !self.tokens.is_empty() {
            anyhow::bail!(
                "--token and --auth oauth are two ways to protect /mcp; start holdbay with one of them"
            );
        }
        let embedded_app = self.dist.is_none() && holdbay_server::embedded_app::available();
        let mut options = ServeOptions::new(
            self.port,
            self.dist.unwrap_or_else(|| PathBuf::from("dist")),
            self.data_dir.unwrap_or_else(default_data_dir),
        );
        options.embedded_app = embedded_app;
        options.open = self.open;
        options.bind = self.bind;
        options.state_key = self.state_key;
        options.tokens = self.tokens;
        options.extra_origins = self.allow_origins;
        options.relay_token = self.relay_token;
        options.relay_allow = self.relay_allow;
        options.fixtures = self.fixtures;
        options.stdio = stdio_commands(self.stdio, self.stdio_config.as_deref())?;
        options.limits.max_body_bytes = self.max_body_bytes;
        options.limits.max_rounds = self.max_rounds;
        options.limits.max_live_tasks_per_user = self.max_live_tasks;
        options.limits.state_ttl = Duration::from_secs(self.state_ttl_seconds);
        options.limits.task_ttl = Duration::from_secs(self.task_ttl_seconds);
        options.limits.min_task_poll_interval_ms = self.min_task_poll_interval_ms;
        options.auth = self.auth;
        options.oauth.token_lifetime = Duration::from_secs(self.auth_token_lifetime);
        options.oauth.code_lifetime = Duration::from_secs(self.auth_code_lifetime);
        options.oauth.refresh_lifetime = Duration::from_secs(self.auth_refresh_lifetime);
        Ok(options)
    }
}
