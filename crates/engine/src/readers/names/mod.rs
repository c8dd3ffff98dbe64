//! Names that cannot lie: how a server's names and titles (tools, prompts, resources,
//! templates, the server itself) are shown, and which of them pass for something else.
//!
//! - [`Shown`] is a name as the app draws it: every character that would not show as itself
//!   is a marker such as `⟨U+200B⟩` ([`HiddenKind`]), so `ok_\u{200B}echo` never draws as
//!   `ok_echo` and U+202E never turns `evil_tool` round. Two different names never have the
//!   same shown form.
//! - [`confusable_mix`] tells when one name mixes scripts whose letters pass for one
//!   another (Latin with Cyrillic `а`).
//! - [`skeleton`] is what a name reads as; two names of one list with one skeleton look
//!   alike, and a [`NameBook`] flags both.
//!
//! Each flag is a [`NameWarning`] on the item's [`NameMarks`], and a finding
//! ([`Rule::NameInvisibleChars`], [`Rule::NameLookAlike`]).

mod hidden;
mod scripts;
mod skeleton;

use std::fmt;

use rmcp::model::DiscoverResult;

use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::excerpt;
pub use hidden::HiddenKind;
pub use scripts::{Script, confusable_mix, script_of};
pub use skeleton::skeleton;

/// A character drawn as its marker, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HiddenChar {
    pub ch: char,
    pub kind: HiddenKind,
}

impl HiddenChar {
    /// Its code point, `U+200B`.
    pub fn code_point(self) -> String {
        format!("U+{:04X}", u32::from(self.ch))
    }

    /// How it is drawn: `⟨U+200B⟩`.
    pub fn marker(self) -> String {
        format!("⟨{}⟩", self.code_point())
    }
}

/// A run of a name as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShownPiece {
    /// Characters that show as themselves.
    Text(String),
    /// One character drawn as its marker.
    Marked(HiddenChar),
}

/// A name or title as shown (see the module).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    pieces: Vec<ShownPiece>,
}

impl Shown {
    pub fn of(raw: &str) -> Self {
        let chars: Vec<char> = raw.chars().collect();
        let mut pieces = Vec::new();
        let mut text = String::new();
        for (at, &ch) in chars.iter().enumerate() {
            match hidden::hidden_at(&chars, at) {
                None => text.push(ch),
                Some(kind) => {
                    if !text.is_empty() {
                        pieces.push(ShownPiece::Text(std::mem::take(&mut text)));
                    }
                    pieces.push(ShownPiece::Marked(HiddenChar { ch, kind }));
                }
            }
        }
        if !text.is_empty() {
            pieces.push(ShownPiece::Text(text));
        }
        Self { pieces }
    }

    /// The runs, for a view that draws markers apart from the text.
    pub fn pieces(&self) -> &[ShownPiece] {
        &self.pieces
    }

    /// The shown text, markers spelled out: what the page shows and what search matches.
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// The characters drawn as markers, in order.
    pub fn marked(&self) -> impl Iterator<Item = HiddenChar> + '_ {
        self.pieces.iter().filter_map(|piece| match piece {
            ShownPiece::Marked(hidden) => Some(*hidden),
            ShownPiece::Text(_) => None,
        })
    }

    /// Nothing is drawn as a marker: the name shows as written.
    pub fn is_plain(&self) -> bool {
        self.marked().next().is_none()
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in &self.pieces {
            match piece {
                ShownPiece::Text(text) => f.write_str(text)?,
                ShownPiece::Marked(hidden) => f.write_str(&hidden.marker())?,
            }
        }
        Ok(())
    }
}

/// Which of an item's strings a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameField {
    Name,
    Title,
}

impl NameField {
    fn word(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::Title => "title",
        }
    }
}

/// Why a name is flagged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameWarning {
    /// Characters that do not show as themselves (distinct, in order).
    Hidden {
        field: NameField,
        chars: Vec<HiddenChar>,
    },
    /// Writes `⟨` or `⟩`, the brackets markers are drawn in; they are markers themselves.
    MarkerBrackets { field: NameField },
    /// Mixes scripts whose letters pass for one another.
    MixedScripts {
        field: NameField,
        scripts: Vec<Script>,
        /// The first few letters of the scripts after the first, with their script.
        strays: Vec<(char, Script)>,
    },
    /// Reads the same as other names of the list (their raw names).
    LooksLike { others: Vec<String> },
}

/// Letters or names quoted in one message, at most.
const QUOTED: usize = 3;
/// Characters of a shown name quoted in a message.
const QUOTED_CHARS: usize = 80;

impl NameWarning {
    pub fn rule(&self) -> Rule {
        match self {
            Self::Hidden { .. } => Rule::NameInvisibleChars,
            Self::MarkerBrackets { .. } | Self::MixedScripts { .. } | Self::LooksLike { .. } => {
                Rule::NameLookAlike
            }
        }
    }

    /// A few words for a badge beside the name.
    pub fn badge(&self) -> String {
        let of_title = |field: NameField| match field {
            NameField::Name => "",
            NameField::Title => " in the title",
        };
        match self {
            Self::Hidden { field, .. } => format!("hidden characters{}", of_title(*field)),
            Self::MarkerBrackets { field } => format!("marker brackets{}", of_title(*field)),
            Self::MixedScripts { field, scripts, .. } => {
                format!("mixes {}{}", script_list(scripts), of_title(*field))
            }
            Self::LooksLike { others } => match others.as_slice() {
                [one] => format!("looks like {}", quoted(one)),
                [first, rest @ ..] => {
                    format!("looks like {} and {} more", quoted(first), rest.len())
                }
                [] => "looks like another".to_owned(),
            },
        }
    }

    /// One sentence: the finding's explanation, and the badge's longer label. `item` says
    /// what the name belongs to ("tool"); `name` is the item's raw name.
    pub fn explain(&self, item: &str, name: &str) -> String {
        let who = format!("{item} {}", quoted(name));
        match self {
            Self::Hidden { field, chars } => {
                let listed: Vec<String> = chars
                    .iter()
                    .take(QUOTED)
                    .map(|c| format!("{} ({})", c.code_point(), c.kind.describe()))
                    .collect();
                let more = chars.len().saturating_sub(QUOTED);
                format!(
                    "{who} has characters in its {} that do not show as themselves: {}{}; \
                     Holdbay draws each as ⟨U+…⟩",
                    field.word(),
                    listed.join(", "),
                    and_more(more)
                )
            }
            Self::MarkerBrackets { field } => format!(
                "{who} writes ⟨ or ⟩ in its {}, the brackets Holdbay draws hidden characters \
                 in; they are drawn as markers themselves",
                field.word()
            ),
            Self::MixedScripts {
                field,
                scripts,
                strays,
            } => {
                let letters: Vec<String> = strays
                    .iter()
                    .map(|(c, script)| format!("{c} is {} U+{:04X}", script.name(), u32::from(*c)))
                    .collect();
                format!(
                    "{who} mixes {} letters in its {}, which can pass for one another ({})",
                    script_list(scripts),
                    field.word(),
                    letters.join(", ")
                )
            }
            Self::LooksLike { others } => {
                let listed: Vec<String> = others.iter().take(QUOTED).map(|o| quoted(o)).collect();
                let more = others.len().saturating_sub(QUOTED);
                let plural = if others.len() > 1 { "s" } else { "" };
                format!(
                    "{who} looks like {item}{plural} {}{}: with hidden characters left out and \
                     look-alike letters read as one, they read the same",
                    listed.join(", "),
                    and_more(more)
                )
            }
        }
    }
}

/// `name`'s shown form in quotes, cut for a message.
fn quoted(name: &str) -> String {
    format!("\"{}\"", excerpt(&Shown::of(name).text(), QUOTED_CHARS))
}

fn and_more(more: usize) -> String {
    match more {
        0 => String::new(),
        n => format!(" and {n} more"),
    }
}

fn script_list(scripts: &[Script]) -> String {
    let names: Vec<&str> = scripts.iter().map(|s| s.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// An item's name and title as shown, and why either is flagged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameMarks {
    pub name: Shown,
    pub title: Option<Shown>,
    pub warnings: Vec<NameWarning>,
}

impl NameMarks {
    pub fn is_flagged(&self) -> bool {
        !self.warnings.is_empty()
    }
}

/// The warnings `text` earns on its own (hidden characters, marker brackets, a script mix).
fn own_warnings(field: NameField, raw: &str, shown: &Shown, warnings: &mut Vec<NameWarning>) {
    let mut hidden: Vec<HiddenChar> = Vec::new();
    let mut brackets = false;
    for marked in shown.marked() {
        if marked.kind == HiddenKind::Bracket {
            brackets = true;
        } else if !hidden.contains(&marked) {
            hidden.push(marked);
        }
    }
    if !hidden.is_empty() {
        warnings.push(NameWarning::Hidden {
            field,
            chars: hidden,
        });
    }
    if brackets {
        warnings.push(NameWarning::MarkerBrackets { field });
    }
    if let Some(scripts) = confusable_mix(raw) {
        let first = scripts.first().copied();
        let mut strays: Vec<(char, Script)> = Vec::new();
        for ch in raw.chars() {
            match script_of(ch) {
                Some(script) if Some(script) != first && !strays.contains(&(ch, script)) => {
                    strays.push((ch, script));
                }
                _ => {}
            }
            if strays.len() == QUOTED {
                break;
            }
        }
        warnings.push(NameWarning::MixedScripts {
            field,
            scripts,
            strays,
        });
    }
}

/// The names of one list, kept for telling look-alikes apart: which different names share a
/// skeleton. Every item's marks come from here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameBook {
    /// What one item of the list is called, for messages ("tool").
    item: &'static str,
    /// `(skeleton, name)` of every name that shares its skeleton with a different name,
    /// sorted. (A sorted list, not a map: the first screen carries this code, and a map's
    /// code costs the wasm about 11 KB more.)
    alike: Vec<(String, String)>,
}

impl NameBook {
    /// The book of a list whose items are called `item`, from all their names. The same
    /// name twice is one name (a duplicate hides nothing); different names that read the
    /// same look alike.
    pub fn new<'a>(item: &'static str, names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut tally = NameTally::new(item);
        tally.add(names);
        tally.book()
    }

    /// What one item of the list is called.
    pub fn item(&self) -> &'static str {
        self.item
    }

    /// How an item with this name and title (its display title, if any) is shown, and why
    /// it is flagged.
    pub fn marks(&self, name: &str, title: Option<&str>) -> NameMarks {
        let shown = Shown::of(name);
        let mut warnings = Vec::new();
        own_warnings(NameField::Name, name, &shown, &mut warnings);
        let title = title.map(|title| {
            let shown = Shown::of(title);
            own_warnings(NameField::Title, title, &shown, &mut warnings);
            shown
        });
        let key = skeleton(name);
        let start = self.alike.partition_point(|(k, _)| *k < key);
        let others: Vec<String> = self.alike[start..]
            .iter()
            .take_while(|(k, _)| *k == key)
            .filter(|(_, other)| other != name)
            .map(|(_, other)| other.clone())
            .collect();
        if !others.is_empty() {
            warnings.push(NameWarning::LooksLike { others });
        }
        NameMarks {
            name: shown,
            title,
            warnings,
        }
    }

    /// One finding per warning of each item (an item listed twice gives its findings twice:
    /// the app counts a repeat, ×2).
    pub fn findings<'a>(
        &self,
        items: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        for (name, title) in items {
            for warning in self.marks(name, title).warnings {
                let explanation = warning.explain(self.item, name);
                findings.push(Finding::new(warning.rule(), explanation, None));
            }
        }
        findings
    }
}

/// A list's names gathered as its pages come, so that each page's [`NameBook`] (of the pages
/// so far) reads only that page's names: a list of 10,000 in 20 pages reads each name once,
/// not ten times over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameTally {
    item: &'static str,
    /// `(skeleton, name)` of every different name so far, sorted.
    all: Vec<(String, String)>,
}

impl NameTally {
    pub fn new(item: &'static str) -> Self {
        Self {
            item,
            all: Vec::new(),
        }
    }

    /// Take in more names of the list.
    pub fn add<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) {
        let sorted = self.all.len();
        self.all.extend(
            names
                .into_iter()
                .map(|name| (skeleton(name), name.to_owned())),
        );
        self.all[sorted..].sort_unstable();
        // Two sorted runs: the stable sort merges them in one pass.
        self.all.sort();
        self.all.dedup();
    }

    /// The book of the names so far.
    pub fn book(&self) -> NameBook {
        let alike = self
            .all
            .chunk_by(|a, b| a.0 == b.0)
            .filter(|same| same.len() > 1)
            .flatten()
            .cloned()
            .collect();
        NameBook {
            item: self.item,
            alike,
        }
    }
}

/// The server's own name and title (`serverInfo` of `server/discover`) as shown, when it
/// named itself.
pub fn server_name_marks(discover: &DiscoverResult) -> Option<NameMarks> {
    let info = discover.server_info()?;
    Some(server_book(&info.name).marks(&info.name, info.title.as_deref()))
}

/// What the server's own name and title earn as findings.
pub fn server_name_findings(discover: &DiscoverResult) -> Vec<Finding> {
    discover.server_info().map_or_else(Vec::new, |info| {
        server_book(&info.name).findings([(info.name.as_str(), info.title.as_deref())])
    })
}

fn server_book(name: &str) -> NameBook {
    NameBook::new("server", [name])
}

#[cfg(test)]
mod tests;
