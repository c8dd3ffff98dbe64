//! What a legacy server asks of the client with a request of its own (2025-11-25:
//! `elicitation/create`, `sampling/createMessage`, `roots/list`): one card each, answered
//! at once. The server waits on an open stream for each answer: on the stream of the call
//! it is handling (shown under that call), or on the session's own stream (shown above the
//! call panel, whatever is selected).

use holdbay_engine::{InputAnswer, ServerRequestEvent};
use leptos::prelude::*;

use crate::session::Session;
use crate::split::{ChunkMissing, chunk, engine_work};
use crate::ui::chunks::when_loaded;
use crate::ui::forms::{Delivery, InputRequestCard};

/// One card per request of the server's in `asks`, each answered through `answer` (which
/// takes it out of `asks`). Brought into view as one arrives: the server waits on it.
#[component]
pub fn ServerAskCards(
    asks: Signal<Vec<ServerRequestEvent>>,
    /// Where the server asked, and that it waits.
    heading: &'static str,
    answer: Callback<(ServerRequestEvent, InputAnswer)>,
) -> impl IntoView {
    let asking = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let waiting = asks.with(|asks| !asks.is_empty());
        if let (true, Some(asking)) = (waiting, asking.get()) {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            asking.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
    let cards = move || {
        asks.get()
            .into_iter()
            .map(|asked| {
                let ask = asked.ask();
                let request_id = ask.key.clone();
                let on_answer =
                    Callback::new(move |given: InputAnswer| answer.run((asked.clone(), given)));
                view! {
                    <div class="server-asks" data-request-id=request_id>
                        <p class="server-asks-head">{heading}</p>
                        <InputRequestCard ask=ask delivery=Delivery::Immediate(on_answer) />
                    </div>
                }
            })
            .collect_view()
    };
    view! { <div class="server-asking" node_ref=asking>{cards}</div> }
}

/// The requests the server sent on the legacy session's own stream, not answered yet;
/// nothing when there are none. The cards come in the engine-work chunk (the forms and the
/// readers of a server's request are not first-screen code), fetched when one first asks.
#[component]
pub fn SessionAsks() -> impl IntoView {
    let asks = Session::current().link().session_asks();
    let asking = Memo::new(move |_| asks.with(|asks| !asks.is_empty()));
    // Once fetched, the cards stay mounted (a chunked view dropped under its loading one
    // would panic); the panel is only hidden when nothing waits.
    let fetched = RwSignal::new(false);
    Effect::new(move |_| {
        if asking.get() {
            fetched.set(true);
        }
    });
    view! {
        <section
            class="panel session-asks"
            id="session-asks"
            aria-label="The server asks"
            class:hidden=move || !asking.get()
        >
            {move || fetched.get().then(|| when_loaded(async move {
                match chunk!(session_ask_cards()) {
                    Ok(cards) => cards,
                    Err(missing) => {
                        view! { <p class="error-message">{missing.to_string()}</p> }.into_any()
                    }
                }
            }))}
        </section>
    }
}

engine_work! {
    fn session_ask_cards() -> Result<AnyView, ChunkMissing> {
        let link = Session::current().link();
        let answer = Callback::new(move |(asked, given): (ServerRequestEvent, InputAnswer)| {
            link.answer_session_ask(&asked, &given);
        });
        Ok(view! {
            <ServerAskCards
                asks=link.session_asks()
                heading="The server asks on the session's own stream (a legacy session): it waits for this answer"
                answer=answer
            />
        }
        .into_any())
    }
}
