//! The URL rules: the MCP server's canonical URI (RFC 8707 as the spec profiles it), the
//! protected resource's `resource` check, issuer identifiers, and the discovery URLs in the
//! spec's order (authorization-server-discovery.mdx).

use url::Url;

use super::AuthError;

/// The well-known paths of RFC 9728 (protected resource metadata), RFC 8414 (authorization
/// server metadata) and OpenID Connect Discovery: the client probes them, the demo
/// authorization server serves them.
pub const PROTECTED_RESOURCE_WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";
pub const AUTHORIZATION_SERVER_WELL_KNOWN: &str = "/.well-known/oauth-authorization-server";
pub const OPENID_CONFIGURATION_WELL_KNOWN: &str = "/.well-known/openid-configuration";
/// Where `holdbay serve` serves the app's own Client ID Metadata Document.
pub const APP_CLIENT_METADATA_PATH: &str = "/oauth/client-metadata.json";
/// The app's redirect URI path: `holdbay serve` serves the page there, which hands the
/// authorization response back to the app.
pub const APP_CALLBACK_PATH: &str = "/oauth/callback";

/// An absolute http(s) URL without fragment, or why not.
pub fn parse_http_url(text: &str) -> Result<Url, String> {
    let url = Url::parse(text).map_err(|error| error.to_string())?;
    if url.scheme() != "https" && url.scheme() != "http" {
        return Err(format!("scheme {} is not http(s)", url.scheme()));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("it has no host".into());
    }
    if url.fragment().is_some() {
        return Err("it has a fragment".into());
    }
    Ok(url)
}

/// `https`, or `http` to a loopback host (the conformance suite and local servers).
pub fn is_https_or_loopback(url: &Url) -> bool {
    url.scheme() == "https"
        || matches!(url.host(), Some(url::Host::Domain("localhost")))
        || matches!(url.host(), Some(url::Host::Ipv4(ip)) if ip.is_loopback())
        || matches!(url.host(), Some(url::Host::Ipv6(ip)) if ip.is_loopback())
}

/// The canonical URI of a resource: lower-case scheme and host (the parser does that),
/// no default port, no fragment, no query, and no trailing slash on an empty path.
pub fn canonical_resource(text: &str) -> Result<String, String> {
    let url = parse_http_url(text.trim())?;
    Ok(canonical_of(&url))
}

fn canonical_of(url: &Url) -> String {
    let origin = url.origin().ascii_serialization();
    let path = url.path();
    let path = if path == "/" { "" } else { path };
    format!("{origin}{path}")
}

/// The MCP server's canonical URI, for the `resource` parameter.
pub fn server_resource(server_url: &str) -> Result<String, AuthError> {
    canonical_resource(server_url).map_err(|reason| AuthError::ServerUrlInvalid {
        url: server_url.to_owned(),
        reason,
    })
}

/// Whether a PRM `resource` covers the MCP server: the same origin, and its path equal to,
/// or a parent (on a `/` boundary) of, the server's path. A resource served at the root
/// well-known location names the origin (conformance `auth/metadata-var2`).
pub fn resource_covers(resource: &str, server: &str) -> bool {
    let (Ok(resource), Ok(server)) = (canonical_resource(resource), canonical_resource(server))
    else {
        return false;
    };
    if resource == server {
        return true;
    }
    let parent = resource.trim_end_matches('/');
    server
        .strip_prefix(parent)
        .is_some_and(|rest| rest.starts_with('/'))
        && url_origin(&resource) == url_origin(&server)
}

fn url_origin(text: &str) -> Option<String> {
    Url::parse(text)
        .ok()
        .map(|url| url.origin().ascii_serialization())
}

/// Where to look for the protected resource metadata, in order: the challenge's
/// `resource_metadata`, then the path-based well-known URI, then the root one.
pub fn prm_urls(
    server_url: &str,
    resource_metadata: Option<&str>,
) -> Result<Vec<String>, AuthError> {
    let server = parse_http_url(server_url).map_err(|reason| AuthError::ServerUrlInvalid {
        url: server_url.to_owned(),
        reason,
    })?;
    let origin = server.origin().ascii_serialization();
    let mut urls = Vec::new();
    if let Some(from_challenge) = resource_metadata.map(str::trim)
        && parse_http_url(from_challenge).is_ok()
    {
        urls.push(from_challenge.to_owned());
    }
    let path = server.path().trim_end_matches('/');
    if !path.is_empty() {
        urls.push(format!("{origin}{PROTECTED_RESOURCE_WELL_KNOWN}{path}"));
    }
    urls.push(format!("{origin}{PROTECTED_RESOURCE_WELL_KNOWN}"));
    urls.dedup();
    Ok(urls)
}

/// An authorization server's issuer identifier, kept exactly as written (it is compared
/// byte for byte), with the parts the discovery URLs are built from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issuer {
    text: String,
    origin: String,
    /// The path without its terminating `/` (RFC 8414 §3.1); empty for none.
    path: String,
}

impl Issuer {
    pub fn parse(text: &str) -> Result<Issuer, AuthError> {
        let invalid = |reason: String| AuthError::IssuerInvalid {
            issuer: text.to_owned(),
            reason,
        };
        let url = parse_http_url(text).map_err(invalid)?;
        if url.query().is_some() {
            return Err(invalid("an issuer has no query (RFC 8414 §2)".into()));
        }
        if !is_https_or_loopback(&url) {
            return Err(invalid("an issuer uses https (RFC 8414 §2)".into()));
        }
        Ok(Issuer {
            text: text.to_owned(),
            origin: url.origin().ascii_serialization(),
            path: url.path().trim_end_matches('/').to_owned(),
        })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The metadata URLs to try, in the spec's order.
    pub fn metadata_urls(&self) -> Vec<String> {
        let (origin, path) = (&self.origin, &self.path);
        if path.is_empty() {
            vec![
                format!("{origin}{AUTHORIZATION_SERVER_WELL_KNOWN}"),
                format!("{origin}{OPENID_CONFIGURATION_WELL_KNOWN}"),
            ]
        } else {
            vec![
                format!("{origin}{AUTHORIZATION_SERVER_WELL_KNOWN}{path}"),
                format!("{origin}{OPENID_CONFIGURATION_WELL_KNOWN}{path}"),
                format!("{origin}{path}{OPENID_CONFIGURATION_WELL_KNOWN}"),
            ]
        }
    }
}
