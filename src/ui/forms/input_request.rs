//! One input request of a server (an MRTR `inputRequests` entry or a task's), shown by kind,
//! and the answer the user gives to it. Once answered, the card keeps showing what was sent.

use leptos::prelude::*;
use serde_json::Value;

use super::elicit_form::FormElicitation;
use super::elicit_url::UrlElicitation;
use super::other_kinds::{DeprecatedRequest, UnknownRequest};

/// Shows the request under `key` and calls `on_answer` (once) with the response to send.
/// `server` names who is asking, when the caller knows.
#[component]
pub fn InputRequestCard(
    key: String,
    request: Value,
    on_answer: Callback<Value>,
    #[prop(optional, into)] server: Option<String>,
) -> impl IntoView {
    let sent = RwSignal::new(None::<Value>);
    let answer = Callback::new(move |response: Value| {
        if sent.get_untracked().is_some() {
            return;
        }
        sent.set(Some(response.clone()));
        on_answer.run(response);
    });
    let method = request
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    let mode = params
        .get("mode")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let (kind_label, body) = match (method.as_str(), mode.as_deref()) {
        ("elicitation/create", None | Some("form")) => (
            "Form",
            view! { <FormElicitation key=key.clone() params=params answer=answer /> }.into_any(),
        ),
        ("elicitation/create", Some("url")) => (
            "Web page",
            view! { <UrlElicitation params=params answer=answer /> }.into_any(),
        ),
        ("sampling/createMessage" | "roots/list", _) => (
            "Deprecated",
            view! { <DeprecatedRequest method=method.clone() request=request.clone() answer=answer /> }
                .into_any(),
        ),
        _ => (
            "Unknown",
            view! { <UnknownRequest method=method.clone() request=request.clone() answer=answer /> }
                .into_any(),
        ),
    };
    let asker = server.map(
        |server| view! { <span class="input-server">"from " <strong>{server}</strong></span> },
    );
    let data_key = key.clone();
    let shown_method = if method.is_empty() {
        "(no method)".to_owned()
    } else {
        method
    };
    view! {
        <article class="input-request" data-key=data_key class:answered=move || sent.with(Option::is_some)>
            <header class="input-request-head">
                <span class="input-kind">{kind_label}</span>
                <code class="input-method">{shown_method}</code>
                <span class="input-key">"key " <code>{key}</code></span>
                {asker}
            </header>
            // Hidden rather than dropped once answered: the card then shows what it sent.
            <div class="input-request-body" class:hidden=move || sent.with(Option::is_some)>
                {body}
            </div>
            {move || sent.get().map(|response| {
                let text = serde_json::to_string_pretty(&response).unwrap_or_default();
                view! {
                    <div class="answer-sent">
                        <p class="answer-sent-title">"Answer sent"</p>
                        <pre class="json answer-json">{text}</pre>
                    </div>
                }
            })}
        </article>
    }
}
