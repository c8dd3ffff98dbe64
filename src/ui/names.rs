//! Names and titles as the engine shows them: each hidden character a marked `⟨U+200B⟩`,
//! and a flag beside a name that passes for another. Text nodes only, never HTML.

use holdbay_engine::{NameMarks, NameWarning, Shown, ShownPiece};
use leptos::prelude::*;

/// A name or title as shown; a hidden character's marker says what it is on hover.
#[component]
pub fn ShownText(shown: Shown) -> impl IntoView {
    shown
        .pieces()
        .iter()
        .map(|piece| match piece {
            ShownPiece::Text(text) => text.clone().into_any(),
            ShownPiece::Marked(hidden) => {
                let what = format!("{}, {}", hidden.code_point(), hidden.kind.describe());
                view! { <span class="name-mark" title=what>{hidden.marker()}</span> }.into_any()
            }
        })
        .collect_view()
}

/// The flags of a flagged name, each a badge with the warning in a few words; the whole
/// sentence on hover and for screen readers. Nothing for a name that is not flagged.
/// `item` is what the name belongs to ("tool"), `name` its raw name.
#[component]
pub fn NameFlags(
    warnings: Vec<NameWarning>,
    item: &'static str,
    #[prop(into)] name: String,
) -> impl IntoView {
    (!warnings.is_empty()).then(|| {
        view! {
            <span class="name-flags">
                {warnings
                    .into_iter()
                    .map(|warning| {
                        let explanation = warning.explain(item, &name);
                        view! {
                            <span class="name-flag" data-rule=warning.rule().id() title=explanation.clone()>
                                <span aria-hidden="true">"⚠ "</span>
                                {warning.badge()}
                                <span class="visually-hidden">{format!(": {explanation}")}</span>
                            </span>
                        }
                    })
                    .collect_view()}
            </span>
        }
    })
}

/// A whole name's flags, from its marks.
pub fn flags_of(marks: &NameMarks, item: &'static str, name: &str) -> impl IntoView + use<> {
    view! { <NameFlags warnings=marks.warnings.clone() item=item name=name.to_owned() /> }
}

/// Each warning of a name in a whole sentence, for the panel that calls, gets or reads the
/// item: what it is about to use is said in full there.
pub fn warnings_of(marks: &NameMarks, item: &'static str, name: &str) -> impl IntoView + use<> {
    (marks.is_flagged()).then(|| {
        view! {
            <ul class="name-warnings" role="note">
                {marks
                    .warnings
                    .iter()
                    .map(|warning| {
                        let rule = warning.rule().id();
                        view! { <li data-rule=rule>{warning.explain(item, name)}</li> }
                    })
                    .collect_view()}
            </ul>
        }
    })
}
