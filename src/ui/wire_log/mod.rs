//! The wire log panel: every HTTP exchange of this page, searchable, filterable, expandable,
//! copyable, exportable.

pub mod clipboard;
mod entry;
mod file;
pub mod json_tree;

use std::collections::BTreeSet;

use leptos::prelude::*;

use crate::clock::now_ms;
use crate::session::Session;
use crate::ui::checkbox::Checkbox;
use crate::ui::format;
use crate::ui::text_field::TextField;
use crate::wire::budget::{BODY_KEPT_BYTES, KEPT_BYTES, LOG_BYTES};
use crate::wire::keep::KEPT_EXCHANGES;
use crate::wire::{WireEntry, WireLog, WireQuery, server_label};
use entry::{RowOptions, WireEntryRow};

/// Which statuses the log shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StatusFilter {
    All,
    Success,
    Errors,
}

impl StatusFilter {
    fn from_value(value: &str) -> Self {
        match value {
            "2xx" => Self::Success,
            "errors" => Self::Errors,
            _ => Self::All,
        }
    }

    fn admits(self, entry: &WireEntry) -> bool {
        match self {
            Self::All => true,
            Self::Success => entry.status.is_some_and(|s| (200..300).contains(&s)),
            Self::Errors => entry.error.is_some() || entry.status.is_some_and(|s| s >= 300),
        }
    }
}

/// Rows drawn at most: the newest that match the filters (drawing thousands of rows, each
/// redrawn as its bytes arrive, is what made a busy page stutter). Filters and the export
/// still cover the whole log.
pub const ROWS_DRAWN: usize = 200;

/// While exchanges keep coming, the log is redrawn at most once per this many ms, after a
/// burst of [`REDRAW_BURST`] redraws that show at once (a connect's few exchanges appear as
/// they happen). Polls of many tasks would otherwise redraw it every frame: nobody reads a
/// log that fast, and every frame would lose its smoothness.
pub const CALM_REDRAW_MS: f64 = 300.0;
/// Redraws that show at once after a quiet spell.
pub const REDRAW_BURST: f64 = 8.0;
/// From this many exchanges a second the log is flooded (a thousand tasks polled at 5 s are
/// 200): nobody reads rows that fast, and building each one costs the page a little.
pub const FLOOD_PER_SECOND: f64 = 50.0;
/// While flooded, the log is redrawn at most once per this many ms...
pub const FLOOD_REDRAW_MS: f64 = 1_000.0;
/// ... with its newest this many matching rows: at most that many rows built a second,
/// however fast exchanges come.
pub const FLOODED_ROWS_DRAWN: usize = 40;

/// When the log is redrawn: the log's changes at the calm pace, and how fast exchanges
/// come while they flood it.
#[derive(Clone, Copy)]
pub(crate) struct CalmLog {
    /// Notified when the log should be redrawn (track it).
    pub redraw: Trigger,
    /// Exchanges a second, while at least [`FLOOD_PER_SECOND`].
    pub flood: Signal<Option<u32>>,
}

/// A redraw that follows the log's changes, paced as [`CALM_REDRAW_MS`] says (a token bucket:
/// `REDRAW_BURST` redraws, refilled one per `CALM_REDRAW_MS`), or once per
/// [`FLOOD_REDRAW_MS`] while the log is flooded (exchanges counted over a second or more).
pub(crate) fn calm_redraws(log: crate::wire::WireLog) -> CalmLog {
    let redraw_now = Trigger::new();
    let flood = RwSignal::new(None::<u32>);
    // (redraws available, when they were last counted)
    let bucket = StoredValue::new((REDRAW_BURST, now_ms() as f64));
    let waiting = StoredValue::new(false);
    // This page's exchanges so far (dropped ones too), and when the count was last taken.
    let recorded = move || log.dropped_untracked() + log.with_live(<[_]>::len);
    let counted = StoredValue::new((recorded(), now_ms() as f64));
    let refill = move || {
        let now = now_ms() as f64;
        bucket
            .try_update_value(|(tokens, counted_at)| {
                *tokens = (*tokens + (now - *counted_at) / CALM_REDRAW_MS).min(REDRAW_BURST);
                *counted_at = now;
                *tokens
            })
            .unwrap_or(0.0)
    };
    // Exchanges a second since the count was taken, once a second or more has passed.
    let measure_flood = move || {
        let (now, count) = (now_ms() as f64, recorded());
        let Some((before, at)) = counted.try_get_value() else {
            return;
        };
        if now - at < FLOOD_REDRAW_MS {
            return;
        }
        counted.try_set_value((count, now));
        let per_second = count.saturating_sub(before) as f64 * 1_000.0 / (now - at);
        let shown = (per_second >= FLOOD_PER_SECOND)
            .then(|| per_second.round().min(f64::from(u32::MAX)) as u32);
        if flood.try_get_untracked() != Some(shown) {
            flood.try_set(shown);
        }
    };
    let draw = StoredValue::new_local(None::<std::rc::Rc<dyn Fn()>>);
    let redraw = move || {
        if let Some(draw) = draw.try_get_value().flatten() {
            draw();
        }
    };
    draw.set_value(Some(std::rc::Rc::new(move || {
        waiting.try_set_value(false);
        refill();
        measure_flood();
        let flooded = flood.try_get_untracked().flatten().is_some();
        bucket.try_update_value(|(tokens, _)| {
            *tokens = if flooded {
                // No redraw before FLOOD_REDRAW_MS: the bucket goes that far below one.
                1.0 - FLOOD_REDRAW_MS / CALM_REDRAW_MS
            } else {
                (*tokens - 1.0).max(0.0)
            }
        });
        redraw_now.notify();
        if flooded {
            // The next redraw comes in any case: it also sees when the flood is over.
            waiting.try_set_value(true);
            set_timeout(
                redraw,
                std::time::Duration::from_millis(FLOOD_REDRAW_MS as u64),
            );
        }
    })));
    Effect::new(move |_| {
        log.with_shown(|_| ());
        if waiting.try_get_value() != Some(false) {
            return;
        }
        let tokens = refill();
        if tokens >= 1.0 {
            redraw();
        } else {
            waiting.set_value(true);
            // Below one token the wait is under CALM_REDRAW_MS: the cast cannot truncate.
            let wait = ((1.0 - tokens) * CALM_REDRAW_MS).ceil() as u64;
            set_timeout(redraw, std::time::Duration::from_millis(wait));
        }
    });
    CalmLog {
        redraw: redraw_now,
        flood: flood.into(),
    }
}

/// What a row shows, as its key: a row is redrawn only when one of these changes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct RowKey {
    imported: bool,
    id: u64,
    status: Option<u16>,
    chunks: usize,
    /// Decoded events (notifications arrive as events).
    events: usize,
    /// Notifications past the engine's bound: counted, not stored, yet the chip's count
    /// must still move during a flood.
    not_kept: u64,
    finished: bool,
    failed: bool,
}

impl RowKey {
    fn of(entry: &WireEntry, imported: bool) -> Self {
        Self {
            imported,
            id: entry.id,
            status: entry.status,
            chunks: entry.body.len(),
            events: entry.events.len(),
            not_kept: entry.notifications_not_kept,
            finished: entry.finished_after.is_some(),
            failed: entry.error.is_some(),
        }
    }
}

#[component]
pub fn WireLogPanel() -> impl IntoView {
    let session = Session::current();
    let log = session.wire();
    let keep_problem = session.keep_problem();
    let imported = log.is_imported();
    let method = RwSignal::new(String::new());
    let server = RwSignal::new(String::new());
    let status = RwSignal::new(StatusFilter::All);
    let task = RwSignal::new(String::new());
    let search = RwSignal::new(String::new());
    // Open rows by id, kept here so a row redrawn by new bytes stays open.
    let options = RowOptions {
        open: RwSignal::new(BTreeSet::new()),
        show_notes: RwSignal::new(true),
        curl_credentials: RwSignal::new(false),
    };
    let file_problem = RwSignal::new(None::<String>);

    // Read in place at the calm pace (`calm_redraws`): the rows get their entry when
    // drawn, so nothing is copied per body piece.
    let CalmLog {
        redraw: calm,
        flood,
    } = calm_redraws(log);
    let methods = distinct(log, calm, |entry| &entry.method);
    let servers = distinct(log, calm, |entry| &entry.server);
    let total = Memo::new(move |_| {
        calm.track();
        log.with_shown_untracked(<[WireEntry]>::len)
    });
    let dropped = Memo::new(move |_| {
        calm.track();
        if imported.get() {
            0
        } else {
            log.dropped_untracked()
        }
    });
    let shown = Memo::new(move |_| {
        let method = method.get();
        let server = server.get();
        let status = status.get();
        let task = task.get();
        let task = task.trim();
        let query = WireQuery::new(&search.get());
        let is_imported = imported.get();
        calm.track();
        let most = if flood.get().is_some() {
            FLOODED_ROWS_DRAWN
        } else {
            ROWS_DRAWN
        };
        log.with_shown_untracked(|entries| {
            let mut rows: Vec<RowKey> = entries
                .iter()
                .rev()
                .filter(|e| server.is_empty() || e.server == server)
                .filter(|e| method.is_empty() || e.method == method)
                .filter(|e| status.admits(e))
                .filter(|e| task.is_empty() || e.task_id().is_some_and(|id| id.contains(task)))
                .filter(|e| query.matches(e))
                .map(|e| RowKey::of(e, is_imported))
                .collect();
            let matching = rows.len();
            rows.truncate(most);
            rows.reverse();
            (rows, matching, most)
        })
    });
    let drawn = Memo::new(move |_| shown.with(|(rows, ..)| rows.clone()));
    let matching = move || shown.with(|(_, matching, _)| *matching);
    let undrawn = move || shown.with(|(_, matching, most)| matching.saturating_sub(*most));

    view! {
        <section class="panel wire-log" id="wire-log" aria-label="Wire log">
            <div class="wire-toolbar">
                <label class="wire-search-label">
                    "Search "
                    <TextField
                        value=search
                        kind="search"
                        class="wire-search"
                        id="wire-search"
                        placeholder="method, name, id, body text"
                    />
                </label>
                <FilterSelect
                    label="Method "
                    class="wire-filter-method"
                    every="All methods"
                    chosen=method
                    values=methods
                    shown_as=|method| method.to_owned()
                />
                <FilterSelect
                    label="Server "
                    class="wire-filter-server"
                    every="All servers"
                    chosen=server
                    values=servers
                    shown_as=|url| server_label(url).to_owned()
                />
                <label>
                    "Status "
                    <select
                        class="wire-filter-status"
                        on:change=move |ev| status.set(StatusFilter::from_value(&event_target_value(&ev)))
                    >
                        <option value="all">"All"</option>
                        <option value="2xx">"2xx"</option>
                        <option value="errors">"Errors"</option>
                    </select>
                </label>
                <label>
                    "Task "
                    <TextField
                        value=task
                        kind="search"
                        class="wire-filter-task"
                        placeholder="task id"
                    />
                </label>
                <Checkbox
                    class="wire-option"
                    input_class="wire-show-notes"
                    checked=options.show_notes
                    label="Notifications"
                />
                <Checkbox
                    class="wire-option"
                    title="Copy as curl writes credential headers (Authorization, tokens, keys) as <redacted>. Ticked, it puts this connection's real values in: they will be on your clipboard."
                    input_class="wire-curl-credentials"
                    checked=options.curl_credentials
                    label="Credentials in curl"
                />
                <span class="wire-shown quiet">
                    {matching} " of " {move || total.get()}
                </span>
                <span class="toolbar-gap"></span>
                <button type="button" class="wire-export" on:click=move |_| file::export(log)>
                    "Export"
                </button>
                <button
                    type="button"
                    class="wire-clear"
                    title="Forget this log, here and in this browser's storage"
                    on:click=move |_| session.clear_wire_log()
                >
                    "Clear"
                </button>
                <label class="button-like">
                    "Import"
                    <input
                        type="file"
                        accept="application/json,.json"
                        class="wire-import visually-hidden"
                        on:change=move |ev| file::import(log, &ev, file_problem)
                    />
                </label>
            </div>
            {move || file_problem.get().map(|p| view! { <p class="error-message" role="alert">{p}</p> })}
            {move || keep_problem.get().map(|p| view! { <p class="quiet wire-keep-problem" role="status">{p}</p> })}
            {move || {
                imported
                    .get()
                    .then(|| {
                        view! {
                            <p class="imported-banner" id="wire-imported">
                                "Viewing an imported log ("
                                {move || total.get()}
                                " exchanges)"
                                <button type="button" class="wire-live" on:click=move |_| log.show_live()>
                                    "Back to live"
                                </button>
                            </p>
                        }
                    })
            }}
            {move || {
                (total.get() == 0).then(|| view! { <p class="quiet">"No exchanges yet."</p> })
            }}
            <p class="quiet wire-kept-note">
                {format!(
                    "This browser keeps the newest {KEPT_EXCHANGES} exchanges (at most {}) across reloads (Authorization values are never recorded, and Copy as curl redacts credentials unless “Credentials in curl” is ticked); Clear forgets them.",
                    format::bytes(KEPT_BYTES),
                )}
            </p>
            {move || {
                let dropped = dropped.get();
                (dropped > 0)
                    .then(|| {
                        view! {
                            <p class="quiet wire-dropped">
                                {format!(
                                    "{dropped} older exchanges dropped: this page keeps the latest {} exchanges and at most {} of them ({} of any one body).",
                                    crate::wire::MAX_LIVE_ENTRIES,
                                    format::bytes(LOG_BYTES),
                                    format::bytes(BODY_KEPT_BYTES),
                                )}
                            </p>
                        }
                    })
            }}
            {move || {
                flood
                    .get()
                    .map(|per_second| {
                        view! {
                            <p class="quiet wire-flood">
                                {format!(
                                    "Busy: about {per_second} exchanges a second. The newest {FLOODED_ROWS_DRAWN} are drawn, once a second; filter, or export the log, to read every one.",
                                )}
                            </p>
                        }
                    })
            }}
            {move || {
                let hidden = undrawn();
                (hidden > 0)
                    .then(|| {
                        view! {
                            <p class="quiet wire-undrawn">
                                {hidden}
                                " earlier matching exchanges are not drawn here: filter to find them, or export the log."
                            </p>
                        }
                    })
            }}
            <div class="wire-columns" aria-hidden="true">
                <span>"id"</span>
                <span>"server"</span>
                <span>"method"</span>
                <span>"name"</span>
                <span>"outcome"</span>
                <span>"round / task"</span>
                <span>"status"</span>
                <span>"time"</span>
                <span></span>
            </div>
            <ol class="wire-entries">
                <For each=move || drawn.get() key=RowKey::clone let:row>
                    {log
                        .shown_entry(row.id)
                        .map(|entry| view! { <WireEntryRow entry=entry options=options /> })}
                </For>
            </ol>
        </section>
    }
}

/// A filter over one of the entries' fields: every value the log holds, or all of them.
#[component]
fn FilterSelect(
    label: &'static str,
    class: &'static str,
    /// The choice that filters nothing.
    every: &'static str,
    chosen: RwSignal<String>,
    values: Memo<BTreeSet<String>>,
    shown_as: fn(&str) -> String,
) -> impl IntoView {
    let options = move || {
        values
            .get()
            .into_iter()
            .map(|value| {
                let selected = chosen.get_untracked() == value;
                let words = shown_as(&value);
                view! { <option value=value selected=selected>{words}</option> }
            })
            .collect_view()
    };
    view! {
        <label>
            {label}
            <select
                class=class
                on:change=move |ev| chosen.set(event_target_value(&ev))
                prop:value=chosen
            >
                <option value="">{every}</option>
                {options}
            </select>
        </label>
    }
}

/// The distinct values of one of the shown entries' fields (for a filter's choices),
/// recomputed at the log's calm redraws.
fn distinct(
    log: WireLog,
    calm: Trigger,
    field: fn(&WireEntry) -> &String,
) -> Memo<BTreeSet<String>> {
    Memo::new(move |_| {
        calm.track();
        log.with_shown_untracked(|entries| {
            let mut values = BTreeSet::new();
            for entry in entries {
                if !values.contains(field(entry)) {
                    values.insert(field(entry).clone());
                }
            }
            values
        })
    })
}
