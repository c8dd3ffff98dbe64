//! The app's page, `index.html`, as this launch serves it: read once at start, with this
//! launch's relay token written into its `<head>` (`<meta name="holdbay-relay-token">`, see
//! [`holdbay_engine::relay`]), compressed once in memory (the build's precompressed copies
//! of `index.html` hold no token, so they are not used), and revalidated on every visit by
//! an `ETag` of its bytes. The token makes the bytes differ from launch to launch, so a page
//! cached by an earlier launch is never confirmed with a 304: the browser gets the page with
//! the token that works now. (A `Last-Modified` from the file would confirm it.)

use std::path::Path;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use holdbay_engine::relay::RELAY_TOKEN_META;
use holdbay_engine::stdio::STDIO_SERVERS_META;
use sha2::{Digest, Sha256};

use crate::cache_rules::NO_CACHE;
use crate::content_coding::{PREFERENCE, accepted_codings, content_coding, quality, standing};
use crate::http::relay_token::RelayToken;
use crate::precompress::{Encoding, MIN_SIZE};

/// The page of this launch, or that there is none to serve.
#[derive(Debug)]
pub struct AppPage {
    page: Option<Page>,
}

#[derive(Debug)]
struct Page {
    html: String,
    /// The page itself, then each encoding that made it smaller, best first.
    variants: Vec<Variant>,
}

#[derive(Debug)]
struct Variant {
    /// `None` for the page as it is.
    encoding: Option<Encoding>,
    bytes: Bytes,
    etag: HeaderValue,
}

impl AppPage {
    /// `dist/index.html` with `token` (and the number of stdio servers, when there are any)
    /// in it; no page if the file cannot be read.
    pub fn load(dist: &Path, token: &RelayToken, stdio_servers: usize) -> Self {
        match std::fs::read_to_string(dist.join("index.html")) {
            Ok(html) => Self::from_html(&html, token, stdio_servers),
            Err(_) => Self { page: None },
        }
    }

    /// `html` with `token` (and the number of stdio servers, when there are any) in it,
    /// compressed.
    pub fn from_html(html: &str, token: &RelayToken, stdio_servers: usize) -> Self {
        let mut html = with_relay_token(html, token);
        if stdio_servers > 0 {
            html = with_meta(&html, STDIO_SERVERS_META, &stdio_servers.to_string());
        }
        let digest = hex::encode(&Sha256::digest(html.as_bytes())[..16]);
        let etag = |suffix: &str| {
            HeaderValue::from_str(&format!("\"{digest}{suffix}\""))
                .unwrap_or(HeaderValue::from_static("\"page\""))
        };
        let bytes = Bytes::from(html.clone());
        let mut variants = Vec::new();
        if bytes.len() as u64 >= MIN_SIZE {
            variants.extend(
                compressed(&bytes)
                    .into_iter()
                    .map(|(encoding, packed)| Variant {
                        encoding: Some(encoding),
                        etag: etag(&format!("-{}", encoding.suffix())),
                        bytes: packed,
                    }),
            );
        }
        variants.push(Variant {
            encoding: None,
            etag: etag(""),
            bytes,
        });
        Self {
            page: Some(Page { html, variants }),
        }
    }

    /// The page as served (with its token), for the Content-Security-Policy's hashes; empty
    /// when there is none.
    pub fn html(&self) -> &str {
        self.page.as_ref().map_or("", |page| page.html.as_str())
    }

    /// The answer to a `GET` of the page with `request`'s headers.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        let Some(page) = &self.page else {
            return (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                "This holdbay serve has no app to serve: its --dist folder has no index.html. \
                 Build the app first (bash scripts/build-app.sh), then restart holdbay serve.",
            )
                .into_response();
        };
        let accepted = accepted_codings(request);
        // The page as it is always qualifies, so there is a variant.
        let Some(variant) = page
            .variants
            .iter()
            .filter(|variant| variant.encoding.is_none_or(|e| quality(&accepted, e) > 0.0))
            .max_by(|a, b| rank(&accepted, a).total_cmp(&rank(&accepted, b)))
        else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        let mut headers = HeaderMap::new();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_CACHE));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        headers.insert(header::ETAG, variant.etag.clone());
        if is_known(page, request) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        if let Some(encoding) = variant.encoding {
            headers.insert(header::CONTENT_ENCODING, content_coding(encoding));
        }
        (StatusCode::OK, headers, variant.bytes.clone()).into_response()
    }
}

/// The page's route: `GET` (and `HEAD`) of any path it answers.
pub fn service(page: Arc<AppPage>) -> MethodRouter {
    get(respond).with_state(page)
}

async fn respond(State(page): State<Arc<AppPage>>, request: HeaderMap) -> Response {
    page.respond(&request)
}

/// `html` with `<meta name="holdbay-relay-token" content="TOKEN">` first in its `<head>`
/// (or after the doctype, or first, for a page without one). The token holds only letters,
/// digits, `-` and `_` ([`RelayToken`]), so it needs no escaping in the attribute.
pub fn with_relay_token(html: &str, token: &RelayToken) -> String {
    with_meta(html, RELAY_TOKEN_META, token.as_str())
}

/// `html` with `<meta name="NAME" content="CONTENT">` first in its `<head>` (see
/// [`with_relay_token`]); `name` and `content` are the server's own, needing no escaping.
fn with_meta(html: &str, name: &str, content: &str) -> String {
    let meta = format!("<meta name=\"{name}\" content=\"{content}\">");
    let at = start_tag_end(html, "head")
        .or_else(|| start_tag_end(html, "!doctype"))
        .unwrap_or(0);
    let mut page = String::with_capacity(html.len() + meta.len());
    page.push_str(&html[..at]);
    page.push_str(&meta);
    page.push_str(&html[at..]);
    page
}

/// Just past the `>` of the first `<tag …>` (any case; `<header>` is not `<head>`).
fn start_tag_end(html: &str, tag: &str) -> Option<usize> {
    let lower = html.to_ascii_lowercase();
    let open = format!("<{tag}");
    let mut from = 0;
    while let Some(found) = lower[from..].find(&open) {
        let after_name = from + found + open.len();
        let next = lower[after_name..].chars().next();
        if next.is_some_and(|c| c == '>' || c.is_ascii_whitespace()) {
            return lower[after_name..]
                .find('>')
                .map(|end| after_name + end + 1);
        }
        from = after_name;
    }
    None
}

/// Each encoding of `bytes` that is smaller, side by side (brotli 11 takes the longest).
fn compressed(bytes: &[u8]) -> Vec<(Encoding, Bytes)> {
    std::thread::scope(|scope| {
        let running: Vec<_> = PREFERENCE
            .iter()
            .map(|&encoding| (encoding, scope.spawn(move || encoding.compress(bytes))))
            .collect();
        running
            .into_iter()
            .filter_map(|(encoding, handle)| {
                let packed = handle.join().ok()?.ok()?;
                (packed.len() < bytes.len()).then(|| (encoding, Bytes::from(packed)))
            })
            .collect()
    })
}

/// A variant's standing for this request: an encoding's [`standing`], and the page as it
/// is last among equals, counted as accepted at q=0.001 so any encoding the request accepts
/// wins over it.
fn rank(accepted: &[(String, f32)], variant: &Variant) -> f32 {
    variant
        .encoding
        .map_or(0.001, |encoding| standing(accepted, encoding))
}

/// Whether `If-None-Match` names this launch's page (in any of its encodings).
fn is_known(page: &Page, request: &HeaderMap) -> bool {
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|list| list.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| {
            tag == "*"
                || page
                    .variants
                    .iter()
                    .any(|variant| variant.etag.as_bytes() == tag.as_bytes())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> RelayToken {
        "token-of-this-launch-0123".parse().expect("token")
    }

    const META: &str = "<meta name=\"holdbay-relay-token\" content=\"token-of-this-launch-0123\">";

    #[test]
    fn the_token_goes_first_in_the_head() {
        let page = "<!doctype html>\n<html><header></header><HEAD lang=x>\n<meta charset=\"utf-8\"></HEAD>";
        assert_eq!(
            with_relay_token(page, &token()),
            format!(
                "<!doctype html>\n<html><header></header><HEAD lang=x>{META}\n<meta charset=\"utf-8\"></HEAD>"
            )
        );
        assert_eq!(
            with_relay_token("<!DOCTYPE html><title>t</title>", &token()),
            format!("<!DOCTYPE html>{META}<title>t</title>")
        );
        assert_eq!(
            with_relay_token("<title>t</title>", &token()),
            format!("{META}<title>t</title>")
        );
    }

    fn request(pairs: &[(header::HeaderName, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(name.clone(), HeaderValue::from_static(value));
        }
        headers
    }

    fn big_page() -> String {
        format!(
            "<!doctype html><head><title>t</title></head><body>{}</body>",
            "<p>shell</p>\n".repeat(200)
        )
    }

    #[test]
    fn the_best_accepted_encoding_is_sent() {
        let page = AppPage::from_html(&big_page(), &token(), 0);
        for (accept, expected) in [
            ("gzip, deflate, br, zstd", Some("br")),
            ("zstd, gzip", Some("zstd")),
            ("gzip;q=1, br;q=0.5", Some("gzip")),
            ("br;q=0, gzip", Some("gzip")),
            ("identity", None),
            ("", None),
        ] {
            let response = page.respond(&request(&[(header::ACCEPT_ENCODING, accept)]));
            assert_eq!(response.status(), StatusCode::OK, "{accept}");
            let encoding = response
                .headers()
                .get(header::CONTENT_ENCODING)
                .and_then(|value| value.to_str().ok());
            assert_eq!(encoding, expected, "{accept}");
            assert_eq!(response.headers()[header::CACHE_CONTROL], NO_CACHE);
            assert!(response.headers().get(header::LAST_MODIFIED).is_none());
        }
    }

    #[test]
    fn its_etag_answers_304_and_another_launchs_does_not() {
        let page = AppPage::from_html(&big_page(), &token(), 0);
        let first = page.respond(&request(&[(header::ACCEPT_ENCODING, "br")]));
        let etag = first.headers()[header::ETAG].clone();
        let mut again = HeaderMap::new();
        again.insert(header::IF_NONE_MATCH, etag.clone());
        let revalidated = page.respond(&again);
        assert_eq!(revalidated.status(), StatusCode::NOT_MODIFIED);
        assert!(revalidated.headers().get(header::CONTENT_TYPE).is_none());

        let relaunched = AppPage::from_html(
            &big_page(),
            &"another-launch-token".parse().expect("token"),
            0,
        );
        assert_eq!(relaunched.respond(&again).status(), StatusCode::OK);
    }

    #[test]
    fn a_missing_page_is_a_404_that_says_what_to_do() {
        let page = AppPage::load(Path::new("/nonexistent/holdbay/dist"), &token(), 0);
        let response = page.respond(&HeaderMap::new());
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        assert_eq!(page.html(), "");
    }
}
