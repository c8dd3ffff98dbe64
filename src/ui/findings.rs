//! The engine's findings about the server: which rule, how strong, why, and the message.

use holdbay_engine::{Finding, Severity};
use leptos::prelude::*;

fn severity_label(severity: Severity) -> &'static str {
    match severity {
        Severity::Must => "MUST",
        Severity::Should => "SHOULD",
        Severity::Info => "info",
    }
}

/// Lists `findings` (the session's, in the app).
#[component]
pub fn FindingsPanel(#[prop(into)] findings: Signal<Vec<Finding>>) -> impl IntoView {
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
                {move || findings.get().into_iter().map(|finding| view! { <FindingRow finding=finding /> }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
pub(crate) fn FindingRow(finding: Finding) -> impl IntoView {
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
            <code class="finding-rule">{rule}</code>
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
