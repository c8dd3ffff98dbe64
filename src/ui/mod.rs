//! The app's panels. They read the [`Session`](crate::session::Session) and ask it to act;
//! what only the views care about is in [`UiState`]. Server-provided strings are always
//! rendered as text nodes.

mod app;
pub mod call;
pub mod catalog;
mod catalog_list;
pub(crate) mod chunks;
mod connection_bar;
pub mod content;
mod discover_panel;
mod dock;
mod findings;
pub(crate) mod first_screen;
pub mod focus;
pub mod forms;
pub(crate) mod frames;
pub mod history;
mod later_styles;
pub mod lessons;
pub mod library_drafts;
pub mod names;
mod notice;
mod on_demand;
pub mod prompts;
pub mod resources;
pub mod scene;
pub mod state;
pub mod tasks;
pub mod timeline;
mod tools_panel;
pub mod wire_log;

pub use app::{App, reconnect, start_session};
pub use call::CallPanel;
pub use catalog::Catalog;
pub use connection_bar::ConnectionBar;
pub use discover_panel::{DiscoverPanel, VersionNotice};
pub use dock::Dock;
pub use findings::FindingsPanel;
pub use lessons::LessonsPanel;
pub use notice::ErrorNotice;
pub use scene::Scene;
pub use state::{CallDraft, UiState, View};
pub use tasks::TasksPanel;
pub use timeline::Timeline;
pub use tools_panel::ToolsPanel;
pub use wire_log::WireLogPanel;
