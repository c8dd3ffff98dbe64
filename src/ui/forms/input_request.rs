//! One input request of a server (an MRTR round's `inputRequests` entry or a task's), shown
//! by the kind the engine decoded, and the answer the user gives to it. Once answered at
//! once, the card keeps showing what was sent.

use holdbay_engine::{InputAnswer, InputAsk, InputRequestKind};
use leptos::prelude::*;

use super::delivery::Delivery;
use super::elicit_form::FormElicitation;
use super::elicit_url::UrlElicitation;
use super::other_kinds::{DeprecatedRequest, UnknownRequest};

/// Shows `ask` and hands the user's answer over as `delivery` says: at once (once), or kept
/// for a Submit that sends several together. `server` names who is asking, when known.
#[component]
pub fn InputRequestCard(
    ask: InputAsk,
    delivery: Delivery,
    #[prop(optional, into)] server: Option<String>,
) -> impl IntoView {
    let InputAsk { key, kind, json } = ask;
    let sent = RwSignal::new(None::<InputAnswer>);
    let card = NodeRef::<leptos::html::Article>::new();
    let delivery = match delivery {
        Delivery::Immediate(on_answer) => {
            Delivery::Immediate(Callback::new(move |answer: InputAnswer| {
                if sent.get_untracked().is_some() {
                    return;
                }
                sent.set(Some(answer.clone()));
                // The pressed button is hidden with the card's body: the card keeps focus.
                // Checked once the page has redrawn without it.
                request_animation_frame(move || {
                    if let Some(card) = card.try_get_untracked().flatten() {
                        crate::ui::focus::rescue_focus(&card);
                    }
                });
                on_answer.run(answer);
            }))
        }
        gathered => gathered,
    };
    let method = kind.method_name().to_owned();
    let (kind_label, body) = match kind.clone() {
        InputRequestKind::Form { message, schema } => (
            "Form",
            view! { <FormElicitation key=key.clone() message=message schema=schema delivery=delivery /> }
                .into_any(),
        ),
        InputRequestKind::Url { message, url } => (
            "Web page",
            view! { <UrlElicitation message=message url=url delivery=delivery /> }.into_any(),
        ),
        deprecated @ (InputRequestKind::Sampling | InputRequestKind::Roots) => (
            "Deprecated",
            view! { <DeprecatedRequest kind=deprecated request=json.clone() delivery=delivery /> }
                .into_any(),
        ),
        unknown => (
            "Unknown",
            view! { <UnknownRequest kind=unknown request=json.clone() delivery=delivery /> }
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
        <article
            class="input-request"
            data-key=data_key
            class:answered=move || sent.with(Option::is_some)
            node_ref=card
            tabindex="-1"
        >
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
            {move || sent.get().map(|answer| {
                // What went on the wire, as the engine shaped it for this kind of request.
                let text = answer
                    .to_response(&kind)
                    .map(|value| serde_json::to_string_pretty(&value).unwrap_or_default())
                    .unwrap_or_else(|why| why.to_string());
                view! {
                    <div class="answer-sent">
                        <p class="answer-sent-title">"Answer sent"</p>
                        <pre class="json answer-json" tabindex="0">{text}</pre>
                    </div>
                }
            })}
        </article>
    }
}
