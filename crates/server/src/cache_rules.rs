//! The two `Cache-Control` rules the app's files are served under: shared by the files
//! ([`crate::app_files`]) and the page ([`crate::app_page`]).

/// For a file whose name changes whenever its content does.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// For index.html: keep it, but ask the server (a cheap 304) before each use.
pub const NO_CACHE: &str = "no-cache";
