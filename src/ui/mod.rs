//! The app's panels. Server-provided strings are always rendered as text nodes.

mod app;
pub mod call;
mod discover_panel;
pub mod forms;
mod notice;
pub mod session;
pub mod tasks;
mod tools_panel;
pub mod wire_log;

pub use app::App;
pub use call::CallPanel;
pub use discover_panel::DiscoverPanel;
pub use notice::ErrorNotice;
pub use session::Session;
pub use tasks::TasksPanel;
pub use tools_panel::ToolsPanel;
pub use wire_log::WireLogPanel;
