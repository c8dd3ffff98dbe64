//! Which MCP endpoint the page talks to: `?server=URL`, else the same origin's `/mcp`;
//! `&relay=1` asks for the relay from the start (a server that sends no CORS headers).

use holdbay_engine::EraChoice;
use web_sys::{Url, UrlSearchParams};

/// The endpoint named by the current page, or a message saying why the URL is unusable.
pub fn from_page() -> Result<String, String> {
    let location = web_sys::window().ok_or("no browser window")?.location();
    let href = location.href().map_err(|_| "cannot read the page URL")?;
    let search = location.search().unwrap_or_default();
    let requested = UrlSearchParams::new_with_str(&search)
        .ok()
        .and_then(|params| params.get("server"));
    resolve(requested.as_deref(), &href)
}

/// Whether the page URL asks for the relay (`relay=1` or `relay=true`).
pub fn relay_from_page() -> bool {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    UrlSearchParams::new_with_str(&search)
        .ok()
        .and_then(|params| params.get("relay"))
        .is_some_and(|relay| relay == "1" || relay == "true")
}

/// The era the page URL asks for (`era=auto`, `2026-07-28`, `2025-11-25`); `None` when it
/// asks for none. An unknown value is detected, and the console says it was not understood.
pub fn era_from_page() -> Option<EraChoice> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let asked = UrlSearchParams::new_with_str(&search)
        .ok()
        .and_then(|params| params.get("era"))?;
    Some(EraChoice::parse(&asked).unwrap_or_else(|| {
        web_sys::console::warn_1(
            &format!("era={asked:?} is not auto, 2026-07-28 or 2025-11-25: detecting it").into(),
        );
        EraChoice::Auto
    }))
}

/// Resolve a `server` parameter (absent: same-origin `/mcp`) against the page URL. Only
/// `http:` and `https:` endpoints make sense for Streamable HTTP.
pub fn resolve(requested: Option<&str>, page_href: &str) -> Result<String, String> {
    let requested = requested
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("/mcp");
    let url = Url::new_with_base(requested, page_href)
        .map_err(|_| format!("{requested:?} is not a valid server URL"))?;
    match url.protocol().as_str() {
        "http:" | "https:" => Ok(url.href()),
        other => Err(format!(
            "the server URL must use http: or https:, not {other} ({requested:?})"
        )),
    }
}

/// Put `?server=` (and `relay=1` when the relay is used, `era=` when one is chosen) in the
/// address bar, without reloading, so the page can be shared; the default same-origin
/// endpoint needs no parameter.
pub fn share_in_page_url(server: &str, via_relay: bool, era: EraChoice) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let Ok(url) = Url::new(&href) else {
        return;
    };
    let params = url.search_params();
    if resolve(None, &href).as_deref() == Ok(server) {
        params.delete("server");
    } else {
        params.set("server", server);
    }
    if via_relay {
        params.set("relay", "1");
    } else {
        params.delete("relay");
    }
    match era {
        EraChoice::Auto => params.delete("era"),
        chosen => params.set("era", chosen.as_str()),
    }
    url.set_search(&params.to_string().as_string().unwrap_or_default());
    if url.href() != href
        && let Ok(history) = window.history()
    {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()));
    }
}
