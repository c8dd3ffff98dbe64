//! The wire log panel: every HTTP exchange of this page, filterable, expandable, exportable.

mod entry;
mod file;

use std::collections::BTreeSet;

use leptos::prelude::*;

use super::session::Session;
use crate::wire::WireEntry;
use entry::WireEntryRow;

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

#[component]
pub fn WireLogPanel() -> impl IntoView {
    let session = Session::current();
    let log = session.wire;
    let entries = log.entries();
    let imported = log.is_imported();
    let method = RwSignal::new(String::new());
    let status = RwSignal::new(StatusFilter::All);
    let task = RwSignal::new(String::new());
    // Open rows by id, kept here so a row redrawn by new bytes stays open.
    let open: RwSignal<BTreeSet<u64>> = RwSignal::new(BTreeSet::new());
    let file_problem = RwSignal::new(None::<String>);

    let methods = Memo::new(move |_| {
        entries.with(|entries| {
            entries
                .iter()
                .map(|e| e.method.clone())
                .collect::<BTreeSet<_>>()
        })
    });
    let shown = Memo::new(move |_| {
        let method = method.get();
        let status = status.get();
        let task = task.get();
        let task = task.trim();
        entries.with(|entries| {
            entries
                .iter()
                .filter(|e| method.is_empty() || e.method == method)
                .filter(|e| status.admits(e))
                .filter(|e| task.is_empty() || e.task_id().is_some_and(|id| id.contains(task)))
                .cloned()
                .collect::<Vec<_>>()
        })
    });

    view! {
        <section class="panel wire-log" id="wire-log" aria-label="Wire log">
            <div class="wire-toolbar">
                <label>
                    "Method "
                    <select
                        class="wire-filter-method"
                        on:change=move |ev| method.set(event_target_value(&ev))
                        prop:value=method
                    >
                        <option value="">"All methods"</option>
                        {move || {
                            methods
                                .get()
                                .into_iter()
                                .map(|m| {
                                    let selected = method.get_untracked() == m;
                                    let value = m.clone();
                                    view! { <option value=value selected=selected>{m}</option> }
                                })
                                .collect_view()
                        }}
                    </select>
                </label>
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
                    <input
                        type="search"
                        class="wire-filter-task"
                        placeholder="task id"
                        spellcheck="false"
                        prop:value=task
                        on:input=move |ev| task.set(event_target_value(&ev))
                    />
                </label>
                <span class="wire-shown quiet">
                    {move || shown.with(Vec::len)} " of " {move || entries.with(Vec::len)}
                </span>
                <span class="toolbar-gap"></span>
                <button type="button" class="wire-export" on:click=move |_| file::export(log)>
                    "Export"
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
            {move || {
                imported
                    .get()
                    .then(|| {
                        view! {
                            <p class="imported-banner" id="wire-imported">
                                "Viewing an imported log ("
                                {move || entries.with(Vec::len)}
                                " exchanges)"
                                <button type="button" class="wire-live" on:click=move |_| log.show_live()>
                                    "Back to live"
                                </button>
                            </p>
                        }
                    })
            }}
            {move || {
                entries
                    .with(Vec::is_empty)
                    .then(|| view! { <p class="quiet">"No exchanges yet."</p> })
            }}
            <ol class="wire-entries">
                <For
                    each=move || shown.get()
                    key=move |e| {
                        (
                            imported.get_untracked(),
                            e.id,
                            e.status,
                            e.body.len(),
                            e.finished_after.is_some(),
                            e.error.is_some(),
                        )
                    }
                    let:entry
                >
                    <WireEntryRow entry=entry open=open />
                </For>
            </ol>
        </section>
    }
}
