//! JSON Schema's `pattern` for the engine's checks, matched by the browser's own `RegExp`, so
//! no regex engine is shipped in the wasm.

use holdbay_engine::schema_check::PatternMatcher;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = RegExp)]
    type BrowserPattern;

    /// `new RegExp(pattern, flags)`; a pattern the browser cannot read throws, caught here.
    #[wasm_bindgen(constructor, catch, js_class = "RegExp")]
    fn new(pattern: &str, flags: &str) -> Result<BrowserPattern, JsValue>;

    #[wasm_bindgen(method, js_class = "RegExp")]
    fn test(this: &BrowserPattern, text: &str) -> bool;
}

/// Matches with the browser's `RegExp`: with the `u` flag (JSON Schema's dialect), else
/// without it for the patterns only older rules read (`[\w\-]`, a needless escape, throws
/// under `u`). A pattern neither reads is left unchecked (the engine names it).
pub struct BrowserRegExp;

impl PatternMatcher for BrowserRegExp {
    fn find(&self, pattern: &str, text: &str) -> Option<bool> {
        let compiled = BrowserPattern::new(pattern, "u")
            .or_else(|_| BrowserPattern::new(pattern, ""))
            .ok()?;
        Some(compiled.test(text))
    }
}
