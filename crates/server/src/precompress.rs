//! `holdbay precompress`: the app's files compressed once, at build time, beside each file in
//! `dist/` (`x.wasm.gz`, `x.wasm.br`, `x.wasm.zst`), for the server to send as they are
//! ([`crate::app_files`]). Nothing is compressed per request.
//!
//! Idempotent: a compressed file newer than its source is kept. Files too small to gain, and
//! kinds that are compressed already (images, fonts), are left alone; a compressed file that
//! would not be smaller than its source is not written. The app's page, `dist/index.html`,
//! is left alone too (and copies of it from older builds removed): the server sends it with
//! its launch's relay token in it, compressed when it starts ([`crate::app_page`]).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Below this size a file fits in one packet anyway, compressed or not.
pub const MIN_SIZE: u64 = 1024;

/// The kinds Trunk writes that compress well: markup, scripts, styles, wasm, data.
const COMPRESSIBLE: &[&str] = &[
    "html", "htm", "js", "mjs", "css", "wasm", "svg", "json", "map", "txt", "xml",
];

/// One build-time encoding: the file suffix ServeDir looks for, and how to produce it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// gzip at level 9 (`.gz`).
    Gzip,
    /// brotli at quality 11 with the largest window browsers take (`.br`).
    Brotli,
    /// zstd at level 19 (`.zst`); its window stays within the 8 MB browsers accept.
    Zstd,
}

impl Encoding {
    pub const ALL: [Encoding; 3] = [Encoding::Gzip, Encoding::Brotli, Encoding::Zstd];

    /// The suffix appended to the source's file name.
    pub fn suffix(self) -> &'static str {
        match self {
            Encoding::Gzip => "gz",
            Encoding::Brotli => "br",
            Encoding::Zstd => "zst",
        }
    }

    /// `source` compressed with this encoding.
    pub fn compress(self, source: &[u8]) -> io::Result<Vec<u8>> {
        match self {
            Encoding::Gzip => {
                let mut encoder =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                encoder.write_all(source)?;
                encoder.finish()
            }
            Encoding::Brotli => {
                let params = brotli::enc::BrotliEncoderParams {
                    quality: 11,
                    lgwin: 24,
                    size_hint: source.len(),
                    ..Default::default()
                };
                let mut out = Vec::new();
                brotli::BrotliCompress(&mut &source[..], &mut out, &params)?;
                Ok(out)
            }
            Encoding::Zstd => zstd::bulk::compress(source, 19),
        }
    }
}

/// What one run did, file by file.
#[derive(Debug, Default)]
pub struct Summary {
    /// Compressed files written: (path, source bytes, compressed bytes).
    pub written: Vec<(PathBuf, u64, u64)>,
    /// Compressed files already newer than their source.
    pub up_to_date: usize,
    /// Sources left alone: too small or not a compressible kind.
    pub skipped: usize,
}

/// Compress every compressible file under `dist` (recursively) that needs it.
pub fn precompress(dist: &Path) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut sources = Vec::new();
    collect_sources(dist, &mut sources)?;
    sources.sort();
    let page = dist.join("index.html");
    if let Some(at) = sources.iter().position(|source| *source == page) {
        sources.remove(at);
        for encoding in Encoding::ALL {
            remove_if_present(&sibling(&page, encoding))?;
        }
        summary.skipped += 1;
    }
    for source in sources {
        let meta = fs::metadata(&source)?;
        if meta.len() < MIN_SIZE {
            summary.skipped += 1;
            continue;
        }
        let modified = meta.modified()?;
        let stale: Vec<Encoding> = Encoding::ALL
            .into_iter()
            .filter(|encoding| !is_fresh(&sibling(&source, *encoding), modified))
            .collect();
        summary.up_to_date += Encoding::ALL.len() - stale.len();
        if stale.is_empty() {
            continue;
        }
        let bytes = fs::read(&source)?;
        let bytes = bytes.as_slice();
        // The encodings of one file run side by side: brotli 11 dominates a large wasm.
        let results: Vec<(Encoding, io::Result<Vec<u8>>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = stale
                .iter()
                .map(|&encoding| (encoding, scope.spawn(move || encoding.compress(bytes))))
                .collect();
            handles
                .into_iter()
                .map(|(encoding, handle)| {
                    let result = handle
                        .join()
                        .unwrap_or_else(|_| Err(io::Error::other("the compressor panicked")));
                    (encoding, result)
                })
                .collect()
        });
        for (encoding, compressed) in results {
            let compressed = compressed?;
            let target = sibling(&source, encoding);
            if compressed.len() as u64 >= meta.len() {
                // Not worth sending: the server falls back to the source.
                remove_if_present(&target)?;
                continue;
            }
            write_atomically(&target, &compressed)?;
            summary
                .written
                .push((target, meta.len(), compressed.len() as u64));
        }
    }
    Ok(summary)
}

/// The wasm files directly in `dist` that [`precompress`] would have compressed but that
/// have no compressed sibling at all (a build that skipped `holdbay precompress`): the
/// server then sends them uncompressed. Not those under [`MIN_SIZE`], which it leaves as
/// they are on purpose.
pub fn uncompressed_wasm(dist: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dist) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "wasm")
        })
        .filter(|path| fs::metadata(path).is_ok_and(|meta| meta.len() >= MIN_SIZE))
        .filter(|path| {
            Encoding::ALL
                .into_iter()
                .all(|encoding| !sibling(path, encoding).is_file())
        })
        .collect()
}

/// `dir/x.wasm` → `dir/x.wasm.br` (for brotli).
pub fn sibling(source: &Path, encoding: Encoding) -> PathBuf {
    let mut name = source.as_os_str().to_owned();
    name.push(".");
    name.push(encoding.suffix());
    PathBuf::from(name)
}

/// Files under `dir` worth compressing (compressed siblings themselves are not sources).
fn collect_sources(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            collect_sources(&path, out)?;
        } else if kind.is_file() && is_compressible(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn is_compressible(path: &Path) -> bool {
    path.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| COMPRESSIBLE.contains(&extension.to_ascii_lowercase().as_str()))
}

/// The compressed file exists and is at least as new as its source.
fn is_fresh(target: &Path, source_modified: SystemTime) -> bool {
    fs::metadata(target)
        .and_then(|meta| meta.modified())
        .is_ok_and(|modified| modified >= source_modified)
}

/// Write beside the target, then rename: a running server never sends half a file.
fn write_atomically(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut partial = target.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    fs::write(&partial, bytes)?;
    fs::rename(&partial, target)
}

fn remove_if_present(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sibling_appends_the_encoding_suffix() {
        let source = Path::new("dist/app-0123abcd_bg.wasm");
        assert_eq!(
            sibling(source, Encoding::Zstd),
            Path::new("dist/app-0123abcd_bg.wasm.zst")
        );
        assert_eq!(
            sibling(source, Encoding::Gzip),
            Path::new("dist/app-0123abcd_bg.wasm.gz")
        );
    }

    #[test]
    fn only_a_wasm_worth_compressing_is_reported_uncompressed() {
        let dist = tempfile::tempdir().expect("a temporary dist");
        let write = |name: &str, len: usize| {
            fs::write(dist.path().join(name), vec![0u8; len]).expect("written");
        };
        write("tiny.wasm", (MIN_SIZE - 1) as usize);
        write("big.wasm", MIN_SIZE as usize);
        write("done.wasm", 4096);
        write("done.wasm.br", 10);
        let listed = uncompressed_wasm(dist.path());
        assert_eq!(listed, [dist.path().join("big.wasm")]);
        // Once compressed, nothing is left to report.
        precompress(dist.path()).expect("compressed");
        assert!(uncompressed_wasm(dist.path()).is_empty());
    }

    #[test]
    fn only_text_and_wasm_kinds_are_compressed() {
        assert!(is_compressible(Path::new("a.wasm")));
        assert!(is_compressible(Path::new("index.HTML")));
        assert!(!is_compressible(Path::new("a.wasm.br")));
        assert!(!is_compressible(Path::new("photo.png")));
        assert!(!is_compressible(Path::new("font.woff2")));
    }
}
