//! The servers beyond this machine that the user allowed with `--relay-allow`: one list,
//! read by the relay's target check ([`super::relay::target`]) and by the app page's
//! `connect-src` ([`super::hardening`]), so a server allowed for one is allowed for both.

/// One `--relay-allow` entry: a host (any port) or `host:port`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    /// Lowercased; an IPv6 address without brackets.
    host: String,
    port: Option<u16>,
}

/// The `--relay-allow` list, parsed once.
#[derive(Debug, Clone, Default)]
pub struct AllowedServers {
    entries: Vec<Entry>,
}

impl AllowedServers {
    /// `relay_allow` is the `--relay-allow` list: `host`, `host:port`, an IPv6 address, or
    /// `[v6]:port`. Entries that are none of these are reported on stderr and ignored.
    pub fn new(relay_allow: &[String]) -> Self {
        let mut entries = Vec::new();
        for raw in relay_allow {
            let text = raw.trim().to_ascii_lowercase();
            if text.is_empty() {
                continue;
            }
            match parse_entry(&text) {
                Some(entry) => entries.push(entry),
                None => {
                    eprintln!("warning: --relay-allow {raw} is not a host or host:port; ignored")
                }
            }
        }
        Self { entries }
    }

    /// Whether the list names `host` (as a URL writes it: IPv6 in brackets or not) on
    /// `port`.
    pub fn lists(&self, host: &str, port: u16) -> bool {
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        self.entries
            .iter()
            .any(|entry| entry.host == host && entry.port.is_none_or(|only| only == port))
    }

    /// CSP source expressions for the listed servers, over http and https. IPv6 entries
    /// are left out: CSP's host grammar has no IPv6 literals (the relay still reaches them).
    pub fn connect_sources(&self) -> Vec<String> {
        self.entries
            .iter()
            .filter(|entry| !entry.host.contains(':'))
            .flat_map(|entry| {
                let port = entry
                    .port
                    .map_or_else(|| "*".to_owned(), |port| port.to_string());
                ["http", "https"].map(|scheme| format!("{scheme}://{}:{port}", entry.host))
            })
            .collect()
    }
}

/// `host`, `host:port`, `v6`, `[v6]` or `[v6]:port`; a host name holds only letters,
/// digits, `-` and `.` (which also keeps it safe inside a CSP header).
fn parse_entry(text: &str) -> Option<Entry> {
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        host.parse::<std::net::Ipv6Addr>().ok()?;
        let port = match after {
            "" => None,
            other => Some(other.strip_prefix(':')?.parse::<u16>().ok()?),
        };
        (host, port)
    } else if text.matches(':').count() > 1 {
        text.parse::<std::net::Ipv6Addr>().ok()?;
        (text, None)
    } else if let Some((host, port)) = text.split_once(':') {
        (host, Some(port.parse::<u16>().ok()?))
    } else {
        (text, None)
    };
    let plain = host.contains(':')
        || (!host.is_empty()
            && host
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.')));
    plain.then(|| Entry {
        host: host.to_owned(),
        port,
    })
}

#[cfg(test)]
mod tests {
    use super::AllowedServers;

    fn list(entries: &[&str]) -> AllowedServers {
        AllowedServers::new(&entries.iter().map(|e| (*e).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn a_host_allows_every_port_and_host_port_only_that_one() {
        let allowed = list(&[
            "MCP.Example.test",
            "10.9.9.9:8443",
            "[fd00::1]:9000",
            "fd00::2",
        ]);
        assert!(allowed.lists("mcp.example.test", 1));
        assert!(allowed.lists("mcp.example.test", 443));
        assert!(allowed.lists("10.9.9.9", 8443));
        assert!(!allowed.lists("10.9.9.9", 8444));
        assert!(allowed.lists("[fd00::1]", 9000));
        assert!(!allowed.lists("[fd00::1]", 9001));
        assert!(allowed.lists("[fd00::2]", 1));
        assert!(allowed.lists("fd00::2", 1));
        assert!(!allowed.lists("example.test", 443));
    }

    #[test]
    fn connect_sources_cover_http_and_https() {
        let allowed = list(&["mcp.example.test", "10.9.9.9:8443", "fd00::2"]);
        assert_eq!(
            allowed.connect_sources(),
            [
                "http://mcp.example.test:*",
                "https://mcp.example.test:*",
                "http://10.9.9.9:8443",
                "https://10.9.9.9:8443",
            ]
        );
    }

    #[test]
    fn entries_that_could_break_a_header_are_ignored() {
        let allowed = list(&[
            "evil.test; script-src *",
            "a b",
            "x:notaport",
            "*.example.test",
            "[zz]:1",
            "",
        ]);
        assert!(allowed.connect_sources().is_empty());
        assert!(!allowed.lists("evil.test", 80));
    }
}
