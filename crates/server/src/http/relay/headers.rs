//! Which headers the relay carries each way: the MCP transport's, nothing else. Cookies
//! never cross (the relay is not a browser and holds no one's session), and neither do
//! hop-by-hop or proxy headers.

use http::{HeaderMap, HeaderName};

use crate::http::mcp_headers::{RESPONSE_HEADERS, is_request_header};

/// The MCP request headers of `incoming`, to send on. `Authorization` goes along only
/// because the caller sent it.
pub fn to_target(incoming: &HeaderMap) -> HeaderMap {
    let mut outgoing = HeaderMap::new();
    for (name, value) in incoming {
        if is_request_header(name.as_str()) {
            outgoing.append(name.clone(), value.clone());
        }
    }
    outgoing
}

/// The MCP response headers of the target's answer, to return. Not `Location`: a
/// redirect comes back as its status alone, so a browser does not follow it around the
/// relay.
pub fn to_caller(from_target: &HeaderMap) -> HeaderMap {
    let mut returned = HeaderMap::new();
    for name in RESPONSE_HEADERS {
        let Ok(name) = HeaderName::from_bytes(name.as_bytes()) else {
            continue;
        };
        for value in from_target.get_all(&name) {
            returned.append(name.clone(), value.clone());
        }
    }
    returned
}

#[cfg(test)]
mod tests {
    use http::{HeaderMap, HeaderValue};

    use super::{to_caller, to_target};

    #[test]
    fn only_mcp_headers_go_to_the_target() {
        let mut incoming = HeaderMap::new();
        for (name, value) in [
            ("content-type", "application/json"),
            ("mcp-param-region", "eu"),
            ("authorization", "DPoP x"),
            ("dpop", "eyJ.proof.sig"),
            ("cookie", "session=1"),
            ("origin", "http://localhost:8080"),
            ("host", "127.0.0.1:8080"),
            ("connection", "keep-alive"),
        ] {
            incoming.insert(name, HeaderValue::from_static(value));
        }
        let outgoing = to_target(&incoming);
        let mut names: Vec<&str> = outgoing.keys().map(|name| name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["authorization", "content-type", "dpop", "mcp-param-region"]
        );
    }

    #[test]
    fn set_cookie_and_location_do_not_come_back() {
        let mut answer = HeaderMap::new();
        for (name, value) in [
            ("content-type", "text/event-stream"),
            ("www-authenticate", "Bearer realm=\"x\""),
            ("dpop-nonce", "n-1"),
            ("set-cookie", "session=1"),
            ("location", "http://elsewhere.test/"),
        ] {
            answer.insert(name, HeaderValue::from_static(value));
        }
        let returned = to_caller(&answer);
        let mut names: Vec<&str> = returned.keys().map(|name| name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["content-type", "dpop-nonce", "www-authenticate"]);
    }
}
