//! The tool list comes first. The dock (wire log, findings, history) and the tasks panel are
//! not read in a page's first second, yet building them, and V8 compiling their code on its
//! first call, held the tool list back. They are built once the tool list (or why there is
//! none) has been drawn; until then the frames of the static shell stand in their place, so
//! nothing moves. What they show lives in the session, so nothing is missed meanwhile.

use std::time::Duration;

use leptos::prelude::*;

use crate::catalog::Loaded;
use crate::session::Session;
use crate::split::ChunkMissing;
use crate::ui::ErrorNotice;
use crate::ui::frames::after_next_frame;

/// The longest the later panels wait: a server that is slow to answer still gets its wire log.
const AT_THE_LATEST: Duration = Duration::from_secs(1);

/// True from the frame after the first screen settled: the tools listed, the listing failed
/// or not offered, discovery failed, or no server to talk to; or after [`AT_THE_LATEST`].
pub fn drawn(session: Session) -> Signal<bool> {
    let drawn = RwSignal::new(false);
    let (catalog, connection) = (session.catalog(), session.connection());
    let (tools, discovery) = (catalog.tools(), catalog.discovery());
    Effect::new(move |scheduled: Option<bool>| {
        if scheduled == Some(true) {
            return true;
        }
        let settled = !tools.with(Loaded::is_loading)
            || discovery.with(|found| matches!(found, Loaded::Failed(_) | Loaded::NotOffered))
            || connection.with(|c| c.server.is_empty());
        if settled {
            after_next_frame(move || {
                drawn.try_set(true);
            });
        }
        settled
    });
    set_timeout(
        move || {
            drawn.try_set(true);
        },
        AT_THE_LATEST,
    );
    drawn.into()
}

/// The tasks panel's frame, as the static shell draws it; with why the panel is missing, if
/// its code could not be fetched.
#[component]
pub fn TasksFrame(#[prop(optional, into)] problem: Option<ChunkMissing>) -> impl IntoView {
    view! {
        <section class="panel">
            <h2>"Tasks"</h2>
            {problem.map(|problem| view! { <ErrorNotice title="No tasks panel" message=problem.to_string() /> })}
        </section>
    }
}

/// The dock's bar, as the static shell draws it; with why the dock is missing, if its code
/// could not be fetched.
#[component]
pub fn DockFrame(#[prop(optional, into)] problem: Option<ChunkMissing>) -> impl IntoView {
    view! {
        <aside class="dock">
            <div class="dock-bar">
                <div class="tabs" role="tablist" aria-label="Wire log, findings and call history">
                    <button type="button" role="tab" class="tab" aria-selected="true" disabled>
                        "Wire log"
                    </button>
                    <button type="button" role="tab" class="tab" aria-selected="false" disabled>
                        "Findings"
                    </button>
                    <button type="button" role="tab" class="tab" aria-selected="false" disabled>
                        "History"
                    </button>
                </div>
            </div>
            {problem.map(|problem| view! { <ErrorNotice title="No wire log" message=problem.to_string() /> })}
        </aside>
    }
}
