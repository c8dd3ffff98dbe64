//! Searching the wire log: every word of the query must occur (any case) in an exchange's
//! method, name, JSON-RPC id, task id, or the text of its request or response body.

use holdbay_engine::ExchangeEvent;

use super::WireEntry;

/// A search over the log. An empty query matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WireQuery {
    /// The words, ASCII-lowercased.
    words: Vec<String>,
}

impl WireQuery {
    pub fn new(text: &str) -> Self {
        Self {
            words: text
                .split_whitespace()
                .map(str::to_ascii_lowercase)
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether every word occurs somewhere in `entry`.
    pub fn matches(&self, entry: &WireEntry) -> bool {
        self.words.iter().all(|word| occurs(entry, word))
    }
}

fn occurs(entry: &WireEntry, word: &str) -> bool {
    let sent = entry.sent();
    let rpc_id = sent
        .and_then(|sent| sent.id.as_ref())
        .map(ToString::to_string);
    let fields = [
        Some(entry.method.as_str()),
        entry.name.as_deref(),
        rpc_id.as_deref(),
        entry.task_id(),
        Some(entry.request_body.as_str()),
        entry.error.as_deref(),
    ];
    fields
        .into_iter()
        .flatten()
        .any(|field| contains_ignoring_case(field, word))
        || match entry.body.as_slice() {
            [] => false,
            [one] => contains_ignoring_case(&one.text, word),
            // A word may be split between two pieces.
            _ => contains_ignoring_case(&entry.body_text(), word),
        }
        // An answer the engine decoded from a body split across chunks.
        || entry.events.iter().any(|timed| match &timed.event {
            ExchangeEvent::Answered(answer) => answer
                .kind
                .result_type()
                .is_some_and(|kind| contains_ignoring_case(kind, word)),
            _ => false,
        })
}

/// Whether `haystack` contains `needle` (already ASCII-lowercase), ignoring ASCII case,
/// without allocating: it runs over every body in the log on each keystroke.
pub fn contains_ignoring_case(haystack: &str, needle: &str) -> bool {
    let (hay, needle) = (haystack.as_bytes(), needle.as_bytes());
    if needle.is_empty() {
        return true;
    }
    hay.windows(needle.len())
        .any(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn words_match_any_case() {
        assert!(contains_ignoring_case("Book_Table", "book_table"));
        assert!(!contains_ignoring_case("book", "booking"));
        assert!(WireQuery::new("   ").is_empty());
    }
}
