//! Which browser origins may call `/mcp` and `/relay`. The spec requires servers to
//! validate Origin, because a page on any site can otherwise reach a loopback server
//! (DNS rebinding, or a plain cross-site `fetch`).

use std::net::SocketAddr;

use url::{Host, Url};

/// The allowed origins: any `http://` origin on a loopback host (the app itself, and
/// development servers on other ports), the origin this server listens on, and each
/// `--allow-origin`.
#[derive(Debug, Clone)]
pub struct OriginPolicy {
    listed: Vec<url::Origin>,
}

impl OriginPolicy {
    /// `address` is where this server listens; `extra_origins` are the `--allow-origin`
    /// values. One that is not an origin is reported on stderr and ignored.
    pub fn new(address: SocketAddr, extra_origins: &[String]) -> Self {
        // Covers a non-loopback `--bind`, where the app's origin is not a loopback one.
        let mut listed: Vec<url::Origin> = parse_origin(&format!("http://{address}"))
            .into_iter()
            .collect();
        for raw in extra_origins {
            match parse_origin(raw.trim().trim_end_matches('/')) {
                Some(origin) => listed.push(origin),
                None => eprintln!(
                    "warning: --allow-origin {raw} is not an origin like https://host[:port]; ignored"
                ),
            }
        }
        Self { listed }
    }

    /// Whether a request carrying `Origin: value` may be served.
    pub fn allows(&self, value: &str) -> bool {
        let Some(origin) = parse_origin(value) else {
            return false;
        };
        is_loopback_http(&origin) || self.listed.contains(&origin)
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

fn is_loopback_http(origin: &url::Origin) -> bool {
    let url::Origin::Tuple(scheme, host, _port) = origin else {
        return false;
    };
    scheme == "http"
        && match host {
            Host::Domain(name) => name == "localhost",
            Host::Ipv4(ip) => ip.is_loopback(),
            Host::Ipv6(ip) => ip.is_loopback(),
        }
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
    fn loopback_http_origins_on_any_port_are_allowed() {
        let policy = policy();
        for origin in [
            "http://127.0.0.1:8080",
            "http://localhost:8080",
            "http://localhost:5173",
            "http://127.0.0.1:3000",
            "http://[::1]:9000",
            "http://localhost",
        ] {
            assert!(policy.allows(origin), "{origin}");
        }
    }

    #[test]
    fn listed_origins_are_allowed_and_others_are_not() {
        let policy = policy();
        assert!(policy.allows("https://tools.example.test"));
        assert!(policy.allows("https://tools.example.test:443"));
        for origin in [
            "https://evil.test",
            "http://tools.example.test",
            "https://localhost:8080",
            "http://localhost.evil.test",
            "null",
            "",
            "http://localhost:8080/path",
            "http://user@localhost:8080",
        ] {
            assert!(!policy.allows(origin), "{origin}");
        }
    }

    #[test]
    fn the_listening_address_is_allowed_even_when_not_loopback() {
        let policy = OriginPolicy::new("192.168.1.20:8080".parse().expect("address"), &[]);
        assert!(policy.allows("http://192.168.1.20:8080"));
        assert!(!policy.allows("http://192.168.1.20:8081"));
    }
}
