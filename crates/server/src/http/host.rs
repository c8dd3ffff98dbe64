//! The Host guard for `/mcp` and `/relay`, against DNS rebinding: a page whose own name
//! was re-pointed at 127.0.0.1 calls this server same-origin, and browsers send no Origin
//! on a same-origin GET, so only the Host header gives it away (it names the page's
//! site, not this server).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{StatusCode, header};

use super::error_body::{INVALID_REQUEST, jsonrpc_error};

/// The names this server answers to: `localhost`, loopback addresses, and the address it
/// is bound to. Bound to every interface (`0.0.0.0`, `::`), any name is accepted, since
/// the server is then reachable under names it cannot know.
#[derive(Debug, Clone)]
pub struct HostPolicy {
    bound: IpAddr,
}

impl HostPolicy {
    pub fn new(address: SocketAddr) -> Self {
        Self {
            bound: address.ip(),
        }
    }

    /// Whether `authority` (`host[:port]`) names this server.
    pub fn allows(&self, authority: &str) -> bool {
        if self.bound.is_unspecified() {
            return true;
        }
        let Ok(authority) = authority.parse::<http::uri::Authority>() else {
            return false;
        };
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        if host.eq_ignore_ascii_case("localhost") {
            return true;
        }
        host.parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip == self.bound)
    }
}

/// The name a request gave this server: its `Host`, or for HTTP/2, which carries the name
/// in the URI's authority instead, that.
pub fn named(request: &Request) -> Option<String> {
    request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_owned()))
}

/// Middleware: refuse a request whose Host is not one of this server's names.
pub async fn guard(
    State(policy): State<Arc<HostPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    match named(&request) {
        Some(host) if policy.allows(&host) => next.run(request).await,
        named => jsonrpc_error(
            StatusCode::FORBIDDEN,
            INVALID_REQUEST,
            format!(
                "Host {} is not a name of this server; use http://127.0.0.1 or \
                 http://localhost (a foreign name here usually means DNS rebinding).",
                named.as_deref().unwrap_or("(none)")
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::HostPolicy;

    #[test]
    fn loopback_names_and_the_bound_address_are_this_server() {
        let policy = HostPolicy::new("192.168.1.20:8080".parse().expect("address"));
        for host in [
            "localhost:8080",
            "LOCALHOST",
            "127.0.0.1:8080",
            "[::1]:8080",
            "192.168.1.20:8080",
        ] {
            assert!(policy.allows(host), "{host}");
        }
        for host in [
            "evil.test:8080",
            "192.168.1.21:8080",
            "localhost.evil.test",
            "",
        ] {
            assert!(!policy.allows(host), "{host}");
        }
    }

    #[test]
    fn bound_to_every_interface_any_name_is_accepted() {
        let policy = HostPolicy::new("0.0.0.0:8080".parse().expect("address"));
        assert!(policy.allows("mybox.lan:8080"));
    }
}
