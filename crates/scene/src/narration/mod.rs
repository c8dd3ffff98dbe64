//! Every label and sentence of the scene, in one place: the English a learner reads. Wire
//! names are formatted in from the method and status types, never spelled here.

mod answers;
mod inspector;
mod legacy;
mod progress;
mod requests;
mod tasks;
mod words;

pub(crate) use answers::*;
pub(crate) use legacy::*;
pub(crate) use progress::*;
pub(crate) use requests::*;
pub(crate) use tasks::*;
