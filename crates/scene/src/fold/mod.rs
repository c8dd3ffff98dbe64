//! How each typed event of an exchange changes the scene: the conveyor dispatches it to the
//! part the exchange serves (a tray of the bay, a cartridge of the magazine), and every part
//! adds its steps to the timeline.

mod bay;
mod conveyor;
mod legacy;
mod magazine;
mod snapshot;
mod timeline;

pub use bay::PROGRESS_STEPS_LISTED;
