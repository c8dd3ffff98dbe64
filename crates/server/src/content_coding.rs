//! Which build-time encoding a request's `Accept-Encoding` takes best, and the
//! `Content-Encoding` name each is sent under: one rule for the app's page
//! ([`crate::app_page`]) and for the app built into the binary ([`crate::embedded_app`]).

use axum::http::{HeaderMap, HeaderValue, header};

use crate::precompress::Encoding;

/// Tried in this order when a request accepts several equally: the smallest first (brotli 11
/// beats zstd 19 on the page, as on the wasm; see `app_files::prefer_brotli`).
pub const PREFERENCE: [Encoding; 3] = [Encoding::Brotli, Encoding::Zstd, Encoding::Gzip];

/// The encoding among `available` that `request` accepts best (ties by [`PREFERENCE`]), or
/// `None` for the file as it is.
pub fn best_encoding(request: &HeaderMap, available: &[Encoding]) -> Option<Encoding> {
    let accepted = accepted_codings(request);
    PREFERENCE
        .into_iter()
        .filter(|encoding| available.contains(encoding) && quality(&accepted, *encoding) > 0.0)
        .max_by(|a, b| standing(&accepted, *a).total_cmp(&standing(&accepted, *b)))
}

/// The request's `Accept-Encoding` as (coding, q) pairs, lowercase.
pub fn accepted_codings(request: &HeaderMap) -> Vec<(String, f32)> {
    request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|list| list.split(','))
        .filter_map(|item| {
            let mut parts = item.split(';');
            let coding = parts.next()?.trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|param| param.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (!coding.is_empty()).then_some((coding, q))
        })
        .collect()
}

/// The q the request gives `encoding`; 0 when it does not name it.
pub fn quality(accepted: &[(String, f32)], encoding: Encoding) -> f32 {
    let name = content_coding(encoding);
    accepted
        .iter()
        .find(|(coding, _)| coding.as_str() == name)
        .map_or(0.0, |(_, q)| *q)
}

/// An encoding's standing for this request: its q, ties broken by [`PREFERENCE`].
pub fn standing(accepted: &[(String, f32)], encoding: Encoding) -> f32 {
    let order = PREFERENCE.iter().position(|e| *e == encoding).unwrap_or(0);
    quality(accepted, encoding) * 1000.0 + (PREFERENCE.len() - order) as f32
}

/// The `Content-Encoding` name of a build-time encoding.
pub fn content_coding(encoding: Encoding) -> HeaderValue {
    HeaderValue::from_static(match encoding {
        Encoding::Gzip => "gzip",
        Encoding::Brotli => "br",
        Encoding::Zstd => "zstd",
    })
}
