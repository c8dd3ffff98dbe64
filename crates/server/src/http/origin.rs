//! Which browser origins may call `/mcp` and `/relay`: the app's own page, and each
//! `--allow-origin`. The spec requires servers to validate Origin, because a page on any
//! site can otherwise reach a loopback server (DNS rebinding, or a plain cross-site
//! `fetch`); and a page on another loopback port or address is no more the user's than one
//! on the web (any local program can serve one), so loopback alone is not enough.

use std::net::{IpAddr, SocketAddr};

use url::Url;

/// The allowed origins: the origin of the page this server served (the `Host` the request
/// named, when that is one of this server's own names), the origin it listens on, and each
/// `--allow-origin`.
#[derive(Debug, Clone)]
pub struct OriginPolicy {
    /// The address this server is bound to; unspecified (`0.0.0.0`, `::`) names nothing.
    bound: IpAddr,
    listed: Vec<url::Origin>,
}

impl OriginPolicy {
    /// `address` is where this server listens; `extra_origins` are the `--allow-origin`
    /// values. One that is not an origin is reported on stderr and ignored.
    pub fn new(address: SocketAddr, extra_origins: &[String]) -> Self {
        // The page at the listening address is this server's own, whatever name a request
        // reaches it by (and it covers a non-loopback `--bind`).
        let mut listed: Vec<url::Origin> = if address.ip().is_unspecified() {
            Vec::new()
        } else {
            parse_origin(&format!("http://{address}"))
                .into_iter()
                .collect()
        };
        for raw in extra_origins {
            match parse_origin(raw.trim().trim_end_matches('/')) {
                Some(origin) => listed.push(origin),
                None => eprintln!(
                    "warning: --allow-origin {raw} is not an origin like https://host[:port]; ignored"
                ),
            }
        }
        Self {
            bound: address.ip(),
            listed,
        }
    }

    /// Whether a request carrying `Origin: value`, sent to this server under the name
    /// `host` (its `Host`), may be served.
    pub fn allows(&self, value: &str, host: Option<&str>) -> bool {
        let Some(origin) = parse_origin(value) else {
            return false;
        };
        self.listed.contains(&origin) || host.and_then(|host| self.own_origin(host)) == Some(origin)
    }

    /// The origin of this server's own page as a request named it: `http://` and the `Host`,
    /// when the host is one of this server's names (`localhost`, a loopback address, the
    /// bound address). Bound to every interface, a foreign name is not made an own origin:
    /// a DNS-rebound page names its own site, and would otherwise pass as same-origin.
    pub fn own_origin(&self, host: &str) -> Option<url::Origin> {
        let authority = host.parse::<http::uri::Authority>().ok()?;
        let name = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        let own_name = name.eq_ignore_ascii_case("localhost")
            || name.parse::<IpAddr>().is_ok_and(|ip| {
                ip.is_loopback() || (!self.bound.is_unspecified() && ip == self.bound)
            });
        if !own_name {
            return None;
        }
        parse_origin(&format!("http://{authority}"))
    }

    /// This server's own origin to name in a message: the one the request named, else the
    /// listening one.
    pub fn describe_own(&self, host: Option<&str>) -> String {
        host.and_then(|host| self.own_origin(host))
            .or_else(|| self.listed.first().cloned())
            .map(|origin| origin.ascii_serialization())
            .unwrap_or_else(|| "this server's own origin".to_owned())
    }
}

/// An `http(s)://host[:port]` origin, with nothing else in it. `null` and anything
/// with a path, query or credentials is not.
fn parse_origin(value: &str) -> Option<url::Origin> {
    let url = Url::parse(value).ok()?;
    let bare = matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none();
    bare.then(|| url.origin())
}

#[cfg(test)]
mod tests {
    use super::OriginPolicy;

    fn policy() -> OriginPolicy {
        OriginPolicy::new(
            "127.0.0.1:8080".parse().expect("address"),
            &["https://tools.example.test".to_owned()],
        )
    }

    #[test]
    fn the_page_of_the_host_the_request_named_is_allowed() {
        let policy = policy();
        for (origin, host) in [
            ("http://127.0.0.1:8080", "127.0.0.1:8080"),
            ("http://localhost:8080", "localhost:8080"),
            ("http://LOCALHOST:8080", "localhost:8080"),
            ("http://[::1]:8080", "[::1]:8080"),
            // Reached through a forwarded port, the page is still the one this server sent.
            ("http://127.0.0.1:9000", "127.0.0.1:9000"),
        ] {
            assert!(policy.allows(origin, Some(host)), "{origin} {host}");
        }
        // The listening address's page, whatever name the request used.
        assert!(policy.allows("http://127.0.0.1:8080", Some("localhost:8080")));
        assert!(policy.allows("http://127.0.0.1:8080", None));
    }

    #[test]
    fn other_loopback_pages_are_not_allowed() {
        let policy = policy();
        for (origin, host) in [
            ("http://127.0.0.2:8080", "127.0.0.1:8080"),
            ("http://127.0.0.1:7421", "127.0.0.1:8080"),
            ("http://localhost:5173", "127.0.0.1:8080"),
            ("http://localhost:5173", "localhost:8080"),
            ("http://[::1]:9000", "[::1]:8080"),
            ("http://localhost", "localhost:8080"),
            ("https://127.0.0.1:8080", "127.0.0.1:8080"),
        ] {
            assert!(!policy.allows(origin, Some(host)), "{origin} {host}");
        }
        assert!(!policy.allows("http://localhost:8080", None));
    }

    #[test]
    fn listed_origins_are_allowed_and_others_are_not() {
        let policy = policy();
        assert!(policy.allows("https://tools.example.test", None));
        assert!(policy.allows("https://tools.example.test:443", Some("127.0.0.1:8080")));
        for origin in [
            "https://evil.test",
            "http://tools.example.test",
            "http://localhost.evil.test",
            "null",
            "",
            "http://localhost:8080/path",
            "http://user@localhost:8080",
        ] {
            assert!(!policy.allows(origin, Some("localhost:8080")), "{origin}");
        }
    }

    #[test]
    fn a_foreign_host_is_never_an_own_origin() {
        let policy = policy();
        assert!(!policy.allows("http://evil.test:8080", Some("evil.test:8080")));
        // Bound to every interface the Host guard lets any name through; the Origin guard
        // still does not take a rebound page's name for this server's.
        let everywhere = OriginPolicy::new("0.0.0.0:8080".parse().expect("address"), &[]);
        assert!(!everywhere.allows("http://evil.test:8080", Some("evil.test:8080")));
        assert!(!everywhere.allows("http://0.0.0.0:8080", Some("0.0.0.0:8080")));
        assert!(everywhere.allows("http://127.0.0.1:8080", Some("127.0.0.1:8080")));
    }

    #[test]
    fn the_listening_address_is_allowed_even_when_not_loopback() {
        let policy = OriginPolicy::new("192.168.1.20:8080".parse().expect("address"), &[]);
        assert!(policy.allows("http://192.168.1.20:8080", Some("192.168.1.20:8080")));
        assert!(!policy.allows("http://192.168.1.20:8081", Some("192.168.1.20:8080")));
        assert!(!policy.allows("http://192.168.1.21:8080", Some("192.168.1.21:8080")));
    }

    #[test]
    fn the_own_origin_is_described_as_the_request_named_it() {
        let policy = policy();
        assert_eq!(
            policy.describe_own(Some("localhost:8080")),
            "http://localhost:8080"
        );
        assert_eq!(policy.describe_own(None), "http://127.0.0.1:8080");
    }
}
