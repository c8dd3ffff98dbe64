//! Keeping the wire log across reloads: the newest exchanges go to IndexedDB when they end,
//! each as its JSON text (written in the wasm: a busy page ends hundreds a second, and
//! building each as a JS object cost far more), and come back, decoded again by the engine,
//! when the page loads. A reload then keeps the story of a session: the timeline, a replay,
//! and the tasks whose handles came back from storage.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use holdbay_engine::ExchangeEvent;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbObjectStoreParameters, IdbRequest, IdbTransactionMode};

use super::budget::KEPT_BYTES;
use super::{WireEntry, WireLog, decoded};

/// The newest exchanges kept across reloads; older ones are deleted as new ones are kept.
pub const KEPT_EXCHANGES: usize = 500;
/// The database the app keeps its log in.
pub const DATABASE: &str = "holdbay";
const STORE: &str = "wire-log";
/// Finished exchanges are written together, at most this often (soon enough that a reload
/// rarely outruns it; `pagehide` writes the rest).
const WRITE_EVERY_MS: u64 = 250;
/// What an exchange still open at a reload says when it comes back.
pub const INTERRUPTED: &str = "interrupted: the page was reloaded before it ended";
/// Where the exchanges not yet in IndexedDB wait when the page goes away: a database write
/// started while the page unloads may never finish, this tab's storage is written at once.
const UNSAVED_KEY: &str = "holdbay/wire-log-unsaved";

/// The kept log of one database. `Copy`: a bundle of handles.
#[derive(Clone, Copy)]
pub struct WireKeep {
    database: StoredValue<String>,
    db: StoredValue<Option<IdbDatabase>, LocalStorage>,
    /// Exchanges waiting to be written, by id: their JSON and what they hold
    /// ([`WireEntry::retained_bytes`]).
    pending: StoredValue<BTreeMap<u64, Pending>>,
    write_scheduled: StoredValue<bool>,
    /// The ids in the store, with the bytes each holds.
    kept: StoredValue<BTreeMap<u64, usize>>,
    /// The store could not be opened: nothing is gathered for it any more.
    gave_up: StoredValue<bool>,
    problem: RwSignal<Option<String>>,
}

/// An exchange that ended and waits to be written.
#[derive(Debug, Clone)]
struct Pending {
    json: String,
    bytes: usize,
}

impl Pending {
    fn of(entry: &WireEntry) -> Option<Self> {
        let bytes = entry.retained_bytes();
        // Sized for the bodies' escaping up front: a buffer that doubles as it is written
        // would reach twice a large exchange's size (a megabyte of notifications) in the
        // wasm memory, which never shrinks back.
        let mut json = Vec::with_capacity(bytes + bytes / 2 + 4096);
        serde_json::to_writer(&mut json, entry).ok()?;
        json.shrink_to_fit();
        Some(Self {
            json: String::from_utf8(json).ok()?,
            bytes,
        })
    }
}

/// The property of a stored record that holds the exchange's JSON (records of older builds
/// are the exchange itself, as a JS object).
const JSON_FIELD: &str = "json";

impl WireKeep {
    pub fn new(database: &str) -> Self {
        Self {
            database: StoredValue::new(database.to_owned()),
            db: StoredValue::new_local(None),
            pending: StoredValue::new(BTreeMap::new()),
            write_scheduled: StoredValue::new(false),
            kept: StoredValue::new(BTreeMap::new()),
            gave_up: StoredValue::new(false),
            problem: RwSignal::new(None),
        }
    }

    /// Why the log could not be kept, if it could not (private mode, quota).
    pub fn problem(&self) -> Signal<Option<String>> {
        self.problem.into()
    }

    /// Bring back what was kept into `log`, and keep `log`'s exchanges as they end (those
    /// that ended before too, and any still open when the page goes away). Exchanges that end
    /// while the store is still opening wait for it. Returns how many came back.
    pub async fn attach(self, log: WireLog) -> Result<usize, String> {
        log.listen(move |entry, added| {
            let ended = added
                .iter()
                .any(|timed| matches!(timed.event, ExchangeEvent::Ended(_)));
            if ended && self.gave_up.try_get_value() == Some(false) {
                self.hold(entry);
                self.write_soon();
            }
        });
        // What ended before: the page attaches its keep after the first screen.
        log.with_live(|entries| {
            entries
                .iter()
                .filter(|entry| entry.is_finished())
                .for_each(|entry| self.hold(entry));
        });
        let _ = window_event_listener(leptos::ev::pagehide, move |_| {
            if self.gave_up.try_get_value() != Some(false) {
                return;
            }
            // Exchanges still open go too: they come back marked as interrupted.
            log.with_live(|entries| {
                entries
                    .iter()
                    .filter(|e| !e.is_finished())
                    .for_each(|entry| self.hold(entry));
            });
            let unsaved: Vec<WireEntry> = self.pending.with_value(|pending| {
                pending
                    .values()
                    .filter_map(|kept| serde_json::from_str(&kept.json).ok())
                    .collect()
            });
            if !unsaved.is_empty() {
                let _ = crate::storage::save_for_tab(UNSAVED_KEY, &unsaved);
            }
            self.write_now();
        });
        match self.open_and_load().await {
            Ok(mut entries) => {
                // What the last page could not write in time comes from this tab's storage.
                let known: BTreeSet<u64> = entries.iter().map(|entry| entry.id).collect();
                let unsaved: Vec<WireEntry> =
                    crate::storage::take_for_tab(UNSAVED_KEY).unwrap_or_default();
                for mut entry in unsaved.into_iter().filter(|e| !known.contains(&e.id)) {
                    came_back(&mut entry);
                    self.hold(&entry);
                    entries.push(entry);
                }
                let entries = match decoded(entries).await {
                    Ok(entries) => entries,
                    // They stay kept; this page goes on keeping its own.
                    Err(missing) => {
                        let problem = format!("bring back the kept wire log: {missing}");
                        self.problem.try_set(Some(problem.clone()));
                        return Err(problem);
                    }
                };
                let restored = log.restore(entries);
                // What ended while the store was opening.
                self.write_now();
                Ok(restored)
            }
            Err(problem) => {
                self.gave_up.try_set_value(true);
                self.pending.try_set_value(BTreeMap::new());
                self.problem.try_set(Some(problem.clone()));
                Err(problem)
            }
        }
    }

    async fn open_and_load(&self) -> Result<Vec<WireEntry>, String> {
        let name = self.database.get_value();
        let db = open(&name).await?;
        let store = db
            .transaction_with_str(STORE)
            .and_then(|tx| tx.object_store(STORE))
            .map_err(|e| problem("read the kept wire log", &e))?;
        let request = store
            .get_all()
            .map_err(|e| problem("read the kept wire log", &e))?;
        let all = finished(&request)
            .await
            .map_err(|e| problem("read the kept wire log", &e))?;
        // Another tab deleting or upgrading the database waits until every connection
        // closes: this page gives its own up (and stops keeping) rather than block it.
        let keep = *self;
        let closing = db.clone();
        let on_version_change =
            wasm_bindgen::closure::Closure::once_into_js(move |_: web_sys::Event| {
                keep.db.try_set_value(None);
                closing.close();
            });
        db.set_onversionchange(Some(on_version_change.unchecked_ref()));
        self.db.set_value(Some(db));
        let mut entries: Vec<WireEntry> = js_sys::Array::from(&all)
            .iter()
            // A record a newer or older build wrote differently is skipped, not fatal.
            .filter_map(|value| read_record(&value))
            .collect();
        entries.iter_mut().for_each(came_back);
        self.kept.set_value(
            entries
                .iter_mut()
                .map(|entry| {
                    entry.recount();
                    (entry.id, entry.retained_bytes())
                })
                .collect(),
        );
        Ok(entries)
    }

    /// Hold `entry` to be written with the next batch.
    fn hold(&self, entry: &WireEntry) {
        if let Some(kept) = Pending::of(entry) {
            self.pending
                .try_update_value(|pending| pending.insert(entry.id, kept));
        }
    }

    fn write_soon(&self) {
        if self.write_scheduled.try_get_value() != Some(false) {
            return;
        }
        self.write_scheduled.set_value(true);
        let keep = *self;
        set_timeout(
            move || keep.write_now(),
            Duration::from_millis(WRITE_EVERY_MS),
        );
    }

    /// Write what is pending in one transaction, then delete the oldest beyond
    /// [`KEPT_EXCHANGES`] or [`KEPT_BYTES`] (one range of keys: ids grow with time). Of the
    /// pending exchanges only those that stay are written.
    pub fn write_now(&self) {
        self.write_scheduled.try_set_value(false);
        // Until the store is open, what ended stays pending (`attach` writes it then).
        let Some(Some(db)) = self.db.try_get_value() else {
            return;
        };
        let Some(pending) = self.pending.try_update_value(std::mem::take) else {
            return;
        };
        if pending.is_empty() {
            return;
        }
        let outcome = (|| -> Result<(), JsValue> {
            let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?;
            let store = tx.object_store(STORE)?;
            let mut ids = self.kept.get_value();
            ids.extend(pending.iter().map(|(id, kept)| (*id, kept.bytes)));
            let mut bytes: usize = ids.values().sum();
            let mut newest_dropped = None;
            while ids.len() > KEPT_EXCHANGES || (bytes > KEPT_BYTES && ids.len() > 1) {
                let Some((oldest, size)) = ids.pop_first() else {
                    break;
                };
                bytes = bytes.saturating_sub(size);
                newest_dropped = Some(oldest);
            }
            for (id, kept) in pending.range(newest_dropped.map_or(0, |id| id + 1)..) {
                let record = js_sys::Object::new();
                js_sys::Reflect::set(&record, &"id".into(), &JsValue::from_f64(*id as f64))?;
                js_sys::Reflect::set(&record, &JSON_FIELD.into(), &JsValue::from_str(&kept.json))?;
                store.put(&record)?;
            }
            if let Some(newest) = newest_dropped {
                store.delete(&keys_up_to(newest)?)?;
            }
            self.kept.set_value(ids);
            Ok(())
        })();
        let problem = outcome.err().map(|e| problem("keep the wire log", &e));
        if self.problem.try_get_untracked().flatten() != problem {
            self.problem.try_set(problem);
        }
    }

    /// Forget every kept exchange.
    pub fn clear(&self) {
        self.pending.try_set_value(BTreeMap::new());
        self.kept.try_set_value(BTreeMap::new());
        let Some(Some(db)) = self.db.try_get_value() else {
            return;
        };
        let cleared = db
            .transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)
            .and_then(|tx| tx.object_store(STORE))
            .and_then(|store| store.clear());
        if let Err(error) = cleared {
            self.problem
                .try_set(Some(problem("forget the kept wire log", &error)));
        }
    }

    /// How many exchanges the store holds (as far as this page knows).
    pub fn kept_count(&self) -> usize {
        self.kept.with_value(BTreeMap::len)
    }
}

/// A stored record as an exchange: its JSON (this build), or the exchange itself as a JS
/// object (records written before).
fn read_record(value: &JsValue) -> Option<WireEntry> {
    match js_sys::Reflect::get(value, &JSON_FIELD.into())
        .ok()
        .and_then(|json| json.as_string())
    {
        Some(json) => serde_json::from_str(&json).ok(),
        None => serde_wasm_bindgen::from_value(value.clone()).ok(),
    }
}

/// The keys from the smallest up to `id` (an `IDBKeyRange`), to delete them in one request.
fn keys_up_to(id: u64) -> Result<JsValue, JsValue> {
    let ranges = js_sys::Reflect::get(&js_sys::global(), &"IDBKeyRange".into())?;
    let upper_bound: js_sys::Function =
        js_sys::Reflect::get(&ranges, &"upperBound".into())?.dyn_into()?;
    upper_bound.call1(&ranges, &JsValue::from_f64(id as f64))
}

/// An exchange kept from the last page, made ready for this one: one still open then is
/// marked interrupted. (The engine decodes it from its bytes afterwards: [`decoded`].)
fn came_back(entry: &mut WireEntry) {
    if !entry.is_finished() {
        entry.error = Some(INTERRUPTED.to_owned());
        entry.finished_after = Some(
            entry
                .body
                .last()
                .map(|c| c.after)
                .or(entry.responded_after)
                .unwrap_or(0.0),
        );
    }
}

/// Open (and on first use create) the database.
async fn open(name: &str) -> Result<IdbDatabase, String> {
    let factory = web_sys::window()
        .ok_or("no browser window")?
        .indexed_db()
        .ok()
        .flatten()
        .ok_or("this browser offers no IndexedDB (a private window?)")?;
    let request = factory
        .open_with_u32(name, 1)
        .map_err(|e| problem("open the kept wire log", &e))?;
    let upgrading = request.clone();
    let on_upgrade = wasm_bindgen::closure::Closure::once_into_js(move |_: web_sys::Event| {
        if let Ok(db) = upgrading
            .result()
            .map(JsCast::unchecked_into::<IdbDatabase>)
        {
            let params = IdbObjectStoreParameters::new();
            params.set_key_path(&JsValue::from_str("id"));
            let _ = db.create_object_store_with_optional_parameters(STORE, &params);
        }
    });
    request.set_onupgradeneeded(Some(on_upgrade.unchecked_ref()));
    let db = finished(&request)
        .await
        .map_err(|e| problem("open the kept wire log", &e))?;
    request.set_onupgradeneeded(None);
    Ok(db.unchecked_into())
}

/// The result of an IndexedDB request, once it succeeds or fails.
async fn finished(request: &IdbRequest) -> Result<JsValue, JsValue> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    JsFuture::from(promise).await?;
    request.result()
}

fn problem(what: &str, error: &JsValue) -> String {
    let detail = error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the browser refused".to_owned());
    format!("could not {what}: {detail}")
}
