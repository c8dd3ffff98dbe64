//! A name's skeleton: what it reads as, so that two names drawn alike have the same one.
//! Hidden characters are dropped, every kind of space is one space (runs of them one, none
//! at the ends), fullwidth and mathematical letters are their ASCII letters, and the letters
//! of other scripts drawn like Latin ones are those Latin letters (a small part of UTS #39's
//! confusables, the look-alikes that spoof names in practice); `l`, `I`, `1` and `|` are one
//! stroke, `O` and `0` one ring.

use super::hidden::{HiddenKind, always_hidden};

/// Look-alikes and what they are read as, sorted by the look-alike.
const LOOK_ALIKES: &[(char, char)] = &[
    ('0', 'O'),
    ('1', 'l'),
    ('I', 'l'),
    ('|', 'l'),
    ('\u{0131}', 'i'),        // latin small letter dotless i
    ('\u{0251}', 'a'),        // latin small letter alpha
    ('\u{0261}', 'g'),        // latin small letter script g
    ('\u{0269}', 'i'),        // latin small letter iota
    ('\u{0391}', 'A'),        // greek capital letter alpha
    ('\u{0392}', 'B'),        // greek capital letter beta
    ('\u{0395}', 'E'),        // greek capital letter epsilon
    ('\u{0396}', 'Z'),        // greek capital letter zeta
    ('\u{0397}', 'H'),        // greek capital letter eta
    ('\u{0399}', 'l'),        // greek capital letter iota
    ('\u{039A}', 'K'),        // greek capital letter kappa
    ('\u{039C}', 'M'),        // greek capital letter mu
    ('\u{039D}', 'N'),        // greek capital letter nu
    ('\u{039F}', 'O'),        // greek capital letter omicron
    ('\u{03A1}', 'P'),        // greek capital letter rho
    ('\u{03A4}', 'T'),        // greek capital letter tau
    ('\u{03A5}', 'Y'),        // greek capital letter upsilon
    ('\u{03A7}', 'X'),        // greek capital letter chi
    ('\u{03B1}', 'a'),        // greek small letter alpha
    ('\u{03B9}', 'i'),        // greek small letter iota
    ('\u{03BD}', 'v'),        // greek small letter nu
    ('\u{03BF}', 'o'),        // greek small letter omicron
    ('\u{03C1}', 'p'),        // greek small letter rho
    ('\u{03C5}', 'u'),        // greek small letter upsilon
    ('\u{03D2}', 'Y'),        // greek upsilon with hook symbol
    ('\u{03F2}', 'c'),        // greek lunate sigma symbol
    ('\u{03F3}', 'j'),        // greek letter yot
    ('\u{0405}', 'S'),        // cyrillic capital letter dze
    ('\u{0406}', 'l'),        // cyrillic capital letter byelorussian-ukrainian i
    ('\u{0408}', 'J'),        // cyrillic capital letter je
    ('\u{0410}', 'A'),        // cyrillic capital letter a
    ('\u{0412}', 'B'),        // cyrillic capital letter ve
    ('\u{0415}', 'E'),        // cyrillic capital letter ie
    ('\u{0417}', '3'),        // cyrillic capital letter ze
    ('\u{041A}', 'K'),        // cyrillic capital letter ka
    ('\u{041C}', 'M'),        // cyrillic capital letter em
    ('\u{041D}', 'H'),        // cyrillic capital letter en
    ('\u{041E}', 'O'),        // cyrillic capital letter o
    ('\u{0420}', 'P'),        // cyrillic capital letter er
    ('\u{0421}', 'C'),        // cyrillic capital letter es
    ('\u{0422}', 'T'),        // cyrillic capital letter te
    ('\u{0423}', 'Y'),        // cyrillic capital letter u
    ('\u{0425}', 'X'),        // cyrillic capital letter ha
    ('\u{0430}', 'a'),        // cyrillic small letter a
    ('\u{0435}', 'e'),        // cyrillic small letter ie
    ('\u{043E}', 'o'),        // cyrillic small letter o
    ('\u{0440}', 'p'),        // cyrillic small letter er
    ('\u{0441}', 'c'),        // cyrillic small letter es
    ('\u{0443}', 'y'),        // cyrillic small letter u
    ('\u{0445}', 'x'),        // cyrillic small letter ha
    ('\u{0455}', 's'),        // cyrillic small letter dze
    ('\u{0456}', 'i'),        // cyrillic small letter byelorussian-ukrainian i
    ('\u{0458}', 'j'),        // cyrillic small letter je
    ('\u{04AE}', 'Y'),        // cyrillic capital letter straight u
    ('\u{04AF}', 'y'),        // cyrillic small letter straight u
    ('\u{04BB}', 'h'),        // cyrillic small letter shha
    ('\u{04C0}', 'l'),        // cyrillic letter palochka
    ('\u{04CF}', 'l'),        // cyrillic small letter palochka
    ('\u{0501}', 'd'),        // cyrillic small letter komi de
    ('\u{051A}', 'Q'),        // cyrillic capital letter qa
    ('\u{051B}', 'q'),        // cyrillic small letter qa
    ('\u{051C}', 'W'),        // cyrillic capital letter we
    ('\u{051D}', 'w'),        // cyrillic small letter we
    ('\u{054D}', 'U'),        // armenian capital letter seh
    ('\u{054F}', 'S'),        // armenian capital letter tiwn
    ('\u{0555}', 'O'),        // armenian capital letter oh
    ('\u{0570}', 'h'),        // armenian small letter ho
    ('\u{0578}', 'n'),        // armenian small letter vo
    ('\u{057D}', 'u'),        // armenian small letter seh
    ('\u{0581}', 'g'),        // armenian small letter co
    ('\u{0585}', 'o'),        // armenian small letter oh
    ('\u{210E}', 'h'),        // planck constant
    ('\u{2113}', 'l'),        // script small l
    ('\u{2126}', '\u{03A9}'), // ohm sign
    ('\u{212A}', 'K'),        // kelvin sign
    ('\u{212B}', '\u{00C5}'), // angstrom sign
    ('\u{2160}', 'l'),        // roman numeral one
    ('\u{2164}', 'V'),        // roman numeral five
    ('\u{2169}', 'X'),        // roman numeral ten
    ('\u{216C}', 'L'),        // roman numeral fifty
    ('\u{216D}', 'C'),        // roman numeral one hundred
    ('\u{216E}', 'D'),        // roman numeral five hundred
    ('\u{216F}', 'M'),        // roman numeral one thousand
    ('\u{2170}', 'i'),        // small roman numeral one
    ('\u{2174}', 'v'),        // small roman numeral five
    ('\u{2179}', 'x'),        // small roman numeral ten
    ('\u{217C}', 'l'),        // small roman numeral fifty
    ('\u{217D}', 'c'),        // small roman numeral one hundred
    ('\u{217E}', 'd'),        // small roman numeral five hundred
    ('\u{217F}', 'm'),        // small roman numeral one thousand
];

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

#[cfg(test)]
pub(super) fn look_alikes() -> &'static [(char, char)] {
    LOOK_ALIKES
}
