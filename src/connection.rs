//! Which server the app talks to and how: directly or through the `holdbay serve`
//! relay, with optional extra request headers (such as `Authorization`).

use holdbay_engine::EraChoice;
use holdbay_engine::relay::RELAY_PATH;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    /// The MCP endpoint, absolute.
    pub server: String,
    /// Send every request through the relay (for servers that send no CORS headers).
    pub via_relay: bool,
    /// Extra headers for every request. Kept for this tab only unless `remember_headers`.
    pub headers: Vec<(String, String)>,
    pub remember_headers: bool,
    /// Names of extra headers the user marked as not secret: only these show their values
    /// in the wire log and its exports (every other extra header is withheld there).
    #[serde(default)]
    pub shareable_headers: Vec<String>,
    /// How long the client waits for an exchange before it gives up.
    #[serde(default)]
    pub deadlines: Deadlines,
    /// Which era to speak: detected by default. Chosen per server (kept like the relay
    /// choice) or per tab (the page's `?era=`, which wins).
    #[serde(skip)]
    pub era: EraChoice,
}

/// How long the client waits. Every wait is bounded: a server that never answers, or a
/// stream that never ends, is given up on with a message that names the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deadlines {
    /// Seconds for a request's whole answer (a streamed one included).
    pub request_secs: u32,
    /// Seconds a `subscriptions/listen` stream stays open before the client closes it (the
    /// task board then opens a new one).
    pub stream_secs: u32,
}

impl Deadlines {
    pub const DEFAULT_REQUEST_SECS: u32 = 60;
    pub const DEFAULT_STREAM_SECS: u32 = 600;
    /// Longest deadline the connection bar accepts (a day).
    pub const MAX_SECS: u32 = 86_400;

    /// A deadline typed by the user: whole seconds from 1 to [`Deadlines::MAX_SECS`].
    pub fn parse_secs(text: &str) -> Result<u32, String> {
        match text.trim().parse::<u32>() {
            Ok(secs) if (1..=Self::MAX_SECS).contains(&secs) => Ok(secs),
            _ => Err(format!(
                "a deadline is a whole number of seconds from 1 to {} (got “{}”)",
                Self::MAX_SECS,
                text.trim()
            )),
        }
    }
}

impl Default for Deadlines {
    fn default() -> Self {
        Self {
            request_secs: Self::DEFAULT_REQUEST_SECS,
            stream_secs: Self::DEFAULT_STREAM_SECS,
        }
    }
}

impl Connection {
    pub fn direct(server: String) -> Self {
        Self {
            server,
            ..Self::default()
        }
    }

    /// The connection to `server` as this device remembers it: the relay choice, and the
    /// headers only if the user asked to remember them.
    pub fn restore(server: String) -> Self {
        let via_relay = crate::storage::load(&relay_key(&server)).unwrap_or(false);
        let remembered: Option<Vec<(String, String)>> = crate::storage::load(&headers_key(&server));
        Self {
            via_relay,
            deadlines: crate::storage::load(&deadlines_key(&server)).unwrap_or_default(),
            remember_headers: remembered.is_some(),
            headers: remembered.unwrap_or_default(),
            // Remembered headers come back secret: marking one shareable is per tab.
            shareable_headers: Vec::new(),
            era: crate::storage::load::<String>(&era_key(&server))
                .and_then(|kept| EraChoice::parse(&kept))
                .unwrap_or_default(),
            server,
        }
    }

    /// Keep the relay choice (not a secret) and, only when asked, the headers. Unticking
    /// "remember" forgets headers stored earlier.
    pub fn persist(&self) -> Result<(), String> {
        crate::storage::save(&relay_key(&self.server), &self.via_relay)?;
        if self.deadlines == Deadlines::default() {
            crate::storage::remove(&deadlines_key(&self.server));
        } else {
            crate::storage::save(&deadlines_key(&self.server), &self.deadlines)?;
        }
        if self.era == EraChoice::Auto {
            crate::storage::remove(&era_key(&self.server));
        } else {
            crate::storage::save(&era_key(&self.server), &self.era.as_str())?;
        }
        remember_recent(self)?;
        let key = headers_key(&self.server);
        if self.remember_headers {
            let headers: Vec<(String, String)> = self
                .extra_headers()
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .collect();
            crate::storage::save(&key, &headers)
        } else {
            crate::storage::remove(&key);
            Ok(())
        }
    }

    /// What to `fetch`: the server, or the relay with the server as its target.
    pub fn fetch_url(&self) -> String {
        if self.via_relay {
            relay_url(&self.server)
        } else {
            self.server.clone()
        }
    }

    /// Whether the log must withhold `name`'s value: an extra header of the user's, unless
    /// marked as not secret.
    pub fn is_secret_header(&self, name: &str) -> bool {
        self.extra_headers()
            .any(|(extra, _)| extra.eq_ignore_ascii_case(name))
            && !self
                .shareable_headers
                .iter()
                .any(|shareable| shareable.trim().eq_ignore_ascii_case(name))
    }

    /// The extra headers that have both a name and a value.
    pub fn extra_headers(&self) -> impl Iterator<Item = (&str, &str)> {
        self.headers
            .iter()
            .map(|(name, value)| (name.trim(), value.trim()))
            .filter(|(name, value)| !name.is_empty() && !value.is_empty())
    }
}

/// `/relay?target=<server, percent-encoded>` on the page's origin.
pub fn relay_url(server: &str) -> String {
    format!(
        "{RELAY_PATH}?target={}",
        String::from(js_sys::encode_uri_component(server))
    )
}

/// Where the relay choice for `server` is kept.
pub fn relay_key(server: &str) -> String {
    crate::storage::key("relay", server)
}

/// Where the deadlines chosen for `server` are kept (not a secret).
fn deadlines_key(server: &str) -> String {
    crate::storage::key("deadlines", server)
}

/// Where the era chosen for `server` is kept (not a secret; absent: detected).
fn era_key(server: &str) -> String {
    crate::storage::key("era", server)
}

/// Where remembered headers for `server` are kept (only when the user ticks "remember").
pub fn headers_key(server: &str) -> String {
    crate::storage::key("headers", server)
}

/// Servers kept in the recent list, at most.
pub const RECENT_LIMIT: usize = 10;
const RECENT_KEY: &str = "holdbay/recent-servers";

/// A server connected to before: its URL and relay choice, never a header or a token (those
/// are kept apart, and only when the user ticked "Remember on this device").
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecentServer {
    pub server: String,
    pub via_relay: bool,
    /// The user asked this device to remember headers for it (they are not in this list).
    #[serde(default)]
    pub headers_remembered: bool,
}

/// The servers connected to before, newest first.
pub fn recent_servers() -> Vec<RecentServer> {
    let mut recent: Vec<RecentServer> = crate::storage::load(RECENT_KEY).unwrap_or_default();
    recent.truncate(RECENT_LIMIT);
    recent
}

/// Put `connection`'s server first in the recent list (once, within [`RECENT_LIMIT`]).
fn remember_recent(connection: &Connection) -> Result<(), String> {
    if connection.server.is_empty() {
        return Ok(());
    }
    let mut recent = recent_servers();
    recent.retain(|known| known.server != connection.server);
    recent.insert(
        0,
        RecentServer {
            server: connection.server.clone(),
            via_relay: connection.via_relay,
            headers_remembered: connection.remember_headers,
        },
    );
    recent.truncate(RECENT_LIMIT);
    crate::storage::save(RECENT_KEY, &recent)
}

/// Take `server` off the recent list, and forget what this device kept for it (its relay
/// choice and any remembered headers).
pub fn forget_recent(server: &str) -> Result<(), String> {
    let mut recent = recent_servers();
    recent.retain(|known| known.server != server);
    crate::storage::remove(&relay_key(server));
    crate::storage::remove(&headers_key(server));
    crate::storage::remove(&deadlines_key(server));
    crate::storage::save(RECENT_KEY, &recent)
}
