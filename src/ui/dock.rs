//! The bottom dock: the wire log, the findings and the call history, in tabs; collapsible and
//! resizable.

use leptos::prelude::*;

use super::on_demand::{FindingsOnDemand, HistoryOnDemand};
use super::{UiState, WireLogPanel};
use crate::session::Session;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DockTab {
    Wire,
    Findings,
    History,
}

#[component]
pub fn Dock() -> impl IntoView {
    let session = Session::current();
    let tab = RwSignal::new(DockTab::Wire);
    let collapsed = UiState::current().dock_collapsed();
    let tall = RwSignal::new(false);
    // The findings and history panes are built when first opened (their code is a chunk).
    let opened_findings = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false) || tab.get() == DockTab::Findings
    });
    let opened_history = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false) || tab.get() == DockTab::History
    });
    let wire = session.wire();
    let findings = session.link().findings();
    // Counted in place: copying a busy log every frame just to count it was measurable.
    let wire_count = move || wire.with_shown(<[_]>::len);
    let findings_count = move || findings.with(Vec::len);
    let calls = session.history().calls();
    let history_count = move || calls.with(Vec::len);
    let tab_button = move |which: DockTab, label: &'static str, id: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                class="tab"
                id=id
                aria-selected=move || (tab.get() == which && !collapsed.get()).to_string()
                on:click=move |_| {
                    tab.set(which);
                    collapsed.set(false);
                }
            >
                {label}
                <span class="count">
                    {move || match which {
                        DockTab::Wire => wire_count(),
                        DockTab::Findings => findings_count(),
                        DockTab::History => history_count(),
                    }}
                </span>
            </button>
        }
    };
    view! {
        <aside class="dock" id="dock" class:collapsed=collapsed class:tall=tall>
            <div class="dock-bar">
                <div class="tabs" role="tablist" aria-label="Wire log, findings and call history">
                    {tab_button(DockTab::Wire, "Wire log", "dock-tab-wire")}
                    {tab_button(DockTab::Findings, "Findings", "dock-tab-findings")}
                    {tab_button(DockTab::History, "History", "dock-tab-history")}
                </div>
                <span class="toolbar-gap"></span>
                <button
                    type="button"
                    class="dock-size"
                    aria-pressed=move || tall.get().to_string()
                    on:click=move |_| {
                        tall.update(|t| *t = !*t);
                        collapsed.set(false);
                    }
                >
                    {move || if tall.get() { "Smaller" } else { "Taller" }}
                </button>
                <button
                    type="button"
                    class="dock-collapse"
                    aria-expanded=move || (!collapsed.get()).to_string()
                    aria-controls="dock-body"
                    on:click=move |_| collapsed.update(|c| *c = !*c)
                >
                    {move || if collapsed.get() { "Show" } else { "Hide" }}
                </button>
            </div>
            // Both panels stay mounted so their filters survive a tab switch. Focusable: a
            // findings list has nothing focusable in it, and a keyboard must still scroll it.
            <div
                class="dock-body"
                id="dock-body"
                tabindex="0"
                role="region"
                aria-label="Dock pane"
                hidden=move || collapsed.get()
            >
                <div class="dock-pane" hidden=move || tab.get() != DockTab::Wire>
                    <WireLogPanel />
                </div>
                // Loaded when first opened, then kept.
                {move || {
                    opened_findings.get().then(|| view! {
                        <div class="dock-pane" hidden=move || tab.get() != DockTab::Findings>
                            <FindingsOnDemand />
                        </div>
                    })
                }}
                {move || {
                    opened_history.get().then(|| view! {
                        <div class="dock-pane" hidden=move || tab.get() != DockTab::History>
                            <HistoryOnDemand />
                        </div>
                    })
                }}
            </div>
        </aside>
    }
}
