//! A task's open input requests, answered in the asking card: one at once, several
//! together in one `tasks/update`.

use holdbay_engine::{InputAnswer, InputAsk, MethodId};
use leptos::prelude::*;

use crate::owner::KeepingOwner;
use crate::session::Session;
use crate::tasks::TrackedTask;
use crate::ui::chunks::{chunk, when_loaded};
use crate::ui::forms::{Delivery, InputRequestCard};

/// The requests still waiting for an answer. One is answered at once; several are
/// answered together, by one Submit, in one `tasks/update` (the engine sends it only when
/// every outstanding request of the snapshot has an answer).
#[component]
pub(super) fn InputRequests(task: Memo<Option<TrackedTask>>, task_id: String) -> impl IntoView {
    let asks = Memo::new(move |_| {
        task.with(|task| {
            task.as_ref()
                .map(|task| task.tracker().outstanding_asks())
                .unwrap_or_default()
        })
    });
    let asking = Memo::new(move |_| asks.with(|asks| !asks.is_empty()));
    // The forms are a chunk of their own, fetched when a task first asks for input.
    move || {
        let task_id = task_id.clone();
        asking
            .get()
            .then(|| when_loaded(async move { chunk!(input_cards(asks, task_id)) }))
    }
}

#[cfg_attr(holdbay_split, leptos::lazy)]
fn input_cards(asks: Memo<Vec<InputAsk>>, task_id: String) -> AnyView {
    let session = Session::current();
    let keys = Memo::new(move |_| {
        asks.with(|asks| asks.iter().map(|ask| ask.key.clone()).collect::<Vec<_>>())
    });
    let gathered = Memo::new(move |_| keys.with(Vec::len) > 1);
    (move || {
        let task_id = task_id.clone();
        if !gathered.get() {
            let view = view! {
                <div class="task-inputs">
                    <For each=move || asks.get() key=|ask| ask.key.clone() let:ask>
                        {
                            let (task_id, key) = (task_id.clone(), ask.key.clone());
                            let on_answer = Callback::new(move |answer: InputAnswer| {
                                session.answer_task(&task_id, &key, answer);
                            });
                            view! { <InputRequestCard ask=ask delivery=Delivery::Immediate(on_answer) /> }
                        }
                    </For>
                </div>
            };
            return view.into_any();
        }
        view! { <GatheredInputs asks=asks task_id=task_id /> }.into_any()
    })
    .into_any()
}

/// Several requests of one snapshot: one card each, one Submit for all of them.
#[component]
fn GatheredInputs(asks: Memo<Vec<InputAsk>>, task_id: String) -> impl IntoView {
    let session = Session::current();
    // Each card's current answer, by key (`None`: not ready). Made under this form's owner,
    // not a card's: a card can go and come back while the form stays.
    let answers: StoredValue<Vec<(String, RwSignal<Option<InputAnswer>>)>> =
        StoredValue::new(Vec::new());
    let owner = KeepingOwner::here();
    let slot = move |key: &str| {
        answers
            .try_with_value(|all| all.iter().find(|(k, _)| k == key).map(|(_, s)| *s))
            .flatten()
            .unwrap_or_else(|| {
                let made = owner.make(|| RwSignal::new(None));
                answers.try_update_value(|all| all.push((key.to_owned(), made)));
                made
            })
    };
    let ready =
        move || asks.with(|asks| asks.iter().all(|ask| slot(&ask.key).with(Option::is_some)));
    let count = move || asks.with(Vec::len);
    let submit_id = task_id.clone();
    let submit = move |_| {
        let chosen: Vec<(String, InputAnswer)> = asks.with_untracked(|asks| {
            asks.iter()
                .filter_map(|ask| Some((ask.key.clone(), slot(&ask.key).get_untracked()?)))
                .collect()
        });
        session.answer_task_together(&submit_id, chosen);
    };
    view! {
        <form
            class="task-inputs gathered"
            on:submit=move |event: leptos::ev::SubmitEvent| event.prevent_default()
        >
            <p class="gathered-intro">
                {move || format!("The task asks for {} inputs at once: answer them, then submit them together.", count())}
            </p>
            <For each=move || asks.get() key=|ask| ask.key.clone() let:ask>
                {
                    let answer = slot(&ask.key);
                    view! { <InputRequestCard ask=ask delivery=Delivery::Gathered(answer) /> }
                }
            </For>
            <div class="input-actions gathered-actions">
                <button
                    type="button"
                    class="submit-answers primary"
                    disabled=move || !ready()
                    on:click=submit
                >
                    {move || format!("Submit {} answers", count())}
                </button>
                <span class="quiet">
                    {format!("They go out together in one {}.", MethodId::UpdateTask)}
                </span>
            </div>
        </form>
    }
}
