//! What the engine found about a completed result (a `structuredContent` that breaks the
//! tool's `outputSchema`, or is missing), shown with the result. The findings list in the
//! dock has the same findings.

use leptos::prelude::*;

use crate::calls::{Run, RunMethod};
use crate::ui::findings::FindingRow;

#[component]
pub fn ResultFindings<M: RunMethod>(run: Run<M>) -> impl IntoView {
    let findings = run.result_findings();
    move || {
        let list = findings.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="result-findings" role="note">
                    <p class="result-findings-title">"This result breaks a rule"</p>
                    <ol class="finding-list">
                        {list
                            .into_iter()
                            .map(|finding| view! { <FindingRow finding=finding /> })
                            .collect_view()}
                    </ol>
                </div>
            }
        })
    }
}
