//! Which writing system a character belongs to, from a compact table of code point ranges
//! (the major blocks of each script, not the whole Unicode Scripts.txt), and whether one name
//! mixes scripts whose letters can pass for one another.
//!
//! The rule is UTS #39's "moderately restrictive" level: one script; or Latin with Han and
//! Hiragana/Katakana, Bopomofo or Hangul; or Latin with one other script, unless that script
//! has letters drawn like Latin ones (Cyrillic, Greek, Armenian, Cherokee: `а`, `ο`, `օ`, `Ꭺ`).
//! Digits, punctuation, symbols, emoji and combining marks belong to no script here, as in
//! Unicode's `Common` and `Inherited`.

/// A writing system, as far as telling look-alikes apart needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Syriac,
    Thaana,
    Nko,
    Devanagari,
    Bengali,
    Gurmukhi,
    Gujarati,
    Oriya,
    Tamil,
    Telugu,
    Kannada,
    Malayalam,
    Sinhala,
    Thai,
    Lao,
    Tibetan,
    Myanmar,
    Georgian,
    Hangul,
    Ethiopic,
    Cherokee,
    Khmer,
    Mongolian,
    Hiragana,
    Katakana,
    Bopomofo,
    Han,
}

use Script::*;

impl Script {
    /// The script's English name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Latin => "Latin",
            Greek => "Greek",
            Cyrillic => "Cyrillic",
            Armenian => "Armenian",
            Hebrew => "Hebrew",
            Arabic => "Arabic",
            Syriac => "Syriac",
            Thaana => "Thaana",
            Nko => "N'Ko",
            Devanagari => "Devanagari",
            Bengali => "Bengali",
            Gurmukhi => "Gurmukhi",
            Gujarati => "Gujarati",
            Oriya => "Oriya",
            Tamil => "Tamil",
            Telugu => "Telugu",
            Kannada => "Kannada",
            Malayalam => "Malayalam",
            Sinhala => "Sinhala",
            Thai => "Thai",
            Lao => "Lao",
            Tibetan => "Tibetan",
            Myanmar => "Myanmar",
            Georgian => "Georgian",
            Hangul => "Hangul",
            Ethiopic => "Ethiopic",
            Cherokee => "Cherokee",
            Khmer => "Khmer",
            Mongolian => "Mongolian",
            Hiragana => "Hiragana",
            Katakana => "Katakana",
            Bopomofo => "Bopomofo",
            Han => "Han",
        }
    }

    /// Scripts whose spelling uses the zero-width joiner and non-joiner between letters
    /// (cursive joining, conjuncts after a virama): there the joiners change what is drawn.
    pub(super) fn uses_joiners(self) -> bool {
        matches!(
            self,
            Arabic
                | Syriac
                | Nko
                | Mongolian
                | Devanagari
                | Bengali
                | Gurmukhi
                | Gujarati
                | Oriya
                | Tamil
                | Telugu
                | Kannada
                | Malayalam
                | Sinhala
                | Myanmar
                | Khmer
        )
    }

    fn bit(self) -> u64 {
        1 << (self as u8)
    }
}

/// The script's ranges, sorted and not overlapping (a test holds the table to that).
const RANGES: &[(u32, u32, Script)] = &[
    (0x0041, 0x005A, Latin),
    (0x0061, 0x007A, Latin),
    (0x00AA, 0x00AA, Latin),
    (0x00BA, 0x00BA, Latin),
    (0x00C0, 0x00D6, Latin),
    (0x00D8, 0x00F6, Latin),
    (0x00F8, 0x02AF, Latin),
    (0x02EA, 0x02EB, Bopomofo),
    (0x0370, 0x0373, Greek),
    (0x0375, 0x037D, Greek),
    (0x037F, 0x037F, Greek),
    (0x0384, 0x0384, Greek),
    (0x0386, 0x0386, Greek),
    (0x0388, 0x03FF, Greek),
    (0x0400, 0x052F, Cyrillic),
    (0x0531, 0x058F, Armenian),
    (0x0591, 0x05FF, Hebrew),
    (0x0600, 0x060B, Arabic),
    (0x060D, 0x061A, Arabic),
    (0x061C, 0x061E, Arabic),
    (0x0620, 0x063F, Arabic),
    (0x0641, 0x06FF, Arabic),
    (0x0700, 0x074F, Syriac),
    (0x0750, 0x077F, Arabic),
    (0x0780, 0x07BF, Thaana),
    (0x07C0, 0x07FF, Nko),
    (0x0860, 0x086F, Syriac),
    (0x0870, 0x08FF, Arabic),
    (0x0900, 0x0963, Devanagari),
    (0x0966, 0x097F, Devanagari),
    (0x0980, 0x09FF, Bengali),
    (0x0A00, 0x0A7F, Gurmukhi),
    (0x0A80, 0x0AFF, Gujarati),
    (0x0B00, 0x0B7F, Oriya),
    (0x0B80, 0x0BFF, Tamil),
    (0x0C00, 0x0C7F, Telugu),
    (0x0C80, 0x0CFF, Kannada),
    (0x0D00, 0x0D7F, Malayalam),
    (0x0D80, 0x0DFF, Sinhala),
    (0x0E00, 0x0E3E, Thai),
    (0x0E40, 0x0E7F, Thai),
    (0x0E80, 0x0EFF, Lao),
    (0x0F00, 0x0FD4, Tibetan),
    (0x0FD9, 0x0FFF, Tibetan),
    (0x1000, 0x109F, Myanmar),
    (0x10A0, 0x10FA, Georgian),
    (0x10FC, 0x10FF, Georgian),
    (0x1100, 0x11FF, Hangul),
    (0x1200, 0x139F, Ethiopic),
    (0x13A0, 0x13FF, Cherokee),
    (0x1780, 0x17FF, Khmer),
    (0x1800, 0x1801, Mongolian),
    (0x1804, 0x1804, Mongolian),
    (0x1806, 0x18AF, Mongolian),
    (0x19E0, 0x19FF, Khmer),
    (0x1C80, 0x1C8F, Cyrillic),
    (0x1C90, 0x1CBF, Georgian),
    (0x1D00, 0x1D25, Latin),
    (0x1D26, 0x1D2A, Greek),
    (0x1D2B, 0x1D2B, Cyrillic),
    (0x1D2C, 0x1D5C, Latin),
    (0x1D5D, 0x1D61, Greek),
    (0x1D62, 0x1D65, Latin),
    (0x1D66, 0x1D6A, Greek),
    (0x1D6B, 0x1D77, Latin),
    (0x1D78, 0x1D78, Cyrillic),
    (0x1D79, 0x1DBE, Latin),
    (0x1DBF, 0x1DBF, Greek),
    (0x1E00, 0x1EFF, Latin),
    (0x1F00, 0x1FFE, Greek),
    (0x2071, 0x2071, Latin),
    (0x207F, 0x207F, Latin),
    (0x2090, 0x209C, Latin),
    (0x2126, 0x2126, Greek),
    (0x212A, 0x212B, Latin),
    (0x2132, 0x2132, Latin),
    (0x214E, 0x214E, Latin),
    (0x2160, 0x2188, Latin),
    (0x2C60, 0x2C7F, Latin),
    (0x2D00, 0x2D2F, Georgian),
    (0x2D80, 0x2DDF, Ethiopic),
    (0x2DE0, 0x2DFF, Cyrillic),
    (0x2E80, 0x2FD5, Han),
    (0x3005, 0x3005, Han),
    (0x3007, 0x3007, Han),
    (0x3021, 0x3029, Han),
    (0x3038, 0x303B, Han),
    (0x3041, 0x3096, Hiragana),
    (0x309D, 0x309F, Hiragana),
    (0x30A1, 0x30FA, Katakana),
    (0x30FD, 0x30FF, Katakana),
    (0x3105, 0x312F, Bopomofo),
    (0x3131, 0x318E, Hangul),
    (0x31A0, 0x31BF, Bopomofo),
    (0x31F0, 0x31FF, Katakana),
    (0x3200, 0x321E, Hangul),
    (0x3260, 0x327E, Hangul),
    (0x32D0, 0x32FE, Katakana),
    (0x3300, 0x3357, Katakana),
    (0x3400, 0x4DBF, Han),
    (0x4E00, 0x9FFF, Han),
    (0xA640, 0xA69F, Cyrillic),
    (0xA722, 0xA7FF, Latin),
    (0xA8E0, 0xA8FF, Devanagari),
    (0xA960, 0xA97F, Hangul),
    (0xA9E0, 0xA9FF, Myanmar),
    (0xAA60, 0xAA7F, Myanmar),
    (0xAB01, 0xAB2F, Ethiopic),
    (0xAB30, 0xAB5A, Latin),
    (0xAB5C, 0xAB64, Latin),
    (0xAB65, 0xAB65, Greek),
    (0xAB70, 0xABBF, Cherokee),
    (0xAC00, 0xD7FF, Hangul),
    (0xF900, 0xFAFF, Han),
    (0xFB00, 0xFB06, Latin),
    (0xFB13, 0xFB17, Armenian),
    (0xFB1D, 0xFB4F, Hebrew),
    (0xFB50, 0xFDFF, Arabic),
    (0xFE70, 0xFEFE, Arabic),
    (0xFF21, 0xFF3A, Latin),
    (0xFF41, 0xFF5A, Latin),
    (0xFF66, 0xFF6F, Katakana),
    (0xFF71, 0xFF9D, Katakana),
    (0xFFA1, 0xFFDC, Hangul),
    (0x1B000, 0x1B000, Katakana),
    (0x1B001, 0x1B11F, Hiragana),
    (0x20000, 0x3FFFF, Han),
];

/// The script of `c`, or `None` for what belongs to none (digits, `_`, symbols, emoji,
/// combining marks outside a script's block).
pub fn script_of(c: char) -> Option<Script> {
    let code = u32::from(c);
    let at = RANGES.partition_point(|&(_, end, _)| end < code);
    RANGES
        .get(at)
        .filter(|&&(start, _, _)| start <= code)
        .map(|&(_, _, script)| script)
}

/// The scripts a name mixes that can pass for one another, in the order they first appear;
/// `None` when the mix is an ordinary one (see the module's rule).
pub fn confusable_mix(text: &str) -> Option<Vec<Script>> {
    let mut seen: Vec<Script> = Vec::new();
    let mut set = 0u64;
    for script in text.chars().filter_map(script_of) {
        if set & script.bit() == 0 {
            set |= script.bit();
            seen.push(script);
        }
    }
    (!ordinary_mix(set)).then_some(seen)
}

/// Scripts with letters drawn like Latin ones: never allowed beside Latin.
const LATIN_LOOKALIKES: u64 =
    (1 << Greek as u8) | (1 << Cyrillic as u8) | (1 << Armenian as u8) | (1 << Cherokee as u8);

/// The CJK mixes every Japanese, Chinese and Korean name may write (with Latin or without).
const CJK_MIXES: [u64; 3] = [
    (1 << Han as u8) | (1 << Hiragana as u8) | (1 << Katakana as u8),
    (1 << Han as u8) | (1 << Bopomofo as u8),
    (1 << Han as u8) | (1 << Hangul as u8),
];

fn ordinary_mix(set: u64) -> bool {
    if set.count_ones() <= 1 {
        return true;
    }
    let others = set & !Latin.bit();
    if CJK_MIXES.iter().any(|mix| others & !mix == 0) {
        return true;
    }
    // Latin and exactly one other script that has no Latin look-alikes.
    set & Latin.bit() != 0 && others.count_ones() == 1 && others & LATIN_LOOKALIKES == 0
}

#[cfg(test)]
pub(super) fn ranges() -> &'static [(u32, u32, Script)] {
    RANGES
}
