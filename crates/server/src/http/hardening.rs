//! Browser hardening headers. Every response gets `X-Content-Type-Options: nosniff`,
//! `Referrer-Policy: no-referrer` (the consent page: `same-origin`), and, unless its route set its own, a
//! `Content-Security-Policy` that lets nothing run or load ([`NOTHING`]: the MCP endpoint's
//! and the relay's answers are data, never a page, even when a relayed server says
//! `text/html`). The app's page gets [`app_policy`]: only the app's own script (Trunk's
//! inline loader by its hash), and connections only to this machine and the servers the
//! user allowed. Its scripts, wasm and style sheets keep [`NOTHING`]: a policy governs the
//! document it comes with.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use http::{HeaderValue, header};
use sha2::{Digest, Sha256};

use super::allowed_servers::AllowedServers;

/// The policy of a response that is not a page: a browser that opens it anyway runs and
/// loads nothing from it. (Not `sandbox`: the end-to-end tests use a same-origin page that
/// is not the app, such as `/relay`, to clear the app's storage.)
pub const NOTHING: &str =
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// Loopback origins on any port: the demo server, and any MCP server on this machine the
/// page talks to directly. Not `http://[::1]:*`: CSP's host grammar has no IPv6 literals
/// (Chromium logs such a source as invalid, a console error); a server on `[::1]` is
/// reached as `localhost` or through the relay (`'self'`).
pub const LOOPBACK_SOURCES: [&str; 2] = ["http://127.0.0.1:*", "http://localhost:*"];

/// Middleware for the whole site: the headers every response carries.
pub async fn common_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // A route may set its own (the consent page: its form's POST must carry its Origin).
    headers
        .entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("no-referrer"));
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(NOTHING));
    response
}

/// The app page's policy, for the `index.html` served (after `finish-dist.sh` rewrote it):
/// its scripts are the app's own files plus each inline `<script>` by hash; wasm may be
/// compiled; its inline `<style>` blocks by hash, and style attributes (the views set a
/// few); images and audio from the app or `data:` URLs (server content is shown only as
/// checked `data:` URLs); connections to this server, loopback, and `allowed`; no plugins,
/// no `<base>`, no form submissions, no framing.
pub fn app_policy(index_html: &str, allowed: &AllowedServers) -> String {
    let hashes = |tag| {
        inline_blocks(index_html, tag)
            .into_iter()
            .map(|text| format!(" {}", hash_source(text)))
            .collect::<String>()
    };
    let connect: String = LOOPBACK_SOURCES
        .iter()
        .map(|source| (*source).to_owned())
        .chain(allowed.connect_sources())
        .map(|source| format!(" {source}"))
        .collect();
    format!(
        "default-src 'self'; \
         script-src 'self' 'wasm-unsafe-eval'{scripts}; \
         style-src 'self'{styles}; \
         style-src-attr 'unsafe-inline'; \
         img-src 'self' data:; \
         media-src 'self' data:; \
         connect-src 'self'{connect}; \
         object-src 'none'; \
         base-uri 'none'; \
         form-action 'none'; \
         frame-ancestors 'none'",
        scripts = hashes("script"),
        styles = hashes("style"),
    )
}

/// `'sha256-…'`: the CSP hash source of an inline block's exact text.
pub fn hash_source(text: &str) -> String {
    format!(
        "'sha256-{}'",
        STANDARD.encode(Sha256::digest(text.as_bytes()))
    )
}

/// The text of every inline `<tag …>…</tag>` in `html` (a `<script src=…>` is not inline),
/// exactly as the browser hashes it: everything between the start tag's `>` and `</tag`.
pub fn inline_blocks<'h>(html: &'h str, tag: &str) -> Vec<&'h str> {
    let lower = html.to_ascii_lowercase();
    let open = format!("<{tag}");
    let close = format!("</{tag}");
    let mut blocks = Vec::new();
    let mut at = 0;
    while let Some(found) = lower[at..].find(&open) {
        let start = at + found;
        let after_name = start + open.len();
        // `<scripts>` or `<style-x>` are other tags.
        let is_tag = lower[after_name..]
            .chars()
            .next()
            .is_some_and(|next| next == '>' || next.is_ascii_whitespace() || next == '/');
        let Some(tag_end) = lower[after_name..].find('>').map(|end| after_name + end) else {
            break;
        };
        if !is_tag {
            at = after_name;
            continue;
        }
        let Some(body_end) = lower[tag_end + 1..]
            .find(&close)
            .map(|end| tag_end + 1 + end)
        else {
            break;
        };
        if !has_src(&lower[after_name..tag_end]) {
            blocks.push(&html[tag_end + 1..body_end]);
        }
        at = body_end + close.len();
    }
    blocks
}

/// Whether a start tag's attributes (lowercased) include `src`.
fn has_src(attributes: &str) -> bool {
    attributes
        .split(|c: char| c.is_ascii_whitespace())
        .any(|attribute| attribute == "src" || attribute.starts_with("src="))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><head>\
        <script type=\"module\">\nimport init from '/app.js';\nawait init();\n</script>\
        <script src=\"/other.js\"></script>\
        <style>body{color:red}</style><STYLE media=\"print\">p{}</STYLE>\
        </head><body><scripts>not a tag</scripts></body></html>";

    #[test]
    fn inline_blocks_are_found_exactly_and_src_scripts_are_not() {
        assert_eq!(
            inline_blocks(PAGE, "script"),
            ["\nimport init from '/app.js';\nawait init();\n"]
        );
        assert_eq!(inline_blocks(PAGE, "style"), ["body{color:red}", "p{}"]);
        assert!(inline_blocks("<p>no scripts</p>", "script").is_empty());
    }

    #[test]
    fn hashes_are_base64_sha256_of_the_text() {
        // printf 'body{color:red}' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            hash_source("body{color:red}"),
            "'sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E='"
        );
    }

    #[test]
    fn the_app_policy_names_each_inline_block_and_the_allowed_servers() {
        let allowed = AllowedServers::new(&["mcp.example.test:443".to_owned()]);
        let policy = app_policy(PAGE, &allowed);
        for block in inline_blocks(PAGE, "script")
            .into_iter()
            .chain(inline_blocks(PAGE, "style"))
        {
            assert!(policy.contains(&hash_source(block)), "{policy}");
        }
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-"));
        assert!(policy.contains(
            "connect-src 'self' http://127.0.0.1:* http://localhost:* \
             http://mcp.example.test:443 https://mcp.example.test:443;"
        ));
        assert!(policy.ends_with("frame-ancestors 'none'"));
        let script_src = policy
            .split(';')
            .find(|directive| directive.trim().starts_with("script-src"))
            .expect("script-src");
        assert!(!script_src.contains("unsafe-inline") && !script_src.contains(" 'unsafe-eval'"));
        assert!(HeaderValue::from_str(&policy).is_ok());
    }
}
