//! JSON Schema's `pattern`, checked through a regular-expression matcher the caller passes
//! in: the browser's `RegExp` in the app, a native one in tests. No regex engine is linked
//! into the engine, so none enters the wasm.

use serde_json::Value;

use super::{Checker, Found, violation};

/// Matches ECMA-262 regular expressions, the dialect of JSON Schema's `pattern`.
pub trait PatternMatcher {
    /// Whether `pattern` finds a match anywhere in `text` (JSON Schema patterns are not
    /// anchored), or `None` if this matcher cannot read `pattern` (then it is reported as
    /// not checked).
    fn find(&self, pattern: &str, text: &str) -> Option<bool>;
}

impl Checker<'_> {
    /// `pattern` against a string; other values pass. Without a matcher (or with one that
    /// cannot read the pattern) it is named in [`super::Checked::not_checked`].
    pub(super) fn pattern(&mut self, rule: &Value, value: &Value, at: &str, found: &mut Found) {
        let Some(pattern) = rule.as_str() else {
            return;
        };
        let Some(matcher) = self.patterns else {
            return self.not_checked("pattern".to_owned());
        };
        let Value::String(text) = value else {
            return;
        };
        match matcher.find(pattern, text) {
            Some(true) => {}
            Some(false) => found.push(violation(
                at,
                "pattern",
                format!("expected text matching /{pattern}/"),
            )),
            None => self.not_checked(format!("pattern /{pattern}/")),
        }
    }
}
