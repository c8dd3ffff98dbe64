//! The app's files as a production static site serves them: the precompressed sibling the
//! request's `Accept-Encoding` allows (written at build time by [`crate::precompress`]; nothing
//! is compressed per request), `Vary: Accept-Encoding`, and a cache rule by name: Trunk's
//! content-hashed assets are immutable for a year (with no validator), everything else is
//! revalidated on every visit through `Last-Modified`. The page itself (`/`, `/index.html`,
//! and the page a deep link gets) is this launch's [`AppPage`], which carries the relay
//! token, never the file as it lies in `dist/`.

use std::convert::Infallible;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use tower::ServiceBuilder;
use tower::util::BoxCloneSyncService;
use tower_http::services::ServeDir;

use crate::app_page::{self, AppPage};
use crate::cache_rules::{IMMUTABLE, NO_CACHE};

/// The service behind every path the router does not claim: files from `dist`, and the
/// app's page for `/`, `/index.html` and any other path, so deep links load the app.
pub fn service(
    dist: &Path,
    page: Arc<AppPage>,
) -> BoxCloneSyncService<Request, Response, Infallible> {
    // The page whatever the path looks like: never immutable, even for a missing
    // `name-<hash>.js` (an old build's file asked for after a deploy); it sets its own
    // Cache-Control, which the rule by name leaves alone.
    let files = ServeDir::new(dist)
        .precompressed_br()
        .precompressed_zstd()
        .precompressed_gzip()
        // `/` is the page, not `dist/index.html` as it lies on disk.
        .append_index_html_on_directories(false)
        .fallback(app_page::service(Arc::clone(&page)));
    let site = Router::new()
        .route("/index.html", app_page::service(page))
        .fallback_service(files);
    with_cache_rules(site)
}

/// [`service`] for the app built into the binary (`crate::embedded_app`), with the same
/// cache rules.
pub fn embedded(page: Arc<AppPage>) -> BoxCloneSyncService<Request, Response, Infallible> {
    with_cache_rules(crate::embedded_app::service(page))
}

fn with_cache_rules<S>(site: S) -> BoxCloneSyncService<Request, Response, Infallible>
where
    S: tower::Service<Request, Response = Response, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    BoxCloneSyncService::new(
        ServiceBuilder::new()
            .layer(middleware::from_fn(cache_headers))
            .service(site),
    )
}

/// Brotli over zstd, then `Cache-Control` by the requested name (unless the fallback set
/// it), and `Vary`.
async fn cache_headers(mut request: Request, next: Next) -> Response {
    prefer_brotli(request.headers_mut());
    let hashed = is_content_hashed(request.uri().path());
    let mut response = next.run(request).await;
    let served = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    let rule = if hashed && served {
        IMMUTABLE
    } else {
        NO_CACHE
    };
    let headers = response.headers_mut();
    let immutable = headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static(rule))
        == IMMUTABLE;
    // An immutable file is never revalidated: its validator would be dead weight on each of
    // the dozens of chunks a visit fetches.
    if immutable {
        headers.remove(header::LAST_MODIFIED);
        headers.remove(header::ETAG);
    }
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// ServeDir picks zstd over brotli when a request accepts both equally, as Chromium's
/// `gzip, deflate, br, zstd` does; but brotli 11 is the smaller of the two on the app's wasm
/// (about 6 % below zstd 19), and bytes are what a first visit waits for. So when brotli is
/// accepted at least as much as zstd, zstd is taken out of the header; a client that accepts
/// zstd but not brotli still gets the `.zst` file.
pub fn prefer_brotli(headers: &mut HeaderMap) {
    let Some(accepted) = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok())
    else {
        return;
    };
    let codings: Vec<(&str, f32)> = accepted
        .split(',')
        .filter_map(|item| {
            let mut parts = item.split(';');
            let coding = parts.next()?.trim();
            let q = parts
                .filter_map(|param| param.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (!coding.is_empty()).then_some((coding, q))
        })
        .collect();
    let q_of = |name: &str| {
        codings
            .iter()
            .find(|(coding, _)| coding.eq_ignore_ascii_case(name))
            .map(|(_, q)| *q)
    };
    let (Some(brotli), Some(zstd)) = (q_of("br"), q_of("zstd")) else {
        return;
    };
    if brotli <= 0.0 || brotli < zstd {
        return;
    }
    let kept: Vec<&str> = accepted
        .split(',')
        .filter(|item| {
            let coding = item.split(';').next().unwrap_or_default().trim();
            !coding.eq_ignore_ascii_case("zstd")
        })
        .map(str::trim)
        .collect();
    if let Ok(value) = HeaderValue::from_str(&kept.join(", ")) {
        headers.insert(header::ACCEPT_ENCODING, value);
    }
}

/// Whether the path's file name carries Trunk's content hash: `name-<hex>.ext`, also
/// `name-<hex>_bg.wasm` (at least 8 hex digits; Trunk drops leading zeros, so not always 16).
pub fn is_content_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, _extension)) = name.split_once('.') else {
        return false;
    };
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    let Some((_name, hash)) = stem.rsplit_once('-') else {
        return false;
    };
    hash.len() >= 8 && hash.bytes().all(|byte| byte.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preferred(accept_encoding: &str) -> String {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(accept_encoding).expect("header"),
        );
        prefer_brotli(&mut headers);
        headers[header::ACCEPT_ENCODING]
            .to_str()
            .expect("text")
            .to_owned()
    }

    #[test]
    fn brotli_wins_over_zstd_when_accepted_as_much() {
        assert_eq!(preferred("gzip, deflate, br, zstd"), "gzip, deflate, br");
        assert_eq!(preferred("zstd;q=0.9, BR;q=0.9"), "BR;q=0.9");
        // Otherwise the header is left as it is.
        assert_eq!(preferred("zstd, br;q=0.5"), "zstd, br;q=0.5");
        assert_eq!(preferred("zstd, br;q=0"), "zstd, br;q=0");
        assert_eq!(preferred("zstd, gzip"), "zstd, gzip");
        assert_eq!(preferred("gzip, deflate, br"), "gzip, deflate, br");
    }

    #[test]
    fn trunk_hashed_names_are_recognised() {
        for path in [
            "/holdbay-app-e6ebf749b0802f17.js",
            "/holdbay-app-e6ebf749b0802f17_bg.wasm",
            "/scene-fa81207fcb875f5.css",
            "/favicon-11b041476863da34.svg",
            "/snippets/x/lazy-0123456789abcdef.js",
        ] {
            assert!(is_content_hashed(path), "{path}");
        }
    }

    #[test]
    fn other_names_are_not_hashed() {
        for path in [
            "/",
            "/index.html",
            "/lessons/anything",
            "/holdbay-app.js",
            "/style-dark.css",
            "/deadbeef-cafe.js",
            "/x-0123456z.js",
        ] {
            assert!(!is_content_hashed(path), "{path}");
        }
    }
}
