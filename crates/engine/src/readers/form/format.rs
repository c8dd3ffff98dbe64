//! The `format`s a form has an input for, checked on the value it sends (JSON Schema only
//! annotates `format`; a form asserts the ones it offers an input for).

/// A string's `format`, where a form has an input for it (and checks it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFormat {
    Plain,
    Email,
    Uri,
    Date,
    DateTime,
}

/// Why `text` is not of `format`, if it is not.
pub(super) fn format_problem(format: TextFormat, text: &str) -> Option<String> {
    let (fits, expected) = match format {
        TextFormat::Plain => return None,
        TextFormat::Email => (is_email(text), "an email address, like name@example.com"),
        TextFormat::Uri => (is_uri(text), "a full address, like https://example.com/"),
        TextFormat::Date => (is_date(text), "a date, like 2026-07-28"),
        TextFormat::DateTime => (is_date_time(text), "a date and time"),
    };
    (!fits).then(|| expected.to_owned())
}

/// Something before and after one `@`, no spaces.
fn is_email(text: &str) -> bool {
    let (local, domain) = text.split_once('@').unwrap_or_default();
    !local.is_empty() && !domain.is_empty() && !text.contains(char::is_whitespace)
}

/// An absolute URI (RFC 3986): a scheme (a letter, then letters, digits, `+`, `-`, `.`),
/// `:`, something after it, no spaces.
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !text.contains(|c: char| c.is_whitespace() || c.is_control())
}

/// `YYYY-MM-DD` (RFC 3339 full-date), month 01–12, day 01–31.
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(index, byte)| index == 4 || index == 7 || byte.is_ascii_digit())
        && (1..=12).contains(&two_digits(&bytes[5..7]))
        && (1..=31).contains(&two_digits(&bytes[8..10]))
}

/// RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`.
fn is_date_time(text: &str) -> bool {
    let Some((date, time)) = text.split_once(['T', 't']) else {
        return false;
    };
    let (clock, offset) = match time.find(['Z', 'z', '+', '-']) {
        Some(at) => time.split_at(at),
        None => return false,
    };
    let clock = match clock.split_once('.') {
        Some((whole, fraction)) => {
            if fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            whole
        }
        None => clock,
    };
    is_date(date)
        && is_clock(clock, true)
        && (offset.eq_ignore_ascii_case("z") || is_offset(offset))
}

/// `HH:MM:SS` (or `HH:MM` for an offset), within range (a leap second allowed).
fn is_clock(text: &str, seconds: bool) -> bool {
    let bytes = text.as_bytes();
    let length = if seconds { 8 } else { 5 };
    bytes.len() == length
        && bytes.iter().enumerate().all(|(index, byte)| {
            if index % 3 == 2 {
                *byte == b':'
            } else {
                byte.is_ascii_digit()
            }
        })
        && two_digits(&bytes[0..2]) <= 23
        && two_digits(&bytes[3..5]) <= 59
        && (!seconds || two_digits(&bytes[6..8]) <= 60)
}

fn is_offset(text: &str) -> bool {
    (text.starts_with('+') || text.starts_with('-')) && is_clock(&text[1..], false)
}

fn two_digits(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(0, |sum, byte| sum * 10 + u32::from(byte.wrapping_sub(b'0')))
}
