//! The parts of the scene, as the fold leaves them for the views to draw.

mod cartridge;
mod flight;
mod session;
mod step;
mod tray;

pub use cartridge::{CancelAsk, Cartridge, Delivery};
pub use flight::{Flight, FlightRole};
pub use session::{HeldSession, ServerAnswer, ServerAsk, SessionEnding};
pub use step::{Lane, Part, TrafficEvent};
pub use tray::{Tag, Tray, TrayProgress, TrayRound, TrayState};
