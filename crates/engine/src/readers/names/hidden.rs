//! Which characters of a name do not show as themselves: bidi controls, zero-width and other
//! default-ignorable or format characters, control characters, variation selectors, tags,
//! blank fillers, spaces that are not U+0020 (and a U+0020 that a page would swallow). Each
//! is shown as `⟨U+200B⟩`; so that such a marker can never be forged, the brackets `⟨` `⟩`
//! themselves are shown as markers too.
//!
//! Joiners and variation selectors are left alone where they are part of what is drawn: the
//! zero-width joiner inside an emoji sequence (woman, U+200D, laptop), both joiners between
//! letters of a script that is written with them (Persian, the Indic scripts), the emoji
//! presentation selector U+FE0F after an emoji or a keycap's digit, and the tags of a
//! subdivision flag (U+1F3F4, `gbsct` in tags, U+E007F).

use super::scripts::script_of;

/// Why a character is shown as a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HiddenKind {
    /// Reorders the text around it (U+202E before `evil_tool` draws it as "loot_live").
    Bidi,
    /// Draws nothing: U+200B, the joiners outside the words they join, U+2060, U+FEFF.
    ZeroWidth,
    /// Another invisible format character (the soft hyphen, invisible operators, …).
    Format,
    /// A control character (tab, line feed, escape, …).
    Control,
    /// Selects a glyph variant of the character before it, and draws nothing of its own.
    VariationSelector,
    /// A tag character: invisible, and able to carry hidden text.
    Tag,
    /// A character that draws blank (a Hangul filler, the Braille blank).
    Filler,
    /// A space other than U+0020, or a U+0020 that leads, trails or repeats.
    Space,
    /// `⟨` or `⟩`, the brackets the markers are written in.
    Bracket,
}

impl HiddenKind {
    /// What the character is, for a message ("a bidi control").
    pub fn describe(self) -> &'static str {
        match self {
            Self::Bidi => "a bidi control",
            Self::ZeroWidth => "zero-width",
            Self::Format => "an invisible format character",
            Self::Control => "a control character",
            Self::VariationSelector => "a variation selector",
            Self::Tag => "a tag character",
            Self::Filler => "a blank filler",
            Self::Space => "a space that does not show as one",
            Self::Bracket => "the marker bracket",
        }
    }
}

/// How the character at `at` of `chars` is hidden, if it is.
pub(super) fn hidden_at(chars: &[char], at: usize) -> Option<HiddenKind> {
    let c = *chars.get(at)?;
    let code = u32::from(c);
    let kind = match code {
        0x20 => return space_hidden(chars, at).then_some(HiddenKind::Space),
        0x200C | 0x200D => {
            return (!joiner_shows(chars, at)).then_some(HiddenKind::ZeroWidth);
        }
        0xFE0E | 0xFE0F
            if chars
                .get(at.wrapping_sub(1))
                .is_some_and(|&p| emoji_base(p)) =>
        {
            return None;
        }
        0xE0020..=0xE007F if in_flag_tags(chars, at) => return None,
        _ => always_hidden(c)?,
    };
    Some(kind)
}

/// How `c` is hidden wherever it stands (the joiners and selectors counted as hidden): what
/// the skeleton drops.
pub(super) fn always_hidden(c: char) -> Option<HiddenKind> {
    use HiddenKind::*;
    let kind = match u32::from(c) {
        0x27E8 | 0x27E9 => Bracket,
        0x00..=0x1F | 0x7F..=0x9F => Control,
        0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 => Bidi,
        0x200B..=0x200D | 0x2060 | 0xFEFF => ZeroWidth,
        0x180B..=0x180D | 0x180F | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF => VariationSelector,
        0xE0001 | 0xE0020..=0xE007F => Tag,
        0x034F | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x2800 | 0x3164 | 0xFFA0 => Filler,
        0x00A0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 => Space,
        0x00AD
        | 0x0600..=0x0605
        | 0x06DD
        | 0x070F
        | 0x0890..=0x0891
        | 0x08E2
        | 0x180E
        | 0x2061..=0x2065
        | 0x206A..=0x206F
        | 0xFDD0..=0xFDEF
        | 0xFFF0..=0xFFFB
        | 0x110BD
        | 0x110CD
        | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A
        | 0xE0000
        | 0xE0002..=0xE001F
        | 0xE0080..=0xE00FF
        | 0xE01F0..=0xE0FFF => Format,
        // Noncharacters: U+FFFE, U+FFFF and their kin in every plane.
        code if code & 0xFFFE == 0xFFFE => Format,
        _ => return None,
    };
    Some(kind)
}

/// A U+0020 shows only between two other characters, once: a page swallows one that leads,
/// trails or follows another.
fn space_hidden(chars: &[char], at: usize) -> bool {
    at == 0 || at + 1 == chars.len() || chars[at - 1] == ' '
}

/// A joiner shows where it shapes what is drawn: between two emoji (ZWJ only), or between
/// two characters of one script written with joiners.
fn joiner_shows(chars: &[char], at: usize) -> bool {
    let before = chars[..at]
        .iter()
        .rev()
        .find(|&&c| !matches!(u32::from(c), 0xFE0E | 0xFE0F | 0x1F3FB..=0x1F3FF));
    let (Some(&before), Some(&after)) = (before, chars.get(at + 1)) else {
        return false;
    };
    if chars[at] == '\u{200D}' && emoji(before) && emoji(after) {
        return true;
    }
    match (script_of(before), script_of(after)) {
        (Some(a), Some(b)) => a == b && a.uses_joiners(),
        _ => false,
    }
}

/// Whether the tag at `at` belongs to an emoji tag sequence: U+1F3F4, one to seven tags
/// spelling a subdivision (`0`–`9`, `a`–`z`), and the cancel tag U+E007F.
fn in_flag_tags(chars: &[char], at: usize) -> bool {
    let is_tag = |c: &char| matches!(u32::from(*c), 0xE0020..=0xE007F);
    let start = chars[..at]
        .iter()
        .rposition(|c| !is_tag(c))
        .map_or(0, |p| p + 1);
    let end = chars[at..]
        .iter()
        .position(|c| !is_tag(c))
        .map_or(chars.len(), |p| at + p);
    let run = &chars[start..end];
    let Some((&last, spelled)) = run.split_last() else {
        return false;
    };
    start > 0
        && chars[start - 1] == '\u{1F3F4}'
        && last == '\u{E007F}'
        && (1..=7).contains(&spelled.len())
        && spelled
            .iter()
            .all(|&c| matches!(u32::from(c), 0xE0030..=0xE0039 | 0xE0061..=0xE007A))
}

/// What the emoji presentation selector may follow: an emoji, or a keycap's digit, `#`, `*`.
fn emoji_base(c: char) -> bool {
    emoji(c) || c.is_ascii_digit() || c == '#' || c == '*'
}

/// Pictographs, roughly Unicode's Extended_Pictographic: the symbol and dingbat blocks and
/// the emoji planes' blocks.
fn emoji(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00A9
            | 0x00AE
            | 0x203C
            | 0x2049
            | 0x2122
            | 0x2139
            | 0x2194..=0x21AA
            | 0x231A..=0x23FF
            | 0x24C2
            | 0x25AA..=0x27BF
            | 0x2934..=0x2935
            | 0x2B05..=0x2B55
            | 0x3030
            | 0x303D
            | 0x3297
            | 0x3299
            | 0x1F000..=0x1FAFF
    )
}
