//! The app's files served like a production static site, over real HTTP on 127.0.0.1: the
//! files `holdbay precompress` wrote at build time, picked by `Accept-Encoding` (and never
//! compressed per request), `Vary: Accept-Encoding`, immutable hashed assets; and the app's
//! page (also for deep links) with this launch's relay token in it, compressed once when the
//! server starts, revalidated on every visit by an `ETag` that no other launch shares.

mod support;

use std::io::Read;
use std::path::Path;
use std::process::Command;

use support::{TestServer, header, http_client};
use tempfile::TempDir;

const WASM: &str = "holdbay-app-0123456789abcdef_bg.wasm";
const JS: &str = "holdbay-app-0123456789abcdef.js";
/// Under the 1 KiB floor: left uncompressed.
const TINY_CSS: &str = "tiny-00c0ffee12345678.css";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Text that compresses well but is not one repeated line: `lines` numbered lines.
fn compressible(lines: usize, word: &str) -> Vec<u8> {
    (0..lines)
        .map(|n| {
            format!(
                "{word} {n}: the quick brown fox {} jumps\n",
                n * 7919 % 1000
            )
        })
        .collect::<String>()
        .into_bytes()
}

/// A dist/ like Trunk's: index.html, a hashed wasm and js, a tiny hashed css.
fn app_dist() -> TempDir {
    let dist = TempDir::new().expect("temp dist");
    let mut index = b"<!doctype html><title>holdbay test page</title>\n".to_vec();
    index.extend(compressible(60, "<!-- shell -->"));
    std::fs::write(dist.path().join("index.html"), index).expect("index.html");
    std::fs::write(dist.path().join(WASM), compressible(600, "wasm")).expect("wasm");
    std::fs::write(dist.path().join(JS), compressible(200, "export const")).expect("js");
    std::fs::write(dist.path().join(TINY_CSS), "body { margin: 0 }\n").expect("css");
    dist
}

/// `holdbay precompress --dist DIST`: its stdout.
fn precompress(dist: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_holdbay"))
        .args(["precompress", "--dist"])
        .arg(dist)
        .output()
        .expect("run holdbay precompress");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

fn decode(encoding: &str, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match encoding {
        "br" => {
            brotli::Decompressor::new(body, 4096)
                .read_to_end(&mut out)
                .expect("brotli");
        }
        "zstd" => out = zstd::stream::decode_all(body).expect("zstd"),
        "gzip" => {
            flate2::read::GzDecoder::new(body)
                .read_to_end(&mut out)
                .expect("gzip");
        }
        "" => out = body.to_vec(),
        other => panic!("unexpected content-encoding {other:?}"),
    }
    out
}

async fn get(server: &TestServer, path: &str, accept_encoding: &str) -> reqwest::Response {
    http_client()
        .get(format!("{}{path}", server.base()))
        .header("Accept-Encoding", accept_encoding)
        .send()
        .await
        .expect("response")
}

#[test]
fn precompress_writes_three_siblings_once_and_skips_tiny_files() {
    let dist = app_dist();
    // A copy of the page from an older build: the page is served with its token, never
    // from such a file, so precompress removes it.
    std::fs::write(dist.path().join("index.html.br"), b"stale").expect("stale page copy");
    let first = precompress(dist.path());
    for suffix in ["gz", "br", "zst"] {
        let copy = dist.path().join(format!("index.html.{suffix}"));
        assert!(!copy.exists(), "{} after:\n{first}", copy.display());
    }
    for name in [WASM, JS] {
        for suffix in ["gz", "br", "zst"] {
            let sibling = dist.path().join(format!("{name}.{suffix}"));
            let size = std::fs::metadata(&sibling)
                .unwrap_or_else(|_| panic!("{} missing after:\n{first}", sibling.display()))
                .len();
            let source = std::fs::metadata(dist.path().join(name))
                .expect("source")
                .len();
            assert!(size < source / 2, "{name}.{suffix}: {size} of {source}");
        }
    }
    for suffix in ["gz", "br", "zst"] {
        assert!(!dist.path().join(format!("{TINY_CSS}.{suffix}")).exists());
    }
    assert!(first.contains("precompress: 6 written"), "{first}");

    // Up to date: nothing is rewritten.
    let wasm_br = dist.path().join(format!("{WASM}.br"));
    let before = std::fs::metadata(&wasm_br)
        .and_then(|m| m.modified())
        .expect("mtime");
    let second = precompress(dist.path());
    assert!(
        second.contains("precompress: 0 written, 6 up to date"),
        "{second}"
    );
    let after = std::fs::metadata(&wasm_br)
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(before, after);

    // A source rebuilt after its siblings gets them written again.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(dist.path().join(JS), compressible(250, "export let")).expect("js");
    let third = precompress(dist.path());
    assert!(
        third.contains("precompress: 3 written, 3 up to date"),
        "{third}"
    );
    let served = std::fs::read(dist.path().join(format!("{JS}.br"))).expect("js.br");
    assert_eq!(decode("br", &served), compressible(250, "export let"));
}

#[tokio::test]
async fn each_accepted_encoding_gets_its_precompressed_file() {
    let dist = app_dist();
    precompress(dist.path());
    let wasm = std::fs::read(dist.path().join(WASM)).expect("wasm");
    let server = TestServer::serving(dist, &[]);
    for (accept, expected) in [
        ("br", "br"),
        ("zstd", "zstd"),
        ("gzip", "gzip"),
        ("identity", ""),
        ("gzip;q=1, br;q=0.5", "gzip"),
    ] {
        let response = get(&server, &format!("/{WASM}"), accept).await;
        assert_eq!(response.status(), 200, "{accept}");
        assert_eq!(header(&response, "content-encoding"), expected, "{accept}");
        assert_eq!(header(&response, "content-type"), "application/wasm");
        assert_eq!(header(&response, "vary"), "accept-encoding", "{accept}");
        assert_eq!(header(&response, "cache-control"), IMMUTABLE, "{accept}");
        // Never revalidated, so no validator on it.
        assert_eq!(header(&response, "last-modified"), "", "{accept}");
        let body = response.bytes().await.expect("body");
        if !expected.is_empty() {
            assert!(
                body.len() < wasm.len() / 2,
                "{accept}: {} bytes",
                body.len()
            );
        }
        assert_eq!(decode(expected, &body), wasm, "{accept}");
    }
    // What Chromium sends, even to http://127.0.0.1: brotli, the smaller of the best two.
    let response = get(&server, &format!("/{WASM}"), "gzip, deflate, br, zstd").await;
    assert_eq!(header(&response, "content-encoding"), "br");
    let body = response.bytes().await.expect("body");
    assert_eq!(decode("br", &body), wasm);
}

#[tokio::test]
async fn a_file_without_a_precompressed_sibling_is_sent_as_it_is() {
    let dist = app_dist();
    precompress(dist.path());
    // Written after the build step: large and compressible, but with no sibling.
    let late = "late-0123456789abcdef.js";
    let source = compressible(2000, "late");
    std::fs::write(dist.path().join(late), &source).expect("late js");
    let server = TestServer::serving(dist, &[]);
    for path in [format!("/{late}"), format!("/{TINY_CSS}")] {
        let response = get(&server, &path, "gzip, deflate, br, zstd").await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(header(&response, "content-encoding"), "", "{path}");
        assert_eq!(header(&response, "cache-control"), IMMUTABLE, "{path}");
        let body = response.bytes().await.expect("body");
        if path.contains("late") {
            assert_eq!(body.as_ref(), source.as_slice());
        }
    }
}

/// The page as this launch serves it: `index` with the token's `<meta>` after the doctype
/// (the test page has no `<head>`).
fn served_page(index: &[u8], token: &str) -> Vec<u8> {
    let doctype = b"<!doctype html>".len();
    let meta = format!("<meta name=\"holdbay-relay-token\" content=\"{token}\">");
    [&index[..doctype], meta.as_bytes(), &index[doctype..]].concat()
}

#[tokio::test]
async fn the_page_carries_the_token_and_answers_304_to_its_own_etag() {
    let dist = app_dist();
    precompress(dist.path());
    let index = std::fs::read(dist.path().join("index.html")).expect("index");
    let server = TestServer::serving(dist, &[]);
    let token = server.relay_token().await;
    let page = served_page(&index, &token);
    for path in ["/", "/index.html"] {
        for (accept, encoding) in [
            ("gzip, deflate, br, zstd", "br"),
            ("zstd", "zstd"),
            ("gzip", "gzip"),
            ("identity", ""),
        ] {
            let response = get(&server, path, accept).await;
            assert_eq!(response.status(), 200, "{path}");
            assert_eq!(header(&response, "cache-control"), "no-cache", "{path}");
            assert_eq!(
                header(&response, "content-encoding"),
                encoding,
                "{path} {accept}"
            );
            assert_eq!(
                header(&response, "content-type"),
                "text/html; charset=utf-8"
            );
            assert_eq!(header(&response, "vary"), "accept-encoding", "{path}");
            // Its file's date would confirm another launch's page: no Last-Modified.
            assert_eq!(header(&response, "last-modified"), "", "{path}");
            let etag = header(&response, "etag");
            assert!(etag.starts_with('"') && etag.len() > 20, "{path}: {etag:?}");
            let body = response.bytes().await.expect("body");
            if !encoding.is_empty() {
                assert!(
                    body.len() < page.len() / 2,
                    "{path} {accept}: {} bytes",
                    body.len()
                );
            }
            assert_eq!(decode(encoding, &body), page, "{path} {accept}");

            let again = http_client()
                .get(format!("{}{path}", server.base()))
                .header("Accept-Encoding", accept)
                .header("If-None-Match", &etag)
                .send()
                .await
                .expect("revalidation");
            assert_eq!(again.status(), 304, "{path}");
            assert_eq!(header(&again, "cache-control"), "no-cache", "{path}");
            assert_eq!(header(&again, "etag"), etag, "{path}");
            assert!(again.bytes().await.expect("body").is_empty());
        }
    }
}

#[tokio::test]
async fn a_page_cached_from_another_launch_is_sent_again_with_the_new_token() {
    let dist = app_dist();
    let copy = TempDir::new().expect("second dist");
    for entry in std::fs::read_dir(dist.path()).expect("dist") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), copy.path().join(entry.file_name())).expect("copy");
    }
    let earlier = TestServer::serving(dist, &[]);
    let cached = get(&earlier, "/", "br").await;
    let etag = header(&cached, "etag");
    let earlier_token = earlier.relay_token().await;
    drop(earlier);

    let later = TestServer::serving(copy, &[]);
    let revalidated = http_client()
        .get(format!("{}/", later.base()))
        .header("If-None-Match", &etag)
        .send()
        .await
        .expect("revalidation");
    assert_eq!(
        revalidated.status(),
        200,
        "the earlier launch's page must not be confirmed"
    );
    assert_ne!(header(&revalidated, "etag"), etag);
    let page = revalidated.text().await.expect("page");
    let token = support::token_in_page(&page).expect("a token in the page");
    assert_ne!(token, earlier_token);
}

#[tokio::test]
async fn a_deep_link_gets_the_page_not_cached_as_immutable() {
    let dist = app_dist();
    precompress(dist.path());
    let index = std::fs::read(dist.path().join("index.html")).expect("index");
    let server = TestServer::serving(dist, &[]);
    let page = served_page(&index, &server.relay_token().await);
    // A deep link, and an old build's hashed file asked for after a deploy.
    for path in ["/lessons/anything", "/gone-0123456789abcdef.js"] {
        for accept in ["gzip, deflate, br, zstd", "identity"] {
            let response = get(&server, path, accept).await;
            assert_eq!(response.status(), 200, "{path}");
            assert_eq!(header(&response, "cache-control"), "no-cache", "{path}");
            assert_eq!(
                header(&response, "content-type"),
                "text/html; charset=utf-8",
                "{path}"
            );
            let encoding = header(&response, "content-encoding");
            let etag = header(&response, "etag");
            let body = response.bytes().await.expect("body");
            assert_eq!(decode(&encoding, &body), page, "{path} {accept}");

            let again = http_client()
                .get(format!("{}{path}", server.base()))
                .header("Accept-Encoding", accept)
                .header("If-None-Match", &etag)
                .send()
                .await
                .expect("revalidation");
            assert_eq!(again.status(), 304, "{path}: a deep link revalidates too");
        }
    }
}

#[tokio::test]
async fn the_mcp_endpoint_is_not_cached_by_the_file_rules() {
    let server = TestServer::serving(app_dist(), &[]);
    let response = support::discover(&http_client(), &server.mcp_url())
        .header("Accept-Encoding", "gzip, br, zstd")
        .send()
        .await
        .expect("discover");
    assert_eq!(response.status(), 200);
    assert_ne!(header(&response, "cache-control"), IMMUTABLE);
    assert_eq!(header(&response, "content-type"), "application/json");
    // Compressed, but per answer by the MCP endpoint itself (tests/compression.rs), never
    // from a file: the body is this request's answer.
    let encoding = header(&response, "content-encoding");
    let body = response.bytes().await.expect("body");
    let answer: serde_json::Value =
        serde_json::from_slice(&decode(&encoding, &body)).expect("a JSON answer");
    assert!(answer["result"]["supportedVersions"].is_array(), "{answer}");
}
