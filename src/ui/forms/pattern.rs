//! JSON Schema's `pattern` for the engine's checks, matched by the browser's own `RegExp`, so
//! no regex engine is shipped in the wasm.

use holdbay_engine::schema_check::PatternMatcher;
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// Matches with the browser's `RegExp`: with the `u` flag (JSON Schema's dialect), else
/// without it for the patterns only older rules read (a needless escape such as `\-` outside
/// a class or `\@` throws under `u`). A pattern neither reads is left unchecked (the engine
/// names it).
///
/// Reached through bindings the app already imports (`Reflect.get`, `Function.call` with one
/// argument, `Array.of`): every wasm-bindgen import sits in the first screen's module, so a
/// `RegExp` binding of its own would grow it.
pub struct BrowserRegExp;

impl PatternMatcher for BrowserRegExp {
    fn find(&self, pattern: &str, text: &str) -> Option<bool> {
        let regexp: Function = property(&js_sys::global(), "RegExp")?.unchecked_into();
        let pattern = JsValue::from_str(pattern);
        // `[pattern, "u"].reduce(RegExp)` calls `RegExp(pattern, "u", 1, array)`, which makes
        // the expression with the `u` flag (the two extra arguments are ignored).
        let with_flag = Array::of2(&pattern, &JsValue::from_str("u"));
        let reduce: Function = property(&with_flag, "reduce")?.unchecked_into();
        let compiled = reduce
            .call1(&with_flag, &regexp)
            .or_else(|_| regexp.call1(&JsValue::UNDEFINED, &pattern))
            .ok()?;
        let test: Function = property(&compiled, "test")?.unchecked_into();
        test.call1(&compiled, &JsValue::from_str(text))
            .ok()?
            .as_bool()
    }
}

fn property(target: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(target, &JsValue::from_str(name))
        .ok()
        .filter(|value| !value.is_undefined())
}
