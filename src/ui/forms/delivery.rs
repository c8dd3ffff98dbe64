//! How an input card hands over the user's answer: at once (an MRTR round's card, a task's
//! single request), or gathered with the other cards of the same snapshot and sent together
//! by one Submit (a task asking for several inputs: one `tasks/update`).

use holdbay_engine::InputAnswer;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub enum Delivery {
    /// Each answer button answers, once.
    Immediate(Callback<InputAnswer>),
    /// The card keeps its current answer here (`None`: not ready yet).
    Gathered(RwSignal<Option<InputAnswer>>),
}

impl Delivery {
    pub fn is_gathered(&self) -> bool {
        matches!(self, Self::Gathered(_))
    }

    /// Hand over `answer`: send it now, or keep it as the card's answer.
    pub fn give(&self, answer: InputAnswer) {
        match self {
            Self::Immediate(callback) => callback.run(answer),
            Self::Gathered(slot) => slot.set(Some(answer)),
        }
    }
}
