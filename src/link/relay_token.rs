//! The relay's token for this page: `holdbay serve` writes it into the page it serves
//! (`<meta name="holdbay-relay-token">`), and the relay serves only requests that carry it.
//! Read from the page each time it is needed and never stored: the page is its only keeper.

use holdbay_engine::relay::RELAY_TOKEN_META;

/// The token in this page, if `holdbay serve` served it.
pub fn from_page() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let meta = document
        .query_selector(&format!("meta[name=\"{RELAY_TOKEN_META}\"]"))
        .ok()??;
    let token = meta.get_attribute("content")?;
    let token = token.trim();
    (!token.is_empty()).then(|| token.to_owned())
}
