//! The bounds on everything a server controls the size or count of: one place for the
//! numbers, read by the readers (bodies, notifications, input requests, ids, names) and by
//! the request check that headers stay sendable. Each bound, when it acts, ends in an error
//! or a finding that names it.

/// Bounds on what the engine accepts from a server (and sends to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one response body, SSE framing included.
    pub max_body_bytes: usize,
    /// Input requests in one `input_required` answer or task snapshot: each becomes a card
    /// the user must answer, so a round asking more is refused whole.
    pub max_input_requests: usize,
    /// Notifications kept per exchange (a response's stream, a listen stream); past it they
    /// are counted, and only the latest is carried forward.
    pub max_notifications_kept: usize,
    /// Bytes of an id the server chooses and the client sends back or shows: a `taskId`, an
    /// `inputRequests` key, an `elicitationId`.
    pub max_id_bytes: usize,
    /// Bytes of a tool's, prompt's, resource's or template's `name`.
    pub max_name_bytes: usize,
    /// Bytes of one request's headers (names and values): past this, servers refuse them.
    pub max_header_bytes: usize,
}

/// The usual bounds, named so that messages and the README can quote them.
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;
pub const MAX_INPUT_REQUESTS: usize = 64;
pub const MAX_NOTIFICATIONS_KEPT: usize = 1_000;
pub const MAX_ID_BYTES: usize = 1024;
pub const MAX_NAME_BYTES: usize = 1024;
/// Bytes of one OAuth document (protected resource metadata, authorization server metadata,
/// a registration or token response): real ones are a few KiB.
pub const MAX_AUTH_DOCUMENT_BYTES: usize = 256 * 1024;
/// nginx and Apache refuse a request header line over 8 KiB by default; Node.js answers 431
/// past 16 KiB of headers in all. The browser adds its own (User-Agent, Origin, …), so the
/// client keeps what it sends within the smaller.
pub const MAX_HEADER_BYTES: usize = 8 * 1024;

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: MAX_BODY_BYTES,
            max_input_requests: MAX_INPUT_REQUESTS,
            max_notifications_kept: MAX_NOTIFICATIONS_KEPT,
            max_id_bytes: MAX_ID_BYTES,
            max_name_bytes: MAX_NAME_BYTES,
            max_header_bytes: MAX_HEADER_BYTES,
        }
    }
}

/// A count or size for a message: `1,024`, `102,400`.
pub fn grouped(number: usize) -> String {
    let digits = number.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// At most `max` characters of `text` for a message, with `…` when cut: a bound's error
/// quotes the offending id or name without carrying all of it.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(102_400), "102,400");
        assert_eq!(grouped(8_388_608), "8,388,608");
    }

    #[test]
    fn excerpts_cut_between_characters() {
        assert_eq!(excerpt("abc", 5), "abc");
        assert_eq!(excerpt("abcdef", 3), "abc…");
        assert_eq!(excerpt("ééééé", 2), "éé…");
    }
}
