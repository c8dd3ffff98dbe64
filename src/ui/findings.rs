//! The engine's findings about the server: which rule, how strong, why, and the message.

use holdbay_engine::{Finding, Severity};
use leptos::prelude::*;

use crate::link::{FindingCounts, MAX_FINDINGS};

fn severity_label(severity: Severity) -> &'static str {
    match severity {
        Severity::Must => "MUST",
        Severity::Should => "SHOULD",
        Severity::Info => "info",
    }
}

/// Lists `findings` (the session's, in the app), each with how often it was seen.
#[component]
pub fn FindingsPanel(
    #[prop(into)] findings: Signal<Vec<Finding>>,
    #[prop(optional, into)] counts: Option<Signal<FindingCounts>>,
) -> impl IntoView {
    let times = move |finding: &Finding| counts.map_or(1, |c| c.with(|c| c.of(finding)));
    let unlisted = move || counts.map_or(0, |c| c.with(|c| c.unlisted));
    view! {
        <section class="panel findings" id="findings-panel" aria-label="Findings">
            {move || {
                findings
                    .with(Vec::is_empty)
                    .then(|| {
                        view! { <p class="quiet">"No findings: the server has kept every rule checked so far."</p> }
                    })
            }}
            <ol class="finding-list">
                {move || {
                    findings
                        .get()
                        .into_iter()
                        .map(|finding| {
                            let seen = times(&finding);
                            view! { <FindingRow finding=finding seen=seen /> }
                        })
                        .collect_view()
                }}
            </ol>
            {move || {
                let unlisted = unlisted();
                (unlisted > 0)
                    .then(|| {
                        view! {
                            <p class="quiet findings-unlisted">
                                {format!(
                                    "{unlisted} more distinct findings were seen and not listed (at most {MAX_FINDINGS} are)."
                                )}
                            </p>
                        }
                    })
            }}
        </section>
    }
}

/// One finding; `seen` is how often it was seen (shown when more than once).
#[component]
pub(crate) fn FindingRow(finding: Finding, #[prop(default = 1)] seen: u64) -> impl IntoView {
    let rule = finding.rule.id();
    let rule_attribute = rule.clone();
    let severity = severity_label(finding.severity);
    let message = finding
        .message
        .as_ref()
        .and_then(|m| serde_json::to_string_pretty(m).ok());
    view! {
        <li class="finding" data-rule=rule_attribute data-severity=severity>
            <span class=format!("severity severity-{}", severity.to_ascii_lowercase())>
                {severity}
            </span>
            <span class="finding-rule-cell">
                <code class="finding-rule">{rule}</code>
                {(seen > 1)
                    .then(|| {
                        view! {
                            <span class="finding-count" title="Times seen">
                                {format!(" ×{seen}")}
                            </span>
                        }
                    })}
            </span>
            <p class="finding-explanation">{finding.explanation}</p>
            {message
                .map(|json| {
                    view! {
                        <details class="finding-message">
                            <summary>"Message"</summary>
                            <pre>{json}</pre>
                        </details>
                    }
                })}
        </li>
    }
}
