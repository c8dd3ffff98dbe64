//! Where the relay may go: an `http`/`https` URL whose host resolves only to loopback
//! addresses, unless `--relay-allow` names the host. The addresses checked here are the
//! ones the relay connects to, so a DNS answer that changes in between cannot redirect it.

use std::net::{IpAddr, SocketAddr};

use url::{Host, Url};

use crate::http::allowed_servers::AllowedServers;

/// A target that passed the policy, with the addresses to connect to.
#[derive(Debug, Clone)]
pub struct CheckedTarget {
    pub url: Url,
    /// The host name to pin to `addresses`; `None` for an IP literal.
    pub pinned_name: Option<String>,
    pub addresses: Vec<SocketAddr>,
}

/// Why a target cannot be relayed to; each says what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    /// Not a URL the relay can use (400).
    Malformed(String),
    /// Refused by policy (403).
    Refused(String),
    /// Allowed, but its host name does not resolve (502).
    Unresolvable(String),
}

/// Loopback, plus the servers the user allowed with `--relay-allow`.
#[derive(Debug, Clone)]
pub struct TargetPolicy {
    allowed: AllowedServers,
}

impl TargetPolicy {
    pub fn new(allowed: AllowedServers) -> Self {
        Self { allowed }
    }

    /// Parse `raw`, resolve its host, and check it.
    pub async fn check(&self, raw: &str) -> Result<CheckedTarget, TargetError> {
        let url = parse(raw)?;
        let host = url.host().map(|host| host.to_owned()).ok_or_else(|| {
            TargetError::Malformed(format!("The relay target {raw} has no host."))
        })?;
        let port = url.port_or_known_default().unwrap_or(80);
        let host_text = url.host_str().unwrap_or_default().to_owned();
        let listed = self.allowed.lists(&host_text, port);
        let pinned_name = match &host {
            Host::Domain(name) => Some(name.clone()),
            Host::Ipv4(_) | Host::Ipv6(_) => None,
        };
        let addresses = resolve(host, port).await.map_err(|why| {
            if listed {
                TargetError::Unresolvable(format!(
                    "The relay could not reach {url}: {host_text} does not resolve ({why})."
                ))
            } else {
                // Unverifiable is refused, not guessed at: the check keeps the relay local.
                TargetError::Refused(format!(
                    "The relay only reaches servers on this machine, and {host_text} does not \
                     resolve ({why}), so {url} cannot be checked. {}",
                    how_to_allow(&host_text, port)
                ))
            }
        })?;
        let outside = addresses.iter().find(|address| !is_loopback(address.ip()));
        if let (false, Some(outside)) = (listed, outside) {
            return Err(TargetError::Refused(format!(
                "The relay only reaches servers on this machine, and {url} resolves to {}, \
                 which is not a loopback address. {}",
                outside.ip(),
                how_to_allow(&host_text, port)
            )));
        }
        Ok(CheckedTarget {
            url,
            pinned_name,
            addresses,
        })
    }
}

fn parse(raw: &str) -> Result<Url, TargetError> {
    let mut url = Url::parse(raw).map_err(|error| {
        TargetError::Malformed(format!(
            "The relay target {raw:?} is not an absolute URL ({error}); use \
             /relay?target=<percent-encoded URL of the MCP endpoint>."
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(TargetError::Malformed(format!(
            "The relay only speaks http and https; {raw} uses {}:.",
            url.scheme()
        )));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(TargetError::Malformed(format!(
            "The relay target {raw} carries credentials; send them in an Authorization header \
             instead."
        )));
    }
    url.set_fragment(None);
    Ok(url)
}

/// The addresses of `host`, or why there are none.
async fn resolve(host: Host<String>, port: u16) -> Result<Vec<SocketAddr>, String> {
    let name = match host {
        Host::Ipv4(ip) => return Ok(vec![SocketAddr::new(IpAddr::V4(ip), port)]),
        Host::Ipv6(ip) => return Ok(vec![SocketAddr::new(IpAddr::V6(ip), port)]),
        Host::Domain(name) => name,
    };
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), port))
        .await
        .map_err(|error| error.to_string())?
        .collect();
    if addresses.is_empty() {
        return Err("no addresses".to_owned());
    }
    Ok(addresses)
}

fn how_to_allow(host: &str, port: u16) -> String {
    format!(
        "To relay to it anyway, start holdbay with --relay-allow {host} (or --relay-allow \
         {host}:{port} for this port only)."
    )
}

/// Loopback, including IPv4 loopback written as an IPv4-mapped IPv6 address.
fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TargetError, TargetPolicy};
    use crate::http::allowed_servers::AllowedServers;

    fn policy(allowed: &[&str]) -> TargetPolicy {
        let allowed: Vec<String> = allowed.iter().map(|entry| (*entry).to_owned()).collect();
        TargetPolicy::new(AllowedServers::new(&allowed))
    }

    #[tokio::test]
    async fn loopback_literals_pass_and_others_are_refused() {
        let policy = policy(&[]);
        for target in [
            "http://127.0.0.1:3000/mcp",
            "http://[::1]:3000/mcp",
            "http://[::ffff:127.0.0.1]:3000/mcp",
            "https://127.0.0.2/mcp",
        ] {
            assert!(policy.check(target).await.is_ok(), "{target}");
        }
        for target in [
            "http://10.1.2.3/mcp",
            "http://0.0.0.0:3000/mcp",
            "http://[::ffff:10.0.0.1]/mcp",
        ] {
            assert!(
                matches!(policy.check(target).await, Err(TargetError::Refused(_))),
                "{target}"
            );
        }
    }

    #[tokio::test]
    async fn localhost_resolves_to_loopback_and_is_pinned() {
        let checked = policy(&[])
            .check("http://localhost:3000/mcp")
            .await
            .expect("localhost is loopback");
        assert_eq!(checked.pinned_name.as_deref(), Some("localhost"));
        assert!(checked.addresses.iter().all(|a| a.port() == 3000));
    }

    #[tokio::test]
    async fn the_allow_list_matches_host_or_host_and_port() {
        let policy = policy(&["10.1.2.3", "10.9.9.9:8443"]);
        assert!(policy.check("http://10.1.2.3:1234/mcp").await.is_ok());
        assert!(policy.check("http://10.9.9.9:8443/mcp").await.is_ok());
        assert!(matches!(
            policy.check("http://10.9.9.9:8444/mcp").await,
            Err(TargetError::Refused(_))
        ));
    }

    #[tokio::test]
    async fn only_plain_http_urls_are_targets() {
        let policy = policy(&[]);
        for target in [
            "ftp://127.0.0.1/x",
            "/mcp",
            "http://user:pw@127.0.0.1/mcp",
            "file:///etc/passwd",
        ] {
            assert!(
                matches!(policy.check(target).await, Err(TargetError::Malformed(_))),
                "{target}"
            );
        }
    }
}
