//! The bottom dock: the wire log, the findings and the call history, in tabs; collapsible and
//! resizable.

use leptos::prelude::*;

use super::dock_fold::DockFold;
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
    let fold = UiState::current().dock();
    let collapsed = fold.folded();
    unfold_at_first_activity(session, fold);
    let tall = RwSignal::new(false);
    // The findings and history panes are built when first opened (their code is a chunk).
    let opened_findings = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false) || tab.get() == DockTab::Findings
    });
    let opened_history = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false) || tab.get() == DockTab::History
    });
    let wire = session.wire();
    let findings = session.findings();
    // Counted in place (copying a busy log just to count it was measurable), and at the
    // log's calm pace: a count that changes every frame makes every frame draw.
    let wire_calm = super::wire_log::calm_redraws(wire).redraw;
    let wire_count = move || {
        wire_calm.track();
        wire.with_shown_untracked(<[_]>::len)
    };
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
                    fold.choose(false);
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
                        fold.choose(false);
                    }
                >
                    {move || if tall.get() { "Smaller" } else { "Taller" }}
                </button>
                <button
                    type="button"
                    class="dock-collapse"
                    aria-expanded=move || (!collapsed.get()).to_string()
                    aria-controls="dock-body"
                    on:click=move |_| fold.choose(!collapsed.get_untracked())
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

/// Unfold the dock at the first exchange that starts after the connect settled (a call, a
/// task's poll or listen, a sign-in), unless someone already chose. Exchanges restored from
/// this browser's kept log are older than that, so they do not count. The session stamps
/// when the connect settled: the dock comes with a later chunk, often after the connect,
/// and an exchange begun before it mounted (a restored task's listen) still counts.
fn unfold_at_first_activity(session: Session, fold: DockFold) {
    let wire = session.wire();
    let connecting = session.is_connecting();
    let settled = session.connect_settled_at();
    // No connect settled yet (none made): from when the dock first saw the page idle.
    let seen_idle_at = StoredValue::new(None::<f64>);
    Effect::new(move || {
        if !fold.waits_for_activity() {
            return;
        }
        if connecting.get() {
            seen_idle_at.set_value(None);
            return;
        }
        let newest = wire.with_shown(|entries| entries.last().map(|entry| entry.started_at));
        let Some(since) = settled.get().or_else(|| seen_idle_at.get_value()) else {
            seen_idle_at.set_value(Some(crate::clock::now_ms() as f64));
            return;
        };
        if newest.is_some_and(|started| started > since) {
            fold.unfold_for_activity();
        }
    });
}
