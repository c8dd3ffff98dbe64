//! The app built into the binary: `dist/` as `scripts/build-app.sh` left it (each file
//! with its brotli and gzip copies; zstd's are left out, as brotli is preferred wherever
//! zstd is accepted), so `holdbay serve` runs from any directory. A debug build reads the
//! same folder from disk instead (`rust-embed`'s rule), and a build made before the app
//! was has none: `serve` then looks for `./dist`, as `--dist` does.
//! `build.rs` has Cargo rebuild this crate when `dist/` changes.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tower::service_fn;
use tower::util::BoxCloneSyncService;

use crate::app_page::AppPage;
use crate::content_coding::{best_encoding, content_coding};
use crate::precompress::Encoding;

#[derive(rust_embed::Embed)]
#[folder = "$CARGO_MANIFEST_DIR/../../dist/"]
#[exclude = "*.zst"]
#[allow_missing = true]
struct Built;

/// Whether this binary carries the app.
pub fn available() -> bool {
    Built::get("index.html").is_some()
}

/// The app's page as built, for [`AppPage::from_html`].
pub fn index_html() -> Option<String> {
    Built::get("index.html").and_then(|file| String::from_utf8(file.data.into_owned()).ok())
}

/// Every path the router does not claim: a built file (its brotli or gzip copy when the
/// request accepts one), else the app's page, so deep links load the app.
pub fn service(page: Arc<AppPage>) -> BoxCloneSyncService<Request, Response, Infallible> {
    BoxCloneSyncService::new(service_fn(move |request: Request| {
        let page = Arc::clone(&page);
        async move { Ok::<_, Infallible>(respond(&page, &request)) }
    }))
}

fn respond(page: &AppPage, request: &Request) -> Response {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let name = request.uri().path().trim_start_matches('/');
    let file = match name {
        "" | "index.html" => None,
        name => Built::get(name),
    };
    let Some(file) = file else {
        return page.respond(request.headers());
    };
    let etag = HeaderValue::from_str(&format!(
        "\"{}\"",
        hex::encode(&file.metadata.sha256_hash()[..16])
    ))
    .ok();
    let mut headers = HeaderMap::new();
    if let Some(etag) = &etag {
        headers.insert(header::ETAG, etag.clone());
        let known = request
            .headers()
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|list| list.split(','))
            .any(|tag| tag.trim() == etag.to_str().unwrap_or_default() || tag.trim() == "*");
        if known {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
    }
    let mime = mime_guess::from_path(name).first_or_octet_stream();
    if let Ok(value) = HeaderValue::from_str(mime.as_ref()) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    let copies: Vec<Encoding> = [Encoding::Brotli, Encoding::Gzip]
        .into_iter()
        .filter(|encoding| Built::get(&format!("{name}.{}", encoding.suffix())).is_some())
        .collect();
    let chosen = best_encoding(request.headers(), &copies).and_then(|encoding| {
        Some((
            encoding,
            Built::get(&format!("{name}.{}", encoding.suffix()))?,
        ))
    });
    let body = match chosen {
        Some((encoding, copy)) => {
            headers.insert(header::CONTENT_ENCODING, content_coding(encoding));
            copy.data
        }
        None => file.data,
    };
    (StatusCode::OK, headers, Body::from(body.into_owned())).into_response()
}
