//! The wire log panel: every HTTP exchange of this page.

use leptos::prelude::*;

use super::session::Session;

#[component]
pub fn WireLogPanel() -> impl IntoView {
    let session = Session::current();
    let entries = session.wire.entries();
    view! {
        <section class="panel" id="wire-log">
            <h2>"Wire log"</h2>
            <ol class="wire-entries">
                {move || {
                    entries
                        .get()
                        .into_iter()
                        .map(|entry| {
                            let status = entry.status.map(|s| s.to_string()).unwrap_or_else(|| "…".into());
                            view! {
                                <li class="wire-entry">
                                    <code class="wire-method">{entry.method}</code>
                                    " "
                                    <span class="wire-status">{status}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
    }
}
