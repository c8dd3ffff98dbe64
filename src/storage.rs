//! `localStorage` (and, for what only needs to outlive a reload of this tab,
//! `sessionStorage`), as JSON values under `holdbay/…` keys. Storage can be missing or full
//! (private mode, quotas): every failure is reported, never a panic.

use serde::Serialize;
use serde::de::DeserializeOwned;

fn storage() -> Result<web_sys::Storage, String> {
    web_sys::window()
        .ok_or("no browser window")?
        .local_storage()
        .map_err(|_| "this browser refuses localStorage".to_owned())?
        .ok_or_else(|| "this browser has no localStorage".to_owned())
}

/// The key for `kind` of data that belongs to `server`.
pub fn key(kind: &str, server: &str) -> String {
    format!("holdbay/{kind}/{server}")
}

/// The value under `key`, if there is one and it still parses.
pub fn load<T: DeserializeOwned>(key: &str) -> Option<T> {
    let text = storage().ok()?.get_item(key).ok()??;
    serde_json::from_str(&text).ok()
}

/// Whether anything is stored under `key` (without reading it).
pub fn has(key: &str) -> bool {
    storage().is_ok_and(|storage| matches!(storage.get_item(key), Ok(Some(_))))
}

pub fn save<T: Serialize>(key: &str, value: &T) -> Result<(), String> {
    let text = serde_json::to_string(value).map_err(|error| error.to_string())?;
    storage()?
        .set_item(key, &text)
        .map_err(|_| format!("could not save {key}: the browser's storage is full or disabled"))
}

pub fn remove(key: &str) {
    if let Ok(storage) = storage() {
        let _ = storage.remove_item(key);
    }
}

fn tab_storage() -> Result<web_sys::Storage, String> {
    web_sys::window()
        .ok_or("no browser window")?
        .session_storage()
        .map_err(|_| "this browser refuses sessionStorage".to_owned())?
        .ok_or_else(|| "this browser has no sessionStorage".to_owned())
}

/// Keep `value` for this tab only, until it is taken (it survives a reload, synchronously).
pub fn save_for_tab<T: Serialize>(key: &str, value: &T) -> Result<(), String> {
    let text = serde_json::to_string(value).map_err(|error| error.to_string())?;
    tab_storage()?
        .set_item(key, &text)
        .map_err(|_| format!("could not save {key}: the browser's storage is full or disabled"))
}

/// The value this tab kept under `key` (removed as it is read), if it still parses.
pub fn take_for_tab<T: DeserializeOwned>(key: &str) -> Option<T> {
    let storage = tab_storage().ok()?;
    let text = storage.get_item(key).ok()??;
    let _ = storage.remove_item(key);
    serde_json::from_str(&text).ok()
}

/// Forget what this tab kept under `key`.
pub fn remove_for_tab(key: &str) {
    if let Ok(storage) = tab_storage() {
        let _ = storage.remove_item(key);
    }
}

/// Whether this tab keeps anything under `key` (without reading it).
pub fn has_for_tab(key: &str) -> bool {
    tab_storage().is_ok_and(|storage| matches!(storage.get_item(key), Ok(Some(_))))
}
