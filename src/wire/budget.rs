//! What the page may retain of its traffic, in bytes: one place for the numbers (the
//! README states them). A server that answers with huge or endless bodies fills these
//! budgets and then pushes its own oldest history out; it cannot grow the page.

/// Bytes of one response body the wire log keeps; the rest is counted, not kept. (The
/// engine still reads up to its own limit, `Limits::max_body_bytes`, to decode it.)
pub const BODY_KEPT_BYTES: usize = 1024 * 1024;

/// Bytes of a body the engine refused as too large that the log keeps: its start says what
/// it was; the rest, megabytes by definition, would push real exchanges out of the log.
pub const REFUSED_BODY_KEPT_BYTES: usize = 4 * 1024;

/// Bytes of this page's log (request and response bodies and headers) held in memory;
/// the oldest finished exchanges go first when it is full.
pub const LOG_BYTES: usize = 32 * 1024 * 1024;

/// Bytes of the log kept in IndexedDB across reloads; the oldest go first.
pub const KEPT_BYTES: usize = 16 * 1024 * 1024;

/// The longest prefix of `text` of at most `room` bytes that ends between characters.
pub fn prefix_within(text: &str, room: usize) -> &str {
    if text.len() <= room {
        return text;
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
