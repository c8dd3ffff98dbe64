//! The scene's fold of hand-written exchanges, each read by the engine's readers as the app's
//! wire log feeds it: what the bay, the magazine and the timeline show.

mod bay;
mod bounds;
mod failures;
mod legacy;
mod magazine;
mod never_panics;
mod session;
mod spelling;
mod wire;
