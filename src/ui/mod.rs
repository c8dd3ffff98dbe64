//! The app's panels. Server-provided strings are always rendered as text nodes.

mod app;
mod discover_panel;
mod notice;
mod tools_panel;

pub use app::App;
pub use discover_panel::DiscoverPanel;
pub use notice::ErrorNotice;
pub use tools_panel::ToolsPanel;
