//! A name's skeleton: what it reads as, so that two names drawn alike have the same one.
//! Hidden characters are dropped, every kind of space is one space (runs of them one, none
//! at the ends), fullwidth and mathematical letters are their ASCII letters, and the letters
//! of other scripts drawn like Latin ones are those Latin letters (a small part of UTS #39's
//! confusables, the look-alikes that spoof names in practice); `l`, `I`, `1` and `|` are one
//! stroke, `O` and `0` one ring.

use super::hidden::{HiddenKind, always_hidden};

/// Look-alikes and what they are read as, sorted by the look-alike: a data file, parsed (and
/// its order checked) when the crate compiles.
const LOOK_ALIKES_TEXT: &[u8] = include_bytes!("look_alikes.txt");
const LOOK_ALIKES: &[(char, char)] =
    &parse_look_alikes::<{ entries(LOOK_ALIKES_TEXT) }>(LOOK_ALIKES_TEXT);

/// What `name` reads as (see the module).
pub fn skeleton(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending_space = false;
    for c in name.chars() {
        match always_hidden(c) {
            Some(HiddenKind::Space) => pending_space = true,
            Some(HiddenKind::Bracket) | None if c == ' ' => pending_space = true,
            Some(HiddenKind::Bracket) | None => {
                if pending_space && !out.is_empty() {
                    out.push(' ');
                }
                pending_space = false;
                out.push(read_as(plain_letter(c)));
            }
            Some(_) => {}
        }
    }
    out
}

/// A fullwidth form as its ASCII character; a mathematical letter or digit as its plain one.
fn plain_letter(c: char) -> char {
    let code = u32::from(c);
    let plain = match code {
        0xFF01..=0xFF5E => Some(code - 0xFEE0),
        // Thirteen alphabets of 52 letters (A–Z, a–z), bold to monospace; the holes in them
        // are letterlike symbols elsewhere (ℎ), which the table reads.
        0x1D400..=0x1D6A3 => {
            let letter = (code - 0x1D400) % 52;
            Some(if letter < 26 {
                0x41 + letter
            } else {
                0x61 + letter - 26
            })
        }
        // Five sets of digits 0–9.
        0x1D7CE..=0x1D7FF => Some(0x30 + (code - 0x1D7CE) % 10),
        _ => None,
    };
    plain.and_then(char::from_u32).unwrap_or(c)
}

fn read_as(c: char) -> char {
    LOOK_ALIKES
        .binary_search_by_key(&c, |&(from, _)| from)
        .map_or(c, |at| LOOK_ALIKES[at].1)
}

/// How many entries the data file has: its lines that start with a hex digit.
const fn entries(text: &[u8]) -> usize {
    let (mut count, mut at, mut line_start) = (0, 0, true);
    while at < text.len() {
        if line_start && text[at].is_ascii_hexdigit() {
            count += 1;
        }
        line_start = text[at] == b'\n';
        at += 1;
    }
    count
}

/// The data file's entries (`LOOK-ALIKE READ-AS NAME`, code points in hex); the build fails
/// on a malformed line or one out of order.
const fn parse_look_alikes<const N: usize>(text: &[u8]) -> [(char, char); N] {
    let mut table = [('\0', '\0'); N];
    let (mut at, mut filled) = (0, 0);
    while at < text.len() {
        if text[at].is_ascii_hexdigit() {
            let (look_alike, after) = code_point(text, at);
            let (read_as, _) = code_point(text, after + 1);
            assert!(
                filled == 0 || table[filled - 1].0 < look_alike,
                "look_alikes.txt: out of order"
            );
            table[filled] = (look_alike, read_as);
            filled += 1;
        }
        while at < text.len() && text[at] != b'\n' {
            at += 1;
        }
        at += 1;
    }
    table
}

/// The hex code point at `at`, and where it ends.
const fn code_point(text: &[u8], start: usize) -> (char, usize) {
    let (mut at, mut value) = (start, 0);
    while at < text.len() && text[at].is_ascii_hexdigit() {
        let digit = text[at];
        let nibble = match digit {
            b'0'..=b'9' => digit - b'0',
            b'a'..=b'f' => digit - b'a' + 10,
            _ => digit - b'A' + 10,
        };
        value = value * 16 + nibble as u32;
        at += 1;
    }
    match char::from_u32(value) {
        Some(c) if at > start => (c, at),
        _ => panic!("look_alikes.txt: not a code point"),
    }
}

#[cfg(test)]
pub(super) fn look_alikes() -> &'static [(char, char)] {
    LOOK_ALIKES
}
